/* session.c: the tables in play, one per room (adapter id + room), in a hash table; and each player's tables. */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "hash.h"

static uint32_t
session_hash(const struct adapter *ad, const char *room)
{
	return hash_fnv32_str(hash_fnv32_add(hash_fnv32_str(HASH_FNV32_INIT, ad->id), 0xff), room);
}

/* ---- the player index: (adapter, user id) -> the tables they sit at */

static void
players_grow(struct sessions *ss)
{
	size_t n = ss->npbuckets ? ss->npbuckets * 2 : 64, i;
	struct player_seat **b = xcalloc(n, sizeof *b), *p, *next;

	for (i = 0; i < ss->npbuckets; i++)
		for (p = ss->pbuckets[i]; p != NULL; p = next) {
			next = p->next;
			p->next = b[p->hash & (n - 1)];
			b[p->hash & (n - 1)] = p;
		}
	free(ss->pbuckets);
	ss->pbuckets = b;
	ss->npbuckets = n;
}

void
session_player_add(struct sessions *ss, struct session *s, const char *user_id)
{
	struct player_seat *p;
	uint32_t h = session_hash(s->ad, user_id);

	if (ss->npbuckets > 0)
		for (p = ss->pbuckets[h & (ss->npbuckets - 1)]; p != NULL; p = p->next)
			if (p->s == s && p->hash == h && strcmp(p->user_id, user_id) == 0)
				return;
	if (strlen(user_id) >= sizeof p->user_id)
		return;   /* the bot refuses such ids before anyone sits down */
	if (ss->pcount + 1 > ss->npbuckets)
		players_grow(ss);
	p = xcalloc(1, sizeof *p);
	p->hash = h;
	p->ad = s->ad;
	p->s = s;
	strcpy(p->user_id, user_id);
	p->next = ss->pbuckets[h & (ss->npbuckets - 1)];
	ss->pbuckets[h & (ss->npbuckets - 1)] = p;
	ss->pcount++;
}

void
session_player_del(struct sessions *ss, struct session *s, const char *user_id)
{
	struct player_seat **pp, *p;
	uint32_t h;

	if (ss->npbuckets == 0)
		return;
	h = session_hash(s->ad, user_id);
	for (pp = &ss->pbuckets[h & (ss->npbuckets - 1)]; (p = *pp) != NULL; pp = &p->next)
		if (p->s == s && p->hash == h && strcmp(p->user_id, user_id) == 0) {
			*pp = p->next;
			free(p);
			ss->pcount--;
			return;
		}
}

size_t
session_player_tables(struct sessions *ss, const struct adapter *ad, const char *user_id, struct session **out,
                      size_t max)
{
	struct player_seat *p;
	uint32_t h;
	size_t n = 0;

	if (ss->npbuckets == 0)
		return 0;
	h = session_hash(ad, user_id);
	for (p = ss->pbuckets[h & (ss->npbuckets - 1)]; p != NULL; p = p->next)
		if (p->hash == h && p->ad == ad && strcmp(p->user_id, user_id) == 0) {
			if (n < max)
				out[n] = p->s;
			n++;
		}
	return n;
}

/* ---- tables per adapter, for max_tables: a handful of adapters, a short list */

static struct session_count *
count_of(const struct sessions *ss, const struct adapter *ad)
{
	size_t i;

	for (i = 0; i < ss->ncounts; i++)
		if (ss->counts[i].ad == ad)
			return &ss->counts[i];
	return NULL;
}

static void
count_up(struct sessions *ss, const struct adapter *ad)
{
	struct session_count *c = count_of(ss, ad);

	if (c == NULL) {
		ss->counts = xreallocarray(ss->counts, ss->ncounts + 1, sizeof *ss->counts);
		c = &ss->counts[ss->ncounts++];
		c->ad = ad;
		c->n = 0;
	}
	c->n++;
}

static void
count_down(struct sessions *ss, const struct adapter *ad)
{
	struct session_count *c = count_of(ss, ad);

	/* at 0 the entry goes: an adapter removed on reload leaves none behind */
	if (c != NULL && --c->n == 0)
		*c = ss->counts[--ss->ncounts];
}

size_t
session_count(const struct sessions *ss, const struct adapter *ad)
{
	const struct session_count *c = count_of(ss, ad);

	return c != NULL ? c->n : 0;
}

/* ---- sessions */

void
sessions_init(struct sessions *ss)
{
	memset(ss, 0, sizeof *ss);
}

void
sessions_free(struct sessions *ss, void (*fn)(struct session *s, void *ctx), void *ctx)
{
	struct session *s, *next;
	struct player_seat *p, *pnext;
	size_t i;

	for (s = ss->all; s != NULL; s = next) {
		next = s->all_next;
		if (fn != NULL)
			fn(s, ctx);
		hf_game_free(s->g);
		free(s->broken);
		free(s);
	}
	for (i = 0; i < ss->npbuckets; i++)
		for (p = ss->pbuckets[i]; p != NULL; p = pnext) {
			pnext = p->next;
			free(p);
		}
	free(ss->pbuckets);
	free(ss->buckets);
	free(ss->counts);
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

static void
sessions_grow(struct sessions *ss)
{
	size_t n = ss->nbuckets ? ss->nbuckets * 2 : 64, i;
	struct session **b = xcalloc(n, sizeof *b), *s, *next;

	for (i = 0; i < ss->nbuckets; i++)
		for (s = ss->buckets[i]; s != NULL; s = next) {
			next = s->next;
			s->next = b[s->hash & (n - 1)];
			b[s->hash & (n - 1)] = s;
		}
	free(ss->buckets);
	ss->buckets = b;
	ss->nbuckets = n;
}

struct session *
session_add(struct sessions *ss, struct adapter *ad, const char *room)
{
	struct session *s;
	size_t i;

	if (strlen(room) >= sizeof s->room)
		return NULL;
	if (ss->count + 1 > ss->nbuckets)
		sessions_grow(ss);
	s = xcalloc(1, sizeof *s);
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
	count_up(ss, ad);
	return s;
}

int
session_move(struct sessions *ss, struct session *s, const char *room)
{
	struct session **pp;
	size_t i;

	if (strlen(room) >= sizeof s->room)
		return -1;
	for (pp = &ss->buckets[s->hash & (ss->nbuckets - 1)]; *pp != NULL; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	strcpy(s->room, room);
	s->hash = session_hash(s->ad, room);
	i = s->hash & (ss->nbuckets - 1);
	s->next = ss->buckets[i];
	ss->buckets[i] = s;
	return 0;
}

void
session_remove(struct sessions *ss, struct session *s)
{
	struct session **pp;
	int i;

	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0)
			session_player_del(ss, s, s->seats[i].user_id);
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
	count_down(ss, s->ad);
	hf_game_free(s->g);
	free(s->broken);
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

/* A computer (or stand-in) first: the timer acts for it; else the first human. */
int
session_waiting(const struct session *s, bool *machine)
{
	int seats[HF_MAX_SEATS], n, i, human = -1;

	*machine = false;
	if (s->g == NULL || hf_game_phase(s->g) == HF_PHASE_OVER)
		return -1;
	n = hf_game_waiting(s->g, seats);
	for (i = 0; i < n; i++) {
		const struct seat *st = &s->seats[seats[i]];
		if (st->ai >= 0 || st->away) {
			*machine = true;
			return seats[i];
		}
		if (human < 0)
			human = seats[i];
	}
	return human;
}

int
session_humans(const struct session *s)
{
	int i, n = 0;

	for (i = 0; i < s->nseats; i++)
		n += s->seats[i].ai < 0;
	return n;
}
