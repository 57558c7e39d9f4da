/* prompt.c: each channel's latest turn line number, carried in its buttons: a press on an older line is stale. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "find.h"

static struct discord_prompt *
find(struct discord_client *c, const char *channel)
{
	return FIND_STR(c->prompts, c->nprompts, channel, channel);
}

unsigned
discord_prompt_next(struct discord_client *c, const char *channel)
{
	struct discord_prompt *p = find(c, channel);

	if (++c->prompt_seq == 0)
		c->prompt_seq = 1;
	if (p == NULL) {
		if (c->nprompts == DISCORD_PROMPTS_MAX) {
			/* the least recently numbered channel is forgotten: its buttons turn stale */
			memmove(&c->prompts[0], &c->prompts[1], (DISCORD_PROMPTS_MAX - 1) * sizeof c->prompts[0]);
			c->nprompts--;
		}
		p = &c->prompts[c->nprompts++];
		snprintf(p->channel, sizeof p->channel, "%s", channel);
	}
	p->n = c->prompt_seq;
	return p->n;
}

unsigned
discord_prompt_current(struct discord_client *c, const char *channel)
{
	struct discord_prompt *p = find(c, channel);

	return p != NULL ? p->n : 0;
}
