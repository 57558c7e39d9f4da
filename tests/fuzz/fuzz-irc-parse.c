/* fuzz-irc-parse.c: libFuzzer target for the IRC line parser and the text cleaners. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irc/irc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, out[1024];
	struct irc_msg m;

	if (size > IRC_MAX_WIRE + 64)
		return 0;
	if ((buf = malloc(size + 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (irc_parse(buf, size, &m) == 0) {
		const char *t;

		for (int i = 0; i < m.nparams; i++) {
			irc_text_in(out, sizeof out, m.params[i]);
		}
		if ((t = irc_parse_tag(&m, "time")) != NULL)
			(void)irc_parse_time(t);
		if (m.nick != NULL)
			irc_parse_casefold(out, 64, m.nick);
	}
	free(buf);
	return 0;
}
