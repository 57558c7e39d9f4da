/* e2e-web-h2c.c: the web port speaks HTTP/1.1 and the WebSocket upgrade only: no h2c upgrade, no HTTP/2 preface, one WebSocket per counted connection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"
#include "ircserver.h"
#include "webtable.h"
#include "wsclient.h"

static struct world w;
static int port;
static char origin[64], pub[64];

static int
setup(void **state)
{
	*state = &w;
	/* the audit's limit: two connections from one address */
	return webtable_console(&w, "web-h2c", "max_per_address = 2\n", &port, origin, sizeof origin, pub, sizeof pub);
}

/* The client's HTTP/2 preface, an empty SETTINGS frame and a PING. */
static const char h2_start[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
                               "\x00\x00\x00\x04\x00\x00\x00\x00\x00"
                               "\x00\x00\x08\x06\x00\x00\x00\x00\x00" "abcdefgh";

/* An HTTP/1.1 GET of path asking to upgrade to h2c, as curl --http2 sends
 * it, followed at once by what an HTTP/2 client sends after the 101. */
static void
h2c_request(const char *path, char *out, size_t len)
{
	char req[512];
	size_t n;

	n = (size_t)snprintf(req, sizeof req,
	                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: Upgrade, HTTP2-Settings\r\n"
	                     "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
	                     path, port);
	memcpy(req + n, h2_start, sizeof h2_start - 1);
	assert_true(wsc_raw(port, req, n + sizeof h2_start - 1, out, len, 2000) >= 0);
}

static void
test_h2c_upgrade_not_taken(void **state)
{
	char out[65536];

	(void)state;
	/* the page is answered in HTTP/1, as if Upgrade were not there (libwebsockets
	 * writes "HTTP/1.0" before it has taken the request as HTTP/1.1's) */
	h2c_request("/", out, sizeof out);
	print_message("h2c asked: %.60s\n", out);
	assert_null(strstr(out, " 101 "));
	assert_true(strncmp(out, "HTTP/1.1 200", 12) == 0 || strncmp(out, "HTTP/1.0 200", 12) == 0);
	assert_non_null(strstr(out, "content-security-policy: default-src 'none'"));
	/* a table's page too */
	h2c_request(pub, out, sizeof out);
	assert_null(strstr(out, " 101 "));
	assert_true(strncmp(out, "HTTP/1.1 200", 12) == 0 || strncmp(out, "HTTP/1.0 200", 12) == 0);
	assert_true(e2e_daemon_alive(&w.d));
}

static void
test_prior_knowledge_refused(void **state)
{
	char out[4096];
	int n;

	(void)state;
	n = wsc_raw(port, h2_start, sizeof h2_start - 1, out, sizeof out, 2000);
	/* an HTTP/2 server answers with its own SETTINGS frame: 9 bytes, type 4 */
	print_message("the preface got %d bytes back: %.40s\n", n, out);
	assert_false(n >= 9 && out[3] == 4);
	assert_null(strstr(out, " 200 "));
	assert_true(e2e_daemon_alive(&w.d));
}

/* max_per_address = 2: two WebSockets from one address, never a third on any path. */
static void
test_sockets_per_address(void **state)
{
	struct wsc a, b, c;
	char out[8192];

	(void)state;
	assert_int_equal(wsc_open_from(&a, "127.0.0.4", port, pub, origin, "handfoot-1", 0), 0);
	assert_int_equal(wsc_open_from(&b, "127.0.0.4", port, pub, origin, "handfoot-1", 0), 0);
	assert_non_null(wsc_wait(&a, "\"type\":\"view\"", 10000));
	assert_non_null(wsc_wait(&b, "\"type\":\"view\"", 10000));
	assert_int_equal(wsc_open_from(&c, "127.0.0.4", port, pub, origin, "handfoot-1", 0), -1);
	wsc_close(&c);
	/* another address is not counted with them */
	assert_int_equal(wsc_open_from(&c, "127.0.0.5", port, pub, origin, "handfoot-1", 0), 0);
	assert_non_null(wsc_wait(&c, "\"type\":\"view\"", 10000));
	wsc_close(&c);
	wsc_close(&a);
	wsc_close(&b);
	/* and an h2c request never becomes a connection carrying sockets */
	h2c_request(pub, out, sizeof out);
	assert_null(strstr(out, " 101 "));
}

/* No HTTP/2 frame ever reached libwebsockets' h2 code: it logs an error for each it dislikes. */
static void
test_log_quiet(void **state)
{
	(void)state;
	assert_false(e2e_daemon_log_has(&w.d, "lws: "));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_h2c_upgrade_not_taken),
		cmocka_unit_test(test_prior_knowledge_refused),
		cmocka_unit_test(test_sockets_per_address),
		cmocka_unit_test(test_log_quiet),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
