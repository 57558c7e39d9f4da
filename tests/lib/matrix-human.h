/* matrix-human.h: a quick human at a Matrix table (bench-pace's ann): she starts a game of four, draws on her turn, discards from the hand the bot sends to her direct room, says yes when asked; on any homeserver, through the calls the caller gives. */
#ifndef HF_TEST_MXHUMAN_H
#define HF_TEST_MXHUMAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define MXHUMAN_MAXS 1024

/* The homeserver as she uses it (ctx: the caller's). */
struct mxhuman_server {
	void *ctx;
	/* the bot's messages with a body in room as she reads them, oldest first (caller decrefs) */
	json_t *(*bot_events)(void *ctx, const char *room);
	/* text sent to room as her, each 429 waited out; 0 or -1 */
	int     (*say)(void *ctx, const char *room, const char *text);
	/* the direct room the bot made for her, into out ("" if none yet) */
	void    (*direct)(void *ctx, char *out, size_t len);
	/* she joins room */
	void    (*join)(void *ctx, const char *room);
};

struct mxhuman {
	const char *name;           /* as the bot names her in the room ("ann") */
	const char *room;           /* the game room */
	int think_ms;               /* to read, and to type (0: 1000) */
	int stuck_ms;               /* no progress for this long: she gives up (0: 180 s) */
	/* what she saw */
	int pings;                  /* "NAME: your turn" */
	int played, told;           /* her discards, and the room's lines telling one */
	size_t first, last;         /* her first and last ping among the bot's room messages */
	int64_t wait[MXHUMAN_MAXS]; /* her discard to her next ping (its origin_server_ts), ms */
	int nwait;
	/* where she is */
	char dm[256];
	size_t seen, dseen;
};

/* Of a room's events (taken: decref'd here), the m.room.message events of
 * bot with a body, oldest first as given (caller decrefs): for bot_events. */
json_t *mxhuman_bot_messages(json_t *events, const char *bot);
/* Says "!play 4 classic" in h->room and plays until she has been pinged
 * turns + 1 times.  0, or -1 (said on stderr) if a send failed or she waited
 * stuck_ms for the bot. */
int  mxhuman_play(struct mxhuman *h, const struct mxhuman_server *srv, int turns);
/* Waits ms (what is still queued goes out), then reads the room once more
 * for discards of hers told. */
void mxhuman_settle(struct mxhuman *h, const struct mxhuman_server *srv, int ms);

#endif
