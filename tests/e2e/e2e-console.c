/* e2e-console.c: plays a whole game through the real binary's console, from commands on its stdin. */
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

static void
test_console_game(void **state)
{
	struct world *w = *state;
	const char *argv[] = { "--console", "--players", "2", "--rules", "duel", "--seed", "7", "--ai-delay", "0",
	                       "--db", w->db, NULL };
	size_t at = 0;

	assert_int_equal(proc_start(&p, argv), 0);
	assert_true(proc_wait(&p, "Dealing duel for 2", &at, 10000));
	proc_send(&p, "help");
	assert_true(proc_wait(&p, "Commands:", &at, 5000));
	proc_send(&p, "hand");
	assert_true(proc_wait(&p, "[you] Your hand", &at, 5000) || proc_wait(&p, "Your hand", &at, 5000));
	proc_send(&p, "who");
	assert_true(proc_wait(&p, "duel, round", &at, 5000));
	proc_send(&p, "frobnicate");
	assert_true(proc_wait(&p, "unknown command", &at, 5000));
	/* Hand the seat to the computer and watch the game to its end. */
	proc_send(&p, "auto");
	assert_true(proc_wait(&p, "Game over", &at, 240000));
	proc_send(&p, "stats");
	assert_true(proc_wait(&p, "1 game", &at, 5000));
	/* the finished game is rated, the computer's seat not listed */
	assert_true(proc_wait(&p, " Rating: duel ", &at, 5000));
	proc_send(&p, "top");
	assert_true(proc_wait(&p, "Top of duel: 1. ", &at, 5000));
	proc_send(&p, "top bridge");
	assert_true(proc_wait(&p, "No rule set is called bridge", &at, 5000));
	assert_null(strstr(p.buf, "1. computer"));
	/* a pipe is no terminal: plain text, commands without a prefix */
	assert_null(memchr(p.buf, '\033', p.len));
	assert_non_null(strstr(p.buf, " help COMMAND explains one."));
	assert_int_equal(proc_end(&p), 0);
}

/* CLICOLOR_FORCE asks for colours even on a pipe: bold side names in ANSI, reset after. */
static void
test_console_colours(void **state)
{
	struct world *w = *state;
	const char *argv[] = { "--console", "--players", "2", "--rules", "duel", "--seed", "7", "--ai-delay", "0",
	                       "--db", w->db, NULL };
	size_t at = 0;

	setenv("CLICOLOR_FORCE", "1", 1);
	assert_int_equal(proc_start(&p, argv), 0);
	unsetenv("CLICOLOR_FORCE");
	assert_true(proc_wait(&p, "Dealing duel for 2", &at, 10000));
	proc_send(&p, "table");
	assert_true(proc_wait(&p, "\033[0;1m", &at, 5000));
	assert_true(proc_wait(&p, "\033[0m (score 0): not down", &at, 5000));
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_console_game, world_setup_none, world_teardown),
		cmocka_unit_test_setup_teardown(test_console_colours, world_setup_none, world_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
