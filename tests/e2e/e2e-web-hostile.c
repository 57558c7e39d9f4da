/* e2e-web-hostile.c: the web table under hostile input: malformed HTTP, foreign origins, WebSocket versions other than 13, oversized and bad frames, a spectator trying to play, a thousand idle sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"
#include "ircserver.h"
#include "wsclient.h"

static struct world w;
static int port;
static char origin[64], pub[64], seat[64];

static int
setup(void **state)
{
	char web[256];
	struct rlimit rl;

	*state = &w;
	/* a thousand sockets of our own */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 4096) {
		rl.rlim_cur = rl.rlim_max < 4096 ? rl.rlim_max : 4096;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (world_init(&w, &world_none) < 0)
		return -1;
	port = ircserver_free_port();
	snprintf(origin, sizeof origin, "http://127.0.0.1:%d", port);
	/* a computer table in the console's room: its seat plays nothing here */
	snprintf(web, sizeof web,
	         "[console]\nprefix =\nstart = play 4 classic\n"
	         "[web test]\nlisten = 127.0.0.1:%d\nmax_connections = 500\nmax_per_address = 20\nidle_timeout = 10\n",
	         port);
	world_run(&w, "web-hostile", "prefix = !\nai_delay = 60000\nturn_reminder = 0\n", web);
	if (e2e_daemon_wait_log(&w.d, "Watch: ", 20000) < 0 || e2e_daemon_wait_log(&w.d, "play from", 20000) < 0)
		return -1;
	if (e2e_log_link(w.d.log, "Watch: ", pub, sizeof pub) < 0 ||
	    e2e_log_link(w.d.log, "play from", seat, sizeof seat) < 0)
		return -1;
	return 0;
}

static void
still_serving(void)
{
	char body[4096];

	assert_true(e2e_daemon_alive(&w.d));
	assert_int_equal(wsc_http_get(port, "/", NULL, body, sizeof body), 200);
}

/* GETs path (a /t/ link): whether it refuses every frame, by CSP and X-Frame-Options both. */
static void
framing(const char *path, bool refused)
{
	char get[256], out[8192];

	snprintf(get, sizeof get, "GET %s HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", path);
	wsc_raw(port, get, strlen(get), out, sizeof out, 2000);
	assert_non_null(strstr(out, "200 OK"));
	assert_non_null(strstr(out, "content-security-policy: default-src 'none'; script-src 'self'"));
	assert_int_equal(strstr(out, "frame-ancestors 'none'") != NULL, refused);
	assert_int_equal(strstr(out, "x-frame-options: DENY") != NULL, refused);
}

static void
test_malformed_http(void **state)
{
	char out[8192], big[12000];

	(void)state;
	wsc_raw(port, "GARBAGE\r\n\r\n", 11, out, sizeof out, 2000);
	assert_null(strstr(out, "200 OK"));
	/* a NUL in the path: whatever libwebsockets makes of it, never a table's page */
	wsc_raw(port, "GET /t/\0 HTTP/1.1\r\n\r\n", 22, out, sizeof out, 2000);
	assert_null(strstr(out, "cards.js"));
	/* headers over the bound */
	memset(big, 'a', sizeof big);
	memcpy(big, "GET / HTTP/1.1\r\nX-Big: ", 23);
	memcpy(big + sizeof big - 4, "\r\n\r\n", 4);
	wsc_raw(port, big, sizeof big, out, sizeof out, 2000);
	assert_null(strstr(out, "200 OK"));
	/* only GET: nothing takes a body */
	{
		const char *post = "POST /t/x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello";

		wsc_raw(port, post, strlen(post), out, sizeof out, 2000);
	}
	assert_null(strstr(out, "200 OK"));
	/* a path that climbs, a path too long */
	assert_int_equal(wsc_http_get(port, "/s/../../etc/passwd", NULL, out, sizeof out) == 200, 0);
	assert_null(strstr(out, "root:"));
	/* every answer carries the policy, and no cookie */
	{
		const char *get = "GET /s/app.css HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";

		wsc_raw(port, get, strlen(get), out, sizeof out, 2000);
	}
	assert_non_null(strstr(out, "200 OK"));
	assert_non_null(strstr(out, "content-security-policy: default-src 'none'; script-src 'self'"));
	assert_null(strstr(out, "unsafe-inline"));
	assert_null(strstr(out, "set-cookie"));
	/* a seat's page is never framed; the table's public page may be (a Matrix room widget) */
	framing(seat, true);
	framing(pub, false);
	still_serving();
}

