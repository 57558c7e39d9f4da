/* test-secret.c: adapter_read_secret: relative names from $CREDENTIALS_DIRECTORY (LoadCredential=), errors that never quote a secret. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter.h"

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_relative_name_comes_from_credentials_directory(void **state)
{
	char dir[] = "/tmp/hf-creds-XXXXXX", path[64], abs[64], buf[128], err[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/irc.password", dir);
	put(path, "from-credentials\nsecond line ignored\n");
	snprintf(abs, sizeof abs, "%s/abs.password", dir);
	put(abs, "absolute\r\n");
	setenv("CREDENTIALS_DIRECTORY", dir, 1);

	assert_int_equal(adapter_read_secret("irc.password", buf, sizeof buf, err, sizeof err), 0);
	assert_string_equal(buf, "from-credentials");
	/* An absolute path is read as it is. */
	assert_int_equal(adapter_read_secret(abs, buf, sizeof buf, err, sizeof err), 0);
	assert_string_equal(buf, "absolute");
	/* Missing: the error names the file. */
	assert_int_equal(adapter_read_secret("nope.token", buf, sizeof buf, err, sizeof err), -1);
	assert_non_null(strstr(err, "nope.token"));

	unsetenv("CREDENTIALS_DIRECTORY");
	assert_int_equal(adapter_read_secret("irc.password", buf, sizeof buf, err, sizeof err), -1);
	unlink(path);
	unlink(abs);
	rmdir(dir);
}

static void
test_empty_secret_is_refused_without_quoting(void **state)
{
	char dir[] = "/tmp/hf-creds-XXXXXX", path[64], buf[128], err[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/empty", dir);
	put(path, "\n");
	setenv("CREDENTIALS_DIRECTORY", dir, 1);
	assert_int_equal(adapter_read_secret("empty", buf, sizeof buf, err, sizeof err), -1);
	assert_non_null(strstr(err, "empty"));
	unsetenv("CREDENTIALS_DIRECTORY");
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative_name_comes_from_credentials_directory),
		cmocka_unit_test(test_empty_secret_is_refused_without_quoting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
