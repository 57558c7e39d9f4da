/* refused.c: channels Discord refused the bot's lines in (403, 404): told to the core once, their queue dropped, nothing more posted there. */
#include <stdio.h>
#include <string.h>

#include "client.h"

static int
find(const struct discord_client *c, const char *channel)
{
	for (size_t i = 0; i < c->nrefused; i++)
		if (strcmp(c->refused[i], channel) == 0)
			return (int)i;
	return -1;
}

bool
discord_refused_has(const struct discord_client *c, const char *channel)
{
	return channel != NULL && find(c, channel) >= 0;
}

void
discord_refused_clear(struct discord_client *c, const char *channel)
{
	int i = find(c, channel);

	if (i < 0)
		return;
	memmove(c->refused[i], c->refused[i + 1], (c->nrefused - (size_t)i - 1) * sizeof c->refused[0]);
	c->nrefused--;
	discord_client_log(c, LOG_LVL_INFO, "channel %s: the bot may post there again", channel);
}

/* opcodes-and-status-codes.mdx's JSON codes, said plainly */
static const char *
why_of(long status, long long code)
{
	if (code == 50001)
		return "the bot cannot see that channel (it lacks View Channel there)";
	if (code == 50013)
		return "the bot may not post there (it lacks Send Messages, or Send Messages in Threads in a thread)";
	if (status == 404)
		return "that channel or thread no longer exists, or is archived";
	return "the bot may not post there";
}

void
discord_refused_mark(struct discord_client *c, const char *channel, long status, long long code)
{
	struct bot_event ev = { .type = BOT_EV_SEND_FAILED };
	struct discord_req *r, *nr;
	size_t dropped = 0;

	if (!discord_text_snowflake(channel) || find(c, channel) >= 0)
		return;
	if (c->nrefused == DISCORD_REFUSED_MAX) {
		/* the oldest is forgotten: at worst one more refused line there */
		memmove(c->refused[0], c->refused[1], (DISCORD_REFUSED_MAX - 1) * sizeof c->refused[0]);
		c->nrefused--;
	}
	snprintf(c->refused[c->nrefused++], DISCORD_ID_LEN, "%s", channel);
	/* every further line there would be another 403 toward Discord's invalid-request ban */
	for (r = c->reqs; r != NULL; r = nr) {
		nr = r->next;
		if (r->kind == DISCORD_REQ_ROOM && strcmp(r->channel, channel) == 0 && discord_rest_withdraw(c->rest, r) > 0) {
			discord_client_req_done(r);
			dropped++;
		}
	}
	/* and the lines still waiting their turn in the lanes */
	dropped += discord_lanes_drop(c, channel);
	discord_client_log(c, LOG_LVL_WARNING, "channel %s: HTTP %ld, code %lld: %s; %zu queued line%s dropped, "
	                   "nothing more is posted there until the bot may post again", channel, status, code,
	                   why_of(status, code), dropped, dropped == 1 ? "" : "s");
	ev.room = channel;
	ev.text = why_of(status, code);
	adapter_emit(c->a, &ev);
}
