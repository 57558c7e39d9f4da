/* e2e-irc-hostile.c: the daemon on ngircd, at the shipped flood defaults, against strangers who flood it to take a seat, fill its tables or silence a player (issue 24). */
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

static void
write_conf_with(struct world *f, const char *irc_extra)
{
	char irc[1024];

	snprintf(irc, sizeof irc, "channels = #cards\nreconnect_max = 4\n%s", irc_extra);
	world_conf(f, "ai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\n", irc);
}

/* The bot's own flood defaults, the connection's pace quick (the bot's
 * answers are not what is looked at: at the shipped pace of a line every
 * 2 s the tests only waited longer for the same lines). */
static void
write_conf_quick(struct world *f)
{
	write_conf_with(f, "flood_burst = 20\nflood_rate = 100\n");
}

/* Waits until the server has passed on every line c sent before. */
static void
synced(struct ircclient *c, const char *tag)
{
	ircclient_send(c, "PING :%s", tag);
	assert_int_equal(ircclient_wait(c, 20000, NULL, 0, "PONG", tag, NULL), 0);
}

/* The one number a query on the daemon's database gives. */
static long
db_number(struct world *f, const char *sql)
{
	char out[256];

	int rc = e2e_sh(out, sizeof out, "sqlite3 %s \"%s\"", f->db, sql);

	if (rc != 0)
		print_error("sqlite3: %s\n", out);
	assert_int_equal(rc, 0);
	return strtol(out, NULL, 10);
}

