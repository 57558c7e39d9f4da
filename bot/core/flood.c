/* flood.c: a token bucket per user (across rooms), in a table keyed with a secret drawn at each start; a flooder's excess is dropped, with one warning. */
#include <string.h>

#include "bot.h"
#include "siphash.h"

void
flood_init(struct flood *f, const uint8_t key[FLOOD_KEY_LEN])
{
	memset(f->slots, 0, sizeof f->slots);
	memcpy(f->key, key, sizeof f->key);
}

/* Keyed (SipHash): with a plain hash, ids that share a player's set were
 * computed offline, and five of them silenced her.  The key is new at each
 * start and never leaves the process, so no id can be chosen to collide. */
static uint64_t
flood_key(const struct flood *f, const char *a, const char *u)
{
	struct siphash h;

	siphash_init(&h, f->key);
	siphash_add(&h, a, strlen(a) + 1);   /* with its NUL: ("ab", "c") is not ("a", "bc") */
	siphash_add(&h, u, strlen(u));
	return siphash_end(&h) | 1;          /* 0 marks a free slot */
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
 * bucket is full again (forgetting an idle user loses nothing), else the
 * least recently used one, afresh: a full bucket, never warned.  Never the
 * slot's drained bucket or its warning: that let strangers who shared a
 * player's set hand her their spent allowance, and her commands vanished
 * without a word.  (Ids that share a set can no longer be chosen: the
 * table's key is secret; one who rotates ids gets a bucket per id, as a
 * newcomer always did.) */
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
	if (s == NULL) {
		s = &set[0];
		for (i = 1; i < FLOOD_WAYS; i++)
			if (set[i].seen_ms < s->seen_ms)
				s = &set[i];
	}
	s->tokens_milli = (int32_t)full;
	s->last_ms = now;
	s->seen_ms = now;
	s->warned = false;
	s->key = key;
	return s;
}

void
flood_refund(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms)
{
	int64_t full = (int64_t)burst * 1000;
	struct flood_slot *s = flood_slot(f, flood_key(f, adapter, user), now, full, refill_ms);

	flood_refill(s, now, full, refill_ms);
	s->tokens_milli = (int32_t)(s->tokens_milli + 1000 > full ? full : s->tokens_milli + 1000);
}

enum flood_verdict
flood_check(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms)
{
	int64_t full = (int64_t)burst * 1000;
	struct flood_slot *s = flood_slot(f, flood_key(f, adapter, user), now, full, refill_ms);

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
