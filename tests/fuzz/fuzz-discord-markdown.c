/* fuzz-discord-markdown.c: libFuzzer target for the Discord encoder: any styled text becomes messages under 2000 characters that mention nobody but the ping. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discord/markdown.h"
#include "discord/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PING "111222333444555666"

static void
check(void *ctx, const char *s, size_t n)
{
	const char *p;

	(void)ctx;
	if (n == 0 || strlen(s) != n || discord_text_units(s, n) > DISCORD_MAX_CONTENT)
		__builtin_trap();
	/* no mention but the ping's own, no @everyone or @here: "<" and "@" are escaped */
	for (p = s; (p = strstr(p, "<@")) != NULL; p += 2)
		if (((p[2] >= '0' && p[2] <= '9') || p[2] == '!' || p[2] == '&') && strncmp(p + 2, PING ">", sizeof PING) != 0)
			__builtin_trap();
	if (strstr(s, "@everyone") != NULL || strstr(s, "@here") != NULL)
		__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the first byte chooses the ping's name from the input's start; the rest is the styled text */
	struct discord_md_ping ping = { PING, NULL };
	char name[8];

	if (size < 1)
		return 0;
	memcpy(name, data + 1, size - 1 < 7 ? size - 1 : 7);
	name[size - 1 < 7 ? size - 1 : 7] = '\0';
	ping.name = (data[0] & 1) ? name : NULL;
	discord_markdown_split((const char *)data + 1, size - 1, (data[0] & 2) ? &ping : NULL, check, NULL);
	return 0;
}
