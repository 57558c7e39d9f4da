/* e2e-zz-secrets.c: runs last (names sort): no password or token noted by an e2e test appears in any daemon log. */
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

static void
test_no_secret_in_any_daemon_log(void **state)
{
	const char *dir = e2e_logdir();
	char path[1024], *secrets, *line, *save = NULL;
	struct dirent *de;
	size_t nlogs = 0, nsecrets = 0, leaks = 0;
	DIR *d;

	(void)state;
	snprintf(path, sizeof path, "%s/secrets.list", dir);
	secrets = e2e_read_file(path);
	if (secrets == NULL) {
		/* Nothing noted means the tests that hand the daemon secrets did not run. */
		print_error("%s is missing: no e2e test noted a secret (see tests/lib/e2e.h)\n", path);
		fail();
	}
	for (line = strtok_r(secrets, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '\0')
			continue;
		nsecrets++;
		d = opendir(dir);
		assert_non_null(d);
		nlogs = 0;
		while ((de = readdir(d)) != NULL) {
			char *log;

			if (!ends_with(de->d_name, ".log"))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			log = e2e_read_file(path);
			assert_non_null(log);
			nlogs++;
			if (strstr(log, line) != NULL) {
				/* The file is named, the secret is not repeated. */
				print_error("%s holds a secret given to the daemon\n", path);
				leaks++;
			}
			free(log);
		}
		closedir(d);
	}
	free(secrets);
	printf("checked %zu daemon logs for %zu secrets\n", nlogs, nsecrets);
	if (nlogs == 0)
		print_error("no daemon log in %s: the e2e tests did not run the daemon\n", dir);
	assert_true(nlogs > 0);
	assert_int_equal(leaks, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_secret_in_any_daemon_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
