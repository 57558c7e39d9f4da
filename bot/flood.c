/* flood.c: a token bucket per user per room; a flooder's excess is dropped, with one warning. */
#include <string.h>

#include "bot.h"

static uint64_t
flood_key(const char *a, const char *r, const char *u)
{
	uint64_t h = 1469598103934665603ull;
	const char *parts[3] = { a, r ? r : "", u };
	const unsigned char *p;
	int i;

	for (i = 0; i < 3; i++) {
		for (p = (const unsigned char *)parts[i]; *p; p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h | 1;   /* 0 marks a free slot */
}

enum flood_verdict
flood_check(struct flood *f, const char *adapter, const char *room, const char *user,
            int64_t now, int burst, int refill_ms)
{
	uint64_t key = flood_key(adapter, room, user);
	struct flood_slot *s = &f->slots[key % FLOOD_SLOTS];
	int64_t full = (int64_t)burst * 1000, t;

	/* A collision just hands the newcomer a fresh bucket: the table stays
	 * bounded however many users pass through. */
	if (s->key != key) {
		s->key = key;
		s->tokens_milli = (int32_t)full;
		s->last_ms = now;
		s->warned = false;
	}
	if (now > s->last_ms) {
		t = s->tokens_milli + (now - s->last_ms) * 1000 / refill_ms;
		s->tokens_milli = (int32_t)(t > full ? full : t);
		s->last_ms = now;
	}
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
