/* e2e-log-private.c: a whole game through the real binary at log_level = debug: no hand, no private line in the daemon's log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"
#include "proc.h"

static struct proc p;

/* The daemon's log is its standard error: a file of its own here, apart
 * from what the console's player sees on standard output. */
static void
test_no_hand_in_debug_log(void **state)
{
	struct world *w = *state;
	char logf[300], *log, *line, *save = NULL;
	const char *argv[] = { "-c", w->conf, NULL };
	size_t at = 0, hands = 0;
	int keep, fd;

	snprintf(logf, sizeof logf, "%s/daemon.log", w->dir);
	world_conf(w, "log_level = debug\nai_delay = 0\nturn_reminder = 0\n",
	           "[console]\nuser = ann\nprefix =\nstart = play 2 duel rounds=1\n");
	fflush(stderr);
	keep = dup(STDERR_FILENO);
	fd = open(logf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(keep >= 0 && fd >= 0);
	dup2(fd, STDERR_FILENO);
	close(fd);
	assert_int_equal(proc_start(&p, argv), 0);
	dup2(keep, STDERR_FILENO);
	close(keep);

	assert_true(proc_wait(&p, "Dealing duel", &at, 10000));
	proc_send(&p, "hand");
	proc_send(&p, "pile");
	proc_send(&p, "meld 9 9 9");            /* refused: a private answer about the hand */
	proc_send(&p, "auto");
	assert_true(proc_wait(&p, "Game over", &at, 240000));
	proc_close_input(&p);
	assert_int_equal(proc_end(&p), 0);

	assert_non_null(log = e2e_read_file(logf));
	/* debug was on: the moves are there, as the room saw them */
	assert_non_null(strstr(log, " debug: "));   /* a log to a file: the level by name (lib/log.c) */
	assert_non_null(strstr(log, "seat 1: "));
	p.buf[p.len < sizeof p.buf ? p.len : sizeof p.buf - 1] = '\0';
	for (line = strtok_r(p.buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *cards;

		if (strncmp(line, "[you] ", 6) != 0)
			continue;
		/* a private line, whole, is never logged; nor the cards of a hand */
		assert_null(strstr(log, line + 6));
		if ((strstr(line, "Your hand (") != NULL || strstr(line, "Your foot (") != NULL) &&
		    (cards = strstr(line, "): ")) != NULL && strlen(cards + 3) > 8) {
			hands++;
			if (strstr(log, cards + 3) != NULL) {
				print_error("a hand is in the log %s: %s\n", logf, cards + 3);
				fail();
			}
		}
	}
	printf("%zu hands told privately, none in %zu bytes of debug log\n", hands, strlen(log));
	assert_true(hands > 0);
	free(log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_hand_in_debug_log, world_setup_none, world_teardown),
	};

	return cmocka_run_group_tests_name("no private line in the log", tests, NULL, NULL);
}
