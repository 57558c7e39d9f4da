/* route.c: chooses the way each message goes out; a private line is never given a way that others can read. */
#include <string.h>

#include "route.h"
#include "text.h"

enum discord_route
discord_route(const struct discord_route_msg *m)
{
	const struct discord_recent_ev *ev = m->ev;

	if (!m->private)
		/* the room's line answers the interaction it replies to when it was
		 * used there ("Ann used /draw" above it); else it is posted */
		return ev != NULL && ev->kind == DISCORD_RECENT_INTERACTION && strcmp(ev->channel, m->room) == 0
		       ? DISCORD_ROUTE_ANSWER : DISCORD_ROUTE_CHANNEL;
	/* a reply to the player's own interaction: "only you can see this",
	 * wherever they used it, whatever they chose for the rest */
	if (ev != NULL && ev->kind == DISCORD_RECENT_INTERACTION && strcmp(ev->user, m->user) == 0)
		return DISCORD_ROUTE_ANSWER;
	/* a typed command cannot be answered privately: a DM */
	if (ev != NULL && ev->kind == DISCORD_RECENT_MESSAGE && strcmp(ev->user, m->user) == 0)
		return DISCORD_ROUTE_DM;
	if (m->mode == DISCORD_PRIVATE_DM)
		return DISCORD_ROUTE_DM;
	/* the hand changed outside the player's own interaction (the deal, a
	 * turn coming round): the room's line offers it, for the player to see
	 * by pressing; with no room to offer it in, a DM is still private */
	return m->room != NULL && discord_text_snowflake(m->room) ? DISCORD_ROUTE_BUTTON : DISCORD_ROUTE_DM;
}

const char *
discord_route_name(enum discord_route r)
{
	switch (r) {
	case DISCORD_ROUTE_ANSWER: return "answer";
	case DISCORD_ROUTE_CHANNEL: return "channel";
	case DISCORD_ROUTE_DM: return "dm";
	case DISCORD_ROUTE_BUTTON: return "button";
	}
	return "?";
}
