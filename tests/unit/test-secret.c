/* test-secret.c: adapter_read_secret: relative names from $CREDENTIALS_DIRECTORY (LoadCredential=), errors that never quote a secret, readable files warned about, no secret cut short. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter.h"
#include "secret.h"

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

/* What adapter_read_secret logs (stderr) while reading path. */
static int
read_logged(const char *path, char *buf, size_t len, char *err, size_t errlen, char *logged, size_t loglen)
{
	char tmp[] = "/tmp/hf-log-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(2), rc;
	FILE *f;
	size_t n;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	rc = adapter_read_secret(path, buf, len, err, errlen);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	f = fopen(tmp, "r");
	n = fread(logged, 1, loglen - 1, f);
	logged[n] = '\0';
	fclose(f);
	unlink(tmp);
	return rc;
}

/* Issue 15: a secret file others can read was taken silently. */
static void
test_readable_secret_is_warned_about(void **state)
{
	char dir[] = "/tmp/hf-creds-XXXXXX", path[64], buf[128], err[256], logged[1024];

	(void)state;
	unsetenv("CREDENTIALS_DIRECTORY");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/pw", dir);
	put(path, "hunter2\n");
	chmod(path, 0644);
	assert_int_equal(read_logged(path, buf, sizeof buf, err, sizeof err, logged, sizeof logged), 0);
	assert_string_equal(buf, "hunter2");
	assert_non_null(strstr(logged, "readable by everyone (mode 0644)"));
	assert_null(strstr(logged, "hunter2"));
	chmod(path, 0640);
	assert_int_equal(read_logged(path, buf, sizeof buf, err, sizeof err, logged, sizeof logged), 0);
	assert_non_null(strstr(logged, "readable by its group (mode 0640)"));
	chmod(path, 0600);
	assert_int_equal(read_logged(path, buf, sizeof buf, err, sizeof err, logged, sizeof logged), 0);
	assert_string_equal(logged, "");
	unlink(path);
	rmdir(dir);
}

/* Issue 15: a secret longer than the buffer was cut short silently: another secret. */
static void
test_too_long_secret_is_refused(void **state)
{
	char dir[] = "/tmp/hf-creds-XXXXXX", path[64], buf[16], err[256], text[64];

	(void)state;
	unsetenv("CREDENTIALS_DIRECTORY");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/pw", dir);
	snprintf(text, sizeof text, "%s\n", "0123456789abcdefXYZ");
	put(path, text);
	chmod(path, 0600);
	assert_int_equal(adapter_read_secret(path, buf, sizeof buf, err, sizeof err), -1);
	assert_non_null(strstr(err, "longer than 15 bytes"));
	assert_null(strstr(err, "0123"));
	/* exactly what fits is taken */
	put(path, "0123456789abcde\n");
	assert_int_equal(adapter_read_secret(path, buf, sizeof buf, err, sizeof err), 0);
	assert_string_equal(buf, "0123456789abcde");
	unlink(path);
	rmdir(dir);
}

/* secret_wipe zeroes what it is given, all of it and nothing past it. */
static void
test_wipe_zeroes(void **state)
{
	char buf[64];
	char *s = strdup("hunter2");

	(void)state;
	memset(buf, 'x', sizeof buf);
	secret_wipe(buf + 8, 40);
	for (size_t i = 0; i < sizeof buf; i++)
		assert_int_equal(buf[i], i >= 8 && i < 48 ? 0 : 'x');
	secret_wipe(NULL, 0);
	secret_wipe(buf, 0);
	assert_int_equal(buf[0], 'x');
	assert_non_null(s);
	secret_free(s);
	secret_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wipe_zeroes),
		cmocka_unit_test(test_readable_secret_is_warned_about),
		cmocka_unit_test(test_too_long_secret_is_refused),
		cmocka_unit_test(test_relative_name_comes_from_credentials_directory),
		cmocka_unit_test(test_empty_secret_is_refused_without_quoting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
