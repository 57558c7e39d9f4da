/* e2e-web-slowloris.c: connections that never finish their headers, 70 from one address, do not keep another address's page from loading, and are held only up to the address's share. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"
#include "ircserver.h"
#include "webtable.h"
#include "wsclient.h"

#define SLOW_N     70    /* more than libwebsockets' header pool held before (64) */
#define SLOW_SHARE 8     /* what one address may hold with its headers unfinished (adapters/web/bounds.c) */

static struct world w;
static int port;
static char origin[64], pub[64];

static int
setup(void **state)
{
	*state = &w;
	/* max_per_address as behind a proxy: the connection bounds let all 70 in */
	return webtable_console(&w, "web-slowloris", "max_connections = 500\nmax_per_address = 200\n", &port, origin, sizeof origin, pub, sizeof pub);
}

/* Whether the server still holds fd open (it closes what it drops, or answers it). */
static bool
held(int fd)
{
	char c;
	ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT);

	return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

static int
count_held(const int *fds, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += fds[i] >= 0 && held(fds[i]);
	return k;
}

static void
test_slow_headers_share(void **state)
{
	static const char part[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
	int fds[SLOW_N], i, kept;
	char body[65536];
	struct wsc c;

	(void)state;
	for (i = 0; i < SLOW_N; i++) {
		fds[i] = wsc_connect_from("127.0.0.2", port);
		assert_true(fds[i] >= 0);
		assert_int_equal(send(fds[i], part, sizeof part - 1, MSG_NOSIGNAL), (ssize_t)(sizeof part - 1));
	}
	/*
	 * The server accepts in the order the kernel queued: the 70 come before
	 * this page, which must load while they are still open (before, the 64
	 * headers of the pool were all theirs until the header timeout, 10 s,
	 * and this GET waited past its own 5 s).
	 */
	assert_int_equal(wsc_http_get_from("127.0.0.3", port, "/", NULL, body, sizeof body), 200);
	assert_non_null(strstr(body, "<html"));
	kept = count_held(fds, SLOW_N);
	print_message("the page loaded with %d of the %d slow connections held\n", kept, SLOW_N);
	assert_true(kept >= SLOW_SHARE);
	/* a table's socket from another address too */
	assert_int_equal(wsc_open_from(&c, "127.0.0.3", port, pub, origin, "handfoot-1", 0), 0);
	assert_non_null(wsc_wait(&c, "\"type\":\"view\"", 10000));
	wsc_close(&c);
	/*
	 * The server's own timer drops those past the address's share (after a
	 * grace of 2 s, for a proxy's burst): polled until it has, well before
	 * the header timeout (10 s) that would drop them all.
	 */
	for (i = 0; i < 80 && (kept = count_held(fds, SLOW_N)) > SLOW_SHARE; i++)
		e2e_sleep_ms(100);
	print_message("%d slow connections held after the sweep\n", kept);
	assert_true(kept <= SLOW_SHARE);
	/* the oldest, within the share, are those kept */
	assert_true(kept >= 1);
	for (i = SLOW_SHARE; i < SLOW_N; i++)
		assert_false(held(fds[i]));
	for (i = 0; i < SLOW_N; i++)
		close(fds[i]);
	assert_true(e2e_daemon_alive(&w.d));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_headers_share),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
