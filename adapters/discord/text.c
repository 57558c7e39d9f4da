/* text.c: Discord text: clean UTF-8 in, length in UTF-16 units, Markdown escapes, splitting on line boundaries. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* Decodes one UTF-8 character at s (n bytes left): its length, or 0 if the
 * bytes are not valid UTF-8 (overlong, surrogates, above U+10FFFF). */
static size_t
decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len, i;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) || (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	*cp = c;
	return len;
}

size_t
discord_text_clean(const char *in, size_t len, char *out, size_t outlen, size_t max)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, o = 0, k;
	uint32_t cp;

	if (outlen == 0)
		return 0;
	if (max > outlen - 1)
		max = outlen - 1;
	while (i < len) {
		if ((k = decode(s + i, len - i, &cp)) == 0) {
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029) {
			if (o + 1 > max)
				break;
			/* no run of spaces at the start, nor doubled */
			if (o > 0 && out[o - 1] != ' ')
				out[o++] = ' ';
			i += k;
			continue;
		}
		if (o + k > max)
			break;
		memcpy(out + o, s + i, k);
		o += k;
		i += k;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	{
		size_t lead = 0;

		while (lead < o && out[lead] == ' ')
			lead++;
		memmove(out, out + lead, o - lead);
		o -= lead;
	}
	out[o] = '\0';
	return o;
}

size_t
discord_text_units(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = 0, k;
	uint32_t cp;

	while (i < len) {
		if ((k = decode(u + i, len - i, &cp)) == 0) {
			/* not ours to send: count it as one, as the cleaner drops it */
			i++;
			n++;
			continue;
		}
		n += cp >= 0x10000 ? 2 : 1;
		i += k;
	}
	return n;
}

int
discord_text_escape(const char *s, char *out, size_t outlen)
{
	size_t o = 0, i = 0, digits;

	if (outlen == 0)
		return -1;
#define PUT(c) do { if (o + 1 >= outlen) goto full; out[o++] = (c); } while (0)
	/* the start of the text may be the start of a line: lists and numbered lists */
	digits = strspn(s, "0123456789");
	if (s[0] == '-' || s[0] == '+') {
		PUT('\\');
		PUT(s[0]);
		i = 1;
	} else if (digits > 0 && s[digits] == '.') {
		for (; i < digits; i++)
			PUT(s[i]);
		PUT('\\');
		PUT('.');
		i++;
	}
	for (; s[i] != '\0'; i++) {
		char c = s[i];

		if (strchr("\\*_~`|<>[]()#", c) != NULL) {
			PUT('\\');
			PUT(c);
		} else if (c == '@') {
			/* U+200B ZERO WIDTH SPACE: @everyone stays text */
			PUT('@');
			PUT('\xe2');
			PUT('\x80');
			PUT('\x8b');
		} else if (c == '\n' || c == '\r') {
			PUT(' ');
		} else
			PUT(c);
	}
#undef PUT
	out[o] = '\0';
	return (int)o;
full:
	out[0] = '\0';
	return -1;
}

/* True if a cut at byte cut of s would fall inside a backslash escape or a <...> tag. */
static bool
bad_cut(const char *s, size_t cut)
{
	size_t bs = 0, i;

	for (i = cut; i > 0 && s[i - 1] == '\\'; i--)
		bs++;
	if (bs % 2 == 1)
		return true;
	for (i = cut; i > 0 && cut - i < 40; i--) {
		if (s[i - 1] == '>' || s[i - 1] == '\n' || s[i - 1] == ' ')
			return false;
		if (s[i - 1] == '<')
			return true;
	}
	return false;
}

size_t
discord_text_chunk(const char *s, size_t len, size_t max_units, size_t *next)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, units = 0, k, last_nl = 0, last_sp = 0, last_ok = 0;
	bool nl = false, sp = false;
	uint32_t cp;

	while (i < len) {
		size_t w;

		if ((k = decode(u + i, len - i, &cp)) == 0) {
			k = 1;
			cp = 0xfffd;
		}
		w = cp >= 0x10000 ? 2 : 1;
		if (units + w > max_units)
			break;
		if (s[i] == '\n') {
			last_nl = i;
			nl = true;
		} else if (s[i] == ' ') {
			last_sp = i;
			sp = true;
		}
		units += w;
		i += k;
		if (!bad_cut(s, i))
			last_ok = i;
	}
	if (i >= len) {
		*next = len;
		return len;
	}
	if (nl && last_nl > 0) {
		*next = last_nl + 1;
		return last_nl;
	}
	if (sp && last_sp > 0 && !bad_cut(s, last_sp)) {
		*next = last_sp + 1;
		return last_sp;
	}
	if (last_ok == 0)
		/* nothing to cut at (max_units below one character): one character, whatever it is */
		last_ok = (k = decode(u, len, &cp)) == 0 ? 1 : k;
	*next = last_ok;
	return last_ok;
}

bool
discord_text_snowflake(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= 20 && strspn(s, "0123456789") == n;
}

int
discord_text_player(const char *user_id, char *out, size_t outlen)
{
	int w;

	if (!discord_text_snowflake(user_id))
		return -1;
	w = snprintf(out, outlen, "discord:%s", user_id);
	return w < 0 || (size_t)w >= outlen ? -1 : 0;
}

int
discord_text_user_of(const char *player, char *out, size_t outlen)
{
	int w;

	if (strncmp(player, "discord:", 8) != 0 || !discord_text_snowflake(player + 8))
		return -1;
	w = snprintf(out, outlen, "%s", player + 8);
	return w < 0 || (size_t)w >= outlen ? -1 : 0;
}
