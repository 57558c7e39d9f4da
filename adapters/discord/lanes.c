/* lanes.c: Discord's channel messages in lib/outq's lanes (docs/OUTQ.md), handed to the REST buckets while their channel has fewer than DISCORD_POSTS_AHEAD requests queued. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
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

/* Its turn comes while its channel's bucket has fewer than DISCORD_POSTS_AHEAD of its requests. */
static enum outq_ready
ready(void *ctx, void *payload)
{
	struct discord_client *c = ctx;
	const struct lane_item *li = payload;

	return discord_rest_pending_for(c->rest, li->channel) < DISCORD_POSTS_AHEAD ? OUTQ_GO : OUTQ_WAIT;
}

int
discord_lanes_add(struct discord_client *c, const char *channel, const char *key, const char *asker, bool player,
                  size_t bytes, void *msg)
{
	struct lane_item *li = xcalloc(1, sizeof *li);
	struct outq_msg m = { .target = channel, .key = key, .asker = asker, .player = player, .bytes = bytes,
	                      .payload = li };

	snprintf(li->channel, sizeof li->channel, "%s", channel);
	li->msg = msg;
	if (c->lanes == NULL)
		c->lanes = outq_new(&(struct outq_limits){ .lane_items = LANE_MAX, .items = LANES_MAX }, dropped, c);
	/* the facts only: outq decides the class, and replaces an older answer still waiting */
	if (outq_push(c->lanes, &m) == NULL) {
		free(li);
		return -1;
	}
	return 0;
}

void
discord_lanes_pump(struct discord_client *c)
{
	struct outq_item *it;

	if (c->lanes == NULL || c->rest == NULL)
		return;
	while ((it = outq_next(c->lanes, ready, c)) != NULL) {
		struct lane_item *li = outq_remove(c->lanes, it);

		discord_outbox_post(c, li->msg);
		free(li);
	}
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
	outq_free(c->lanes);
	c->lanes = NULL;
}
