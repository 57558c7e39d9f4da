/* backoff.c: the one reconnect and retry backoff every adapter uses. */
#include "backoff.h"

int64_t
backoff_delay(const struct backoff *b, int fails, uint32_t rnd)
{
	int64_t d = b->first_ms > 0 ? b->first_ms : 0, span;

	for (int i = 1; i < fails && d < b->max_ms; i++)
		d *= 2;
	if (d > b->max_ms)
		d = b->max_ms > 0 ? b->max_ms : 0;
	if (b->jitter_pct <= 0)
		return d;
	span = d * (b->jitter_pct > 100 ? 100 : b->jitter_pct) / 100;
	/* rnd / 2^32 of the span: off the wait, or around it when centred */
	d -= (int64_t)(((uint64_t)span * rnd) >> 32);
	if (b->centred)
		d += span / 2;
	return d > 0 ? d : 0;
}

int64_t
backoff_next(struct backoff *b, uint32_t rnd)
{
	if (b->fails < 1000)   /* far past any cap: never overflows */
		b->fails++;
	return backoff_delay(b, b->fails, rnd);
}

void
backoff_reset(struct backoff *b)
{
	b->fails = 0;
}