static void
test_origin_and_protocol(void **state)
{
	struct wsc c;

	(void)state;
	assert_int_equal(wsc_open(&c, port, pub, "http://evil.example", "handfoot-1"), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, pub, "null", "handfoot-1"), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, pub, NULL, "handfoot-1"), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, pub, origin, NULL), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, pub, origin, "other"), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, "/t/0123456789abcdef0123456789abcdef", origin, "handfoot-1"), -1);
	wsc_close(&c);
	assert_int_equal(wsc_open(&c, port, pub, origin, "handfoot-1"), 0);
	assert_non_null(wsc_wait(&c, "\"type\":\"view\"", 10000));
	wsc_close(&c);
	still_serving();
}

/* RFC 6455 4.4: a version other than 13 is answered 426 with the one the server speaks, never 101. */
static void
test_websocket_versions(void **state)
{
	static const char *const versions[] = { "0", "8", "14", "", NULL };
	char req[1024], out[4096], ver[64];
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		if (versions[i] != NULL)
			snprintf(ver, sizeof ver, "Sec-WebSocket-Version: %s\r\n", versions[i]);
		else
			ver[0] = '\0';
		snprintf(req, sizeof req,
		         "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
		         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n%sOrigin: %s\r\n"
		         "Sec-WebSocket-Protocol: handfoot-1\r\n\r\n",
		         pub, port, ver, origin);
		assert_true(wsc_raw(port, req, strlen(req), out, sizeof out, 2000) > 0);
		print_message("version \"%s\": %.30s\n", versions[i] != NULL ? versions[i] : "(none)", out);
		assert_null(strstr(out, " 101 "));
		assert_true(strncmp(out, "HTTP/1.1 426", 12) == 0 || strncmp(out, "HTTP/1.0 426", 12) == 0);
		assert_non_null(strcasestr(out, "\r\nsec-websocket-version: 13\r\n"));
	}
	still_serving();
}

/* Opens path, sends a frame, and expects the server to close with code. */
static void
closes_with(const char *path, int opcode, bool fin, const char *payload, size_t n, int code)
{
	struct wsc c;

	assert_int_equal(wsc_open(&c, port, path, origin, "handfoot-1"), 0);
	assert_non_null(wsc_wait(&c, "\"type\":\"view\"", 10000));
	wsc_send_frame(&c, opcode, fin, payload, n);
	while (wsc_read(&c, 5000) > 0)
		;
	assert_true(c.closed);
	if (code != 0)
		assert_int_equal(c.close_code, code);
	wsc_close(&c);
}

static void
test_bad_frames(void **state)
{
	static char big[70000];
	const char *act = "{\"v\":1,\"type\":\"act\",\"cmd\":\"draw\"}";

	(void)state;
	memset(big, ' ', sizeof big);
	closes_with(seat, 1, true, big, 5000, 1009);
	closes_with(seat, 1, true, big, sizeof big, 1009);
	closes_with(seat, 2, true, "abc", 3, 1003);
	/* fragments that add up to too much */
	{
		struct wsc c;
		int i;

		assert_int_equal(wsc_open(&c, port, seat, origin, "handfoot-1"), 0);
		for (i = 0; i < 8; i++)
			wsc_send_frame(&c, i == 0 ? 1 : 0, false, big, 200);
		while (wsc_read(&c, 5000) > 0)
			;
		assert_true(c.closed);
		wsc_close(&c);
	}
	closes_with(seat, 1, true, "{not json", 9, 1007);
	closes_with(seat, 1, true, "{\"v\":1,\"type\":\"act\",\"cmd\":\"abort\"}", 35, 1007);
	/* a spectator's page never plays */
	closes_with(pub, 1, true, act, strlen(act), 1008);
	still_serving();
}

