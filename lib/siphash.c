/* siphash.c: SipHash-2-4 (Aumasson and Bernstein, 2012), fed in pieces. */
#include "siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t
siphash_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void
siphash_rounds(uint64_t v[4], int n)
{
	while (n-- > 0) {
		v[0] += v[1];
		v[1] = ROTL(v[1], 13);
		v[1] ^= v[0];
		v[0] = ROTL(v[0], 32);
		v[2] += v[3];
		v[3] = ROTL(v[3], 16);
		v[3] ^= v[2];
		v[0] += v[3];
		v[3] = ROTL(v[3], 21);
		v[3] ^= v[0];
		v[2] += v[1];
		v[1] = ROTL(v[1], 17);
		v[1] ^= v[2];
		v[2] = ROTL(v[2], 32);
	}
}

static void
siphash_word(struct siphash *s, uint64_t m)
{
	s->v[3] ^= m;
	siphash_rounds(s->v, 2);
	s->v[0] ^= m;
}

void
siphash_init(struct siphash *s, const uint8_t key[SIPHASH_KEY_LEN])
{
	uint64_t k0 = siphash_le64(key), k1 = siphash_le64(key + 8);

	s->v[0] = k0 ^ 0x736f6d6570736575ull;
	s->v[1] = k1 ^ 0x646f72616e646f6dull;
	s->v[2] = k0 ^ 0x6c7967656e657261ull;
	s->v[3] = k1 ^ 0x7465646279746573ull;
	s->tail = 0;
	s->len = 0;
}

void
siphash_add(struct siphash *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		s->tail |= (uint64_t)p[i] << (8 * (s->len % 8));
		if (++s->len % 8 == 0) {
			siphash_word(s, s->tail);
			s->tail = 0;
		}
	}
}

uint64_t
siphash_end(struct siphash *s)
{
	siphash_word(s, s->tail | ((uint64_t)(s->len & 0xff) << 56));
	s->v[2] ^= 0xff;
	siphash_rounds(s->v, 4);
	return s->v[0] ^ s->v[1] ^ s->v[2] ^ s->v[3];
}

uint64_t
siphash24(const uint8_t key[SIPHASH_KEY_LEN], const void *data, size_t len)
{
	struct siphash s;

	siphash_init(&s, key);
	siphash_add(&s, data, len);
	return siphash_end(&s);
}
