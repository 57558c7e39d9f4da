/* text.c: hostile-input hygiene (UTF-8, control characters) and line cutting. */
#include <string.h>

#include "bot.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0 if invalid. */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2; cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3; cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4; cp = s[0] & 0x07;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlongs, surrogates and values past U+10FFFF are refused. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool
text_utf8_valid(const char *s, size_t len)
{
	size_t i = 0, k;

	while (i < len) {
		if ((k = utf8_seq((const unsigned char *)s + i, len - i)) == 0)
			return false;
		i += k;
	}
	return true;
}

size_t
text_clean(char *s)
{
	const unsigned char *in = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, o = 0, k;

	while (i < len) {
		k = utf8_seq(in + i, len - i);
		if (k == 0) {
			s[o++] = '?';
			i++;
			continue;
		}
		if (k == 1 && (in[i] < 0x20 || in[i] == 0x7f)) {
			/* Tabs read as spaces; every other control (CR, LF, mIRC codes) goes. */
			if (in[i] == '\t')
				s[o++] = ' ';
			i++;
			continue;
		}
		/* C1 controls (U+0080..U+009F) and bidi overrides are dropped too. */
		if (k == 2 && in[i] == 0xc2 && in[i + 1] < 0xa0) {
			i += 2;
			continue;
		}
		if (k == 3 && in[i] == 0xe2 && in[i + 1] == 0x80 && (in[i + 2] >= 0xaa && in[i + 2] <= 0xae)) {
			i += 3;
			continue;
		}
		memmove(s + o, s + i, k);
		o += k;
		i += k;
	}
	s[o] = '\0';
	return o;
}

size_t
text_cut(const char *s, size_t len, size_t max)
{
	size_t cut, sp;

	if (len <= max)
		return len;
	cut = max;
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	for (sp = cut; sp > max / 2; sp--)
		if (s[sp] == ' ')
			return sp;
	return cut > 0 ? cut : max;
}

int
text_split(char *s, char **argv, int max)
{
	int n = 0;

	while (*s != '\0') {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (*s == '\0')
			break;
		if (n == max)
			return -1;
		argv[n++] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
	}
	return n;
}
