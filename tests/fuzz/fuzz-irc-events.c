/* fuzz-irc-events.c: libFuzzer target for the IRC adapter's event handling: hostile server lines into the adapter and the real bot; nothing it queues may break the wire.
 *
 * Each input is a script of server lines split on '\n' (a '\r' before it is
 * dropped, as the connection does), handed one by one to irc_events_line on
 * an adapter that is registered and in #cards, with the real bot behind it
 * (commands run, games are dealt, computer seats move: the clock moves 1 ms
 * after each line).  After each line every line the adapter has queued,
 * protocol and messages, as irc_send_flush would write it, must hold no CR,
 * LF or NUL and be at most 510 bytes (512 with its CR LF).  Any violation
 * aborts.
 *
 * Fuzz targets are built without tests/lib; the harness (a bot with the IRC
 * adapter and no socket) is included from there whole.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ircsim.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fz_check(struct ircsim *s, size_t from)
{
	for (size_t i = from; i < s->nsent; i++) {
		char line[IRC_MAX_LINE + 1], target[64];
		size_t n = strlen(s->sent[i]);
		const char *t;
		int ch;

		if (n >= sizeof line) {
			fprintf(stderr, "fuzz-irc-events: a queued line of %zu bytes\n", n);
			abort();
		}
		memcpy(line, s->sent[i], n + 1);
		/* a message to a channel passes irc_chan_outgoing on its way out */
		t = strchr(line, ' ');
		if (t != NULL && (strncmp(line, "PRIVMSG ", 8) == 0 || strncmp(line, "NOTICE ", 7) == 0)) {
			snprintf(target, sizeof target, "%.*s", (int)strcspn(t + 1, " "), t + 1);
			if ((ch = irc_chan_find(s->irc, target)) >= 0)
				irc_chan_outgoing(s->irc, ch, line, &n);
		}
		if (n > IRC_MAX_LINE - 2 || n != strlen(line) || strpbrk(line, "\r\n") != NULL) {
			fprintf(stderr, "fuzz-irc-events: a queued line breaks the wire: %zu bytes: %.600s\n", n, line);
			abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ircsim *s;
	size_t start = 0;

	if (size > 64 * 1024)
		return 0;
	log_level = 0;
	if ((s = ircsim_new(":memory:", NULL, "nick_poll = 5\n")) == NULL)
		abort();
	log_level = 0;      /* the adapter's own complaints are not the point */
	fz_check(s, 0);
	while (start < size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t end = nl != NULL ? (size_t)(nl - data) : size, len = end - start, from;
		char *line;

		if (len > 0 && data[start + len - 1] == '\r')
			len--;
		/* the connection hands over lines without their end, cut at IRC_MAX_WIRE */
		if (len > 0 && len < IRC_MAX_WIRE) {
			line = malloc(len + 1);
			memcpy(line, data + start, len);
			line[len] = '\0';
			from = s->nsent;
			/* (a NUL inside makes the parser refuse the line, as on the wire) */
			irc_events_line(s->irc, line, len);
			reply_flush(s->bot);
			ircsim_collect(s);
			fz_check(s, from);
			free(line);
			from = s->nsent;
			ircsim_advance(s, 1);
			fz_check(s, from);
		}
		start = end + 1;
	}
	/* the clocks that were armed: reminders, nick polls */
	for (int i = 0; i < 3; i++) {
		size_t from = s->nsent;

		ircsim_advance(s, 61000);
		irc_regain_tick(s->irc, s->now);
		ircsim_collect(s);
		fz_check(s, from);
	}
	ircsim_free(s);
	return 0;
}
