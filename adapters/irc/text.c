/* text.c: cleaning of hostile text: UTF-8 validation, control characters, mIRC formatting codes. */
#include <stdio.h>
#include <string.h>

#include "irc.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t need, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		need = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		need = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		need = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are invalid */
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return need;
}

bool
irc_text_utf8_ok(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i, len - i);

		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

static bool
is_format(unsigned char c)
{
	/* bold, colour, hex colour, reset, monospace, reverse, italic, strike, underline */
	return c == 0x02 || c == 0x03 || c == 0x04 || c == 0x0F || c == 0x11 || c == 0x16 ||
	       c == 0x1D || c == 0x1E || c == 0x1F;
}

/* Skips the arguments of a colour code at s: \3 takes "NN[,NN]", \4 "RRGGBB[,RRGGBB]". */
static size_t
colour_args(const unsigned char *s, unsigned char code)
{
	size_t i = 0, max = code == 0x03 ? 2 : 6;
	bool hex = code == 0x04;

#define ARGCH(c) ((c) >= '0' && (c) <= '9' ? 1 : hex && (((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F')))
	while (i < max && ARGCH(s[i]))
		i++;
	if (i > 0 && s[i] == ',' && ARGCH(s[i + 1])) {
		size_t j = 1;

		while (j <= max && ARGCH(s[i + j]))
			j++;
		i += j;
	}
#undef ARGCH
	return i;
}

static size_t
clean(char *dst, size_t dstlen, const char *src, bool keep_format)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0, len = strlen(src);

	if (dstlen == 0)
		return 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n;

		if (c < 0x20 || c == 0x7F) {
			if (is_format(c) && keep_format) {
				size_t a = (c == 0x03 || c == 0x04) ? colour_args(s + i + 1, c) : 0;

				if (o + 1 + a >= dstlen)
					break;
				memcpy(dst + o, s + i, 1 + a);
				o += 1 + a;
				i += 1 + a;
				continue;
			}
			if (c == 0x03 || c == 0x04)
				i += colour_args(s + i + 1, c);
			else if (c == '\t' && o + 1 < dstlen)
				dst[o++] = ' ';
			i++;
			continue;
		}
		if ((n = utf8_len(s + i, len - i)) == 0) {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = '?';
			i++;
			continue;
		}
		/* C1 controls (U+0080..U+009F) are as hostile as C0 ones */
		if (n == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0) {
			i += 2;
			continue;
		}
		if (o + n >= dstlen)
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
	}
	dst[o] = '\0';
	return o;
}

size_t
irc_text_in(char *dst, size_t dstlen, const char *src)
{
	return clean(dst, dstlen, src, false);
}

size_t
irc_text_out(char *dst, size_t dstlen, const char *src, bool colors)
{
	return clean(dst, dstlen, src, colors);
}

void
irc_text_copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}
