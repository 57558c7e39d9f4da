/* e2e-core-hostile.c: through the real binary's console, what the core keeps whole or refuses against input built to break it (issue 24). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "proc.h"
#include "world.h"

static struct proc p;

/* house rules whose written-out form is past 255 bytes, hints=no the last key */
#define LONG_RULES "duel clean=29999 dirty=29998 wild=29997 sevens=29996 out_bonus=29995 short_penalty=9999 " \
	"target=999999 min1=4999 min2=4998 min3=4997 min4=4996 canasta=9 need_clean=9 need_dirty=8 ask=yes " \
	"frozen=yes partners_dismissed=yes final_discard=required wild_melds=yes hints=no"

static void
console(const char *db, const char *first_line)
{
	const char *argv[] = { "--console", "--players", "2", "--seed", "7", "--ai-delay", "60000", "--db", db, NULL };
	assert_int_equal(proc_start(&p, argv), 0);
	if (first_line != NULL)
		proc_send(&p, first_line);
}

/* Issue 24 (low): a table's house rules were stored cut to 255 bytes:
 * after a restart the keys past the cut were dropped (hints=no lost) or
 * the game was broken by a cut inside a key.  Stored whole now. */
static void
test_long_house_rules_survive_a_restart(void **state)
{
	const char *db = ((struct world *)*state)->db;
	size_t at = 0;

	console(db, "abort");
	proc_send(&p, "play 2 " LONG_RULES);
	assert_true(proc_wait(&p, "Dealing duel for 2", &at, 10000));
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);
	/* the next start: the same table, its rules whole */
	console(db, NULL);
	at = 0;
	assert_true(proc_wait(&p, "Back after a restart: round 1 of duel", &at, 10000));
	proc_send(&p, "hint");
	assert_true(proc_wait(&p, "hints are off at this table", &at, 5000));
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);
}

/* Issue 24 (low): secrets in core dumps.  The daemon makes itself
 * undumpable at start: a process of its own user can no longer read its
 * memory or environment (nor a crash leave a core file with the token).
 * Run as nobody, the daemon's /proc/PID/environ is read by another
 * process of nobody's: it must be refused. */
static void
test_daemon_is_not_dumpable(void **state)
{
	char out[512], db[64];
	int rc;

	(void)state;
	if (geteuid() != 0 || e2e_sh(out, sizeof out, "command -v setpriv") != 0)
		skip();
	snprintf(db, sizeof db, "/tmp/hf-e2e-dump-%d.db", (int)getpid());
	rc = e2e_sh(out, sizeof out,
	            "setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '"
	            "sleep 4 | %s/handfoot --console --players 2 --rules duel --db %s >/dev/null 2>&1 & pid=$!; "
	            "sleep 1; if cat /proc/$pid/environ >/dev/null 2>&1; then echo readable; else echo hidden; fi; "
	            "kill $pid'; rm -f %s %s-wal %s-shm",
	            e2e_build(), db, db, db, db);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "hidden"));
}

/* Issue 24 (smaller): every !play left its row for 30 days after its
 * !abort, so a loop of them grew the database at the flood rate.  An
 * aborted table's rows go at once now. */
static void
test_play_abort_loop_leaves_no_rows(void **state)
{
	const char *db = ((struct world *)*state)->db;
	char out[256];
	size_t at = 0;

	console(db, "abort");
	for (int i = 0; i < 20; i++) {
		proc_send(&p, "play 2 duel");
		assert_true(proc_wait(&p, "Dealing duel for 2", &at, 10000));
		proc_send(&p, "abort");
		assert_true(proc_wait(&p, "The game is over", &at, 10000));
	}
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);
	assert_int_equal(e2e_sh(out, sizeof out, "sqlite3 %s \"SELECT count(*) FROM games\"", db), 0);
	assert_string_equal(out, "0\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_long_house_rules_survive_a_restart, world_setup_none, world_teardown),
		cmocka_unit_test(test_daemon_is_not_dumpable),
		cmocka_unit_test_setup_teardown(test_play_abort_loop_leaves_no_rows, world_setup_none, world_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
