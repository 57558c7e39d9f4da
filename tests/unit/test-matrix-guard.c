/* test-matrix-guard.c: the Matrix adapter's guards against a hostile homeserver: clamped waits, a warning for plain http. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "matrix/matrix.h"

static int64_t
wait_of(const char *json, curl_off_t after)
{
	json_t *j = json_loads(json, 0, NULL);
	int64_t ms = matrix_req_wait_ms(j, after);

	json_decref(j);
	return ms;
}

static void
test_waits_are_clamped(void **state)
{
	(void)state;
	assert_int_equal(wait_of("{\"retry_after_ms\":1500}", -1), 1500);
	assert_int_equal(wait_of("{\"retry_after_ms\":1500}", 9), 1500);
	assert_int_equal(wait_of("{}", 9), 9000);
	assert_int_equal(wait_of("{}", -1), -1);
	assert_int_equal(wait_of("{\"retry_after_ms\":-5}", -1), -1);
	assert_int_equal(wait_of("{\"retry_after_ms\":\"soon\"}", 2), 2000);
	/* now + wait must not overflow: a hostile server gets five minutes at most */
	assert_int_equal(wait_of("{\"retry_after_ms\":9223372036854775807}", -1), MATRIX_RETRY_MAX_MS);
	assert_int_equal(wait_of("{}", (curl_off_t)9223372036854775807LL), MATRIX_RETRY_MAX_MS);
	assert_int_equal(wait_of("{}", (curl_off_t)9223372036854775LL), MATRIX_RETRY_MAX_MS);
	assert_int_equal(wait_of("{\"retry_after_ms\":300001}", -1), MATRIX_RETRY_MAX_MS);
}

static void
test_plain_http_off_loopback_is_insecure(void **state)
{
	static const char *const ok[] = {
		"https://matrix.example.org", "http://127.0.0.1:8008", "http://127.1", "http://localhost",
		"http://localhost:8008/", "http://[::1]:8008", "https://10.0.0.1",
	};
	static const char *const bad[] = {
		"http://matrix.example.org", "http://10.0.0.1:8008", "http://127.0.0.1.evil.example",
		"http://localhost.evil.example", "http://127.0.0.1@evil.example", "http://[::1", "http://[::2]:80",
		"http://", "http://127.",
	};

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		assert_false(matrix_client_insecure(ok[i]));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_true(matrix_client_insecure(bad[i]));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits_are_clamped),
		cmocka_unit_test(test_plain_http_off_loopback_is_insecure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
