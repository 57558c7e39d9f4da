/* backoff.h: how long to wait before trying again: doubling from a first delay up to a cap, less a random share so that many clients cut at once do not all come back at once. */
#ifndef HF_BACKOFF_H
#define HF_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

struct backoff {
	int64_t first_ms;   /* the wait after the first failure */
	int64_t max_ms;     /* never longer (before the jitter) */
	int jitter_pct;     /* 0-100: the share of the wait the random value moves */
	bool centred;       /* the jitter spreads around the wait (else it only shortens it) */
	int fails;          /* failures in a row: backoff_next counts, backoff_reset clears */
};

/* The wait after fails failures in a row (1: the first; below 1 counts as
 * 1): first_ms doubled fails - 1 times, at most max_ms, then moved by the
 * jitter, rnd (uniform over 32 bits) saying how far.  Never below 0. */
int64_t backoff_delay(const struct backoff *b, int fails, uint32_t rnd);
/* One more failure: counts it and says how long to wait. */
int64_t backoff_next(struct backoff *b, uint32_t rnd);
/* A success: the next failure waits first_ms again. */
void    backoff_reset(struct backoff *b);

#endif
