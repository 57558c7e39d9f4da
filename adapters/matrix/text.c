/* text.c: hygiene for strings from the homeserver: UTF-8 validation, control characters, length, ids, URL encoding. */
#include <stdio.h>
#include <string.h>

#include "matrix.h"

/* Length of the valid UTF-8 sequence at s (n bytes left) and its code point;
 * 0 if the sequence is invalid (overlong, surrogate, beyond U+10FFFF, cut). */
static size_t
utf8_next(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2; v = c & 0x1f; min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3; v = c & 0x0f; min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4; v = c & 0x07; min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

static bool
is_control(unsigned cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	       cp == 0x2028 || cp == 0x2029 ||
	       /* bidi overrides and isolates: they would reorder the bot's reply */
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t
matrix_text_clean(const char *in, size_t len, char *out, size_t outlen, size_t max)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, o = 0;
	bool space = true; /* drops leading spaces and collapses runs */

	if (outlen == 0)
		return 0;
	if (max > outlen - 1)
		max = outlen - 1;
	while (i < len && s[i] != '\0') {
		unsigned cp;
		size_t n = utf8_next(s + i, len - i, &cp);

		if (n == 0) {
			i++;
			continue;
		}
		if (is_control(cp) || cp == ' ') {
			if (!space && o + 1 <= max) {
				out[o++] = ' ';
				space = true;
			}
			i += n;
			continue;
		}
		if (o + n > max)
			break;
		memmove(out + o, s + i, n); /* in place is allowed */
		o += n;
		i += n;
		space = false;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	return o;
}

bool
matrix_text_id_ok(const char *s, char sigil)
{
	size_t n;

	if (s == NULL)
		return false;
	n = strlen(s);
	if (n < 2 || n > MATRIX_MAX_ID)
		return false;
	if (sigil != 0 && s[0] != sigil)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

int
matrix_text_urlenc(const char *s, char *out, size_t outlen)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		             (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~';

		if (o + (plain ? 1 : 3) >= outlen)
			return -1;
		if (plain)
			out[o++] = (char)c;
		else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	if (o >= outlen)
		return -1;
	out[o] = '\0';
	return 0;
}
