/* text.c: hostile-input hygiene (one pass on the way in: UTF-8, control characters); words are lib/command.c's. */
#include <string.h>

#include "bot.h"

size_t
text_clean(char *s)
{
	size_t len = strlen(s), i = 0, o = 0, k;
	uint32_t cp;

	while (i < len) {
		if ((k = utf8_decode(s + i, len - i, &cp)) == 0) {
			s[o++] = '?';
			i++;
			continue;
		}
		if (utf8_hostile(cp)) {
			/* Tabs read as spaces; every other control (CR, LF, mIRC codes,
			 * the marks of styled text, bidi overrides) goes. */
			if (cp == '\t')
				s[o++] = ' ';
			i += k;
			continue;
		}
		memmove(s + o, s + i, k);
		o += k;
		i += k;
	}
	s[o] = '\0';
	return o;
}

bool
text_plain(const char *s)
{
	size_t len = strlen(s), i = 0, k;
	uint32_t cp;

	while (i < len) {
		if ((k = utf8_decode(s + i, len - i, &cp)) == 0 || utf8_hostile(cp))
			return false;
		i += k;
	}
	return true;
}
