/* lanes.c: Discord's channel messages in lib/outq's lanes (docs/OUTQ.md), each handed to the REST buckets only when its request would start at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "loop.h"
#include "xmalloc.h"

#define LANE_MAX  200             /* messages waiting per lane (a room, an asker) */
#define LANES_MAX 4000            /* and in all */

/* A message waiting, and the channel whose bucket it goes through. */
struct lane_item {
	char channel[DISCORD_ID_LEN];
	void *msg;                    /* outbox.c's */
};

static void
dropped(void *ctx, void *payload)
{
	struct lane_item *li = payload;

	(void)ctx;
	discord_outbox_discard(li->msg);
	free(li);
}

/* Its turn comes when its request would start at once: nothing of its
 * channel ahead of it in REST, its bucket open.  One handed to REST any
 * sooner would wait there, past outq: an answer no newer one could replace,
 * a game's line behind a stranger's backlog in the channel's bucket.  A
 * bucket spent until its reset, with nothing ahead (so no answer from REST
 * to pump the lanes again), sets the lanes' timer. */
static enum outq_ready
ready(void *ctx, void *payload)
{
	struct discord_client *c = ctx;
	const struct lane_item *li = payload;
	char path[DISCORD_ID_LEN + 32];
	int64_t wait;

	snprintf(path, sizeof path, "/channels/%s/messages", li->channel);
	if ((wait = discord_rest_wait(c->rest, "POST", path)) == 0)
		return OUTQ_GO;
	if (wait > 0 && (c->lanes_wake == 0 || wait < c->lanes_wake))
		c->lanes_wake = wait;
	return OUTQ_WAIT;
}

int
discord_lanes_add(struct discord_client *c, const char *channel, const struct outq_msg *facts, void *msg)
{
	struct lane_item *li = xcalloc(1, sizeof *li);
	struct outq_msg m = *facts;
	struct outq_item *it;

	m.target = channel;
	m.payload = li;
	snprintf(li->channel, sizeof li->channel, "%s", channel);
	li->msg = msg;
	if (c->lanes == NULL)
		c->lanes = outq_new(&(struct outq_limits){ .lane_items = LANE_MAX, .items = LANES_MAX }, dropped, c);
	/* the facts only: outq decides the class, and replaces an older answer still waiting */
	if ((it = outq_push(c->lanes, &m)) == NULL) {
		free(li);
		return -1;
	}
	if (outq_payload(it) != li) {
		/* a pointer at an answer still waiting: that one says it */
		discord_outbox_discard(msg);
		free(li);
	}
	return 0;
}

static void
wake(void *data)
{
	discord_lanes_pump(data);
}

void
discord_lanes_pump(struct discord_client *c)
{
	struct outq_item *it;

	if (c->lanes == NULL || c->rest == NULL)
		return;
	c->lanes_wake = 0;
	while ((it = outq_next(c->lanes, ready, c)) != NULL) {
		struct lane_item *li = outq_remove(c->lanes, it);

		discord_outbox_post(c, li->msg);
		free(li);
	}
	/* an answer waits for its bucket's reset, and no answer from REST will
	 * call us before it: the timer does */
	if (c->lanes_wake > 0)
		loop_once(c->loop, &c->lanes_timer, c->lanes_wake, wake, c);
}

size_t
discord_lanes_pending(const struct discord_client *c, const char *room)
{
	return c->lanes != NULL ? outq_pending(c->lanes, room) : 0;
}

size_t
discord_lanes_queued(const struct discord_client *c)
{
	return c->lanes != NULL ? outq_queued(c->lanes) : 0;
}

size_t
discord_lanes_drop(struct discord_client *c, const char *channel)
{
	if (c->lanes == NULL)
		return 0;
	return channel != NULL ? outq_drop_target(c->lanes, channel) : outq_drop_all(c->lanes);
}

void
discord_lanes_free(struct discord_client *c)
{
	loop_once_cancel(c->loop, &c->lanes_timer);
	outq_free(c->lanes);
	c->lanes = NULL;
}
