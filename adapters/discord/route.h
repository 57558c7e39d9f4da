/* route.h: where one message of the core goes on Discord: the answer to an interaction, the channel, a DM, or nowhere but a button. Pure. */
#ifndef HF_DISCORD_ROUTE_H
#define HF_DISCORD_ROUTE_H

#include <stdbool.h>

#include "config.h"
#include "recent.h"

enum discord_route {
	DISCORD_ROUTE_ANSWER = 1,   /* the reply to the interaction it answers (a private one ephemeral: flag 64) */
	DISCORD_ROUTE_CHANNEL,      /* a room's line, posted to its channel */
	DISCORD_ROUTE_DM,           /* a private line in a DM with its player */
	DISCORD_ROUTE_BUTTON        /* a private line not sent: the room's line gets a "My hand" button instead */
};

struct discord_route_msg {
	bool private;                          /* MSG_PRIVATE: for user only */
	const char *room;                      /* the room's channel id, "" if none */
	const char *user;                      /* private: the player's Discord user id */
	const struct discord_recent_ev *ev;    /* the event it replies to (reply_to), NULL if none */
	enum discord_private mode;             /* private: the player's choice, else the section's */
};

/* The route.  The guarantee it keeps: a private line goes only as an
 * ephemeral answer to its own player's interaction, or in a DM, or not at
 * all; never to a channel, never as the answer to someone else. */
enum discord_route discord_route(const struct discord_route_msg *m);
const char *discord_route_name(enum discord_route r);

#endif
