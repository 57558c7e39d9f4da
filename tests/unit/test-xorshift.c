/* test-xorshift.c: lib/xorshift.c, xorshift64* as published, never stuck at 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xorshift.h"

static void
test_sequence(void **state)
{
	uint64_t s = xorshift_seed(1), t = 1;

	(void)state;
	/* from state 1, by hand: x ^= x>>12; x ^= x<<25; x ^= x>>27; times the multiplier */
	t ^= t >> 12;
	t ^= t << 25;
	t ^= t >> 27;
	assert_true(xorshift_next(&s) == t * UINT64_C(2685821657736338717));
	assert_true(s == t);
	/* the 32-bit value is the high half of the 64-bit one */
	t = s;
	assert_true(xorshift_next32(&s) == (uint32_t)(xorshift_next(&t) >> 32));
	assert_true(s == t);
}

static void
test_zero_seed(void **state)
{
	uint64_t s = xorshift_seed(0);
	int zeros = 0;

	(void)state;
	assert_true(s != 0);
	for (int i = 0; i < 1000; i++)
		zeros += xorshift_next(&s) == 0;
	assert_true(zeros < 2);
	assert_true(s != 0);
}

/* Jitter wants both halves of the range: a rough look at the spread. */
static void
test_spread(void **state)
{
	uint64_t s = xorshift_seed(42);
	int high = 0;

	(void)state;
	for (int i = 0; i < 10000; i++)
		high += xorshift_next32(&s) >= UINT32_C(1) << 31;
	assert_in_range(high, 4500, 5500);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_zero_seed),
		cmocka_unit_test(test_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
