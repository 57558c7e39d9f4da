/* ini.c: the INI reader: "[section]" and "key = value" lines of any length, comments, every syntax error with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

/* Our own reader, not libinih's: inih cuts a line at its INI_MAX_LINE (200
 * bytes in Debian's build) and hands the rest on as a second, bogus line,
 * and it would continue an indented line onto the key before it. */

static char *
ini_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Cuts an inline comment: ";" after a space or tab (a ";" inside a word stays). */
static void
ini_uncomment(char *s)
{
	for (char *p = s; *p != '\0'; p++)
		if (*p == ';' && p > s && (p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
}

static void
ini_error(const struct ini_cb *cb, int line, const char *msg)
{
	if (cb->error != NULL)
		cb->error(cb->ctx, line, msg);
}

static void
ini_line(const struct ini_cb *cb, int line, char *s)
{
	char *eq, *key, *value;

	s = ini_trim(s);
	if (*s == '\0' || *s == ';' || *s == '#')
		return;
	if (*s == '[') {
		char *close = strchr(s, ']');

		if (close == NULL) {
			ini_error(cb, line, "a section header needs its closing ]");
			return;
		}
		*close = '\0';
		value = ini_trim(close + 1);
		if (*value != '\0' && *value != ';' && *value != '#') {
			ini_error(cb, line, "text after a section header");
			return;
		}
		if (cb->section != NULL)
			cb->section(cb->ctx, line, ini_trim(s + 1));
		return;
	}
	if ((eq = strchr(s, '=')) == NULL) {
		ini_error(cb, line, "syntax error (expected [section] or key = value)");
		return;
	}
	*eq = '\0';
	key = ini_trim(s);
	value = eq + 1;
	ini_uncomment(value);
	value = ini_trim(value);
	if (*key == '\0') {
		ini_error(cb, line, "a value without a key");
		return;
	}
	if (cb->key != NULL)
		cb->key(cb->ctx, line, key, value);
}

int
ini_read(FILE *f, const struct ini_cb *cb)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int line = 0;

	while ((n = getline(&buf, &cap, f)) >= 0) {
		char *s = buf;

		line++;
		if (line == 1 && strncmp(s, "\xef\xbb\xbf", 3) == 0)
			s += 3;   /* a UTF-8 byte order mark */
		if ((size_t)n != strlen(buf)) {
			ini_error(cb, line, "a NUL byte in the line");
			continue;
		}
		if (n > INI_MAX_LINE) {
			char msg[80];

			snprintf(msg, sizeof msg, "line too long (%zd bytes; at most %d)", n, INI_MAX_LINE);
			ini_error(cb, line, msg);
			continue;
		}
		ini_line(cb, line, s);
	}
	free(buf);
	return ferror(f) ? -1 : 0;
}
