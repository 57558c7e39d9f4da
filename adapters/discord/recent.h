/* recent.h: what the adapter remembers of recent events (who used which interaction, where) and of players' shown names. Pure. */
#ifndef HF_DISCORD_RECENT_H
#define HF_DISCORD_RECENT_H

#include <stddef.h>
#include <stdint.h>

#include "interaction.h"

/* Replies come back (reply_to) in the same turn of the loop as their event:
 * a few hundred are plenty.  Names serve pings only: when one is forgotten
 * the ping is still sent, at the end of the line instead of on the name. */
#define DISCORD_RECENT_EVENTS 512
#define DISCORD_RECENT_NAMES  1024
/* What the core keeps of a shown name (bot.c cuts names to 63 bytes). */
#define DISCORD_RECENT_NAME_MAX 63

enum discord_recent_kind {
	DISCORD_RECENT_INTERACTION = 1,  /* a slash command or a button: it can be answered, privately too */
	DISCORD_RECENT_MESSAGE           /* a typed message (message_commands): it cannot */
};

struct discord_recent_ev {
	uint64_t ref;                    /* bot_event.ref: the interaction's or message's id; 0: free slot */
	enum discord_recent_kind kind;
	char user[DISCORD_ID_LEN];       /* who used it */
	char channel[DISCORD_ID_LEN];    /* where */
};

struct discord_recent_name {
	char user[DISCORD_ID_LEN];
	char name[DISCORD_RECENT_NAME_MAX + 1];
};

struct discord_recent {
	struct discord_recent_ev ev[DISCORD_RECENT_EVENTS];
	size_t next_ev;
	struct discord_recent_name names[DISCORD_RECENT_NAMES];
	size_t next_name;
};

/* Notes an event (the oldest is forgotten when full). */
void discord_recent_event(struct discord_recent *r, uint64_t ref, enum discord_recent_kind kind, const char *user,
                          const char *channel);
/* The event ref, or NULL if none (or forgotten). */
const struct discord_recent_ev *discord_recent_find(const struct discord_recent *r, uint64_t ref);
/* Notes user's shown name, cut as the core cuts it. */
void discord_recent_set_name(struct discord_recent *r, const char *user, const char *name);
/* user's last shown name, or NULL. */
const char *discord_recent_name(const struct discord_recent *r, const char *user);

#endif
