/* replays.c: a finished game's public link kept as its replay's: for replay_days after it ended, then answered as gone as long again, then forgotten; kept in the store so that a restart changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "loop.h"
#include "web.h"
#include "xmalloc.h"

/* One row per replay: key "replay ID", value "TOKEN ENDED" (the token is
 * public: it was the table's link, in the room's line; a room's page lists it). */
#define REPLAY_PREFIX  "replay "
#define ROOM_PREFIX    "room "
#define REPLAY_LOOK_MS 3600000         /* looked for hourly: a replay is gone at most an hour late */
#define DAY_S          86400

static void
replay_key(char *key, size_t len, int64_t table)
{
	snprintf(key, len, REPLAY_PREFIX "%lld", (long long)table);
}

/* Under w->lock: a replay added (the oldest dropped past the bound, its row with it: *dropped). */
static void
replay_add(struct web_finished *f, int64_t table, const char *token, const uint8_t *hash, int64_t ended,
           int64_t *dropped)
{
	struct web_replay *r = xcalloc(1, sizeof *r), **p, *oldest = NULL, **oldest_p = NULL;

	*dropped = 0;
	r->table = table;
	snprintf(r->token, sizeof r->token, "%s", token);
	memcpy(r->hash, hash, WEB_HASH_BYTES);
	r->ended = ended;
	r->next = f->replays;
	f->replays = r;
	if (++f->nreplays <= WEB_LINKS_MAX)
		return;
	for (p = &f->replays; *p != NULL; p = &(*p)->next)
		if (oldest == NULL || (*p)->ended < oldest->ended) {
			oldest = *p;
			oldest_p = p;
		}
	*oldest_p = oldest->next;
	*dropped = oldest->table;
	free(oldest);
	f->nreplays--;
}

static void
replay_save(struct web *w, int64_t table, const char *token, int64_t ended, int64_t dropped)
{
	char key[40], value[WEB_TOKEN_CHARS + 32];

	replay_key(key, sizeof key, table);
	snprintf(value, sizeof value, "%s %lld", token, (long long)ended);
	if (adapter_state_set(w->a, key, value) < 0)
		adapter_log(w->a, LOG_LVL_WARNING, "the replay of table %lld is not kept: it ends with a restart",
		            (long long)table);
	if (dropped != 0) {
		replay_key(key, sizeof key, dropped);
		adapter_state_del(w->a, key);
	}
}

void
web_replays_ended(struct web *w, int64_t table, const char *token, int64_t ended)
{
	uint8_t hash[WEB_HASH_BYTES];
	int64_t dropped;

	if (w->conf.replay_days <= 0 || web_cap_hash(token, strlen(token), hash) < 0)
		return;
	pthread_mutex_lock(&w->lock);
	replay_add(&w->fin, table, token, hash, ended, &dropped);
	pthread_mutex_unlock(&w->lock);
	replay_save(w, table, token, ended, dropped);
}

int
web_finished_find(const struct web_finished *f, const uint8_t hash[WEB_HASH_BYTES], int64_t *table, int *seat)
{
	const struct web_replay *r;
	const struct web_room *m;
	int found = 0;

	/* every link is compared, the match or not, as web_tables_find does */
	for (r = f->replays; r != NULL; r = r->next)
		if (web_cap_equal(r->hash, hash) && found == 0) {
			found = r->gone ? 2 : 1;
			*table = r->table;
			*seat = WEB_SEAT_REPLAY;
		}
	for (m = f->rooms; m != NULL; m = m->next)
		if (web_cap_equal(m->hash, hash) && found == 0) {
			found = 1;
			*table = m->id;
			*seat = WEB_SEAT_ROOM;
		}
	return found;
}

bool
web_replays_token(const struct web_finished *f, int64_t table, char token[WEB_TOKEN_CHARS + 1])
{
	const struct web_replay *r;

	for (r = f->replays; r != NULL; r = r->next)
		if (r->table == table && !r->gone) {
			memcpy(token, r->token, WEB_TOKEN_CHARS + 1);
			return true;
		}
	return false;
}

