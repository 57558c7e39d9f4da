/* e2e-discord-hostile.c: the daemon on the fake Discord against a member who floods it with interactions, and a gateway that floods it with data (issue 24). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcplay.h"

/* Issue 24 (medium): every interaction was kept for its token's 15 minutes,
 * answered or not, and at 4,096 new ones were refused before the core's
 * flood check: one member's 4,110 /who silenced the bot for everyone.  Now
 * a member holds 16 at most, answered ones are forgotten when idle, and the
 * oldest settled one makes room. */
static void
test_one_members_flood_does_not_silence_the_others(void **state)
{
	struct dcplay *p;
	char body[512];
	const char *id;
	long st = 0;
	json_t *j;

	p = dcplay_setup_state(state, "dc-hostile-ia", 2, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	snprintf(body, sizeof body, "{\"kind\":\"command\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	         "\"name\":\"who\",\"options\":{},\"repeat\":4110}", p->user[0], p->guild, p->channel);
	j = fakedc_call(&p->f, "POST", "/_fake/interaction", NULL, body, &st);
	assert_int_equal(st, 200);
	json_decref(j);
	/* bob's command, after all of ann's, is answered */
	assert_non_null(id = dcplay_command(p, 1, "who", NULL));
	assert_true(dcplay_acked(p, id, 30000) >= 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* docs/RESOURCES.md: a member who is not playing fills the interaction
 * table (4,110 /who at once); the player to move is still served. */
static void
test_seated_player_served_with_the_table_full(void **state)
{
	struct dcplay *p;
	char body[512];
	const char *id;
	json_t *turn, *m;
	long st = 0;
	int who = -1;

	p = dcplay_setup_state(state, "dc-hostile-seat", 5, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	/* ann, bob, cy and dee sit down and are dealt; eve watches */
	p->nusers = 4;
	assert_non_null(turn = dcplay_deal(p, "classic rounds=1 decks=1 hand=5 foot=5", &who));
	json_decref(turn);
	p->nusers = 5;
	snprintf(body, sizeof body, "{\"kind\":\"command\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	         "\"name\":\"who\",\"options\":{},\"repeat\":4110}", p->user[4], p->guild, p->channel);
	json_decref(fakedc_call(&p->f, "POST", "/_fake/interaction", NULL, body, &st));
	assert_int_equal(st, 200);
	assert_non_null(id = dcplay_command(p, who, "hand", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Your hand", 30000));
	json_decref(m);
	assert_int_equal(dcplay_stop(p), 0);
}

/* The daemon's peak resident memory (VmHWM), in KiB; -1 if unknown. */
static long
peak_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

/* Issue 24 (low): a hostile gateway grew the daemon without bound: the
 * thread-to-loop queue had no cap, and 15 MiB dispatches took it past
 * 500 MiB in 30 s.  Capped in bytes now: the link is closed when the loop
 * falls behind, and the daemon comes back on a new one. */
static void
test_big_dispatches_do_not_grow_the_daemon(void **state)
{
	struct dcplay *p;
	const char *id;
	long kib;

	p = dcplay_setup_state(state, "dc-hostile-gw", 2, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	/* 60 dispatches of 15 MiB: 900 MiB the daemon has no use for */
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"flood\",\"size\":%d,\"count\":60}", 15 << 20),
	                 0);
	/* (the daemon reads them, or closes the link and comes back) */
	for (int i = 0; i < 40 && !e2e_daemon_log_has(&p->d, "link closed"); i++)
		e2e_sleep_ms(500);
	assert_non_null(id = dcplay_command(p, 1, "who", NULL));
	assert_true(dcplay_acked(p, id, 60000) >= 0);
	kib = peak_kib(p->d.pid);
	print_message("daemon peak RSS: %ld KiB\n", kib);
	assert_true(kib > 0 && kib < 300 * 1024);
	assert_int_equal(dcplay_stop(p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_one_members_flood_does_not_silence_the_others, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_seated_player_served_with_the_table_full, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_big_dispatches_do_not_grow_the_daemon, dcplay_teardown_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
