/* text.c: text from the server made safe to keep and log: mIRC formatting codes and control characters out, UTF-8 checked. */
#include <string.h>

#include "irc.h"
#include "utf8.h"

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

size_t
irc_text_in(char *dst, size_t dstlen, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (dstlen == 0)
		return 0;
	/* the wire's own codes out first (a tab as a space); the rest is the
	 * one cleaning every service's text has, which also drops a character
	 * this cut leaves half */
	for (size_t i = 0; s[i] != '\0' && o + 1 < dstlen; i++) {
		if (s[i] == 0x03 || s[i] == 0x04)
			i += colour_args(s + i + 1, s[i]);
		else if (s[i] == '\t')
			dst[o++] = ' ';
		else if (s[i] >= 0x20 && s[i] != 0x7F)
			dst[o++] = (char)s[i];
	}
	return utf8_clean(dst, o, dst, dstlen, dstlen - 1);
}

size_t
irc_text_unformat(char *dst, size_t dstlen, const char *src)
{
	size_t o = 0, len = strlen(src), i, n;

	if (dstlen == 0)
		return 0;
	for (i = 0; i < len && o + 1 < dstlen;) {
		unsigned char c = (unsigned char)src[i];

		if (c == 0x02 || c == 0x03 || c == 0x04 || c == 0x0F || c == 0x11 || c == 0x16 || c == 0x1D ||
		    c == 0x1E || c == 0x1F) {
			/* bold, colour (and its digits), hex colour, reset, monospace, reverse, italic, strike, underline */
			if (c == 0x03 || c == 0x04)
				i += colour_args((const unsigned char *)src + i + 1, c);
			i++;
			continue;
		}
		dst[o++] = src[i++];
	}
	/* a cut never splits a character (dst[o], the NUL's place, holds the
	 * next byte for utf8_cut to see); anything else is the bot's to clean */
	n = o;
	if (i < len) {
		dst[o] = src[i];
		n = utf8_cut(dst, o + 1, o);
	}
	dst[n] = '\0';
	return n;
}

void
irc_text_copy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (len == 0)
		return;
	if (src == NULL)
		src = "";
	n = utf8_cut(src, strlen(src), len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}
