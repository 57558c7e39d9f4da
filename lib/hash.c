/* hash.c: FNV-1a, 32 and 64 bits: the one copy of the constants. */
#include <stddef.h>

#include "hash.h"

uint32_t
hash_fnv32_add(uint32_t h, uint32_t v)
{
	return (h ^ v) * HASH_FNV32_PRIME;
}

uint64_t
hash_fnv64_add(uint64_t h, uint64_t v)
{
	return (h ^ v) * HASH_FNV64_PRIME;
}

uint32_t
hash_fnv32_str(uint32_t h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s != NULL ? s : ""); *p != '\0'; p++)
		h = hash_fnv32_add(h, *p);
	return h;
}

uint64_t
hash_fnv64_str(uint64_t h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s != NULL ? s : ""); *p != '\0'; p++)
		h = hash_fnv64_add(h, *p);
	return h;
}
