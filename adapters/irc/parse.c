/* parse.c: IRC line parser (IRCv3 message tags, source, command, parameters), in place and without allocation. */
#include <string.h>
#include <time.h>

#include "irc.h"

/* Undoes the message-tags value escaping in place (\: \s \\ \r \n). */
static void
unescape(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		s++;
		switch (*s) {
		case ':': *w++ = ';'; break;
		case 's': *w++ = ' '; break;
		case 'r': *w++ = '\r'; break;
		case 'n': *w++ = '\n'; break;
		case '\0': s--; break;          /* a lone trailing backslash is dropped */
		default: *w++ = *s; break;     /* "\\" and unknown escapes: the character */
		}
	}
	*w = '\0';
}

static void
parse_tags(char *s, struct irc_msg *m)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ";", &save); tok != NULL; tok = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(tok, '=');

		if (m->ntags == IRC_MAX_TAGS)
			return;
		if (eq != NULL) {
			*eq = '\0';
			unescape(eq + 1);
		}
		if (*tok == '\0')
			continue;
		m->tags[m->ntags].key = tok;
		m->tags[m->ntags].value = eq != NULL ? eq + 1 : "";
		m->ntags++;
	}
}

static char *
skip_spaces(char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

int
irc_parse(char *buf, size_t len, struct irc_msg *m)
{
	char *p = buf, *end = buf + len, *sp;

	memset(m, 0, sizeof *m);
	if (len == 0 || memchr(buf, '\0', len) != NULL || len >= IRC_MAX_WIRE)
		return -1;
	/* callers hand us a buffer with room for the terminator */
	*end = '\0';
	if (*p == '@') {
		if ((sp = strchr(p, ' ')) == NULL || sp - p > IRC_MAX_TAGS_LEN)
			return -1;
		*sp = '\0';
		parse_tags(p + 1, m);
		p = skip_spaces(sp + 1);
	}
	if ((size_t)(end - p) > IRC_MAX_LINE - 2)
		return -1;
	if (*p == ':') {
		char *bang, *at;

		p++;
		if ((sp = strchr(p, ' ')) == NULL)
			return -1;
		*sp = '\0';
		if ((at = strchr(p, '@')) != NULL) {
			*at = '\0';
			m->host = at + 1;
		}
		if ((bang = strchr(p, '!')) != NULL) {
			*bang = '\0';
			m->user = bang + 1;
		}
		m->nick = p;
		if (*m->nick == '\0')
			return -1;
		p = skip_spaces(sp + 1);
	}
	p = skip_spaces(p);
	if (*p == '\0' || *p == ':')
		return -1;
	m->command = p;
	while (*p != '\0' && *p != ' ') {
		if (*p >= 'a' && *p <= 'z')
			*p -= 'a' - 'A';
		p++;
	}
	while (*p == ' ') {
		*p = '\0';
		p = skip_spaces(p + 1);
		if (*p == '\0')
			break;
		if (*p == ':' || m->nparams == IRC_MAX_PARAMS - 1) {
			/* the trailing parameter takes the rest, spaces included */
			m->params[m->nparams++] = *p == ':' ? p + 1 : p;
			break;
		}
		m->params[m->nparams++] = p;
		while (*p != '\0' && *p != ' ')
			p++;
	}
	return 0;
}

const char *
irc_parse_tag(const struct irc_msg *m, const char *key)
{
	for (int i = 0; i < m->ntags; i++)
		if (strcmp(m->tags[i].key, key) == 0)
			return m->tags[i].value;
	return NULL;
}

static int
digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int64_t
irc_parse_time(const char *s)
{
	struct tm tm;
	int y, mo, d, h, mi, sec, ms = 0;
	time_t t;

	memset(&tm, 0, sizeof tm);
	if (strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) || s[7] != '-' ||
	    digits(s + 8, 2, &d) || s[10] != 'T' || digits(s + 11, 2, &h) || s[13] != ':' ||
	    digits(s + 14, 2, &mi) || s[16] != ':' || digits(s + 17, 2, &sec))
		return 0;
	if (s[19] == '.' && digits(s + 20, 3, &ms) != 0)
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
		return 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	if ((t = timegm(&tm)) == (time_t)-1)
		return 0;
	return (int64_t)t * 1000 + ms;
}

void
irc_parse_fold(char *dst, size_t dstlen, const char *src, bool ascii)
{
	size_t i;

	if (dstlen == 0)
		return;
	for (i = 0; i + 1 < dstlen && src[i] != '\0'; i++) {
		char c = src[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		else if (ascii)
			;
		else if (c == '[')
			c = '{';
		else if (c == ']')
			c = '}';
		else if (c == '\\')
			c = '|';
		else if (c == '~')
			c = '^';
		dst[i] = c;
	}
	dst[i] = '\0';
}

void
irc_parse_casefold(char *dst, size_t dstlen, const char *src)
{
	irc_parse_fold(dst, dstlen, src, false);
}

bool
irc_parse_same_as(const char *a, const char *b, bool ascii)
{
	char x[64], y[64];

	irc_parse_fold(x, sizeof x, a, ascii);
	irc_parse_fold(y, sizeof y, b, ascii);
	return strcmp(x, y) == 0;
}

bool
irc_parse_same(const char *a, const char *b)
{
	char x[64], y[64];

	irc_parse_casefold(x, sizeof x, a);
	irc_parse_casefold(y, sizeof y, b);
	return strcmp(x, y) == 0;
}
