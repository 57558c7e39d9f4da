/* bench-discord-flood.c: the pace of a Discord channel under a flood, through the real daemon and the fake Discord (5 channel lines in 5 s): a table the computer plays, one user typing 200 commands at once, a stranger asking !pile every 3 s; each figure beside its target. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcplay.h"
#include "figures.h"

#define FLOOD      200
#define ASK_MS     3000     /* cy asks this often */
#define GIVE_UP_MS 20000    /* an answer not seen in this long: lost (or not sent again) */
#define MAXS       256

static int64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile (nearest rank) of n samples, in seconds; -1 if none. */
static double
pct(int64_t *v, int n, double p)
{
	int i;

	if (n == 0)
		return -1;
	qsort(v, (size_t)n, sizeof v[0], cmp_i64);
	i = (int)(p / 100.0 * n + 0.999) - 1;
	i = i < 0 ? 0 : i >= n ? n - 1 : i;
	return (double)v[i] / 1000.0;
}

static int failures;

/* A figure beside its target, printed and written with the others (figures.h). */
static void
figure(const char *what, double value, const char *unit, double target, bool at_most)
{
	if (!figure_add("bench-discord-flood", what, value, unit, at_most ? FIGURE_AT_MOST : FIGURE_AT_LEAST, target))
		failures++;
}

/* The channel's lines for everyone from *from on: how many tell a turn
 * played ("discarded"), and whether one is a pile answer; *from moves on. */
static void
scan(struct dcplay *p, size_t *from, int *turns, bool *pile)
{
	json_t *s = dcplay_state(p), *msgs = json_object_get(s, "messages");

	for (; *from < json_array_size(msgs); (*from)++) {
		json_t *m = json_array_get(msgs, *from);
		const char *content = json_string_value(json_object_get(m, "content"));
		const char *via = json_string_value(json_object_get(m, "via"));

		if (content == NULL || via == NULL || strcmp(via, "channel") != 0 || !dcplay_public(m, NULL))
			continue;
		if (strncmp(content, "Pile:", 5) == 0)
			*pile = true;
		else if (strstr(content, "discarded") != NULL)
			(*turns)++;
	}
	json_decref(s);
}

/* Runs the game for ms, cy asking if ask; her answers' waits into wait[]. */
static void
run(struct dcplay *p, size_t *from, int64_t ms, bool ask, int *turns, int64_t *wait, int *nwait, int *asked, int *lost,
    int64_t *first)
{
	int64_t end = now_ms() + ms, t_query = -1, next = now_ms();

	while (now_ms() < end || t_query >= 0) {
		bool pile = false;

		scan(p, from, turns, &pile);
		if (t_query >= 0 && pile) {
			if (*first < 0)
				*first = now_ms() - t_query;
			if (*nwait < MAXS)
				wait[(*nwait)++] = now_ms() - t_query;
			t_query = -1;
		} else if (t_query >= 0 && now_ms() - t_query > GIVE_UP_MS) {
			(*lost)++;
			t_query = -1;
		}
		if (ask && t_query < 0 && now_ms() < end && now_ms() >= next) {
			dcplay_say(p, 2, "!pile");
			t_query = next = now_ms();
			next += ASK_MS;
			(*asked)++;
		}
		e2e_sleep_ms(50);
	}
}

