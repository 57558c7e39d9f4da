/* rooms.c: a room's page link (its recent finished games and their replays): made once per room, found by its hash, kept in the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "web.h"
#include "xmalloc.h"

/* One row per room: key "room ID" (ID below 0, never a table's), value
 * "TOKEN ADAPTER ROOM": the token is public in its room (!watch gives it
 * again, as the table's link), so it is kept; the lookup is by its hash. */
#define ROOM_PREFIX "room "

static void
room_key(char *key, size_t len, int64_t id)
{
	snprintf(key, len, ROOM_PREFIX "%lld", (long long)id);
}

/* Under w->lock: a room added, or NULL past the bound. */
static struct web_room *
room_add(struct web_finished *f, int64_t id, const char *adapter_id, const char *room, const char *token,
         const uint8_t *hash)
{
	struct web_room *m;

	if (f->nrooms >= WEB_LINKS_MAX || strlen(adapter_id) >= sizeof m->adapter_id || strlen(room) >= sizeof m->room)
		return NULL;
	m = xcalloc(1, sizeof *m);
	m->id = id;
	snprintf(m->adapter_id, sizeof m->adapter_id, "%s", adapter_id);
	snprintf(m->room, sizeof m->room, "%s", room);
	snprintf(m->token, sizeof m->token, "%s", token);
	memcpy(m->hash, hash, WEB_HASH_BYTES);
	m->next = f->rooms;
	f->rooms = m;
	f->nrooms++;
	return m;
}

const struct web_room *
web_rooms_get(const struct web_finished *f, int64_t id)
{
	const struct web_room *m;

	for (m = f->rooms; m != NULL; m = m->next)
		if (m->id == id)
			return m;
	return NULL;
}

int
web_rooms_link(struct adapter *a, const char *adapter_id, const char *room, char *url, size_t len)
{
	struct web *w = a->priv;
	struct web_room *m;
	char token[WEB_TOKEN_CHARS + 1], key[40], *row;
	uint8_t hash[WEB_HASH_BYTES];
	int64_t id = -1;
	size_t n;

	if (w == NULL || w->failed || adapter_id == NULL || room == NULL)
		return -1;
	pthread_mutex_lock(&w->lock);
	for (m = w->fin.rooms; m != NULL; m = m->next) {
		if (strcmp(m->adapter_id, adapter_id) == 0 && strcmp(m->room, room) == 0) {
			snprintf(url, len, "%st/%s", w->conf.base_url, m->token);
			pthread_mutex_unlock(&w->lock);
			return 0;
		}
		if (m->id <= id)
			id = m->id - 1;
	}
	if (web_cap_new(token, hash) < 0 || (m = room_add(&w->fin, id, adapter_id, room, token, hash)) == NULL) {
		pthread_mutex_unlock(&w->lock);
		adapter_log(a, LOG_LVL_ERR, "no page made for room %.100s: the random source failed, or too many rooms",
		            room);
		return -1;
	}
	snprintf(url, len, "%st/%s", w->conf.base_url, token);
	pthread_mutex_unlock(&w->lock);
	room_key(key, sizeof key, id);
	n = WEB_TOKEN_CHARS + strlen(adapter_id) + strlen(room) + 3;
	row = xmalloc(n);
	snprintf(row, n, "%s %s %s", token, adapter_id, room);
	if (adapter_state_set(a, key, row) < 0)
		adapter_log(a, LOG_LVL_WARNING, "the page of room %.100s is not kept: its link ends with a restart", room);
	free(row);
	return 0;
}

void
web_rooms_row(struct web *w, const char *key, const char *value)
{
	char again[40], *end, adapter_id[96];
	const char *sp, *room;
	uint8_t hash[WEB_HASH_BYTES];
	long long id;
	size_t n;
	bool ok;

	id = strtoll(key + strlen(ROOM_PREFIX), &end, 10);
	room_key(again, sizeof again, id);
	sp = strlen(value) > WEB_TOKEN_CHARS + 1 ? strchr(value + WEB_TOKEN_CHARS + 1, ' ') : NULL;
	n = sp != NULL ? (size_t)(sp - (value + WEB_TOKEN_CHARS + 1)) : 0;
	room = sp != NULL ? sp + 1 : "";
	ok = *end == '\0' && id < 0 && strcmp(again, key) == 0 && value[WEB_TOKEN_CHARS] == ' ' && n > 0 &&
	     n < sizeof adapter_id && room[0] != '\0' && web_cap_hash(value, WEB_TOKEN_CHARS, hash) == 0;
	if (ok) {
		char token[WEB_TOKEN_CHARS + 1];

		memcpy(adapter_id, value + WEB_TOKEN_CHARS + 1, n);
		adapter_id[n] = '\0';
		memcpy(token, value, WEB_TOKEN_CHARS);
		token[WEB_TOKEN_CHARS] = '\0';
		pthread_mutex_lock(&w->lock);
		ok = web_rooms_get(&w->fin, id) == NULL && room_add(&w->fin, id, adapter_id, room, token, hash) != NULL;
		pthread_mutex_unlock(&w->lock);
	}
	if (!ok) {
		adapter_log(w->a, LOG_LVL_WARNING, "a stored room row \"%.40s\" is not one: dropped", key);
		adapter_state_del(w->a, key);
	}
}
