/* again.h: a player's private answers kept a minute, so that an interaction the core leaves silent gets the last one again. Pure. */
#ifndef HF_DISCORD_AGAIN_H
#define HF_DISCORD_AGAIN_H

#include <stddef.h>
#include <stdint.h>

#include "interaction.h"

/* The core answers every interaction (an answer tied to an event is never
 * held back by its once-a-minute rule), but leaves one silent when its
 * flood control drops the command.  On Discord a private answer is an
 * ephemeral reply to one interaction, gone once dismissed, and an
 * interaction answered with nothing shows "thinking..." and then nothing.
 * So the adapter keeps each player's last ephemeral answer per key a minute
 * and says it again to a new interaction the core left silent.  Any other
 * private line to the player (a hand that changed, a step of their turn)
 * forgets their answers: what they showed may be stale. */
#define DISCORD_AGAIN_MAX  128
#define DISCORD_AGAIN_MS   61000
#define DISCORD_AGAIN_KEY  48

struct discord_again_entry {
	char user[DISCORD_ID_LEN];       /* "" : a free slot */
	char key[DISCORD_AGAIN_KEY];     /* the answer's supersede key ("hand", "rules") */
	char channel[DISCORD_ID_LEN];    /* where it was asked: a question asked elsewhere is another */
	int64_t at;
	char *pieces;                    /* the message's pieces as sent, NUL-separated */
	size_t len, npieces;
};

struct discord_again {
	struct discord_again_entry e[DISCORD_AGAIN_MAX];
	size_t next;
};

/* Keeps user's answer under key, asked in channel (replacing the one
 * before); a key too long is not kept. */
void discord_again_keep(struct discord_again *a, const char *user, const char *key, const char *channel,
                        const char *pieces, size_t len, size_t npieces, int64_t now);
/* Forgets every answer kept for user. */
void discord_again_forget(struct discord_again *a, const char *user);
/* user's answer under key asked in channel, kept less than DISCORD_AGAIN_MS ago, or NULL. */
const struct discord_again_entry *discord_again_find(const struct discord_again *a, const char *user, const char *key,
                                                     const char *channel, int64_t now);
void discord_again_free(struct discord_again *a);

#endif
