/* flood.c: a token bucket per user (across rooms); a flooder's excess is dropped, with one warning; no collision hands out a fresh bucket. */
#include <string.h>

#include "bot.h"
#include "hash.h"

static uint64_t
flood_key(const char *a, const char *u)
{
	uint64_t h = hash_fnv64_add(hash_fnv64_str(HASH_FNV64_INIT, a), 0xff);

	return hash_fnv64_add(hash_fnv64_str(h, u), 0xff) | 1;   /* 0 marks a free slot */
}

/* Tokens earned since the slot was last looked at. */
static void
flood_refill(struct flood_slot *s, int64_t now, int64_t full, int refill_ms)
{
	int64_t t;

	if (now > s->last_ms) {
		t = s->tokens_milli + (now - s->last_ms) * 1000 / (refill_ms > 0 ? refill_ms : 1);
		s->tokens_milli = (int32_t)(t > full ? full : t);
		s->last_ms = now;
	}
}

/* The user's slot in its set.  A newcomer takes a free slot, or one whose
 * bucket is full again (forgetting an idle user loses nothing); with none,
 * it takes over the least recently used slot with its bucket as it is: two
 * users that collide share one allowance, never get a fresh one each time
 * (which let two crafted nicks alternate without limit). */
static struct flood_slot *
flood_slot(struct flood *f, uint64_t key, int64_t now, int64_t full, int refill_ms)
{
	struct flood_slot *set = &f->slots[(key % (FLOOD_SLOTS / FLOOD_WAYS)) * FLOOD_WAYS], *s = NULL;
	int i;

	for (i = 0; i < FLOOD_WAYS; i++)
		if (set[i].key == key)
			return &set[i];
	for (i = 0; i < FLOOD_WAYS && s == NULL; i++)
		if (set[i].key == 0)
			s = &set[i];
	for (i = 0; i < FLOOD_WAYS && s == NULL; i++) {
		flood_refill(&set[i], now, full, refill_ms);
		if (set[i].tokens_milli >= full)
			s = &set[i];
	}
	if (s != NULL) {
		s->tokens_milli = (int32_t)full;
		s->last_ms = now;
		s->warned = false;
	} else {
		s = &set[0];
		for (i = 1; i < FLOOD_WAYS; i++)
			if (set[i].seen_ms < s->seen_ms)
				s = &set[i];
	}
	s->key = key;
	return s;
}

void
flood_refund(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms)
{
	int64_t full = (int64_t)burst * 1000;
	struct flood_slot *s = flood_slot(f, flood_key(adapter, user), now, full, refill_ms);

	flood_refill(s, now, full, refill_ms);
	s->tokens_milli = (int32_t)(s->tokens_milli + 1000 > full ? full : s->tokens_milli + 1000);
}

enum flood_verdict
flood_check(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms)
{
	int64_t full = (int64_t)burst * 1000;
	struct flood_slot *s = flood_slot(f, flood_key(adapter, user), now, full, refill_ms);

	s->seen_ms = now;
	flood_refill(s, now, full, refill_ms);
	if (s->tokens_milli >= 1000) {
		s->tokens_milli -= 1000;
		if (s->tokens_milli >= 1000)
			s->warned = false;
		return FLOOD_OK;
	}
	if (s->warned)
		return FLOOD_DROP;
	s->warned = true;
	return FLOOD_WARN;
}
