/* test-prune.c: finished games are forgotten after game_retention days, hourly; games in play and statistics stay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "fake.h"

#define HOUR (3600 * 1000)
#define DAY  (24 * 3600)

/* One number from the database file, read after the bot closed it. */
static long long
db_count(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *q;
	long long n = -1;

	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(h);
	return n;
}

/* Every !new used to leave its row, and a finished game its moves, for ever. */
static void
test_finished_games_pruned(void **state)
{
	char db[] = "/tmp/hf-prune-XXXXXX";
	struct fake *f;

	(void)state;
	fake_tmpdb(db);
	unlink(db);
	f = fake_new(db, "flood_burst = 100\ntable_expiry = 0\ngame_retention = 30");
	/* aborted, abandoned, over; one open and one in play stay */
	fake_say(f, "#a", "alice", "!new");
	fake_say(f, "#a", "alice", "!abort");
	fake_say(f, "#b", "bob", "!new");
	fake_say(f, "#b", "bob", "!leave");
	fake_say(f, "#c", "carol", "!play 2 duel rounds=1");
	fake_say(f, "#c", "carol", "!auto");
	assert_true(fake_play_out(f, "#c", 200000));
	fake_say(f, "#d", "dave", "!new");
	fake_say(f, "#e", "erin", "!play 2 duel");
	assert_null(fake_session(f, "#a"));
	assert_null(fake_session(f, "#b"));
	/* the first prune after they ended marks them; 29 days on they are still there */
	fake_advance(f, HOUR);
	f->wall_offset += (int64_t)29 * DAY * 1000;
	fake_advance(f, HOUR);
	fake_free(f);
	/* (the aborted and the abandoned table went at once: !play and !abort in
	 * a loop do not grow the database, issue 24) */
	assert_int_equal(db_count(db, "SELECT count(*) FROM games"), 3);
	assert_int_equal(db_count(db, "SELECT count(*) FROM games WHERE room IN ('#a','#b')"), 0);
	assert_true(db_count(db, "SELECT count(*) FROM actions a JOIN games g ON g.id=a.game WHERE g.room='#c'") > 10);

	/* 31 days on, at the next hourly look, they are gone: rows, seats, moves */
	f = fake_new(db, "flood_burst = 100\ntable_expiry = 0\ngame_retention = 30");
	f->wall_offset += (int64_t)31 * DAY * 1000;
	fake_advance(f, HOUR);
	assert_non_null(fake_session(f, "#d"));
	assert_non_null(fake_session(f, "#e"));
	fake_say(f, "#e", "erin", "!draw");
	fake_free(f);
	assert_int_equal(db_count(db, "SELECT count(*) FROM games"), 2);
	assert_int_equal(db_count(db, "SELECT count(*) FROM games WHERE room IN ('#d','#e')"), 2);
	assert_int_equal(db_count(db, "SELECT count(*) FROM seats s LEFT JOIN games g ON g.id=s.game WHERE g.id IS NULL"), 0);
	assert_int_equal(db_count(db, "SELECT count(*) FROM actions a LEFT JOIN games g ON g.id=a.game WHERE g.id IS NULL"), 0);
	/* carol's record outlives her game */
	assert_int_equal(db_count(db, "SELECT games FROM stats WHERE user_id='carol'"), 1);
	fake_rmdb(db);
}

/* game_retention = 0 keeps them all. */
static void
test_retention_zero_keeps(void **state)
{
	char db[] = "/tmp/hf-prune-XXXXXX";
	struct fake *f;

	(void)state;
	fake_tmpdb(db);
	unlink(db);
	f = fake_new(db, "flood_burst = 100\ngame_retention = 0");
	fake_say(f, "#a", "alice", "!new");
	fake_say(f, "#a", "alice", "!abort");
	fake_advance(f, HOUR);
	f->wall_offset += (int64_t)3650 * DAY * 1000;
	fake_advance(f, HOUR);
	fake_free(f);
	assert_int_equal(db_count(db, "SELECT count(*) FROM games"), 1);
	fake_rmdb(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finished_games_pruned),
		cmocka_unit_test(test_retention_zero_keeps),
	};

	return cmocka_run_group_tests_name("finished games pruned", tests, NULL, NULL);
}
