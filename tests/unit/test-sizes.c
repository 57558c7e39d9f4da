/* test-sizes.c: tests/check-sizes can fail: a copy of the tree with a planted long function or long file is refused, and a "long:" reason lets a function pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "e2e.h"

/* A function whose body is n lines, with comment above it ("" for none). */
#define LONG_FN(comment, n) \
	"{ printf '\\n%s\\nstatic int\\nplanted(void)\\n{\\n' '" comment "'; i=0; while [ $i -lt " #n " ]; do " \
	"printf '\\t(void)0;\\n'; i=$((i+1)); done; printf '}\\n'; }"

/* Copies file (NULL: every source) to a fresh folder, runs the shell
 * command plant there (NULL: none), and runs check-sizes on the copy; its
 * exit status, its output in out.  One file alone: the test does not hang
 * on the rest of the tree being within the limits. */
static int
planted(const char *file, const char *plant, char *out, size_t len)
{
	char dir[256];
	int rc;

	assert_int_equal(e2e_tmpdir(dir, sizeof dir, "sizes"), 0);
	if (file == NULL)
		assert_int_equal(e2e_sh(out, len, "cp -r lib engine bot adapters tools '%s'/", dir), 0);
	else
		assert_int_equal(e2e_sh(out, len, "mkdir -p \"$(dirname '%s/%s')\" && cp '%s' '%s/%s'", dir, file, file,
		                        dir, file), 0);
	if (plant != NULL)
		assert_int_equal(e2e_sh(out, len, "cd '%s' && %s >> '%s'", dir, plant, file), 0);
	rc = e2e_sh(out, len, "sh tests/check-sizes '%s'", dir);
	e2e_sh(NULL, 0, "rm -rf '%s'", dir);
	return rc;
}

static void
test_clean_tree_passes(void **state)
{
	char out[4096];

	(void)state;
	if (planted(NULL, NULL, out, sizeof out) != 0)
		fail_msg("check-sizes refused the tree: %s", out);
	assert_non_null(strstr(out, "sizes: ok"));
}

static void
test_long_function_refused(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("engine/rng.c", LONG_FN("", 81), out, sizeof out), 1);
	if (strstr(out, "engine/rng.c") == NULL || strstr(out, "planted() body 81 lines") == NULL)
		fail_msg("check-sizes said \"%s\"", out);
	/* 80 is the limit, not over it */
	assert_int_equal(planted("engine/rng.c", LONG_FN("", 80), out, sizeof out), 0);
	/* a comment that gives no reason does not do */
	assert_int_equal(planted("bot/core/flood.c", LONG_FN("/* a long function */", 90), out, sizeof out), 1);
}

static void
test_reason_lets_it_pass(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("adapters/irc/parse.c",
	                         LONG_FN("/* long: one case per protocol message; split, it scatters. */", 120), out,
	                         sizeof out), 0);
}

static void
test_long_file_refused(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("lib/rbuf.c", "i=0; while [ $i -lt 701 ]; do echo; i=$((i+1)); done", out, sizeof out),
	                 1);
	if (strstr(out, "lib/rbuf.c") == NULL || strstr(out, "over 700") == NULL)
		fail_msg("check-sizes said \"%s\"", out);
	/* a reason among the file's first lines lets it pass */
	assert_int_equal(planted("lib/rbuf.c", "sed -i '1a /* long: the reason. */' lib/rbuf.c; i=0; while [ $i -lt 701 ]; "
	                         "do echo; i=$((i+1)); done", out, sizeof out), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_tree_passes),
		cmocka_unit_test(test_long_function_refused),
		cmocka_unit_test(test_reason_lets_it_pass),
		cmocka_unit_test(test_long_file_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
