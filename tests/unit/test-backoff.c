/* test-backoff.c: lib/backoff.c, doubling to a cap, the jitter the injected random value chooses, and reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "backoff.h"

#define RND_MID (UINT32_C(1) << 31)   /* half way: the jitter's middle */

static void
test_doubling_to_cap(void **state)
{
	const struct backoff b = { .first_ms = 500, .max_ms = 30000 };
	static const int64_t want[] = { 500, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000 };

	(void)state;
	for (int fails = 0; fails < 9; fails++)
		assert_int_equal(backoff_delay(&b, fails, 12345), want[fails]);
	assert_int_equal(backoff_delay(&b, 1000000, 0), 30000);
	/* a cap below the first wait wins */
	const struct backoff low = { .first_ms = 2000, .max_ms = 1000 };
	assert_int_equal(backoff_delay(&low, 1, 0), 1000);
}

/* Jitter below: the wait less up to jitter_pct; centred: around it. */
static void
test_jitter(void **state)
{
	const struct backoff below = { .first_ms = 1000, .max_ms = 60000, .jitter_pct = 50 };
	const struct backoff centred = { .first_ms = 2000, .max_ms = 60000, .jitter_pct = 50, .centred = true };

	(void)state;
	assert_int_equal(backoff_delay(&below, 3, 0), 4000);
	assert_int_equal(backoff_delay(&below, 3, RND_MID), 3000);
	assert_in_range(backoff_delay(&below, 3, UINT32_MAX), 2000, 2001);
	assert_int_equal(backoff_delay(&centred, 1, 0), 2500);
	assert_int_equal(backoff_delay(&centred, 1, RND_MID), 2000);
	assert_in_range(backoff_delay(&centred, 1, UINT32_MAX), 1500, 1501);
	/* after the cap too */
	assert_int_equal(backoff_delay(&below, 20, RND_MID), 45000);
	/* a jitter of all of it never goes below 0 */
	const struct backoff all = { .first_ms = 1000, .max_ms = 1000, .jitter_pct = 100 };
	assert_in_range(backoff_delay(&all, 1, UINT32_MAX), 0, 1);
}

static void
test_next_and_reset(void **state)
{
	struct backoff b = { .first_ms = 100, .max_ms = 1000 };

	(void)state;
	assert_int_equal(backoff_next(&b, 0), 100);
	assert_int_equal(backoff_next(&b, 0), 200);
	assert_int_equal(backoff_next(&b, 0), 400);
	assert_int_equal(b.fails, 3);
	backoff_reset(&b);
	assert_int_equal(b.fails, 0);
	assert_int_equal(backoff_next(&b, 0), 100);
	for (int i = 0; i < 5000; i++)
		assert_int_equal(backoff_next(&b, 0) <= 1000, 1);
	assert_int_equal(backoff_next(&b, 0), 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubling_to_cap),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_next_and_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
