/* hash.h: FNV-1a, 32 and 64 bits, for hash tables and identities kept in memory (never where an attacker picks keys to collide). */
#ifndef HF_HASH_H
#define HF_HASH_H

#include <stdint.h>

/* FNV-1a's offset bases and primes (draft-eastlake-fnv). */
#define HASH_FNV32_INIT  UINT32_C(2166136261)
#define HASH_FNV32_PRIME UINT32_C(16777619)
#define HASH_FNV64_INIT  UINT64_C(0xcbf29ce484222325)
#define HASH_FNV64_PRIME UINT64_C(0x100000001b3)

/* h with one more value mixed in (one FNV-1a step: xor, then multiply):
 * a byte, or a small number such as a count or a separator between fields. */
uint32_t hash_fnv32_add(uint32_t h, uint32_t v);
uint64_t hash_fnv64_add(uint64_t h, uint64_t v);
/* h with each byte of s mixed in; NULL counts as "". */
uint32_t hash_fnv32_str(uint32_t h, const char *s);
uint64_t hash_fnv64_str(uint64_t h, const char *s);

#endif
