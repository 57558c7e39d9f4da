/* test-stats.c: !stats by name or id: a name two players share is said to be ambiguous, with their ids to pick by. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake.h"

/* user, shown as name, says text in room. */
static void
say_as(struct fake *f, const char *room, const char *user, const char *name, const char *text)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = room, .user_id = user, .user_name = name, .text = text };

	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

/* One short game to its end for user, so that they have a record. */
static void
finish_game(struct fake *f, const char *room, const char *user, const char *name)
{
	say_as(f, room, user, name, "!play 2 duel rounds=1");
	say_as(f, room, user, name, "!auto");
	assert_true(fake_play_out(f, room, 200000));
}

static void
test_shared_name_is_ambiguous(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	const struct fake_msg *m;

	(void)state;
	finish_game(f, "#a", "acct:alice", "alice");
	finish_game(f, "#b", "nick:alice2", "Alice");
	finish_game(f, "#b", "nick:alice2", "Alice");
	finish_game(f, "#c", "acct:bob", "bob");

	/* two players called alice: neither is picked for the other */
	fake_clear(f);
	say_as(f, "#c", "acct:bob", "bob", "!stats alice");
	assert_non_null(m = fake_find(f, "2 players are called"));
	assert_non_null(strstr(m->text, "nick:alice2 (2 games)"));
	assert_non_null(strstr(m->text, "acct:alice (1 game)"));
	assert_non_null(strstr(m->text, "Ask for one by id: !stats nick:alice2"));
	assert_null(fake_find(f, "won,"));
	/* by id, each is found */
	fake_clear(f);
	say_as(f, "#c", "acct:bob", "bob", "!stats acct:alice");
	assert_non_null(fake_find(f, "alice: 1 game, "));
	say_as(f, "#c", "acct:bob", "bob", "!stats nick:alice2");
	assert_non_null(fake_find(f, "Alice: 2 games, "));
	/* a name one player has, in any case, and oneself */
	fake_clear(f);
	say_as(f, "#c", "acct:alice", "alice", "!stats BOB");
	assert_non_null(fake_find(f, "bob: 1 game, "));
	/* the same answer to the same room within a minute is said once (issue 16) */
	fake_advance(f, 61000);
	say_as(f, "#c", "acct:alice", "alice", "!stats");
	assert_non_null(fake_find(f, "alice: 1 game, "));
	say_as(f, "#c", "acct:bob", "bob", "!stats carol");
	assert_non_null(fake_find(f, "No finished games for carol yet."));
	fake_free(f);
}

/* "nick:x" on two networks is two people: one record each (issue 24: they
 * shared one row). */
static void
test_same_id_on_two_adapters_two_records(void **state)
{
	char err[256];
	struct store *st = store_open(":memory:", err, sizeof err);
	struct store_stats out;

	(void)state;
	assert_non_null(st);
	assert_int_equal(store_stats_add(st, "irc/libera", "nick:x", "x", 1, 500), 0);
	assert_int_equal(store_stats_add(st, "irc/oftc", "nick:x", "x", 0, 100), 0);
	assert_int_equal(store_stats_add(st, "irc/oftc", "nick:x", "x", 0, 100), 0);
	assert_int_equal(store_stats_get(st, "irc/libera", "nick:x", &out), 0);
	assert_int_equal(out.games, 1);
	assert_int_equal(out.wins, 1);
	assert_int_equal(store_stats_get(st, "irc/oftc", "nick:x", &out), 0);
	assert_int_equal(out.games, 2);
	assert_int_equal(out.wins, 0);
	store_close(st);
}

/* A database of before: each record goes to the adapter of its player's last
 * game kept, or waits for the first adapter the id finishes a game on. */