int
main(void)
{
	static const char *const cmds[] = { "!table", "!who", "!score", "!help", "!rules", "!hand", "!draw", "!stats",
	                                    "!top", "!nonsense" };
	struct dcplay *p = calloc(1, sizeof *p);
	int secs = getenv("BENCH_DC_FLOOD_SECS") != NULL ? atoi(getenv("BENCH_DC_FLOOD_SECS")) : 60;
	/* BENCH_DC_FLOOD_OPEN: the core's flood control opened wide, so that
	 * every one of dee's commands is answered (the lanes' work alone) */
	bool open = getenv("BENCH_DC_FLOOD_OPEN") != NULL;
	int turns_before = 0, turns_flood = 0, nwait = 0, asked = 0, lost = 0, who, rc = 1;
	int64_t wait[MAXS], first = -1, t0;
	size_t from;
	const char *id;
	json_t *m;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("== Discord, the fake (5 channel lines in 5 s): a table of two players on !auto and two computers, dee "
	       "typing %d commands at once%s, cy (seated nowhere) typing !pile every 3 s; %d s from the flood on\n", FLOOD,
	       open ? " (the core's flood control opened wide)" : "", secs);
	if (p == NULL ||
	    dcplay_setup(p, "bench-dc-flood", 4, open ? "flood_burst = 1000\nflood_refill = 10" : NULL,
	                 "message_commands = yes") != 0 ||
	    fakedc_ctl(&p->f, "config", "{\"privileged\":[15]}") != 0 || dcplay_start(p) != 0)
		goto out;
	if ((id = dcplay_command(p, 0, "new", "{\"rules\":\"classic\"}")) == NULL || (m = dcplay_reply(p, id, "opens", 10000)) == NULL)
		goto out;
	json_decref(m);
	if ((id = dcplay_command(p, 1, "join", NULL)) == NULL || (m = dcplay_reply(p, id, "sits down", 10000)) == NULL)
		goto out;
	json_decref(m);
	for (int i = 0; i < 2; i++)
		if ((id = dcplay_command(p, 0, "bot", "{\"what\":\"add\"}")) == NULL || dcplay_acked(p, id, 5000) < 0)
			goto out;
	from = dcplay_count(p);
	if (dcplay_command(p, 0, "start", NULL) == NULL || (m = dcplay_turn_line(p, from, &who, 15000)) == NULL)
		goto out;
	json_decref(m);
	for (int i = 0; i < 2; i++)
		if ((id = dcplay_command(p, i, "auto", NULL)) == NULL || dcplay_acked(p, id, 5000) < 0)
			goto out;
	from = dcplay_count(p);
	/* the game alone, then with cy asking: what the table gets without a flood */
	run(p, &from, 20000, false, &turns_before, wait, &nwait, &asked, &lost, &first);
	t0 = now_ms();
	for (int i = 0; i < FLOOD; i++)
		dcplay_say(p, 3, cmds[i % (sizeof cmds / sizeof cmds[0])]);
	printf("  dee's %d commands typed in %.1f s\n", FLOOD, (double)(now_ms() - t0) / 1000);
	run(p, &from, (int64_t)secs * 1000, true, &turns_flood, wait, &nwait, &asked, &lost, &first);
	printf("  cy asked %d times: %d answered, %d not seen in %d s (not sent again: unchanged, or lost)\n", asked,
	       nwait, lost, GIVE_UP_MS / 1000);
	printf("  turns told: %d in the 20 s before the flood (%.1f a minute), %d in the %d s after (%.1f a minute)\n",
	       turns_before, turns_before * 3.0, turns_flood, secs, turns_flood * 60.0 / secs);
	figure("first answer after the flood, cy's !pile", first >= 0 ? (double)first / 1000 : -1, "s", 5, true);
	figure("a stranger's answers under the flood (cy's !pile), p95", pct(wait, nwait, 95), "s", 5, true);
	printf("  (p50 %.1f s, max %.1f s)\n", pct(wait, nwait, 50), pct(wait, nwait, 100));
	figure("the games' turns under the flood, share of before", turns_before > 0 ?
	       (turns_flood * 60.0 / secs) / (turns_before * 3.0) : -1, "", 0.5, false);
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-discord-flood: the scenario failed (daemon log: %s)\n", p != NULL ? p->d.log : "?");
	if (p != NULL)
		dcplay_teardown(p);
	free(p);
	printf("bench-discord-flood: %d figure%s off target\n", failures, failures == 1 ? "" : "s");
	return rc != 0 || failures > 0;
}
