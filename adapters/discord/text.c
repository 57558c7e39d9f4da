/* text.c: Discord text (cleaned on the way in by lib/utf8.h's utf8_clean): length in UTF-16 units, Markdown escapes, splitting on line boundaries. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rbuf.h"
#include "text.h"
#include "utf8.h"

size_t
discord_text_units(const char *s, size_t len)
{
	size_t i = 0, n = 0, k;
	uint32_t cp;

	while (i < len) {
		if ((k = utf8_decode(s + i, len - i, &cp)) == 0) {
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

void
discord_text_escape_add(struct rbuf *out, const char *s, size_t n, bool line_start)
{
	size_t i = 0, digits;

	if (line_start) {
		/* the start of a line: lists ("- ", "+ ", "1. ") would be read as Markdown */
		for (digits = 0; digits < n && s[digits] >= '0' && s[digits] <= '9'; digits++)
			;
		if (n > 0 && (s[0] == '-' || s[0] == '+')) {
			rbuf_addn(out, "\\", 1);
			rbuf_addn(out, s, 1);
			i = 1;
		} else if (digits > 0 && digits < n && s[digits] == '.') {
			rbuf_addn(out, s, digits);
			rbuf_add(out, "\\.");
			i = digits + 1;
		}
	}
	for (; i < n; i++) {
		char c = s[i];

		/* ( ) need none: with [ ] escaped no masked link can form, and
		 * "Your hand (13)" reads as it is in the raw text too */
		if (c != '\0' && strchr("\\*_~`|<>[]#", c) != NULL) {
			char esc[2] = { '\\', c };

			rbuf_addn(out, esc, 2);
		} else if (c == '@') {
			/* U+200B ZERO WIDTH SPACE: @everyone stays text */
			rbuf_add(out, "@\xe2\x80\x8b");
		} else if (c == '\n' || c == '\r') {
			rbuf_addn(out, " ", 1);
		} else
			rbuf_addn(out, &c, 1);
	}
}

int
discord_text_escape(const char *s, char *out, size_t outlen)
{
	struct rbuf b = { 0 };
	int w = -1;

	if (outlen == 0)
		return -1;
	discord_text_escape_add(&b, s, strlen(s), true);
	if (b.len < outlen) {
		memcpy(out, b.s != NULL ? b.s : "", b.len);
		out[b.len] = '\0';
		w = (int)b.len;
	} else
		out[0] = '\0';
	rbuf_free(&b);
	return w;
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
	size_t i = 0, units = 0, k, last_nl = 0, last_sp = 0, last_ok = 0;
	bool nl = false, sp = false;
	uint32_t cp;

	while (i < len) {
		size_t w;

		if ((k = utf8_decode(s + i, len - i, &cp)) == 0) {
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
		last_ok = (k = utf8_decode(s, len, NULL)) == 0 ? 1 : k;
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
