/* test-siphash.c: SipHash-2-4 against the reference vectors of its paper, whole and fed in pieces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "siphash.h"

static const uint8_t key[SIPHASH_KEY_LEN] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

/* the reference implementation's vectors.h: messages 00, 00 01, ... under key 00..0f */
static void
test_reference_vectors(void **state)
{
	uint8_t msg[64];

	(void)state;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	assert_true(siphash24(key, msg, 0) == 0x726fdb47dd0e0e31ull);
	assert_true(siphash24(key, msg, 1) == 0x74f839c593dc67fdull);
	assert_true(siphash24(key, msg, 8) == 0x93f5f5799a932462ull);
	assert_true(siphash24(key, msg, 15) == 0xa129ca6149be45e5ull);
	assert_true(siphash24(key, msg, 63) == 0x958a324ceb064572ull);
}

static void
test_pieces_hash_as_a_whole(void **state)
{
	uint8_t msg[40];

	(void)state;
	for (int i = 0; i < 40; i++)
		msg[i] = (uint8_t)(i * 7);
	for (size_t cut = 0; cut <= sizeof msg; cut++) {
		struct siphash s;

		siphash_init(&s, key);
		siphash_add(&s, msg, cut);
		siphash_add(&s, msg + cut, sizeof msg - cut);
		assert_true(siphash_end(&s) == siphash24(key, msg, sizeof msg));
	}
}

/* another key, another hash: nothing about one key's hashes tells another's */
static void
test_key_changes_the_hash(void **state)
{
	uint8_t other[SIPHASH_KEY_LEN] = { 1 };

	(void)state;
	assert_true(siphash24(key, "nick:alice", 10) != siphash24(other, "nick:alice", 10));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_vectors),
		cmocka_unit_test(test_pieces_hash_as_a_whole),
		cmocka_unit_test(test_key_changes_the_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
