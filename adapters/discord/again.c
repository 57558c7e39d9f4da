/* again.c: a player's ephemeral answers, kept a minute per key, to say again to a new interaction the core leaves silent. */
#include <stdlib.h>
#include <string.h>

#include "again.h"
#include "xmalloc.h"

static void
entry_clear(struct discord_again_entry *e)
{
	free(e->pieces);
	memset(e, 0, sizeof *e);
}

void
discord_again_keep(struct discord_again *a, const char *user, const char *key, const char *channel,
                   const char *pieces, size_t len, size_t npieces, int64_t now)
{
	struct discord_again_entry *e = NULL;

	if (strlen(user) >= sizeof e->user || strlen(key) >= sizeof e->key || strlen(channel) >= sizeof e->channel ||
	    npieces == 0)
		return;
	for (size_t i = 0; i < DISCORD_AGAIN_MAX && e == NULL; i++)
		if (strcmp(a->e[i].user, user) == 0 && strcmp(a->e[i].key, key) == 0)
			e = &a->e[i];
	if (e == NULL) {
		/* the oldest slot goes: an answer a minute old is not kept anyway */
		e = &a->e[a->next];
		a->next = (a->next + 1) % DISCORD_AGAIN_MAX;
	}
	entry_clear(e);
	strcpy(e->user, user);
	strcpy(e->key, key);
	strcpy(e->channel, channel);
	e->at = now;
	e->pieces = xmalloc(len);
	memcpy(e->pieces, pieces, len);
	e->len = len;
	e->npieces = npieces;
}

void
discord_again_forget(struct discord_again *a, const char *user)
{
	for (size_t i = 0; i < DISCORD_AGAIN_MAX; i++)
		if (a->e[i].user[0] != '\0' && strcmp(a->e[i].user, user) == 0)
			entry_clear(&a->e[i]);
}

const struct discord_again_entry *
discord_again_find(const struct discord_again *a, const char *user, const char *key, const char *channel,
                   int64_t now)
{
	for (size_t i = 0; i < DISCORD_AGAIN_MAX; i++) {
		const struct discord_again_entry *e = &a->e[i];

		if (e->user[0] != '\0' && strcmp(e->user, user) == 0 && strcmp(e->key, key) == 0)
			return now - e->at < DISCORD_AGAIN_MS && strcmp(e->channel, channel) == 0 ? e : NULL;
	}
	return NULL;
}

void
discord_again_free(struct discord_again *a)
{
	for (size_t i = 0; i < DISCORD_AGAIN_MAX; i++)
		entry_clear(&a->e[i]);
	a->next = 0;
}
