/* text.c: strings for and from the homeserver: ids, URL encoding (text is cleaned by lib/utf8.c's utf8_clean). */
#include <stdio.h>
#include <string.h>

#include "matrix.h"

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
	return matrix_text_visible(s, n);
}

bool
matrix_text_visible(const char *s, size_t n)
{
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
