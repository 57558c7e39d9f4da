/* near.c: near variants of a name (bob_, bob|away, Bob2): someone without a seat who may be a seated player under another nick. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

/* The stem of a nick, as a client's alternatives and away nicks change it:
 * case folded; cut at '|' ("bob|away"); a separated "away"/"afk"/"zzz"
 * dropped ("bob_away"); trailing '_' '-' '`' '^' and digits dropped. */
static void
near_stem(char *out, size_t len, const char *name)
{
	static const char *const tails[] = { "away", "afk", "zzz", "off", "work" };
	size_t n = 0;

	for (; *name != '\0' && *name != '|' && n + 1 < len; name++)
		out[n++] = (char)tolower((unsigned char)*name);
	out[n] = '\0';
	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		size_t t = strlen(tails[i]);

		if (n > t + 1 && strcmp(out + n - t, tails[i]) == 0 && strchr("_-`^[", out[n - t - 1]) != NULL) {
			n -= t + 1;
			out[n] = '\0';
			break;
		}
	}
	while (n > 0 && (strchr("_-`^", out[n - 1]) != NULL || isdigit((unsigned char)out[n - 1])))
		out[--n] = '\0';
}

bool
near_variant(const char *a, const char *b)
{
	char x[64], y[64];

	if (strcasecmp(a, b) == 0)
		return false;   /* the same name: no variant */
	near_stem(x, sizeof x, a);
	near_stem(y, sizeof y, b);
	return strlen(x) >= 2 && strcmp(x, y) == 0;
}

int
near_seat(const struct session *s, const char *name)
{
	for (int i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0 && near_variant(name, s->seats[i].name))
			return i;
	return -1;
}
