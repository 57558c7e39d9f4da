/* e2e-irc-networks.c: the daemon on InspIRCd configured as strict as real networks: a connect class that quits a flooding client (no fake lag), channel flood modes (+f), caller id (+g). */
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

/* A client past 10 s of command penalty is quit with "Excess Flood", as
 * Solanum quits one past 20 unread lines: no fake lag to save it. */
static const char strict_class[] = "fakelag=\"no\" maxchans=\"40\"";
static const char strict_modules[] =
	"<module name=\"messageflood\">\n<module name=\"callerid\">\n<callerid maxaccepts=\"16\" tracknick=\"no\" "
	"cooldown=\"60\">\n";

/* One InspIRCd for the group; each test its own database, and clients of its own. */
static int
group_setup(void **state)
{
	static const struct world_spec strict = {
		.irc = WORLD_INSPIRCD, .connect_extra = strict_class, .conf_extra = strict_modules,
	};

	return world_setup_with(state, &strict);
}

static int
setup(void **state)
{
	world_next(*state);
	return 0;
}

static int
teardown(void **state)
{
	world_daemon_kill(*state);
	return 0;
}

/* The daemon with the shipped pace (flood_burst 5, flood_rate 2000) unless irc_extra says otherwise. */
static void
start(struct world *f, const char *tag, const char *irc_extra)
{
	char irc[4096];

	snprintf(irc, sizeof irc, "reconnect_max = 4\n%s", irc_extra);
	world_run(f, tag, "ai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = debug\n", irc);
}

/* 24 channels: their JOINs and WHOs go through the pacing, and the
 * server never quits the bot for flooding (all at once, it did). */
static void
test_many_channels_no_excess_flood(void **state)
{
	struct world *f = *state;
	struct ircclient alice;
	char chans[512] = "channels =";

	for (int i = 1; i <= 24; i++)
		snprintf(chans + strlen(chans), sizeof chans - strlen(chans), " #c%d", i);
	strcat(chans, "\n");
	alice.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, f->srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#c24"), 0);
	start(f, "networks-flood", chans);
	assert_int_equal(ircclient_wait(&alice, 90000, NULL, 0, ":HandFoot!", "JOIN", "#c24", NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->d, ": up", 90000), 0);
	ircclient_send(&alice, "PRIVMSG #c24 :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 30000, NULL, 0, " alice :Your hand", NULL), 0);
	assert_false(e2e_daemon_log_has(&f->d, "Excess Flood"));
	assert_false(e2e_daemon_log_has(&f->d, "disconnected"));
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* alice holds #cards (+o, the first in) and sets +f 5:3: five lines in
 * three seconds from one user kick them. After idle, three people ask two
 * questions each, answered in the room at once: the bot must not be
 * kicked (with the connection's burst of 5 it was). */
static void
test_channel_flood_mode_never_trips(void **state)
{
	struct world *f = *state;
	struct ircclient people[3];
	static const char *const nicks[] = { "alice", "bob", "carol" };
	size_t said = 0;

	for (int i = 0; i < 3; i++) {
		people[i].pump = NULL;
		assert_int_equal(ircclient_connect(&people[i], f->srv.port, nicks[i]), 0);
		assert_int_equal(ircclient_join(&people[i], "#cards"), 0);
	}
	ircclient_send(&people[0], "MODE #cards +f 5:3");
	assert_int_equal(ircclient_wait(&people[0], 10000, NULL, 0, "MODE #cards +f", NULL), 0);
	start(f, "networks-flood-mode", "channels = #cards\n");
	assert_int_equal(ircclient_wait(&people[0], 60000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->d, ": up", 60000), 0);
	/* idle: every bucket full (the daemon's own refill, 5 lines at the
	 * shipped 2 s: this wait lets that timer run) */
	ircclient_drain(&people[0], 12000);
	for (int i = 0; i < 3; i++) {
		ircclient_send(&people[i], "PRIVMSG #cards :!stats");
		ircclient_send(&people[i], "PRIVMSG #cards :!table");
	}
	ircclient_drain(&people[1], 100);
	ircclient_drain(&people[2], 100);
	/* the six answers, one line each, paced: a KICK for flooding would
	 * come before the last of them (kicked, the bot cannot say it) */
	for (int waited = 0; said < 6 && waited < 150; waited++) {
		ircclient_drain(&people[0], 100);
		said = 0;
		for (size_t i = 0; i < people[0].nlines; i++)
			said += people[0].lines[i] != NULL && strstr(people[0].lines[i], ":HandFoot!") != NULL &&
			        strstr(people[0].lines[i], "PRIVMSG #cards :") != NULL;
	}
	assert_false(ircclient_saw(&people[0], "KICK #cards HandFoot", NULL));
	assert_true(said >= 6);
	for (int i = 0; i < 3; i++)
		ircclient_close(&people[i]);
	world_daemon_stop(f);
}

/* InspIRCd's callerid (+g) answers the bot's PRIVMSG with 716, its +R
 * (services_account) with 477 naming the nick: each player is told in
 * their room how to get their hand. (CALLERID in ISUPPORT: hands go by
 * PRIVMSG, since a NOTICE to a +g user may vanish without a word.) */
static void
test_refused_hands_told(void **state)
{
	struct world *f = *state;
	struct ircclient alice, bob;

	alice.pump = bob.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, f->srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	ircclient_send(&alice, "MODE alice +g");
	assert_int_equal(ircclient_connect(&bob, f->srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&bob, "#cards2"), 0);
	ircclient_send(&bob, "MODE bob +R");
	start(f, "networks-refused", "channels = #cards, #cards2\nflood_rate = 500\n");
	assert_int_equal(ircclient_wait(&bob, 60000, NULL, 0, ":HandFoot!", "JOIN", "#cards2", NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->d, ": up", 60000), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!play 2 duel");
	ircclient_send(&bob, "PRIVMSG #cards2 :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 30000, NULL, 0, "PRIVMSG #cards :alice: your private line did not reach you",
	                                "/accept HandFoot", NULL), 0);
	assert_int_equal(ircclient_wait(&bob, 30000, NULL, 0, "PRIVMSG #cards2 :bob: your private line did not reach you",
	                                "-R", NULL), 0);
	assert_false(ircclient_saw(&alice, "alice :Your hand", NULL));
	ircclient_close(&bob);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_many_channels_no_excess_flood, setup, teardown),
		cmocka_unit_test_setup_teardown(test_channel_flood_mode_never_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_hands_told, setup, teardown),
	};
	return cmocka_run_group_tests(tests, group_setup, world_teardown);
}