/* alice sits at a duel, is dealt her hand, and quits while it is her turn. */
static void
alice_plays_and_quits(struct world *f)
{
	struct ircclient alice;

	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_duel_dealt(&alice);
	if (!ircclient_saw(&alice, "PRIVMSG #cards :", "alice: your turn"))
		assert_int_equal(ircclient_wait(&alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	ircclient_close(&alice);
}

/* The stranger wearing "alice" asks for her hand: no seat, no hand. */
static void
stranger_has_no_seat(struct ircclient *mallory)
{
	ircclient_send(mallory, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(mallory, 60000, NULL, 0, "PRIVMSG #cards :", "no seat", NULL), 0);
	ircclient_drain(mallory, 500);
	assert_false(ircclient_saw_hand(mallory, "alice"));
}

/* Issue 24 (high): a flood of private questions from rotating nicks pushed
 * a quit player's host record out of the newest 1,500, and whoever took her
 * nick from another host was given her seat and hand.  The records are now
 * written for seated players only, so the flood writes none (the old code
 * wrote one per nick: a flood of 4,100 flushed alice's); and a seated
 * player's nick with no record at all (as after such a flush) is worn by a
 * stranger, whatever a restart in between. */
static void
test_flood_does_not_flush_a_quit_players_record(void **state)
{
	struct world *f = *state;
	struct ircclient flooder, mallory, trudy;
	const int nicks = 8;

	write_conf_quick(f);
	world_daemon(f, "hostile-identity");
	alice_plays_and_quits(f);
	/* a third host asks !private under rotating nicks, each a DM-only stranger */
	world_client(&flooder, f, "flood0", "127.0.0.4", NULL);
	for (int i = 1; i <= nicks; i++) {
		ircclient_send(&flooder, "NICK flood%d", i);
		ircclient_send(&flooder, "PRIVMSG HandFoot :!private");
	}
	/* the server has passed every line on to the bot when it answers this */
	ircclient_send(&flooder, "PING :flood-done");
	assert_int_equal(ircclient_wait(&flooder, 20000, NULL, 0, "PONG", "flood-done", NULL), 0);
	/* (their answers go out at the pace of a stranger's, long after: the
	 * bot reads its one connection in order, so mallory's answer below
	 * comes after every one of these was handled) */
	world_client(&mallory, f, "alice", "127.0.0.3", "#cards");
	stranger_has_no_seat(&mallory);
	ircclient_close(&flooder);
	ircclient_close(&mallory);
	/* only alice, who is seated, has a record of where her lines go (the
	 * daemon holds its database alone: read once it is stopped) */
	world_daemon_stop(f);
	assert_int_equal(db_number(f, "SELECT count(*) FROM adapter_state WHERE key LIKE 'seen/%'"), 1);
	/* had her record been flushed all the same, whoever wears her nick next,
	 * from a host of their own, is still a stranger, restart or not */
	assert_int_equal(db_number(f, "DELETE FROM adapter_state WHERE key='seen/alice'; SELECT changes()"), 1);
	world_client(&trudy, f, "alice", "127.0.0.5", "#cards");
	world_daemon(f, "hostile-identity2");
	assert_int_equal(ircclient_wait(&trudy, 30000, NULL, 0, "PRIVMSG #cards :", "Back after a restart", NULL), 0);
	stranger_has_no_seat(&trudy);
	ircclient_close(&trudy);
	world_daemon_stop(f);
}

/* The flood table's set of (adapter, user) as the daemon found it until
 * issue 24: an unkeyed FNV-1a, 4096 slots in sets of 4. */
static unsigned
fnv_flood_set(const char *adapter, const char *user)
{
	uint64_t h = 1469598103934665603ull;
	const char *parts[2] = { adapter, user };

	for (int i = 0; i < 2; i++) {
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return (unsigned)((h | 1) % 1024);
}

/* Five nicks whose ids share alice's set under that hash. */
static void
colliding_with_alice(char ids[5][16])
{
	char id[32];

	for (int i = 0, n = 0; n < 5; i++) {
		snprintf(ids[n], sizeof ids[n], "m%d", i);
		snprintf(id, sizeof id, "nick:%s", ids[n]);
		if (fnv_flood_set("irc/test", id) == fnv_flood_set("irc/test", "nick:alice"))
			n++;
	}
}

/* Issue 24 (medium): a stranger silenced a chosen player.  Five nicks
 * computed offline to share alice's slot set drained their buckets and
 * rotated through it: alice was handed a drained bucket with its warning
 * given, and her commands vanished without a word.  The table is keyed with
 * a secret now, and a slot taken over starts afresh. */
static void
test_colliding_ids_do_not_silence_a_player(void **state)
{
	static const char *const topics[] = { "draw", "meld", "discard", "pickup" };
	struct world *f = *state;
	struct ircclient alice, mal;
	char ids[5][16], tag[16];

	colliding_with_alice(ids);
	write_conf_quick(f);
	world_daemon(f, "hostile-collide");
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!help hand");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "PRIVMSG #cards :", "hand", NULL), 0);
	world_client(&mal, f, "mal", "127.0.0.4", NULL);
	for (int round = 0; round < 4; round++) {
		/* each colliding nick spends its burst and more, in private */
		for (int k = 0; k < 5; k++) {
			ircclient_send(&mal, "NICK %s", ids[k]);
			for (int i = 0; i < (round == 0 ? 7 : 2); i++)
				ircclient_send(&mal, "PRIVMSG HandFoot :!private");
		}
		snprintf(tag, sizeof tag, "round%d", round);
		synced(&mal, tag);
		ircclient_send(&alice, "PRIVMSG #cards :!help %s", topics[round]);
		assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "PRIVMSG #cards :", topics[round], NULL), 0);
	}
	ircclient_close(&mal);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* Issue 24 (medium): the users table filled and newcomers were ignored.
 * Every line made an entry, one for a nick in none of the bot's channels
 * was never removed, and at 8,192 new users got nothing: 8,250 NICK +
 * NOTICE lines from one connection, and a new player's !help was never
 * answered until the bot reconnected.  Those who only speak to the bot
 * are kept in a small table now, the oldest forgotten first. */
static void
test_dm_flood_does_not_fill_the_users_table(void **state)
{
	struct world *f = *state;
	struct ircclient bob, mal;
	char tag[16];

	write_conf_quick(f);
	world_daemon(f, "hostile-users");
	world_client(&mal, f, "mal", "127.0.0.4", NULL);
	world_client(&bob, f, "bob", "127.0.0.5", NULL);
	/* (the bot in its channel first: the flood is what it sees next) */
	assert_int_equal(ircclient_join(&bob, "#cards"), 0);
	if (!ircclient_saw(&bob, ":HandFoot!", "JOIN"))
		assert_int_equal(ircclient_wait(&bob, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&bob, "PART #cards");
	assert_int_equal(ircclient_wait(&bob, 20000, NULL, 0, "PART", "#cards", NULL), 0);
	for (int i = 0; i < 8250; i++) {
		ircclient_send(&mal, "NICK n%d", i);
		ircclient_send(&mal, "NOTICE HandFoot :hello");
		if (i % 500 == 499) {
			snprintf(tag, sizeof tag, "n%d", i);
			synced(&mal, tag);
		}
	}
	synced(&mal, "done");
	/* bob, whom the bot never saw in its channel, comes (back) to play */
	assert_int_equal(ircclient_join(&bob, "#cards"), 0);
	ircclient_send(&bob, "PRIVMSG #cards :!help");
	assert_int_equal(ircclient_wait(&bob, 30000, NULL, 0, "PRIVMSG #cards :", "bob", NULL), 0);
	ircclient_close(&mal);
	ircclient_close(&bob);
	world_daemon_stop(f);
}

/* Issue 24 (smaller): anyone could change a room's !tell when no table was
 * open, for every game to come.  The room's moderators decide now (on IRC
 * its operators: alice, who made the channel). */
static void
test_stranger_cannot_change_tell(void **state)
{
	struct world *f = *state;
	struct ircclient alice, mallory;

	write_conf_quick(f);
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_daemon(f, "hostile-tell");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	world_client(&mallory, f, "mallory", "127.0.0.3", "#cards");
	ircclient_send(&mallory, "PRIVMSG #cards :!tell moves");
	assert_int_equal(ircclient_wait(&mallory, 20000, NULL, 0, "PRIVMSG #cards :", "only a moderator", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!tell moves");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "PRIVMSG #cards :", "every move as it is made", NULL),
	                 0);
	ircclient_close(&mallory);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* docs/RESOURCES.md: the bounded tables filled to their bounds at once (the
 * users of no channel past 256, private questions from rotating nicks,
 * nicks sharing the seated player's flood set under the old hash), and the
 * seated player is still served: her hand, her move. */
static void
test_seated_player_served_with_tables_full(void **state)
{
	struct world *f = *state;
	struct ircclient alice, mal;
	char ids[5][16], tag[16];

	colliding_with_alice(ids);
	write_conf_quick(f);
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_daemon(f, "hostile-full");
	world_duel_dealt(&alice);
	world_client(&mal, f, "mal", "127.0.0.4", NULL);
	for (int i = 0; i < 300; i++) {
		ircclient_send(&mal, "NICK u%d", i);
		ircclient_send(&mal, i % 10 == 0 ? "PRIVMSG HandFoot :!private" : "NOTICE HandFoot :hello");
		if (i % 100 == 99) {
			snprintf(tag, sizeof tag, "u%d", i);
			synced(&mal, tag);
		}
	}
	for (int k = 0; k < 5; k++) {
		ircclient_send(&mal, "NICK %s", ids[k]);
		for (int i = 0; i < 7; i++)
			ircclient_send(&mal, "PRIVMSG HandFoot :!private");
	}
	synced(&mal, "full");
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "NOTICE alice :Your hand", NULL), 0);
	ircclient_close(&mal);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* One ngircd for the group; each test its own database. */
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flood_does_not_flush_a_quit_players_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_colliding_ids_do_not_silence_a_player, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dm_flood_does_not_fill_the_users_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stranger_cannot_change_tell, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seated_player_served_with_tables_full, setup, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, world_setup_ngircd, world_teardown);
}
