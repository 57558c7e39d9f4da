/* test-rating.c: lib/rating.c on known results worked by hand: two sides, three, a partnership, ties, order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rating.h"

#define EPS 1e-3

/* Equal ratings, one winner: each expects 0.5, so +-K/2. */
static void
test_two_sides(void **state)
{
	const double r[2] = { 1500, 1500 };
	const long long p[2] = { 5200, 3100 };
	double d[2];

	(void)state;
	assert_int_equal(rating_game(2, r, p, d), 0);
	assert_float_equal(d[0], 16.0, EPS);
	assert_float_equal(d[1], -16.0, EPS);
}

/* The underdog wins: 1400 expects 1 / (1 + 10^(200/400)) = 0.240253 of
 * 1600, so gains 32 * (1 - 0.240253) = 24.3119. */
static void
test_upset(void **state)
{
	const double r[2] = { 1600, 1400 };
	const long long p[2] = { -200, 900 };
	double d[2];

	(void)state;
	assert_int_equal(rating_game(2, r, p, d), 0);
	assert_float_equal(d[1], 24.3119, EPS);
	assert_float_equal(d[0], -24.3119, EPS);
}

/* Three equal sides ranked 1st, 2nd, 3rd: K/(n-1) = 16 per pair; the
 * middle side wins one and loses one: 0. */
static void
test_three_sides(void **state)
{
	const double r[3] = { 1500, 1500, 1500 };
	const long long p[3] = { 300, 200, 100 };
	double d[3];

	(void)state;
	assert_int_equal(rating_game(3, r, p, d), 0);
	assert_float_equal(d[0], 16.0, EPS);
	assert_float_equal(d[1], 0.0, EPS);
	assert_float_equal(d[2], -16.0, EPS);
}

/* 1600, 1500, 1400 finishing in reverse order: the 1600 side expects
 * 0.640065 of 1500 and 0.759747 of 1400 and gets nothing of either:
 * 16 * -(1.399812) = -22.3970; the middle side's two terms cancel. */
static void
test_three_sides_upset(void **state)
{
	const double r[3] = { 1600, 1500, 1400 };
	const long long p[3] = { 100, 200, 300 };
	double d[3];

	(void)state;
	assert_int_equal(rating_game(3, r, p, d), 0);
	assert_float_equal(d[0], -22.3970, EPS);
	assert_float_equal(d[1], 0.0, EPS);
	assert_float_equal(d[2], 22.3970, EPS);
	assert_float_equal((d[0] + d[1] + d[2]), 0.0, 1e-9);
}

/* Partners 1600 and 1400 are one side of 1500 against 1500 and 1500:
 * they win, each of the four players moves by 16; the changes sum to zero. */
static void
test_partnership(void **state)
{
	const double a[2] = { 1600, 1400 }, b[2] = { 1500, 1500 };
	const double r[2] = { rating_mean(2, a), rating_mean(2, b) };
	const long long p[2] = { 7000, 6000 };
	double d[2];

	(void)state;
	assert_float_equal(r[0], 1500.0, 1e-9);
	assert_int_equal(rating_game(2, r, p, d), 0);
	assert_float_equal(d[0], 16.0, EPS);
	assert_float_equal((2 * d[0] + 2 * d[1]), 0.0, 1e-9);
	assert_float_equal(rating_mean(0, a), RATING_START, 1e-9);
}

/* A tie scores 0.5 each: equal ratings move nothing; 1600 tying 1400
 * loses 32 * (0.5 - 0.759747) = -8.3119. */
static void
test_tie(void **state)
{
	const double eq[2] = { 1500, 1500 }, r[2] = { 1600, 1400 };
	const long long p[2] = { 4000, 4000 };
	double d[2];

	(void)state;
	assert_int_equal(rating_game(2, eq, p, d), 0);
	assert_float_equal(d[0], 0.0, 1e-9);
	assert_float_equal(d[1], 0.0, 1e-9);
	assert_int_equal(rating_game(2, r, p, d), 0);
	assert_float_equal(d[0], -8.3119, EPS);
	assert_float_equal(d[1], 8.3119, EPS);
}

/* The sides' order changes nothing but the order of the changes. */
static void
test_order(void **state)
{
	const double r[4] = { 1720, 1480, 1510, 1390 }, rr[4] = { 1390, 1510, 1480, 1720 };
	const long long p[4] = { 10, 400, 400, -80 }, pr[4] = { -80, 400, 400, 10 };
	double d[4], dr[4], sum = 0.0;
	int i;

	(void)state;
	assert_int_equal(rating_game(4, r, p, d), 0);
	assert_int_equal(rating_game(4, rr, pr, dr), 0);
	for (i = 0; i < 4; i++) {
		assert_float_equal(d[i], dr[3 - i], 1e-9);
		sum += d[i];
	}
	assert_float_equal(sum, 0.0, 1e-9);
	/* the two tied sides of 1480 and 1510: the lower gains more */
	assert_true(d[1] > d[2]);
}

static void
test_bad_count(void **state)
{
	const double r[1] = { 1500 };
	const long long p[1] = { 0 };
	double d[1] = { 42 };

	(void)state;
	assert_int_equal(rating_game(1, r, p, d), -1);
	assert_int_equal(rating_game(RATING_SIDES_MAX + 1, r, p, d), -1);
	assert_float_equal(d[0], 42, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sides),
		cmocka_unit_test(test_upset),
		cmocka_unit_test(test_three_sides),
		cmocka_unit_test(test_three_sides_upset),
		cmocka_unit_test(test_partnership),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_bad_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
