/* test-log.c: the log's two forms: "<N>" prefixes when stderr is the journal (JOURNAL_STREAM), a time and the level's name otherwise. */
#include <setjmp.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

static void
test_formats(void **state)
{
	struct timespec ts = { 0, 123456789 };
	char out[200], want[64];
	struct tm tm;

	(void)state;
	log_format(out, sizeof out, LOG_LVL_ERR, "boom", true, &ts);
	assert_string_equal(out, "<3>boom");
	log_format(out, sizeof out, LOG_LVL_WARNING, "careful", false, &ts);
	localtime_r(&ts.tv_sec, &tm);
	snprintf(want, sizeof want, "%04d-%02d-%02d %02d:%02d:%02d.123 warning: careful", tm.tm_year + 1900,
	         tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	assert_string_equal(out, want);
	log_format(out, sizeof out, LOG_LVL_DEBUG, "x", false, &ts);
	assert_non_null(strstr(out, " debug: x"));
	assert_null(strchr(out, '<'));
}

/* The journal is recognised by the device and inode of the stream, not by the variable alone. */
static void
test_journal_stream(void **state)
{
	char path[] = "/tmp/hf-log-XXXXXX", js[64];
	int fd = mkstemp(path), other = open("/dev/null", 0);
	struct stat st;

	(void)state;
	assert_true(fd >= 0 && other >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	snprintf(js, sizeof js, "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	assert_true(log_stream_is_journal(js, fd));
	assert_false(log_stream_is_journal(js, other));   /* stderr redirected elsewhere */
	assert_false(log_stream_is_journal(NULL, fd));
	assert_false(log_stream_is_journal("", fd));
	assert_false(log_stream_is_journal("12:x", fd));
	snprintf(js, sizeof js, "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino + 1);
	assert_false(log_stream_is_journal(js, fd));
	close(fd);
	close(other);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_journal_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
