/* siphash.h: SipHash-2-4, a keyed hash: whoever does not know the key cannot choose inputs that collide. */
#ifndef HF_SIPHASH_H
#define HF_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEY_LEN 16

/* Fed in pieces: the hash of the pieces' concatenation, as one call would give. */
struct siphash {
	uint64_t v[4];
	uint64_t tail;           /* the bytes of the word being filled, low first */
	size_t len;              /* bytes fed in all */
};

void     siphash_init(struct siphash *s, const uint8_t key[SIPHASH_KEY_LEN]);
void     siphash_add(struct siphash *s, const void *data, size_t len);
uint64_t siphash_end(struct siphash *s);
/* The one-call form. */
uint64_t siphash24(const uint8_t key[SIPHASH_KEY_LEN], const void *data, size_t len);

#endif
