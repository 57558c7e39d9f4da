/* test-rerate.c: the games finished before ratings, rated at the upgrade: the same ratings as live play gives, kept scores or moves replayed, aborted games never. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "fake.h"

/* game_retention = 0: an aborted game stays in the store, as an old one may */
#define CONF "flood_burst = 100\ngame_retention = 0"

static void
say_as(struct fake *f, const char *room, const char *user, const char *text)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = room, .user_id = user, .user_name = user, .text = text };

	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

static void
finish_game(struct fake *f, const char *room, const char *user, const char *rules)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "!play 2 %s rounds=1", rules);
	say_as(f, room, user, cmd);
	assert_non_null(fake_session(f, room));
	say_as(f, room, user, "!auto");
	assert_true(fake_play_out(f, room, 200000));
}

/* Games finished one after another, by people against the computer (the
 * order matters: alice's second game starts from her first's rating), and
 * one aborted after some moves. */
static void
play_games(const char *db)
{
	struct fake *f = fake_new(db, CONF);

	finish_game(f, "#a", "alice", "duel");
	finish_game(f, "#b", "bob", "duel");
	finish_game(f, "#a", "alice", "duel");
	finish_game(f, "#c", "bob", "duel");
	say_as(f, "#d", "carol", "!play 2 duel rounds=1");
	say_as(f, "#d", "carol", "!auto");
	fake_advance(f, 3000);
	say_as(f, "#d", "carol", "!abort");
	assert_null(fake_session(f, "#d"));
	fake_free(f);
}

/* Every rating row as text, in a fixed order, into out. */
static void
ratings_of(const char *db, const char *sql_before, char *out, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *q;
	size_t at = 0;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	if (sql_before != NULL)
		assert_int_equal(sqlite3_exec(h, sql_before, NULL, NULL, NULL), SQLITE_OK);
	out[0] = '\0';
	if (sqlite3_prepare_v2(h, "SELECT adapter, user_id, rules, name, printf('%.9f', rating), games FROM ratings"
	                       " ORDER BY adapter, user_id, rules", -1, &q, NULL) == SQLITE_OK) {
		while (sqlite3_step(q) == SQLITE_ROW)
			at += (size_t)snprintf(out + at, len - at, "%s %s %s %s %s %d\n", sqlite3_column_text(q, 0),
			                       sqlite3_column_text(q, 1), sqlite3_column_text(q, 2),
			                       sqlite3_column_text(q, 3), sqlite3_column_text(q, 4),
			                       sqlite3_column_int(q, 5));
		sqlite3_finalize(q);
	}
	sqlite3_close(h);
}

/* The store made as before ratings (sql undoes what 0.3 added), then opened
 * and closed by this version: its ratings into out. */
static void
upgrade(const char *db, const char *sql, char *out, size_t len)
{
	char before[4096];

	ratings_of(db, sql, before, sizeof before);
	assert_string_equal(before, "");
	fake_free(fake_new(db, CONF));
	ratings_of(db, NULL, out, len);
}

/* No ratings table, no kept scores: the finished games' moves replayed give
 * the ratings live play gave, to the last digit; the aborted game adds nothing. */
static void
test_replayed_games_rate_as_live(void **state)
{
	char db[] = "/tmp/hf-XXXXXX", live[4096], rebuilt[4096];

	(void)state;
	fake_tmpdb(db);
	play_games(db);
	ratings_of(db, NULL, live, sizeof live);
	printf("live:\n%s", live);
	assert_non_null(strstr(live, "* computer:normal duel computer (normal) "));
	assert_non_null(strstr(live, " 4\n"));   /* the computer's four games */
	assert_null(strstr(live, "carol"));
	upgrade(db, "DROP TABLE ratings; ALTER TABLE games DROP COLUMN scores;", rebuilt, sizeof rebuilt);
	assert_string_equal(rebuilt, live);
	/* asked for once: a later start rates nothing again */
	fake_free(fake_new(db, CONF));
	ratings_of(db, NULL, rebuilt, sizeof rebuilt);
	assert_string_equal(rebuilt, live);
	fake_rmdb(db);
}

/* Kept final scores are used as they are: with the moves gone, the same ratings. */
static void
test_kept_scores_rate_as_live(void **state)
{
	char db[] = "/tmp/hf-XXXXXX", live[4096], rebuilt[4096];

	(void)state;
	fake_tmpdb(db);
	play_games(db);
	ratings_of(db, NULL, live, sizeof live);
	upgrade(db, "DROP TABLE ratings; DELETE FROM actions;", rebuilt, sizeof rebuilt);
	assert_string_equal(rebuilt, live);
	fake_rmdb(db);
}

/* A game whose moves do not reach its end is skipped; the others are rated;
 * an aborted game with its moves and even kept scores is never rated. */
static void
test_unreplayable_and_aborted_games_skipped(void **state)
{
	char db[] = "/tmp/hf-XXXXXX", rebuilt[4096];

	(void)state;
	fake_tmpdb(db);
	play_games(db);
	upgrade(db, "DROP TABLE ratings; UPDATE games SET scores=NULL;"
	        "DELETE FROM actions WHERE game IN (SELECT id FROM games WHERE room='#c')"
	        " AND seq=(SELECT max(seq) FROM actions a WHERE a.game=actions.game);"
	        "UPDATE games SET scores='100 0' WHERE state='aborted';", rebuilt, sizeof rebuilt);
	printf("rebuilt:\n%s", rebuilt);
	assert_non_null(strstr(rebuilt, "* computer:normal duel computer (normal) "));
	assert_non_null(strstr(rebuilt, " 3\n"));   /* the computer's: bob's last game is not one */
	assert_null(strstr(rebuilt, " 4\n"));
	assert_non_null(strstr(rebuilt, "fake bob duel bob 1516.000000000 1\n"));
	assert_null(strstr(rebuilt, "carol"));
	fake_rmdb(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replayed_games_rate_as_live),
		cmocka_unit_test(test_kept_scores_rate_as_live),
		cmocka_unit_test(test_unreplayable_and_aborted_games_skipped),
	};

	return cmocka_run_group_tests_name("ratings rebuilt at the upgrade", tests, NULL, NULL);
}
