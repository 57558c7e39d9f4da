/* test-hash.c: lib/hash.c, FNV-1a with the published constants (the copies it replaced had the 64-bit basis one digit short). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hash.h"

/* The reference values of draft-eastlake-fnv's test suite. */
static void
test_vectors(void **state)
{
	(void)state;
	assert_true(HASH_FNV64_INIT == UINT64_C(14695981039346656037));
	assert_true(hash_fnv64_str(HASH_FNV64_INIT, "") == UINT64_C(0xcbf29ce484222325));
	assert_true(hash_fnv64_str(HASH_FNV64_INIT, "a") == UINT64_C(0xaf63dc4c8601ec8c));
	assert_true(hash_fnv64_str(HASH_FNV64_INIT, "foobar") == UINT64_C(0x85944171f73967e8));
	assert_int_equal(hash_fnv32_str(HASH_FNV32_INIT, ""), 0x811c9dc5u);
	assert_int_equal(hash_fnv32_str(HASH_FNV32_INIT, "a"), 0xe40c292cu);
	assert_int_equal(hash_fnv32_str(HASH_FNV32_INIT, "foobar"), 0xbf9cf968u);
}

/* A string is its bytes added one by one; NULL is "". */
static void
test_steps(void **state)
{
	uint64_t h64 = HASH_FNV64_INIT;
	uint32_t h32 = HASH_FNV32_INIT;

	(void)state;
	for (const char *p = "foo"; *p != '\0'; p++) {
		h64 = hash_fnv64_add(h64, (unsigned char)*p);
		h32 = hash_fnv32_add(h32, (unsigned char)*p);
	}
	assert_true(hash_fnv64_str(h64, "bar") == hash_fnv64_str(HASH_FNV64_INIT, "foobar"));
	assert_int_equal(hash_fnv32_str(h32, "bar"), hash_fnv32_str(HASH_FNV32_INIT, "foobar"));
	assert_true(hash_fnv64_str(HASH_FNV64_INIT, NULL) == HASH_FNV64_INIT);
	assert_int_equal(hash_fnv32_str(HASH_FNV32_INIT, NULL), HASH_FNV32_INIT);
	/* a separator keeps ("ab", "c") and ("a", "bc") apart */
	assert_true(hash_fnv64_str(hash_fnv64_add(hash_fnv64_str(HASH_FNV64_INIT, "ab"), 0xff), "c") !=
	            hash_fnv64_str(hash_fnv64_add(hash_fnv64_str(HASH_FNV64_INIT, "a"), 0xff), "bc"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