void
web_replays_expire(struct web *w, int64_t now)
{
	int64_t keep = (int64_t)w->conf.replay_days * DAY_S, forget[64];
	struct web_replay **p, *r;
	size_t n, i, gone = 0, forgot = 0;
	char key[40];

	do {
		n = 0;
		pthread_mutex_lock(&w->lock);
		for (p = &w->fin.replays; (r = *p) != NULL;) {
			if (!r->gone && r->ended + keep <= now) {
				r->gone = true;
				gone++;
			}
			if (r->ended + 2 * keep <= now && n < sizeof forget / sizeof forget[0]) {
				forget[n++] = r->table;
				*p = r->next;
				explicit_bzero(r, sizeof *r);
				free(r);
				w->fin.nreplays--;
				continue;
			}
			p = &r->next;
		}
		pthread_mutex_unlock(&w->lock);
		for (i = 0; i < n; i++) {
			replay_key(key, sizeof key, forget[i]);
			adapter_state_del(w->a, key);
		}
		forgot += n;
	} while (n == sizeof forget / sizeof forget[0]);
	if (gone > 0 || forgot > 0)
		adapter_log(w->a, LOG_LVL_INFO, "%zu replays past %ld days now answered as gone, %zu forgotten", gone,
		            w->conf.replay_days, forgot);
}

static int64_t
replays_timer(struct loop *l, long long id, void *data)
{
	struct web *w = data;

	(void)l;
	(void)id;
	web_replays_expire(w, adapter_wall_s(w->a));
	return REPLAY_LOOK_MS;
}

struct replays_load {
	struct web *w;
	size_t loaded, bad;
};

static void
replays_row(void *ctx, const char *key, const char *value)
{
	struct replays_load *l = ctx;
	char token[WEB_TOKEN_CHARS + 1], again[40], *end;
	uint8_t hash[WEB_HASH_BYTES];
	long long id, ended;
	int64_t dropped;

	id = strtoll(key + strlen(REPLAY_PREFIX), &end, 10);
	replay_key(again, sizeof again, id);
	if (*end != '\0' || strcmp(again, key) != 0 || strlen(value) < WEB_TOKEN_CHARS + 2 ||
	    value[WEB_TOKEN_CHARS] != ' ' || web_cap_hash(value, WEB_TOKEN_CHARS, hash) < 0 ||
	    (ended = strtoll(value + WEB_TOKEN_CHARS + 1, &end, 10)) <= 0 || *end != '\0') {
		adapter_log(l->w->a, LOG_LVL_WARNING, "a stored replay row \"%.40s\" is not one: dropped", key);
		adapter_state_del(l->w->a, key);
		l->bad++;
		return;
	}
	memcpy(token, value, WEB_TOKEN_CHARS);
	token[WEB_TOKEN_CHARS] = '\0';
	pthread_mutex_lock(&l->w->lock);
	replay_add(&l->w->fin, id, token, hash, ended, &dropped);
	pthread_mutex_unlock(&l->w->lock);
	if (dropped != 0) {
		replay_key(again, sizeof again, dropped);
		adapter_state_del(l->w->a, again);
	}
	explicit_bzero(token, sizeof token);
	l->loaded++;
}

static void
rooms_row(void *ctx, const char *key, const char *value)
{
	web_rooms_row(ctx, key, value);
}

void
web_replays_load(struct web *w)
{
	struct replays_load l = { .w = w };

	adapter_state_each(w->a, REPLAY_PREFIX, replays_row, &l);
	adapter_state_each(w->a, ROOM_PREFIX, rooms_row, w);
	if (l.loaded > 0)
		adapter_log(w->a, LOG_LVL_INFO, "replays of %zu finished games kept from before", l.loaded);
	web_replays_expire(w, adapter_wall_s(w->a));
	web_replays_stop(w);
	w->fin.timer = loop_timer_add(w->a->loop, REPLAY_LOOK_MS, replays_timer, w);
}

void
web_replays_stop(struct web *w)
{
	if (w->fin.timer != 0)
		loop_timer_del(w->a->loop, w->fin.timer);
	w->fin.timer = 0;
}

void
web_finished_free(struct web_finished *f)
{
	while (f->replays != NULL) {
		struct web_replay *r = f->replays;

		f->replays = r->next;
		free(r);
	}
	while (f->rooms != NULL) {
		struct web_room *m = f->rooms;

		f->rooms = m->next;
		free(m);
	}
	f->nreplays = f->nrooms = 0;
}
