/* e2e-database.c: the database file through the real binary: created 0600 with its WAL, a readable one warned about, old games pruned at start. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "proc.h"
#include "world.h"

static struct proc p;

static int
mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* The seed and the moves rebuild every hand: outside the unit (its
 * UMask=0077), with the usual umask 022, the file must still be the
 * daemon's alone, and so must its WAL. */
static void
test_console_database_is_private(void **state)
{
	struct world *w = *state;
	const char *db = w->db;
	char wal[520];
	const char *argv[] = { "--console", "--players", "2", "--rules", "duel", "--seed", "7", "--ai-delay", "0",
	                       "--db", db, NULL };
	size_t at = 0;
	mode_t old = umask(022);

	snprintf(wal, sizeof wal, "%s-wal", db);
	assert_int_equal(proc_start(&p, argv), 0);
	umask(old);
	assert_true(proc_wait(&p, "Dealing duel for 2", &at, 10000));
	proc_send(&p, "hand");
	assert_true(proc_wait(&p, "Your hand", &at, 5000));
	printf("database mode %04o, its WAL %04o\n", mode_of(db), mode_of(wal));
	assert_int_equal(mode_of(db), 0600);
	assert_int_equal(mode_of(wal), 0600);
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);
	assert_int_equal(mode_of(db), 0600);
}

/* A database others can read is not changed behind the operator's back, but
 * said at start. */
static void
test_readable_database_is_warned_about(void **state)
{
	struct world *w = *state;
	struct e2e_daemon *d = &w->d;
	const char *db = w->db, *conf = w->conf;

	world_conf(w, NULL, "[console]\nuser = ann\n");
	/* a first run creates it; then someone opens it up */
	assert_int_equal(e2e_daemon_start(d, "e2e-database", conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(d, "running", 10000), 0);
	assert_false(e2e_daemon_log_has(d, "readable by"));
	e2e_daemon_signal(d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(d, 10000), 0);
	assert_int_equal(chmod(db, 0644), 0);
	assert_int_equal(e2e_daemon_start(d, "e2e-database", conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(d, "running", 10000), 0);
	assert_true(e2e_daemon_log_has(d, "readable by group or others"));
	e2e_daemon_signal(d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(d, 10000), 0);
	assert_int_equal(mode_of(db), 0644);
}

static void
daemon_run_once(struct e2e_daemon *d, const char *conf, const char *typed)
{
	assert_int_equal(e2e_daemon_start(d, "e2e-database", conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(d, "running", 10000), 0);
	if (typed != NULL) {
		assert_int_equal(write(d->in, typed, strlen(typed)), (ssize_t)strlen(typed));
		e2e_sleep_ms(500);
	}
	e2e_daemon_signal(d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(d, 10000), 0);
}

/* A database from before games.ended (a games table, an aborted game in it)
 * is brought up to date; a game that ended longer ago than game_retention is
 * forgotten at start, its statistics kept. */
static void
test_old_games_pruned_at_start(void **state)
{
	struct world *w = *state;
	const char *db = w->db, *conf = w->conf;
	char out[4096];

	world_conf(w, NULL, "[console]\nuser = ann\nprefix =\n");
	assert_int_equal(e2e_sh(out, sizeof out, "umask 077; sqlite3 %s \"CREATE TABLE games(id INTEGER PRIMARY KEY, "
	                        "adapter TEXT NOT NULL, room TEXT NOT NULL, rules TEXT NOT NULL, nplayers INTEGER NOT NULL, "
	                        "nsides INTEGER NOT NULL, seed INTEGER NOT NULL, owner TEXT NOT NULL, state TEXT NOT NULL, "
	                        "created INTEGER NOT NULL); INSERT INTO games VALUES(1,'console','#table','classic',4,2,7,"
	                        "'ann','aborted',0);\"", db), 0);
	daemon_run_once(&w->d, conf, "new\nabort\n");
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"SELECT count(*) FROM games WHERE ended IS NULL\"", db), 0);
	/* the old game was marked at start; the new one, aborted, is gone at
	 * once (issue 24: !play and !abort in a loop grew the database) */
	assert_string_equal(out, "0\n");
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"SELECT group_concat(id) FROM games\"", db), 0);
	assert_string_equal(out, "1\n");
	/* an aborted game rates no one */
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"SELECT count(*) FROM ratings\"", db), 0);
	assert_string_equal(out, "0\n");
	/* as if the first had ended 40 days ago, the second 10 */
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"UPDATE games SET ended=strftime('%%s','now')-40*86400 "
	                        "WHERE id=1; UPDATE games SET ended=strftime('%%s','now')-10*86400 WHERE id=2; "
	                        "INSERT INTO stats VALUES('console','ann','ann',3,1,500);\"", db), 0);
	daemon_run_once(&w->d, conf, NULL);
	assert_true(e2e_daemon_log_has(&w->d, "forgot 1 finished game ended over 30 days ago"));
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"SELECT group_concat(id) FROM games; "
	                        "SELECT games FROM stats WHERE user_id='ann'\"", db), 0);
	assert_string_equal(out, "\n3\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_console_database_is_private, world_setup_none, world_teardown),
		cmocka_unit_test_setup_teardown(test_readable_database_is_warned_about, world_setup_none, world_teardown),
		cmocka_unit_test_setup_teardown(test_old_games_pruned_at_start, world_setup_none, world_teardown),
	};

	return cmocka_run_group_tests_name("the database file", tests, NULL, NULL);
}
