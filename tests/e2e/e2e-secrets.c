/* e2e-secrets.c: the check that no noted password or token reaches a daemon log, which every e2e test's daemon gets once it exits (tests/lib/e2e.c); then a sweep of the logs there.  Needs no other test to run first. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* In a build folder of its own: a leak is found, a clean log passes, and a
 * log with nothing noted has nothing to hold. */
static void
test_the_check_finds_a_leak(void **state)
{
	char dir[256], path[600], *was = getenv("HANDFOOT_BUILD") ? strdup(getenv("HANDFOOT_BUILD")) : NULL;
	char out[256];

	(void)state;
	assert_int_equal(e2e_tmpdir(dir, sizeof dir, "secrets"), 0);
	setenv("HANDFOOT_BUILD", dir, 1);
	snprintf(path, sizeof path, "%s/daemon-1.log", e2e_logdir());
	assert_int_equal(e2e_write_file(path, "notice: matrix: logging in as @bot:hs with s3cr3t-pa55\n"), 0);
	assert_int_equal(e2e_secrets_in(path), 0);
	e2e_secret_note("s3cr3t-pa55");
	e2e_secret_note("tok-XYZ-123");
	assert_int_equal(e2e_secrets_in(path), 1);
	assert_int_equal(e2e_write_file(path, "tok-XYZ-123 and s3cr3t-pa55\n"), 0);
	assert_int_equal(e2e_secrets_in(path), 2);
	assert_int_equal(e2e_write_file(path, "notice: matrix: logged in as @bot:hs\n"), 0);
	assert_int_equal(e2e_secrets_in(path), 0);
	snprintf(path, sizeof path, "%s/none.log", e2e_logdir());
	assert_int_equal(e2e_secrets_in(path), -1);
	if (was != NULL)
		setenv("HANDFOOT_BUILD", was, 1);
	else
		unsetenv("HANDFOOT_BUILD");
	free(was);
	assert_int_equal(e2e_sh(out, sizeof out, "rm -rf '%s'", dir), 0);
}

/* Every log there now, whichever tests ran before (none is fine). */
static void
test_no_secret_in_any_daemon_log(void **state)
{
	const char *dir = e2e_logdir();
	char path[1024];
	struct dirent *de;
	size_t nlogs = 0, leaks = 0;
	DIR *d;
	int n;

	(void)state;
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (!ends_with(de->d_name, ".log"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		nlogs++;
		if ((n = e2e_secrets_in(path)) > 0)
			leaks += (size_t)n;
	}
	closedir(d);
	printf("checked %zu logs in %s\n", nlogs, dir);
	assert_int_equal(leaks, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_check_finds_a_leak),
		cmocka_unit_test(test_no_secret_in_any_daemon_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
