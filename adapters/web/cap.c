/* cap.c: capability links: 128 bits from getrandom, kept only as a SHA-256, compared in constant time. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "web.h"

static const char cap_hex[] = "0123456789abcdef";

int
web_cap_new(char token[WEB_TOKEN_CHARS + 1], uint8_t hash[WEB_HASH_BYTES])
{
	uint8_t raw[WEB_TOKEN_BYTES];
	size_t got = 0;
	int i;

	while (got < sizeof raw) {
		ssize_t r = getrandom(raw + got, sizeof raw - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	for (i = 0; i < WEB_TOKEN_BYTES; i++) {
		token[2 * i] = cap_hex[raw[i] >> 4];
		token[2 * i + 1] = cap_hex[raw[i] & 15];
	}
	token[WEB_TOKEN_CHARS] = '\0';
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

bool
web_cap_equal(const uint8_t a[WEB_HASH_BYTES], const uint8_t b[WEB_HASH_BYTES])
{
	return CRYPTO_memcmp(a, b, WEB_HASH_BYTES) == 0;
}
