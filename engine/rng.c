/* rng.c: the engine's only randomness, splitmix64 on the caller's state. */
#include "game-internal.h"

uint64_t hf_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Lemire's multiply-shift with rejection: no modulo bias. */
uint32_t hf_rng_below(uint64_t *state, uint32_t n)
{
	if (n <= 1)
		return 0;
	uint64_t m = (uint64_t)(uint32_t)hf_rng_next(state) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t floor = (uint32_t)(-n) % n;
		while (low < floor) {
			m = (uint64_t)(uint32_t)hf_rng_next(state) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}
