/* session.c: the tables in play, one per room (adapter id + room), in a hash table. */
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static uint32_t
session_hash(const struct adapter *ad, const char *room)
{
	uint32_t h = 2166136261u;
	const unsigned char *p;

	for (p = (const unsigned char *)ad->id; *p; p++)
		h = (h ^ *p) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	for (p = (const unsigned char *)room; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

void
sessions_init(struct sessions *ss)
{
	memset(ss, 0, sizeof *ss);
}

void
sessions_free(struct sessions *ss, void (*fn)(struct session *s, void *ctx), void *ctx)
{
	struct session *s, *next;

	for (s = ss->all; s != NULL; s = next) {
		next = s->all_next;
		if (fn != NULL)
			fn(s, ctx);
		hf_game_free(s->g);
		free(s);
	}
	free(ss->buckets);
	memset(ss, 0, sizeof *ss);
}

struct session *
session_find(struct sessions *ss, const struct adapter *ad, const char *room)
{
	struct session *s;
	uint32_t h;

	if (ss->nbuckets == 0 || room == NULL)
		return NULL;
	h = session_hash(ad, room);
	for (s = ss->buckets[h & (ss->nbuckets - 1)]; s != NULL; s = s->next)
		if (s->hash == h && s->ad == ad && strcmp(s->room, room) == 0)
			return s;
	return NULL;
}

static int
sessions_grow(struct sessions *ss)
{
	size_t n = ss->nbuckets ? ss->nbuckets * 2 : 64, i;
	struct session **b, *s, *next;

	if ((b = calloc(n, sizeof *b)) == NULL)
		return -1;
	for (i = 0; i < ss->nbuckets; i++)
		for (s = ss->buckets[i]; s != NULL; s = next) {
			next = s->next;
			s->next = b[s->hash & (n - 1)];
			b[s->hash & (n - 1)] = s;
		}
	free(ss->buckets);
	ss->buckets = b;
	ss->nbuckets = n;
	return 0;
}

struct session *
session_add(struct sessions *ss, struct adapter *ad, const char *room)
{
	struct session *s;
	size_t i;

	if (strlen(room) >= sizeof s->room)
		return NULL;
	if (ss->count + 1 > ss->nbuckets && sessions_grow(ss) < 0)
		return NULL;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	s->ad = ad;
	strcpy(s->room, room);
	s->hash = session_hash(ad, room);
	for (i = 0; i < HF_MAX_SEATS; i++) {
		s->seats[i].ai = -1;
		s->seats[i].team = -1;
	}
	s->wait_seat = -1;
	i = s->hash & (ss->nbuckets - 1);
	s->next = ss->buckets[i];
	ss->buckets[i] = s;
	s->all_next = ss->all;
	if (ss->all != NULL)
		ss->all->all_prev = s;
	ss->all = s;
	ss->count++;
	return s;
}

void
session_remove(struct sessions *ss, struct session *s)
{
	struct session **pp;

	for (pp = &ss->buckets[s->hash & (ss->nbuckets - 1)]; *pp != NULL; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	if (s->all_prev != NULL)
		s->all_prev->all_next = s->all_next;
	else
		ss->all = s->all_next;
	if (s->all_next != NULL)
		s->all_next->all_prev = s->all_prev;
	ss->count--;
	hf_game_free(s->g);
	free(s);
}

int
session_seat_of(const struct session *s, const char *user_id)
{
	int i;

	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0 && strcmp(s->seats[i].user_id, user_id) == 0)
			return i;
	return -1;
}

void
session_names(const struct session *s, const char *names[HF_MAX_SEATS])
{
	int i;

	for (i = 0; i < HF_MAX_SEATS; i++)
		names[i] = i < s->nseats ? s->seats[i].name : "?";
}

int
session_humans(const struct session *s)
{
	int i, n = 0;

	for (i = 0; i < s->nseats; i++)
		n += s->seats[i].ai < 0;
	return n;
}
