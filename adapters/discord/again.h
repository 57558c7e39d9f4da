/* again.h: private answers the core says once a minute, kept that long so that a new interaction asking the same gets them again. Pure. */
#ifndef HF_DISCORD_AGAIN_H
#define HF_DISCORD_AGAIN_H

#include <stddef.h>
#include <stdint.h>

#include "interaction.h"

/* The core says an unchanged answer once a minute (its own memory), to the
 * same place.  On IRC and Matrix the first one is still on screen; on
 * Discord a private answer is an ephemeral reply to one interaction, gone
 * once dismissed or the app reloads, and a new interaction answered with
 * nothing shows "thinking..." and then nothing.  So the adapter keeps each
 * player's last ephemeral answer per key a little longer than the core
 * remembers it, and says it again to a new interaction the core left
 * silent.  Any other private line to the player (a hand that changed, a
 * step of their turn) forgets their answers: what they showed may be
 * stale. */
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
