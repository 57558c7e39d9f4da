/* split.c: cuts long text into pieces that fit an IRC line, on UTF-8 character boundaries. */
#include "irc.h"

size_t
irc_split(const char *s, size_t len, size_t max)
{
	size_t cut, i;

	if (len <= max)
		return len;
	cut = max;
	/* back off continuation bytes (10xxxxxx) so no character is cut in two */
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	if (cut == 0)
		cut = max;      /* not UTF-8 at all: cut anywhere rather than loop */
	for (i = cut; i > max / 2; i--)
		if (s[i] == ' ')
			return i;
	return cut;
}