static void
test_old_records_migrated(void **state)
{
	char db[] = "/tmp/hf-stats-XXXXXX", cmd[1024], err[256];
	int fd = mkstemp(db);
	struct store *st;
	struct store_stats out;

	(void)state;
	close(fd);
	snprintf(cmd, sizeof cmd, "sqlite3 %s \"CREATE TABLE stats(user_id TEXT PRIMARY KEY, name TEXT NOT NULL,"
	         " games INTEGER NOT NULL, wins INTEGER NOT NULL, points INTEGER NOT NULL);"
	         " INSERT INTO stats VALUES('nick:ann','ann',3,1,900),('nick:old','old',2,2,800);"
	         " CREATE TABLE games(id INTEGER PRIMARY KEY, adapter TEXT NOT NULL, room TEXT NOT NULL,"
	         " rules TEXT NOT NULL, nplayers INTEGER NOT NULL, nsides INTEGER NOT NULL, seed INTEGER NOT NULL,"
	         " owner TEXT NOT NULL, state TEXT NOT NULL, created INTEGER NOT NULL);"
	         " CREATE TABLE seats(game INTEGER NOT NULL, seat INTEGER NOT NULL, user_id TEXT NOT NULL,"
	         " name TEXT NOT NULL, team INTEGER NOT NULL, ai INTEGER NOT NULL, PRIMARY KEY(game, seat));"
	         " INSERT INTO games VALUES(1,'irc/libera','#c','duel',2,2,1,'nick:ann','over',0);"
	         " INSERT INTO seats VALUES(1,0,'nick:ann','ann',-1,-1);\" >/dev/null 2>&1", db);
	if (system(cmd) != 0)
		skip();
	assert_non_null(st = store_open(db, err, sizeof err));
	assert_int_equal(store_stats_get(st, "irc/libera", "nick:ann", &out), 0);
	assert_string_equal(out.adapter, "irc/libera");
	assert_int_equal(out.games, 3);
	assert_int_equal(store_stats_get(st, "irc/oftc", "nick:ann", &out), -1);
	/* no game of nick:old is kept: its record waits, and goes with its next game */
	assert_int_equal(store_stats_get(st, "irc/oftc", "nick:old", &out), 0);
	assert_int_equal(store_stats_add(st, "irc/oftc", "nick:old", "old", 1, 100), 0);
	assert_int_equal(store_stats_get(st, "irc/oftc", "nick:old", &out), 0);
	assert_string_equal(out.adapter, "irc/oftc");
	assert_int_equal(out.games, 3);
	store_close(st);
	unlink(db);
}

/* A finished game rates its players per rule set (the computer by its
 * level, never listed in !top); an aborted one changes no rating. */
static void
test_ratings(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	const struct fake_msg *m;
	char before[2048];

	(void)state;
	say_as(f, "#a", "acct:alice", "alice", "!top duel");
	assert_non_null(fake_find(f, "No rated games of duel yet."));
	finish_game(f, "#a", "acct:alice", "alice");
	fake_clear(f);
	say_as(f, "#a", "acct:alice", "alice", "!stats");
	assert_non_null(m = fake_find(f, " Rating: duel "));
	assert_non_null(strstr(m->text, " (1 game)."));
	snprintf(before, sizeof before, "%s", m->text);
	say_as(f, "#a", "acct:alice", "alice", "!top DUEL");
	assert_non_null(m = fake_find(f, "Top of duel: 1. alice "));
	assert_null(strstr(m->text, "computer"));
	/* with no table here, the rule set most played; the table's if there is one */
	fake_clear(f);
	say_as(f, "#a", "acct:alice", "alice", "!top");
	assert_non_null(fake_find(f, "Top of duel: 1. alice "));
	say_as(f, "#c", "acct:alice", "alice", "!new classic");
	say_as(f, "#c", "acct:alice", "alice", "!top");
	assert_non_null(fake_find(f, "No rated games of classic yet."));
	say_as(f, "#c", "acct:alice", "alice", "!abort");
	say_as(f, "#a", "acct:alice", "alice", "!top nosuch");
	assert_non_null(m = fake_find(f, "No rule set is called nosuch: ask for one of "));
	assert_non_null(strstr(m->text, "duel"));
	/* an aborted game is no result */
	say_as(f, "#b", "acct:alice", "alice", "!play 2 duel rounds=1");
	say_as(f, "#b", "acct:alice", "alice", "!abort");
	assert_null(fake_session(f, "#b"));
	fake_clear(f);
	fake_advance(f, 61000);
	say_as(f, "#a", "acct:alice", "alice", "!stats");
	assert_non_null(m = fake_find(f, " Rating: duel "));
	assert_string_equal(strstr(m->text, " Rating:"), strstr(before, " Rating:"));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_name_is_ambiguous),
		cmocka_unit_test(test_ratings),
		cmocka_unit_test(test_same_id_on_two_adapters_two_records),
		cmocka_unit_test(test_old_records_migrated),
	};

	return cmocka_run_group_tests_name("!stats and shared names", tests, NULL, NULL);
}
