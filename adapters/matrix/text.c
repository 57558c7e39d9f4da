/* text.c: hygiene for strings from the homeserver: UTF-8 validation, control characters, length, ids, URL encoding. */
#include <stdio.h>
#include <string.h>

#include "matrix.h"
#include "utf8.h"

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
