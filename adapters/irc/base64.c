/* base64.c: base64 encoding for SASL AUTHENTICATE payloads. */
#include "irc.h"

int
irc_base64(char *dst, size_t dstlen, const unsigned char *src, size_t len)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;

	if (dstlen < 4 * ((len + 2) / 3) + 1)
		return -1;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)src[i] << 16;

		if (i + 1 < len)
			v |= (unsigned)src[i + 1] << 8;
		if (i + 2 < len)
			v |= src[i + 2];
		dst[o++] = tab[(v >> 18) & 63];
		dst[o++] = tab[(v >> 12) & 63];
		dst[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
		dst[o++] = i + 2 < len ? tab[v & 63] : '=';
	}
	dst[o] = '\0';
	return (int)o;
}
