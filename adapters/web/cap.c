/* cap.c: capability links: 128 bits from getrandom, kept only as a SHA-256, compared in constant time. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "web.h"

int
web_cap_new(char token[WEB_TOKEN_CHARS + 1], uint8_t hash[WEB_HASH_BYTES])
{
	uint8_t raw[WEB_TOKEN_BYTES];
	size_t got = 0;

	while (got < sizeof raw) {
		ssize_t r = getrandom(raw + got, sizeof raw - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	web_cap_hex(token, raw, WEB_TOKEN_BYTES);
	explicit_bzero(raw, sizeof raw);
	return web_cap_hash(token, WEB_TOKEN_CHARS, hash);
}

int
web_cap_hash(const char *token, size_t len, uint8_t hash[WEB_HASH_BYTES])
{
	size_t i;

	if (len != WEB_TOKEN_CHARS)
		return -1;
	for (i = 0; i < len; i++)
		if (!((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f')))
			return -1;
	SHA256((const unsigned char *)token, len, hash);
	return 0;
}

void
web_cap_hex(char *out, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

bool
web_cap_equal(const uint8_t a[WEB_HASH_BYTES], const uint8_t b[WEB_HASH_BYTES])
{
	return CRYPTO_memcmp(a, b, WEB_HASH_BYTES) == 0;
}
