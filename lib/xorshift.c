/* xorshift.c: xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"). */
#include "xorshift.h"

uint64_t
xorshift_seed(uint64_t seed)
{
	/* 0 is xorshift's one fixed point: it would give 0 for ever */
	return seed != 0 ? seed : UINT64_C(0x9E3779B97F4A7C15);
}

uint64_t
xorshift_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

uint32_t
xorshift_next32(uint64_t *state)
{
	return (uint32_t)(xorshift_next(state) >> 32);
}
