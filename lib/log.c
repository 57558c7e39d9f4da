/* log.c: log lines to stderr: sd-daemon priority prefixes for the journal, timestamps and level names elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "log.h"

int log_level = LOG_LVL_INFO;

/* Set once by log_init: whether stderr is the journal's stream. */
static int log_journal;

static const char *const log_names[] = { "err", "warning", "notice", "info", "debug" };

bool
log_stream_is_journal(const char *journal_stream, int fd)
{
	unsigned long long dev, ino;
	struct stat st;
	char end;

	/* systemd sets JOURNAL_STREAM=<device>:<inode> of the stream it connected
	 * to stdout/stderr; a redirected stderr (a terminal, a file) is not it */
	if (journal_stream == NULL || sscanf(journal_stream, "%llu:%llu%c", &dev, &ino, &end) != 2)
		return false;
	if (fstat(fd, &st) != 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void
log_init(void)
{
	log_journal = log_stream_is_journal(getenv("JOURNAL_STREAM"), 2);
}

void
log_format(char *out, size_t len, int level, const char *msg, bool journal, const struct timespec *now)
{
	struct tm tm;

	if (journal) {
		snprintf(out, len, "<%d>%s", level, msg);
		return;
	}
	localtime_r(&now->tv_sec, &tm);
	snprintf(out, len, "%04d-%02d-%02d %02d:%02d:%02d.%03ld %s: %s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	         tm.tm_hour, tm.tm_min, tm.tm_sec, now->tv_nsec / 1000000,
	         level >= LOG_LVL_ERR && level <= LOG_LVL_DEBUG ? log_names[level - LOG_LVL_ERR] : "log", msg);
}

void
log_vmsg(int level, const char *fmt, va_list ap)
{
	char line[1024], out[1100];
	struct timespec now;
	size_t n;

	if (level > log_level)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	/* One record per line: journald splits on newlines. */
	for (n = 0; line[n] != '\0'; n++)
		if (line[n] == '\n' || line[n] == '\r')
			line[n] = ' ';
	clock_gettime(CLOCK_REALTIME, &now);
	log_format(out, sizeof out, level, line, log_journal != 0, &now);
	fprintf(stderr, "%s\n", out);
}

void
log_msg(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

int
log_level_parse(const char *s)
{
	size_t i;
	char *end;
	long v;

	for (i = 0; i < sizeof log_names / sizeof log_names[0]; i++)
		if (strcasecmp(s, log_names[i]) == 0)
			return (int)i + LOG_LVL_ERR;
	if (strcasecmp(s, "error") == 0)
		return LOG_LVL_ERR;
	if (strcasecmp(s, "warn") == 0)
		return LOG_LVL_WARNING;
	v = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && v >= LOG_LVL_ERR && v <= LOG_LVL_DEBUG)
		return (int)v;
	return -1;
}
