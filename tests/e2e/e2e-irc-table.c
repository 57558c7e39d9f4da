/* e2e-irc-table.c: a table as people sit at it, through ngircd at the shipped defaults: alice and bob partners against two computer players, playing by their hints, carol asking beside them; every command answered, the room's story in order, a SIGKILL mid-turn losing no move of it. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"

struct fix {
	struct world w;                 /* first: world_teardown frees it all */
	struct ircclient c[3];          /* alice, bob, carol */
	int asked, answered;            /* carol's questions, and the bot's answers to them */
	int hints, hinted;              /* !hint asked by alice and bob, and hints received */
	size_t seen[3];                 /* lines of each client looked at */
};

static const char *const nicks[] = { "alice", "bob", "carol" };

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);

	*state = f;
	if (f == NULL)
		return -1;
	for (int i = 0; i < 3; i++)
		f->c[i].fd = -1;
	return world_init(&f->w, &world_ngircd);
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	for (int i = 0; f != NULL && i < 3; i++)
		ircclient_close(&f->c[i]);
	return world_teardown(state);
}

/* At the shipped defaults: only what a test must set (where, and a log that shows what was read). */
static void
start(struct fix *f, const char *tag)
{
	world_run(&f->w, tag, "log_level = debug\n", "channels = #cards\n");
	assert_int_equal(ircclient_wait(&f->c[2], 30000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
}

/* The text of a line after "PRIVMSG #cards :" or "NOTICE nick :", mIRC codes dropped. */
static void
text_of(const char *line, const char *what, char *out, size_t len)
{
	const char *p = strstr(line, what);
	size_t o = 0;

	p = p != NULL ? p + strlen(what) : line;
	for (; *p != '\0' && *p != '\r' && *p != '\n' && o + 1 < len; p++) {
		if (*p == 0x02 || *p == 0x0f || *p == 0x1d || *p == 0x1f || *p == 0x16)
			continue;
		if (*p == 0x03) {
			while (p[1] >= '0' && p[1] <= '9')
				p++;
			if (p[1] == ',' && p[2] >= '0' && p[2] <= '9')
				for (p++; p[1] >= '0' && p[1] <= '9'; p++)
					;
			continue;
		}
		out[o++] = *p;
	}
	out[o] = '\0';
}

static void
pump(struct fix *f, int ms)
{
	for (int i = 0; i < 3; i++)
		ircclient_drain(&f->c[i], i == 2 ? ms : 1);
}

/* The room's story as carol heard it: the actors of the turn lines, in
 * order, follow the seats round (a new round starts afresh); a "Pile: X"
 * answer never shows a discard the room has not been told. */
struct story {
	char seats[4][64];
	int nseats, last;               /* the seat of the last turn told, -1 none */
	char discard[16];               /* the last discard told */
	int turns, violations;
};

static int
story_seat(const struct story *st, const char *name)
{
	for (int i = 0; i < st->nseats; i++)
		if (strcmp(st->seats[i], name) == 0)
			return i;
	return -1;
}

static void
story_line(struct story *st, const char *t)
{
	const char *p;
	char name[64];

	if ((p = strstr(t, "Dealing classic for 4: ")) != NULL) {
		/* "alice & bob vs Ada[bot] & Alan[bot]": seats alternate sides */
		char a[64], b[64], c[64], d[64];

		assert_int_equal(sscanf(p + strlen("Dealing classic for 4: "), "%63s & %63s vs %63s & %63[^.]", a, b, c, d), 4);
		snprintf(st->seats[0], 64, "%s", a);
		snprintf(st->seats[1], 64, "%s", c);
		snprintf(st->seats[2], 64, "%s", b);
		snprintf(st->seats[3], 64, "%s", d);
		st->nseats = 4;
		st->last = -1;
	}
	if (strstr(t, " deals, ") != NULL)
		st->last = -1;
	if (strncmp(t, "Pile: ", 6) == 0 && st->discard[0] != '\0' && strncmp(t + 6, st->discard, strlen(st->discard)) != 0 &&
	    strncmp(t + 6, "empty", 5) != 0) {
		printf("  story: \"%s\" before the room heard that card discarded (last: %s)\n", t, st->discard);
		st->violations++;
	}
	/* each turn a part of its own ("A drew ..., discarded 4 | B laid out a
	 * red 3, took the pile ..."), beginning with its player's name */
	for (p = t; p != NULL; p = strstr(p, " | ") != NULL ? strstr(p, " | ") + 3 : NULL) {
		size_t n = strcspn(p, " ");
		const char *end = strstr(p, " | ");
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		int seat;

		if (n == 0 || n >= sizeof name)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)n, p);
		if ((seat = story_seat(st, name)) < 0 ||
		    (memmem(p, len, " drew ", 6) == NULL && memmem(p, len, " took the pile", 14) == NULL))
			continue;
		if (st->last >= 0 && seat != (st->last + 1) % st->nseats) {
			printf("  story: %s's turn told after %s's\n", name, st->seats[st->last]);
			st->violations++;
		}
		st->last = seat;
		st->turns++;
	}
	if ((p = strstr(t, "discarded ")) != NULL) {
		const char *last = p;

		while ((p = strstr(p + 1, "discarded ")) != NULL)
			last = p;
		snprintf(st->discard, sizeof st->discard, "%.*s", (int)strcspn(last + 10, " ,·"), last + 10);
	}
}

