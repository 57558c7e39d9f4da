/* e2e-crash.c: SIGKILL in mid-game, start again on the same database: same hands, table, pile, turn. */
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

#include "proc.h"
#include "world.h"

static struct proc p;

/* The reply lines to one command: everything from the command's reply up to a marker. */
static void
capture(const char *cmd, const char *needle, char *out, size_t len, size_t *at)
{
	size_t start;
	char *nl;

	proc_send(&p, cmd);
	assert_true(proc_wait(&p, needle, at, 10000));
	start = *at - strlen(needle);
	nl = strchr(p.buf + start, '\n');
	snprintf(out, len, "%.*s", nl ? (int)(nl - (p.buf + start)) : 200, p.buf + start);
}

static void
snapshot(char snap[4][1024], size_t *at)
{
	capture("hand", "Your ", snap[0], 1024, at);
	capture("pile", "Pile:", snap[1], 1024, at);
	capture("who", "round", snap[2], 1024, at);
	capture("table", "):", snap[3], 1024, at);
}

static void
test_crash_resume(void **state)
{
	struct world *w = *state;
	const char *argv[] = { "--console", "--players", "2", "--rules", "duel", "--seed", "11", "--ai-delay", "0",
	                       "--db", w->db, NULL };
	char before[4][1024], after[4][1024];
	size_t at = 0;
	int i;

	assert_int_equal(proc_start(&p, argv), 0);
	assert_true(proc_wait(&p, "Dealing duel", &at, 10000));
	/* A turn of ours (draw, discard the first card shown), the computer's, then a draw. */
	for (i = 0; i < 2; i++) {
		char hand[1024], card[16];
		const char *colon;

		capture("draw", "Your ", hand, sizeof hand, &at);
		capture("hand", "Your ", hand, sizeof hand, &at);
		colon = strstr(hand, "): ");
		assert_non_null(colon);
		sscanf(colon + 3, "%15[^ ×|]", card);
		if (strcmp(card, "3♥") == 0)
			strcpy(card, "3h");
		else if (strcmp(card, "3♣") == 0)
			strcpy(card, "3c");
		proc_send(&p, strcat(strcpy(hand, "discard "), card));
		assert_true(proc_wait(&p, "your turn", &at, 10000));
	}
	proc_send(&p, "draw");
	/* its answer is written after the move is stored */
	assert_true(proc_wait(&p, "You drew", &at, 10000));
	snapshot(before, &at);
	kill(p.pid, SIGKILL);
	assert_int_equal(proc_end(&p), -SIGKILL);

	at = 0;
	assert_int_equal(proc_start(&p, argv), 0);
	assert_true(proc_wait(&p, "your game goes on", &at, 10000));
	snapshot(after, &at);
	for (i = 0; i < 4; i++)
		assert_string_equal(before[i], after[i]);
	assert_int_equal(proc_end(&p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_crash_resume, world_setup_none, world_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
