/* log.c: log lines to stderr with sd-daemon priority prefixes, filtered by log_level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"

int log_level = LOG_LVL_INFO;

void
log_vmsg(int level, const char *fmt, va_list ap)
{
	char line[1024];
	size_t n;

	if (level > log_level)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	/* One record per line: journald splits on newlines. */
	for (n = 0; line[n] != '\0'; n++)
		if (line[n] == '\n' || line[n] == '\r')
			line[n] = ' ';
	fprintf(stderr, "<%d>%s\n", level, line);
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
	static const char *const names[] = { "err", "warning", "notice", "info", "debug" };
	size_t i;
	char *end;
	long v;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcasecmp(s, names[i]) == 0)
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
