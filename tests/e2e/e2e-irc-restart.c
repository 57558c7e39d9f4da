/* e2e-irc-restart.c: the daemon on ngircd stopped (SIGTERM) and killed (SIGKILL) in the middle of computer turns, then started again: nothing a player needs is lost. */
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
	struct ircclient alice;
};

/* One ngircd for the group; each test its own database (world_next). */
static int
group_setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);

	*state = f;
	if (f == NULL)
		return -1;
	f->alice.fd = -1;
	return world_init(&f->w, &world_ngircd);
}

static int
setup(void **state)
{
	struct fix *f = *state;

	f->alice.fd = -1;
	world_next(&f->w);
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	ircclient_close(&f->alice);
	world_daemon_kill(&f->w);
	return 0;
}

/* The daemon, paced (a line every rate ms after the first), so that lines
 * are queued when it is stopped; the computer plays ai_delay ms after a
 * person.  Its log has the lines it reads (debug), so that a test knows
 * when a command has been handled. */
static void
start_paced(struct fix *f, const char *tag, int reminder, int rate, int ai_delay)
{
	/* the clock's test wants the ping as the wait begins: no pace there */
	int burst = reminder > 0 ? 20 : 1;
	char bot[256], irc[256];

	if (reminder > 0)
		rate = 100;
	snprintf(bot, sizeof bot, "ai_delay = %d\nturn_reminder = %d\nturn_timeout = 0\nlog_level = debug\n", ai_delay,
	         reminder);
	snprintf(irc, sizeof irc, "channels = #cards\nflood_burst = %d\nflood_rate = %d\nreconnect_max = 4\n", burst, rate);
	world_run(&f->w, tag, bot, irc);
}

/* Paced as a real network would pace it (a line every 600 ms after the
 * first); the computer plays at once. */
static void
start(struct fix *f, const char *tag, int reminder)
{
	start_paced(f, tag, reminder, 600, 0);
}

static void
alice_in(struct fix *f)
{
	f->alice.pump = NULL;
	assert_int_equal(ircclient_connect(&f->alice, f->w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&f->alice, "#cards"), 0);
}