static int
idle_from(const char *addr)
{
	struct sockaddr_in sa, me;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&me, 0, sizeof me);
	me.sin_family = AF_INET;
	inet_pton(AF_INET, addr, &me.sin_addr);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof me) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Whether the server still holds fd open (it closes what it refuses or drops). */
static bool
held(int fd)
{
	char c;
	ssize_t r = recv(fd, &c, 1, MSG_DONTWAIT);

	return r < 0;
}

static void
test_thousand_idle_sockets(void **state)
{
	static int fds[1000];
	char addr[32], body[1024];
	int i, n = 0, kept = 0, from1 = 0;

	(void)state;
	/* 1,000 sockets that say nothing, from 50 addresses */
	for (i = 0; i < 1000; i++) {
		snprintf(addr, sizeof addr, "127.0.1.%d", 1 + i % 50);
		fds[i] = idle_from(addr);
		n += fds[i] >= 0;
	}
	assert_true(n > 900);
	/* the server refuses what is past its bounds as it accepts: polled
	 * until it has, for 5 s at most, well within the idle timeout (10 s)
	 * that would drop them all anyway */
	for (int tries = 0; tries < 50; tries++) {
		for (i = 0, kept = 0, from1 = 0; i < 1000; i++) {
			if (fds[i] >= 0 && held(fds[i])) {
				kept++;
				from1 += i % 50 == 0;
			}
		}
		if (kept <= 500 && from1 <= 20)
			break;
		e2e_sleep_ms(100);
	}
	print_message("%d of %d idle sockets held (at most 500 in all, 20 per address)\n", kept, n);
	assert_true(kept <= 500);
	assert_true(from1 <= 20);
	assert_true(e2e_daemon_alive(&w.d));
	/* the idle are dropped: soon a page is served again */
	for (i = 0; i < 600; i++) {
		if (wsc_http_get(port, "/", NULL, body, sizeof body) == 200)
			break;
		e2e_sleep_ms(100);
	}
	assert_true(i < 600);
	/*
	 * Every idle socket is dropped in the end, including those the kernel
	 * queued while the server was full, which it accepts (and times out)
	 * only once the first ones are gone: two idle timeouts and some slack.
	 */
	for (i = 0; i < 400; i++) {
		int j;

		for (j = 0, kept = 0; j < 1000; j++)
			kept += fds[j] >= 0 && held(fds[j]);
		if (kept == 0)
			break;
		e2e_sleep_ms(100);
	}
	for (i = 0; i < 1000; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	print_message("%d idle sockets still held after two idle timeouts\n", kept);
	assert_int_equal(kept, 0);
	still_serving();
}

/* A page's socket that says nothing is dropped after idle_timeout; one that pings stays. */
static void
test_silent_socket_dropped(void **state)
{
	struct wsc quiet, alive;
	int i;

	(void)state;
	assert_int_equal(wsc_open(&quiet, port, pub, origin, "handfoot-1"), 0);
	assert_int_equal(wsc_open(&alive, port, pub, origin, "handfoot-1"), 0);
	for (i = 0; i < 40 && !quiet.closed; i++) {
		wsc_send(&alive, "{\"v\":1,\"type\":\"ping\"}");
		while (wsc_read(&quiet, 500) > 0)
			;
		while (wsc_read(&alive, 0) > 0)
			;
	}
	assert_true(quiet.closed);
	assert_false(alive.closed);
	wsc_close(&quiet);
	wsc_close(&alive);
	still_serving();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed_http),
		cmocka_unit_test(test_origin_and_protocol),
		cmocka_unit_test(test_websocket_versions),
		cmocka_unit_test(test_bad_frames),
		cmocka_unit_test(test_silent_socket_dropped),
		cmocka_unit_test(test_thousand_idle_sockets),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
