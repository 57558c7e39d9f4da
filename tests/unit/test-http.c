/* test-http.c: the shared curl multi handle on the loop: connections open at once are capped, in all and per host; the capped body collector. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "loop.h"

#define MAX_ACCEPTED 512

/* A server that accepts every connection and never answers: each transfer
 * holds its connection until it times out. */
struct sink {
	int fd, port;
	int accepted[MAX_ACCEPTED];
	int naccepted;
	int done;
};

static void
sink_accept(struct loop *l, int fd, int mask, void *data)
{
	struct sink *s = data;
	int c;

	(void)l;
	(void)mask;
	while ((c = accept(fd, NULL, NULL)) >= 0) {
		if (s->naccepted < MAX_ACCEPTED)
			s->accepted[s->naccepted++] = c;
		else
			close(c);
	}
}

static void
sink_open(struct sink *s, struct loop *l)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int one = 1;

	memset(s, 0, sizeof *s);
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(s->fd >= 0);
	setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_ANY);   /* 127.0.0.1, 127.0.0.2...: several hosts */
	assert_int_equal(bind(s->fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(s->fd, 1024), 0);
	assert_int_equal(getsockname(s->fd, (struct sockaddr *)&a, &len), 0);
	s->port = ntohs(a.sin_port);
	loop_watch(l, s->fd, LOOP_READ, sink_accept, s);
}

static void
sink_close(struct sink *s, struct loop *l)
{
	loop_unwatch(l, s->fd);
	for (int i = 0; i < s->naccepted; i++)
		close(s->accepted[i]);
	close(s->fd);
}

static void
on_done(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	(void)h;
	(void)easy;
	(void)rc;
	((struct sink *)data)->done++;
}

static int64_t
mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* hosts x per_host transfers to 127.0.0.1..hosts; how many connections the
 * sink saw open at once, after the loop ran for a while. */
static int
storm(int hosts, int per_host)
{
	struct loop *l = loop_new();
	struct http *h = http_new(l);
	struct sink s;
	CURL *easy[512];
	char url[128];
	int n = 0, seen;
	int64_t t0;

	sink_open(&s, l);
	for (int k = 1; k <= hosts; k++)
		for (int i = 0; i < per_host; i++) {
			snprintf(url, sizeof url, "http://127.0.0.%d:%d/x%d", k, s.port, i);
			easy[n] = curl_easy_init();
			curl_easy_setopt(easy[n], CURLOPT_URL, url);
			curl_easy_setopt(easy[n], CURLOPT_TIMEOUT_MS, 20000L);
			assert_int_equal(http_add(h, easy[n], on_done, &s), 0);
			n++;
		}
	/* long enough for every connection libcurl would open to be accepted */
	t0 = mono_ms();
	while (mono_ms() - t0 < 1500)
		loop_run_once(l, 50);
	seen = s.naccepted;
	for (int i = 0; i < n; i++) {
		http_remove(h, easy[i]);
		curl_easy_cleanup(easy[i]);
	}
	http_free(h);
	sink_close(&s, l);
	loop_free(l);
	assert_int_equal(s.done, 0);   /* nothing answered, nothing timed out yet */
	return seen;
}

static void
test_connections_per_host_capped(void **state)
{
	int seen;

	(void)state;
	seen = storm(1, 100);
	printf("100 transfers to one host: %d connections open at once (cap %d)\n", seen, HTTP_MAX_HOST_CONNECTIONS);
	assert_true(seen > 0);
	assert_true(seen <= HTTP_MAX_HOST_CONNECTIONS);
}

static void
test_connections_in_all_capped(void **state)
{
	int seen;

	(void)state;
	seen = storm(4, HTTP_MAX_HOST_CONNECTIONS + 4);
	printf("%d transfers to 4 hosts: %d connections open at once (cap %d)\n", 4 * (HTTP_MAX_HOST_CONNECTIONS + 4),
	       seen, HTTP_MAX_CONNECTIONS);
	assert_true(seen > HTTP_MAX_HOST_CONNECTIONS);
	assert_true(seen <= HTTP_MAX_CONNECTIONS);
}

/* Pieces are joined and kept NUL-terminated; exactly max bytes pass, one
 * more stops the transfer (0 written: CURLE_WRITE_ERROR). */
static void
test_body_capped(void **state)
{
	struct http_body b = { .max = 10 };
	char piece[] = "hello";

	(void)state;
	assert_int_equal(http_body_write(piece, 1, 5, &b), 5);
	assert_int_equal(http_body_write(piece, 5, 1, &b), 5);
	assert_int_equal(b.len, 10);
	assert_string_equal(b.s, "hellohello");
	assert_false(b.too_big);
	assert_int_equal(http_body_write(piece, 1, 1, &b), 0);
	assert_true(b.too_big);
	assert_int_equal(b.len, 10);
	http_body_free(&b);
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.max, 10);
	/* an empty piece on an empty body, and a piece alone over the cap */
	assert_int_equal(http_body_write(piece, 1, 0, &b), 0);
	assert_false(b.too_big);
	http_body_free(&b);
	b.max = 4;
	assert_int_equal(http_body_write(piece, 1, 5, &b), 0);
	assert_true(b.too_big);
	assert_null(b.s);
	http_body_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_body_capped),
		cmocka_unit_test(test_connections_per_host_capped),
		cmocka_unit_test(test_connections_in_all_capped),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests_name("http: the shared multi handle", tests, NULL, NULL);
}