/* Lines carol has heard since last looked at, into the story; carol's answers counted. */
static void
story_read(struct fix *f, struct story *st)
{
	char t[2048];

	for (; f->seen[2] < f->c[2].nlines; f->seen[2]++) {
		const char *l = f->c[2].lines[f->seen[2]];

		if (strstr(l, ":HandFoot!") == NULL || strstr(l, "PRIVMSG #cards :") == NULL)
			continue;
		text_of(l, "PRIVMSG #cards :", t, sizeof t);
		if (getenv("STORY"))
			printf("  | %s\n", t);
		story_line(st, t);
		if (strncmp(t, "Pile: ", 6) == 0 || strstr(t, "no round scored yet") != NULL ||
		    strncmp(t, "After ", 6) == 0 || strncmp(t, "classic, round", 14) == 0 ||
		    strstr(t, "carol: the same as") != NULL)
			f->answered++;
	}
}

/* carol asks one question. */
static void
carol_asks(struct fix *f, int k)
{
	static const char *const q[] = { "!pile", "!score", "!who" };

	ircclient_send(&f->c[2], "PRIVMSG #cards :%s", q[k % 3]);
	f->asked++;
}

/* Waits for a new private line to player i holding needle; its text. */
static bool
private_line(struct fix *f, int i, const char *needle, char *out, size_t len, int ms)
{
	char want[64];

	snprintf(want, sizeof want, "NOTICE %s :", nicks[i]);
	for (int t = 0; t < ms; t += 100) {
		for (; f->seen[i] < f->c[i].nlines; f->seen[i]++) {
			const char *l = f->c[i].lines[f->seen[i]];

			if (strstr(l, ":HandFoot!") != NULL && strstr(l, want) != NULL && strstr(l, needle) != NULL) {
				text_of(l, want, out, len);
				f->seen[i]++;
				return true;
			}
		}
		ircclient_drain(&f->c[i], 100);
	}
	return false;
}

/* How many times the daemon's log has needle. */
static int
log_count(struct fix *f, const char *needle)
{
	char *log = e2e_read_file(f->w.d.log), *p;
	int n = 0;

	for (p = log; p != NULL && (p = strstr(p, needle)) != NULL; p++)
		n++;
	free(log);
	return n;
}

/* Player i plays what their hints say until their turn (or answer) is done; false if a command was refused. */
static bool
play_by_hints(struct fix *f, int i, bool kill_after_discard)
{
	char hint[2048], *p, *end, *cmd;
	bool again = true;

	for (int round = 0; again && round < 6; round++) {
		ircclient_send(&f->c[i], "PRIVMSG #cards :!hint");
		f->hints++;
		if (!private_line(f, i, "hint: ", hint, sizeof hint, 30000))
			return false;
		f->hinted++;
		if (strstr(hint, "nothing to do now") != NULL)
			return true;
		again = strstr(hint, ", then !hint again") != NULL;
		if ((end = strstr(hint, ", then !hint again")) != NULL)
			*end = '\0';
		if ((end = strstr(hint, " (")) != NULL)
			*end = '\0';
		for (p = hint + strlen("hint: "); p != NULL; p = end) {
			cmd = p;
			if ((end = strstr(p, " · ")) != NULL) {
				*end = '\0';
				end += strlen(" · ");
			}
			int was = log_count(f, "seat 0: discard");

			ircclient_send(&f->c[i], "PRIVMSG #cards :%s", cmd);
			/* alice's discard committed (logged as it is stored): the kill comes now */
			for (int w = 0; kill_after_discard && strncmp(cmd, "!discard", 8) == 0 && w < 20000 &&
			                log_count(f, "seat 0: discard") == was; w += 20)
				e2e_sleep_ms(20);
		}
		if (again) {
			/* the step's private line: "You drew ..." */
			char step[2048];

			if (!private_line(f, i, "You ", step, sizeof step, 30000))
				return false;
		}
	}
	return true;
}

/* The next room line asking alice or bob to act (after seen); who, or -1 after ms. */
static int
next_prompt(struct fix *f, struct story *st, size_t *from, int ms)
{
	char t[2048];

	for (int w = 0; w < ms; w += 200) {
		pump(f, 200);
		story_read(f, st);
		for (; *from < f->c[2].nlines; (*from)++) {
			const char *l = f->c[2].lines[*from];

			if (strstr(l, ":HandFoot!") == NULL || strstr(l, "PRIVMSG #cards :") == NULL)
				continue;
			text_of(l, "PRIVMSG #cards :", t, sizeof t);
			for (int i = 0; i < 2; i++) {
				char a[64], b[64];

				snprintf(a, sizeof a, "%s: your turn", nicks[i]);
				snprintf(b, sizeof b, "%s: may ", nicks[i]);
				if (strstr(t, a) != NULL || strstr(t, b) != NULL ||
				    (strstr(t, "Back after a restart") != NULL && strstr(t, nicks[i]) != NULL &&
				     strstr(t, "plays now") == NULL)) {
					(*from)++;
					return i;
				}
			}
		}
	}
	return -1;
}

