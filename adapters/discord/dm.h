/* dm.h: discord_dm: a player's direct-message channel and what waits for it (dm.c). */
#ifndef HF_DISCORD_DM_H
#define HF_DISCORD_DM_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "client.h"

/* A DM channel, opened once per player; what waits for it. */
struct discord_dm {
	char user[DISCORD_ID_LEN];
	char channel[DISCORD_ID_LEN];    /* "" until Discord gave it (type 1, this recipient) */
	char room[DISCORD_ID_LEN];       /* the room of the latest line waiting: where to say DMs failed */
	bool opening;
	bool closed;                     /* 50007: no DM is tried until they choose DMs again */
	bool told;                       /* ... and they were told why, once */
	int64_t fallback_at;
	json_t *waiting;                 /* message bodies, in order */
	struct discord_dm *next;
};

/* The DM channel of user; a new one (not yet opened) if add, else NULL. */
struct discord_dm *discord_dm_of(struct discord_client *c, const char *user, bool add);
/* The player's DMs are closed: the bot is told, and the room offers the hand instead (not too often). */
void discord_dm_failed(struct discord_client *c, struct discord_dm *d, const char *why);
/* Sends body (owned) to user by DM, opening the channel first if need be;
 * room: where to say it if DMs fail. */
void discord_dm_send(struct discord_client *c, const char *user, const char *room, json_t *body);

#endif