static void
wait_bot_joined(struct fix *f)
{
	assert_int_equal(ircclient_wait(&f->alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
}

/* The first card of a hand line ("Your hand (11): A×2 K ..."), as a discard takes it. */
static void
first_card(const char *line, char *card, size_t len)
{
	const char *p = strstr(line, "): ");

	assert_non_null(p);
	p += 3;
	snprintf(card, len, "%.*s", (int)strcspn(p, " \xc3"), p);   /* up to a space or "×" */
	if (strcmp(card, "3\xe2\x99\xa5") == 0)
		snprintf(card, len, "3h");
	else if (strcmp(card, "3\xe2\x99\xa6") == 0)
		snprintf(card, len, "3d");
	else if (strcmp(card, "3\xe2\x99\xa3") == 0)
		snprintf(card, len, "3c");
	else if (strcmp(card, "3\xe2\x99\xa0") == 0)
		snprintf(card, len, "3s");
}

/* Whether a line received since line from holds a and b. */
static bool
saw_since(const struct ircclient *c, size_t from, const char *a, const char *b)
{
	for (size_t i = from; i < c->nlines; i++)
		if (strstr(c->lines[i], a) != NULL && (b == NULL || strstr(c->lines[i], b) != NULL))
			return true;
	return false;
}

/* A duel against the computer; alice draws and discards, and the daemon
 * has read her discard when this returns (her turn's line is not out yet:
 * it waits for the pace, or for the computer's turn to go with it). */
static void
play_until_discard(struct fix *f)
{
	char line[2048], card[16];
	size_t at = f->alice.nlines;

	ircclient_send(&f->alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&f->alice, 30000, NULL, 0, "NOTICE alice :Your hand", NULL), 0);
	/* her turn is said in the room before her hand comes, or (the computer first) after it */
	if (!saw_since(&f->alice, at, "PRIVMSG #cards :", "alice: your turn"))
		assert_int_equal(ircclient_wait(&f->alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	ircclient_send(&f->alice, "PRIVMSG #cards :!draw");
	/* her own step, privately: "You drew 5 JK · Your hand (13): ..." */
	assert_int_equal(ircclient_wait(&f->alice, 20000, line, sizeof line, "NOTICE alice :", "Your hand (", NULL), 0);
	first_card(line, card, sizeof card);
	ircclient_send(&f->alice, "PRIVMSG #cards :!discard %s", card);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "PRIVMSG #cards :!discard", 20000), 0);
}

/* Stops the daemon with SIGTERM; true if the room heard alice's turn
 * (with what in) after the signal and before the bot's QUIT. */
static bool
stopped_saying(struct fix *f, const char *what)
{
	size_t at = f->alice.nlines, i;

	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(ircclient_wait(&f->alice, 15000, NULL, 0, ":HandFoot!", "QUIT", NULL), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	assert_false(e2e_daemon_log_has(&f->w.d, "lines unsent"));
	for (i = at; i < f->alice.nlines && strstr(f->alice.lines[i], " QUIT ") == NULL; i++)
		if (strstr(f->alice.lines[i], ":HandFoot!") != NULL && strstr(f->alice.lines[i], "PRIVMSG #cards :") != NULL &&
		    strstr(f->alice.lines[i], "alice drew ") != NULL && strstr(f->alice.lines[i], what) != NULL)
			return true;
	return false;
}

/* Started again: the room hears where it stands, and alice (to play, or
 * the computer to play and then alice) her hand, without typing. */
static void
check_resumed(struct fix *f, const char *tag)
{
	char line[2048];
	size_t at = f->alice.nlines;

	start(f, tag, 0);
	assert_int_equal(ircclient_wait(&f->alice, 30000, line, sizeof line, "PRIVMSG #cards :",
	                                 "Back after a restart", NULL), 0);
	assert_non_null(strstr(line, "round 1"));
	assert_non_null(strstr(line, " of duel."));
	/* alice to play, or the computer plays now and then alice, pinged (never the computer) */
	assert_true(strstr(line, "alice to play") != NULL || strstr(line, "plays now, then alice.") != NULL);
	/* the computer to play first: it plays, then "alice: your turn" */
	if (strstr(line, "alice to play") == NULL)
		assert_int_equal(ircclient_wait(&f->alice, 30000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	/* and her hand, without her typing (the computer's turn may come between) */
	if (!saw_since(&f->alice, at, "NOTICE alice :Your hand", NULL))
		assert_int_equal(ircclient_wait(&f->alice, 10000, NULL, 0, "NOTICE alice :Your hand", NULL), 0);
	assert_true(e2e_daemon_alive(&f->w.d));
}

/* Issue 11: "SIGTERM while computer players were moving: the bot quit at
 * once; the lines still queued were never sent, and after the restart
 * nothing said whose turn it was." */
static void
test_sigterm_sends_what_is_queued_then_resumes(void **state)
{
	struct fix *f = *state;

	alice_in(f);
	/* at the shipped pace, a line every 2 s: her private step just went */
	start_paced(f, "restart-term", 0, 2000, 0);
	wait_bot_joined(f);
	play_until_discard(f);
	/* the computer moves at once: her turn, its turn and "alice: your
	 * turn" are one line, queued for the pace when the signal comes */
	assert_true(stopped_saying(f, "discarded"));
	check_resumed(f, "restart-term2");
}

/* The same while the computer's turn is still to come (ai_delay): her
 * turn, held to go out with it, is told before the bot leaves.  The
 * signal comes within ms of her discard, so 3 s of ai_delay hold the
 * computer's turn then; longer only made the deal's first turn wait. */
static void
test_sigterm_tells_a_turn_held_for_the_computer(void **state)
{
	struct fix *f = *state;

	alice_in(f);
	start_paced(f, "restart-held", 0, 600, 3000);
	wait_bot_joined(f);
	play_until_discard(f);
	assert_true(stopped_saying(f, "discarded"));
	check_resumed(f, "restart-held2");
}

/* Issue 11: "After SIGKILL, alice's discard line and her hand were lost." */
static void
test_sigkill_loses_nothing_a_player_needs(void **state)
{
	struct fix *f = *state;

	alice_in(f);
	/* a line a second: the kill comes within ms of her discard, while her
	 * turn's line waits for the pace (the shipped 2 s is test 1's) */
	start_paced(f, "restart-kill", 0, 1000, 0);
	wait_bot_joined(f);
	/* killed while her turn's line waits for the pace */
	play_until_discard(f);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGKILL), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 128 + SIGKILL);
	/* the server notices the dead link */
	assert_int_equal(ircclient_wait(&f->alice, 30000, NULL, 0, ":HandFoot!", "QUIT", NULL), 0);
	check_resumed(f, "restart-kill2");
}

/* Issue 11: "a game stopped on 'alice: your turn' although she had typed !auto". */
static void
test_auto_is_kept_across_a_restart(void **state)
{
	struct fix *f = *state;
	char line[2048];

	alice_in(f);
	start(f, "restart-auto", 0);
	wait_bot_joined(f);
	ircclient_send(&f->alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&f->alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	ircclient_send(&f->alice, "PRIVMSG #cards :!auto");
	assert_int_equal(ircclient_wait(&f->alice, 20000, NULL, 0, "PRIVMSG #cards :", "steps away", NULL), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 15000), 0);
	start(f, "restart-auto2", 0);
	/* alice types nothing: the computer still plays her seat */
	assert_int_equal(ircclient_wait(&f->alice, 30000, line, sizeof line, "PRIVMSG #cards :", "Back after a restart",
	                                 NULL), 0);
	assert_int_equal(ircclient_wait(&f->alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice drew ", NULL), 0);
	assert_false(ircclient_saw(&f->alice, "alice: your turn", "Back after"));
}

/* Issue 11: "idle reminders and the takeover clock start again from zero at
 * each restart".  The reminder of a wait begun before a stop comes at its
 * first deadline (6 s), not 6 s after the start (the reminder's own timer:
 * the waits below let it run). */
static void
test_idle_clock_fires_at_its_deadline(void **state)
{
	struct fix *f = *state;
	int64_t waited, restarted, reminded;

	alice_in(f);
	start(f, "restart-clock", 6);
	wait_bot_joined(f);
	ircclient_send(&f->alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&f->alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	waited = ircclient_now_us();
	ircclient_drain(&f->alice, 3000);
	assert_false(ircclient_saw(&f->alice, "reminder", NULL));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 15000), 0);
	restarted = ircclient_now_us();
	start(f, "restart-clock2", 6);
	assert_int_equal(ircclient_wait(&f->alice, 30000, NULL, 0, "PRIVMSG #cards :", "alice: reminder", NULL), 0);
	reminded = ircclient_now_us();
	/* 6 s after the wait began (about 3 s after the restart, give or take
	 * the pace), where a fresh clock would say it 6 s after the restart */
	assert_true(reminded - waited < 8500000LL);
	assert_true(reminded - restarted < 5 * 1000000LL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sigterm_sends_what_is_queued_then_resumes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_tells_a_turn_held_for_the_computer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigkill_loses_nothing_a_player_needs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_auto_is_kept_across_a_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_clock_fires_at_its_deadline, setup, teardown),
	};
	return cmocka_run_group_tests_name("handfoot restarts on ngircd", tests, group_setup, world_teardown);
}
