/* xorshift.h: xorshift64*, a small fast generator for jitter and made-up names (not the engine's: engine/rng.c deals the cards). */
#ifndef HF_XORSHIFT_H
#define HF_XORSHIFT_H

#include <stdint.h>

/* The state from seed: any value (0 is replaced, xorshift never leaves 0). */
uint64_t xorshift_seed(uint64_t seed);
/* The next 64-bit value; *state moves on. */
uint64_t xorshift_next(uint64_t *state);
/* The next 32-bit value: the high half, the better bits of xorshift64*. */
uint32_t xorshift_next32(uint64_t *state);

#endif
