/* fuzz-web-frames.c: libFuzzer target: what a page sends over its socket, into the web table's frame parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web/web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_frame f;
	char why[128];
	size_t i;

	if (web_frame_parse((const char *)data, size, &f, why, sizeof why) < 0) {
		if (why[0] == '\0')
			abort();
		return 0;
	}
	/* what passes is a ping, or a command a page offers in card text only */
	if (f.type == WEB_FRAME_PING)
		return 0;
	if (f.type != WEB_FRAME_ACT || f.cmd[0] == '\0' || strlen(f.cmd) > WEB_MAX_CMD || size > WEB_MAX_FRAME)
		abort();
	for (i = 0; f.cmd[i] != '\0'; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,:*", f.cmd[i]) == NULL)
			abort();
	return 0;
}
