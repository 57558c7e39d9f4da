/* utf8.c: the one UTF-8 decoder and the one boundary cut, for the engine, the bot and every adapter. */
#include <string.h>

#include "utf8.h"

size_t
utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t v;
	size_t len, i;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		if (cp != NULL)
			*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		v = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		v = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		v = s[0] & 0x07;
	} else {
		return 0; /* a continuation byte, or a lead byte of an overlong or too-large form */
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	/* Overlongs, surrogates and values past U+10FFFF are refused. */
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp != NULL)
		*cp = v;
	return len;
}

bool
utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if ((k = utf8_decode(s + i, n - i, NULL)) == 0)
			return false;
		i += k;
	}
	return true;
}

static bool
utf8_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

size_t
utf8_cut(const char *s, size_t len, size_t max)
{
	size_t cut = max, k;

	if (len <= max)
		return len;
	/* s[cut] starts the first character left out: back off at most three
	 * continuation bytes to the start of the character it belongs to.
	 * More than three cannot be one character: no character is split then. */
	for (k = 0; k < 3 && cut > 0 && utf8_continuation(s[cut]); k++)
		cut--;
	return utf8_continuation(s[cut]) ? max : cut;
}

size_t
utf8_cut_word(const char *s, size_t len, size_t max)
{
	size_t cut = utf8_cut(s, len, max), sp;

	if (cut == len)
		return len;
	for (sp = cut; sp > max / 2; sp--)
		if (s[sp] == ' ')
			return sp;
	return cut;
}

bool
utf8_hostile(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t
utf8_clean(const char *in, size_t len, char *out, size_t outlen, size_t max)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, o = 0;
	bool space = true; /* drops leading spaces and collapses runs */

	if (outlen == 0)
		return 0;
	if (max > outlen - 1)
		max = outlen - 1;
	while (i < len && s[i] != '\0') {
		uint32_t cp;
		size_t n = utf8_decode(in + i, len - i, &cp);

		if (n == 0) {
			i++;
			continue;
		}
		if (utf8_hostile(cp) || cp == ' ') {
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

size_t
utf8_repair(char *s)
{
	size_t len = strlen(s), r = 0, w = 0, k;

	while (r < len) {
		if ((k = utf8_decode(s + r, len - r, NULL)) == 0) {
			r++;
			continue;
		}
		memmove(s + w, s + r, k);
		w += k;
		r += k;
	}
	s[w] = '\0';
	return w;
}