/* Refusals to alice or bob: a hint typed as given must never be refused. */
static int
refusals(struct fix *f)
{
	int n = 0;

	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < f->c[i].nlines; k++)
			if (strstr(f->c[i].lines[k], ":HandFoot!") != NULL && strstr(f->c[i].lines[k], " refused") != NULL) {
				printf("  refused: %s\n", f->c[i].lines[k]);
				n++;
			}
	return n;
}

static void
test_partners_play_carol_asks_sigkill(void **state)
{
	struct fix *f = *state;
	struct story st = { .last = -1 };
	size_t from = 0, before_kill;
	int turns = 0, who, k = 0;
	char t[2048];
	bool told = false, back = false;

	for (int i = 0; i < 3; i++) {
		f->c[i].pump = NULL;
		assert_int_equal(ircclient_connect(&f->c[i], f->w.srv.port, nicks[i]), 0);
		assert_int_equal(ircclient_join(&f->c[i], "#cards"), 0);
	}
	start(f, "table");
	ircclient_send(&f->c[0], "PRIVMSG #cards :!play classic with bob");
	assert_int_equal(ircclient_wait(&f->c[2], 20000, NULL, 0, "PRIVMSG #cards :", "asks you to partner", NULL), 0);
	ircclient_send(&f->c[1], "PRIVMSG #cards :!play");
	assert_int_equal(ircclient_wait(&f->c[2], 20000, t, sizeof t, "PRIVMSG #cards :", "Dealing classic for 4: ",
	                                 NULL), 0);
	assert_non_null(strstr(t, "alice & bob vs "));
	/* six turns of the partners, carol asking after each */
	while (turns < 6) {
		if ((who = next_prompt(f, &st, &from, 90000)) < 0)
			fail_msg("nobody was asked to play");
		assert_true(play_by_hints(f, who, false));
		carol_asks(f, k++);
		turns++;
	}
	/* alice's next turn: killed right after the daemon read her discard */
	while ((who = next_prompt(f, &st, &from, 90000)) != 0)
		if (who < 0)
			fail_msg("alice was never asked to play");
		else
			assert_true(play_by_hints(f, who, false));
	assert_true(play_by_hints(f, 0, true));
	before_kill = f->c[2].nlines;
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGKILL), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 128 + SIGKILL);
	assert_int_equal(ircclient_wait(&f->c[2], 30000, NULL, 0, ":HandFoot!", "QUIT", NULL), 0);
	start(f, "table2");
	assert_int_equal(ircclient_wait(&f->c[2], 60000, NULL, 0, "PRIVMSG #cards :", "Back after a restart", NULL), 0);
	/* alice's turn, committed but held for the computer's when killed, is
	 * told after the start and before "Back after a restart" */
	for (size_t i = before_kill; i < f->c[2].nlines; i++) {
		const char *l = f->c[2].lines[i];

		if (strstr(l, "PRIVMSG #cards :") == NULL)
			continue;
		if (strstr(l, "Back after a restart") != NULL) {
			back = true;
			break;
		}
		if ((strstr(l, "alice drew ") != NULL || strstr(l, "alice took the pile") != NULL) &&
		    strstr(l, "discarded") != NULL)
			told = true;
	}
	assert_true(back);
	assert_true(told);
	/* and play goes on: four more turns of the partners */
	for (turns = 0; turns < 4;) {
		if ((who = next_prompt(f, &st, &from, 90000)) < 0)
			fail_msg("nobody was asked to play after the restart");
		assert_true(play_by_hints(f, who, false));
		carol_asks(f, k++);
		turns++;
	}
	/* until carol's last answer is in (it goes in the room's lane behind
	 * every room line queued before it), 60 s at most at the pace */
	for (int w = 0; w < 60000 && f->answered < f->asked; w += 200) {
		pump(f, 200);
		story_read(f, &st);
	}
	printf("  %d turns told, %d hints asked and %d received, carol asked %d and heard %d answers, %d out of order\n",
	       st.turns, f->hints, f->hinted, f->asked, f->answered, st.violations);
	assert_int_equal(f->hinted, f->hints);
	assert_true(f->answered >= f->asked);
	assert_int_equal(st.violations, 0);
	assert_int_equal(refusals(f), 0);
	assert_true(e2e_daemon_alive(&f->w.d));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_partners_play_carol_asks_sigkill, setup, teardown),
	};
	return cmocka_run_group_tests_name("a table of partners on ngircd", tests, NULL, NULL);
}
