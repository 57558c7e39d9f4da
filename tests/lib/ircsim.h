/* ircsim.h: the real bot with the real IRC adapter, its connection replaced by lines we hand it and the lines it queues. */
#ifndef HF_TEST_IRCSIM_H
#define HF_TEST_IRCSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon.h"
#include "irc/client.h"

struct ircsim {
	struct loop *loop;
	struct bot *bot;
	struct adapter *ad;
	struct irc *irc;
	int64_t now;              /* the loop's clock, ms */
	uint64_t seed;
	/* true: lines stay in the adapter's queues (as behind a slow pace)
	 * until ircsim_collect, ircsim_sent or ircsim_forget takes them */
	bool hold;
	/* true: lines are taken as the connection would write them, at the
	 * adapter's pace on the loop's clock (irc_send_next), not all at once */
	bool paced;
	/* every line the adapter queued (protocol and messages), in order */
	char secret[32];          /* ircsim_new_nickserv's password file, "" if none */
	char **sent;
	size_t nsent, cap, seen;
};

/* A bot on database db (":memory:" is fine) with one IRC adapter "irc/sim"
 * (nick HandFoot, channel #cards unless irc_extra names channels; bot_extra
 * and irc_extra appended to their sections), registered and in its channels as the server would have it:
 * nothing goes on a network.  NULL if the configuration is refused. */
struct ircsim *ircsim_new(const char *db, const char *bot_extra, const char *irc_extra);
/* The same, the bot identifying to NickServ with password (a file of
 * its own, removed by ircsim_free). */
struct ircsim *ircsim_new_nickserv(const char *db, const char *password);
void ircsim_free(struct ircsim *s);
/* One line from the server (no CR LF), handled whole; the replies flushed. */
void ircsim_line(struct ircsim *s, const char *line);
/* Advances the loop's clock by ms, running timers; the replies flushed. */
void ircsim_advance(struct ircsim *s, int64_t ms);
/* Takes what the adapter queued into s->sent; the number of new lines. */
size_t ircsim_collect(struct ircsim *s);
/* The first line sent since the last ircsim_forget holding every needle (NULL-terminated); NULL if none. */
const char *ircsim_sent(struct ircsim *s, const char *needle, ...);
/* Lines sent from now on only count for ircsim_sent. */
void ircsim_forget(struct ircsim *s);

#endif
