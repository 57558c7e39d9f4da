/* test-discord-rest.c: Discord REST rate limits and the request queue on a fake clock, with a fake transport. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "discord/limit.h"
#include "discord/rest.h"

/* ------------------------------------------------------------------ limit.c */

static void
hdr(struct discord_limit_hdr *h, const char *line)
{
	discord_limit_hdr_line(h, line, strlen(line));
}

static void
test_headers_parsed(void **state)
{
	struct discord_limit_hdr h;

	(void)state;
	discord_limit_hdr_init(&h);
	hdr(&h, "x-ratelimit-limit: 5\r\n");
	hdr(&h, "X-RateLimit-Remaining: 0\r\n");
	assert_false(h.has_bucket);
	hdr(&h, "X-RateLimit-Reset-After: 64.57\r\n");
	hdr(&h, "X-RateLimit-Bucket: abcd1234\r\n");
	hdr(&h, "X-RateLimit-Reset: 1470173023.123\r\n");
	hdr(&h, "Content-Type: application/json\r\n");
	assert_true(h.has_bucket);
	assert_int_equal(h.limit, 5);
	assert_int_equal(h.remaining, 0);
	assert_int_equal(h.reset_after_ms, 64570);
	assert_string_equal(h.bucket, "abcd1234");
	assert_false(h.global);
	assert_int_equal(h.retry_after_ms, -1);
	hdr(&h, "Retry-After: 65\r\n");
	assert_int_equal(h.retry_after_ms, 65000);
	hdr(&h, "X-RateLimit-Scope: shared\r\n");
	assert_string_equal(h.scope, "shared");
	assert_false(h.global);
	hdr(&h, "X-RateLimit-Global: true\r\n");
	assert_true(h.global);
	/* junk is ignored, not half-read */
	discord_limit_hdr_init(&h);
	hdr(&h, "X-RateLimit-Limit: five\r\n");
	hdr(&h, "X-RateLimit-Remaining: -1\r\n");
	hdr(&h, "X-RateLimit-Reset-After: nan\r\n");
	hdr(&h, "X-RateLimit-Bucket: a b\"c\r\n");
	hdr(&h, "no colon here");
	assert_int_equal(h.seen, 0);
	assert_string_equal(h.bucket, "");
	/* a float Reset-After is rounded up: never early */
	hdr(&h, "X-RateLimit-Reset-After: 0.0001\r\n");
	assert_int_equal(h.reset_after_ms, 1);
}

static void
route_is(const char *method, const char *path, const char *route, const char *major)
{
	char r[96], m[256];

	assert_int_equal(discord_limit_route(method, path, r, sizeof r, m, sizeof m), 0);
	assert_string_equal(r, route);
	assert_string_equal(m, major);
}

static void
test_routes_and_major_parameters(void **state)
{
	char r[96], m[8];

	(void)state;
	route_is("POST", "/channels/123/messages", "POST /channels/:id/messages", "123");
	route_is("PUT", "/applications/900/commands", "PUT /applications/:id/commands", "");
	route_is("PUT", "/applications/900/guilds/500/commands", "PUT /applications/:id/guilds/:id/commands", "500");
	route_is("POST", "/interactions/55/aW50ZXJh/callback", "POST /interactions/:id/:token/callback", "55");
	route_is("POST", "/webhooks/900/aW50ZXJh?wait=true", "POST /webhooks/:id/:token", "900/aW50ZXJh");
	route_is("PATCH", "/webhooks/900/tok/messages/@original", "PATCH /webhooks/:id/:token/messages/@original",
	         "900/tok");
	route_is("PATCH", "/webhooks/900/tok/messages/777", "PATCH /webhooks/:id/:token/messages/:id", "900/tok");
	route_is("POST", "/users/@me/channels", "POST /users/@me/channels", "");
	route_is("GET", "/gateway/bot", "GET /gateway/bot", "");
	/* too long for the buffers: refused, not cut */
	assert_int_equal(discord_limit_route("POST", "/webhooks/900/a-very-long-token", r, sizeof r, m, sizeof m), -1);
}

#define R1 "POST /channels/:id/messages"

static struct discord_limit_hdr
bucket_hdr(int limit, int remaining, int64_t reset_ms, const char *hash)
{
	struct discord_limit_hdr h;

	discord_limit_hdr_init(&h);
	h.has_bucket = true;
	h.limit = limit;
	h.remaining = remaining;
	h.reset_after_ms = reset_ms;
	snprintf(h.bucket, sizeof h.bucket, "%s", hash);
	return h;
}

static void
test_one_in_flight_per_bucket(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h = bucket_hdr(5, 4, 5000, "msgs");

	(void)state;
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), 0);
	/* the same channel waits for the answer: order is kept */
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), DISCORD_LIMIT_BUSY);
	/* another channel is another bucket */
	assert_int_equal(discord_limit_acquire(l, R1, "2", false, 0), 0);
	discord_limit_release(l, R1, "1", 200, &h, 10);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 10), 0);
	discord_limit_free(l);
}

static void
test_exhausted_bucket_waits_for_reset(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h;
	int64_t w;

	(void)state;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(discord_limit_acquire(l, R1, "1", false, 100 * i), 0);
		h = bucket_hdr(5, 4 - i, 5000 - 100 * i, "msgs");
		discord_limit_release(l, R1, "1", 200, &h, 100 * i);
	}
	/* Remaining 0, reset 4600 ms after t=400 */
	w = discord_limit_acquire(l, R1, "1", false, 500);
	assert_true(w >= 4500 && w <= 4520);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 500 + w), 0);
	discord_limit_free(l);
}

static void
test_429_blocks_the_route_for_retry_after(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	/* rate-limits.mdx's "shared" example: Remaining is not 0, retry_after alone says wait */
	struct discord_limit_hdr h = bucket_hdr(10, 9, 64570, "abcd1234");
	int64_t w;

	(void)state;
	h.retry_after_ms = 1500;
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), 0);
	discord_limit_release(l, R1, "1", 429, &h, 0);
	w = discord_limit_acquire(l, R1, "1", false, 1000);
	assert_true(w > 500 && w <= 520);
	/* other channels go on */
	assert_int_equal(discord_limit_acquire(l, R1, "2", false, 1000), 0);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 1000 + w), 0);
	discord_limit_free(l);
}

/* A server asking for a week is obeyed for an hour at most (issue 24). */
static void
test_429_wait_capped_at_an_hour(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h = bucket_hdr(10, 9, 64570, "abcd1234");
	int64_t w;

	(void)state;
	h.retry_after_ms = 7LL * 86400 * 1000;
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), 0);
	discord_limit_release(l, R1, "1", 429, &h, 0);
	w = discord_limit_acquire(l, R1, "1", false, 1000);
	assert_true(w > 0 && w <= DISCORD_RETRY_MAX_MS);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 1000 + w), 0);
	discord_limit_free(l);
}

static void
test_global_429_holds_all_but_interactions(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h;
	int64_t w;

	(void)state;
	discord_limit_hdr_init(&h);
	h.global = true;
	h.retry_after_ms = 2000;
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), 0);
	discord_limit_release(l, R1, "1", 429, &h, 0);
	w = discord_limit_acquire(l, "PUT /applications/:id/commands", "", false, 100);
	assert_true(w >= 1900 && w <= 1920);
	/* interaction answers are not bound to the global limit */
	assert_int_equal(discord_limit_acquire(l, "POST /interactions/:id/:token/callback", "9", true, 100), 0);
	assert_int_equal(discord_limit_acquire(l, R1, "2", false, 100 + w), 0);
	discord_limit_free(l);
}

static void
test_global_50_per_second(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	char major[16];
	int64_t w;

	(void)state;
	for (int i = 0; i < 50; i++) {
		snprintf(major, sizeof major, "%d", i);
		assert_int_equal(discord_limit_acquire(l, R1, major, false, 100 + i), 0);
		discord_limit_release(l, R1, major, 200, NULL, 100 + i);
	}
	/* the 51st within the same second waits until the first is a second old */
	w = discord_limit_acquire(l, R1, "x", false, 200);
	assert_int_equal(w, 900);
	assert_int_equal(discord_limit_acquire(l, R1, "i", true, 200), 0);
	assert_int_equal(discord_limit_acquire(l, R1, "x", false, 1100), 0);
	w = discord_limit_acquire(l, R1, "y", false, 1100);
	assert_int_equal(w, 1);
	discord_limit_free(l);
}

static void
test_shared_bucket_hash(void **state)
{
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h = bucket_hdr(2, 0, 3000, "shared1");
	int64_t w;

	(void)state;
	/* two routes Discord says share one bucket (same hash), for the same channel */
	assert_int_equal(discord_limit_acquire(l, "POST /channels/:id/messages", "1", false, 0), 0);
	discord_limit_release(l, "POST /channels/:id/messages", "1", 200, &h, 0);
	assert_int_equal(discord_limit_acquire(l, "PATCH /channels/:id/messages/:id", "1", false, 0), 0);
	discord_limit_release(l, "PATCH /channels/:id/messages/:id", "1", 200, &h, 0);
	w = discord_limit_acquire(l, "POST /channels/:id/messages", "1", false, 10);
	assert_true(w > 2900);
	w = discord_limit_acquire(l, "PATCH /channels/:id/messages/:id", "1", false, 10);
	assert_true(w > 2900);
	discord_limit_free(l);
}

/* ------------------------------------------------------------------ rest.c with a fake transport */

struct rt {
	struct loop *loop;
	int64_t now;
	struct discord_rest *r;
	struct discord_rest_req *started[512];
	int nstarted;
	int done_calls;
	long statuses[512];
	char bodies[512][64];
	int fail_start;
	int dead_calls;
};

static int64_t
clock_of(void *ctx)
{
	return ((struct rt *)ctx)->now;
}

static int
io_start(void *ctx, struct discord_rest *r, struct discord_rest_req *q)
{
	struct rt *t = ctx;

	(void)r;
	if (t->fail_start > 0) {
		t->fail_start--;
		return -1;
	}
	assert_true(t->nstarted < 512);
	t->started[t->nstarted++] = q;
	return 0;
}

static void
io_cancel(void *ctx, struct discord_rest_req *q)
{
	(void)ctx;
	(void)q;
}

static void
on_done(void *ctx, long status, json_t *body)
{
	struct rt *t = ctx;
	const char *c = json_string_value(json_object_get(body, "content"));

	t->statuses[t->done_calls] = status;
	snprintf(t->bodies[t->done_calls], 64, "%s", c != NULL ? c : "");
	t->done_calls++;
}

static struct rt *
rt_new(void)
{
	struct rt *t = calloc(1, sizeof *t);
	struct discord_rest_io io = { .ctx = t, .start = io_start, .cancel = io_cancel };

	t->loop = loop_new();
	t->now = 1000000;
	loop_set_clock(t->loop, clock_of, t);
	t->r = discord_rest_new(t->loop, "https://discord.test/api/v10/", "tok", &io);
	assert_non_null(t->r);
	return t;
}

static void
rt_free(struct rt *t)
{
	discord_rest_free(t->r);
	loop_free(t->loop);
	free(t);
}

static void
advance(struct rt *t, int64_t ms)
{
	/* in steps, so that timers due in between run in order */
	for (int64_t s = 0; s < ms; s += 10) {
		t->now += ms - s < 10 ? ms - s : 10;
		loop_run_once(t->loop, 0);
	}
}

static void
answer(struct rt *t, int i, long status, const char *body, int remaining, double reset_after, double retry_after,
       bool global)
{
	struct discord_limit_hdr h;
	char line[96];

	discord_limit_hdr_init(&h);
	if (remaining >= 0) {
		snprintf(line, sizeof line, "X-RateLimit-Limit: 5\r\n");
		discord_limit_hdr_line(&h, line, strlen(line));
		snprintf(line, sizeof line, "X-RateLimit-Remaining: %d\r\n", remaining);
		discord_limit_hdr_line(&h, line, strlen(line));
		snprintf(line, sizeof line, "X-RateLimit-Reset-After: %.3f\r\n", reset_after);
		discord_limit_hdr_line(&h, line, strlen(line));
		discord_limit_hdr_line(&h, "X-RateLimit-Bucket: msgs\r\n", 26);
	}
	if (status == 429) {
		char b[160];

		snprintf(b, sizeof b, "{\"message\":\"You are being rate limited.\",\"retry_after\":%.3f,\"global\":%s}",
		         retry_after, global ? "true" : "false");
		discord_rest_answer(t->r, t->started[i], status, &h, b, strlen(b));
		return;
	}
	discord_rest_answer(t->r, t->started[i], status, &h, body, body != NULL ? strlen(body) : 0);
}

static void
send_msg(struct rt *t, const char *channel, const char *content)
{
	char path[64];

	snprintf(path, sizeof path, "/channels/%s/messages", channel);
	assert_int_equal(discord_rest_call(t->r, "POST", path, json_pack("{s:s}", "content", content), 0, on_done, t), 0);
}

static void
test_queue_keeps_channel_order(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	send_msg(t, "1", "b");
	send_msg(t, "2", "c");
	/* one per channel at a time */
	assert_int_equal(t->nstarted, 2);
	/* what a room still has to send, in flight or waiting */
	assert_int_equal(discord_rest_pending_for(t->r, "1"), 2);
	assert_int_equal(discord_rest_pending_for(t->r, "2"), 1);
	assert_int_equal(discord_rest_pending_for(t->r, "3"), 0);
	assert_string_equal(t->started[0]->url, "https://discord.test/api/v10/channels/1/messages");
	assert_string_equal(t->started[0]->body, "{\"content\":\"a\"}");
	assert_string_equal(t->started[1]->body, "{\"content\":\"c\"}");
	answer(t, 0, 200, "{\"content\":\"a\"}", 4, 5, 0, false);
	assert_int_equal(t->nstarted, 3);
	assert_string_equal(t->started[2]->body, "{\"content\":\"b\"}");
	answer(t, 2, 200, "{\"content\":\"b\"}", 3, 5, 0, false);
	answer(t, 1, 200, "{\"content\":\"c\"}", 4, 5, 0, false);
	assert_int_equal(t->done_calls, 3);
	assert_string_equal(t->bodies[0], "a");
	assert_string_equal(t->bodies[1], "b");
	assert_int_equal(discord_rest_pending(t->r), 0);
	rt_free(t);
}

/* An answer a newer one replaces is withdrawn while it waits; never once on its way. */
static void
test_withdraw_what_waits(void **state)
{
	struct rt *t = rt_new();
	int other;

	(void)state;
	send_msg(t, "1", "a");
	assert_int_equal(discord_rest_call(t->r, "POST", "/channels/1/messages", json_pack("{s:s}", "content", "old"), 0,
	                                   on_done, &other), 0);
	send_msg(t, "1", "c");
	assert_int_equal(t->nstarted, 1);
	assert_int_equal(discord_rest_waiting(t->r, &other), 1);
	assert_int_equal(discord_rest_withdraw(t->r, &other), 1);
	assert_int_equal(discord_rest_waiting(t->r, &other), -1);
	assert_int_equal(discord_rest_pending_for(t->r, "1"), 2);
	answer(t, 0, 200, "{\"content\":\"a\"}", 4, 5, 0, false);
	/* the next in the channel's order is the one after it */
	assert_int_equal(t->nstarted, 2);
	assert_string_equal(t->started[1]->body, "{\"content\":\"c\"}");
	/* on its way: it stays */
	assert_int_equal(discord_rest_waiting(t->r, t), 0);
	assert_int_equal(discord_rest_withdraw(t->r, t), 0);
	answer(t, 1, 200, "{\"content\":\"c\"}", 3, 5, 0, false);
	assert_int_equal(t->done_calls, 2);
	assert_int_equal(discord_rest_pending(t->r), 0);
	rt_free(t);
}

/* Whether a request would start at once, asked without queueing or counting
 * anything: Discord's lanes hand a channel line to REST only then, so that
 * no line waits in REST (past lib/outq, where a newer answer replaces an
 * older one and who speaks next is decided). */
static void
test_wait_says_whether_it_would_start(void **state)
{
	struct rt *t = rt_new();
	struct discord_limit *l = discord_limit_new(50);
	struct discord_limit_hdr h = bucket_hdr(5, 4, 5000, "msgs");
	int64_t w;

	(void)state;
	/* the limiter: asking counts nothing, however often */
	for (int i = 0; i < 10; i++)
		assert_int_equal(discord_limit_wait(l, R1, "1", false, 0), 0);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 0), 0);
	assert_int_equal(discord_limit_wait(l, R1, "1", false, 0), DISCORD_LIMIT_BUSY);
	discord_limit_release(l, R1, "1", 200, &h, 10);
	assert_int_equal(discord_limit_wait(l, R1, "1", false, 10), 0);
	assert_int_equal(discord_limit_acquire(l, R1, "1", false, 10), 0);
	discord_limit_free(l);

	/* the queue: free, then a line in flight ahead, then a bucket spent */
	assert_int_equal(discord_rest_wait(t->r, "POST", "/channels/1/messages"), 0);
	assert_int_equal(discord_rest_pending(t->r), 0);
	send_msg(t, "1", "a");
	assert_int_equal(t->nstarted, 1);
	assert_int_equal(discord_rest_wait(t->r, "POST", "/channels/1/messages"), DISCORD_LIMIT_BUSY);
	assert_int_equal(discord_rest_wait(t->r, "POST", "/channels/2/messages"), 0);
	answer(t, 0, 200, "{\"content\":\"a\"}", 0, 5, 0, false);
	w = discord_rest_wait(t->r, "POST", "/channels/1/messages");
	assert_true(w >= 4990 && w <= 5020);
	advance(t, w);
	assert_int_equal(discord_rest_wait(t->r, "POST", "/channels/1/messages"), 0);
	/* a line queued behind a 429 is ahead too */
	send_msg(t, "1", "b");
	answer(t, 1, 429, NULL, -1, 0, 1.0, false);
	assert_int_equal(discord_rest_wait(t->r, "POST", "/channels/1/messages"), DISCORD_LIMIT_BUSY);
	rt_free(t);
}

static void
test_429_waits_retry_after_and_loses_nothing(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	send_msg(t, "1", "b");
	answer(t, 0, 429, NULL, 3, 5.0, 1.5, false);
	/* not retried before retry_after, and b does not jump ahead */
	advance(t, 1400);
	assert_int_equal(t->nstarted, 1);
	advance(t, 200);
	assert_int_equal(t->nstarted, 2);
	assert_string_equal(t->started[1]->body, "{\"content\":\"a\"}");
	answer(t, 1, 200, "{\"content\":\"a\"}", 4, 5, 0, false);
	assert_int_equal(t->nstarted, 3);
	assert_string_equal(t->started[2]->body, "{\"content\":\"b\"}");
	answer(t, 2, 200, "{\"content\":\"b\"}", 3, 5, 0, false);
	assert_int_equal(t->done_calls, 2);
	assert_int_equal(t->statuses[0], 200);
	assert_int_equal(t->statuses[1], 200);
	rt_free(t);
}

static void
test_global_429_holds_everything_but_interactions(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	answer(t, 0, 429, NULL, -1, 0, 2.0, true);
	send_msg(t, "2", "b");
	assert_int_equal(t->nstarted, 1);
	/* an interaction's answer still goes at once */
	assert_int_equal(discord_rest_call(t->r, "POST", "/interactions/5/tok/callback",
	                                   json_pack("{s:i}", "type", 5), 0, on_done, t), 0);
	assert_int_equal(t->nstarted, 2);
	assert_true(t->started[1]->flags & DISCORD_REST_INTERACTION);
	advance(t, 2100);
	assert_int_equal(t->nstarted, 4);
	rt_free(t);
}

static void
test_server_errors_retried_with_backoff_then_given_up(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	answer(t, 0, 502, NULL, -1, 0, 0, false);
	advance(t, 900);
	assert_int_equal(t->nstarted, 1);
	advance(t, 200);
	assert_int_equal(t->nstarted, 2);
	answer(t, 1, 0, NULL, -1, 0, 0, false);
	advance(t, 2100);
	assert_int_equal(t->nstarted, 3);
	answer(t, 2, 503, NULL, -1, 0, 0, false);
	advance(t, 4100);
	assert_int_equal(t->nstarted, 4);
	answer(t, 3, 500, NULL, -1, 0, 0, false);
	/* four tries: given up, said once */
	assert_int_equal(t->done_calls, 1);
	assert_int_equal(t->statuses[0], 500);
	assert_int_equal(discord_rest_pending(t->r), 0);
	rt_free(t);
}

static void
test_client_errors_answered_at_once(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	answer(t, 0, 400, "{\"code\":50035,\"message\":\"Invalid Form Body\"}", 4, 5, 0, false);
	assert_int_equal(t->done_calls, 1);
	assert_int_equal(t->statuses[0], 400);
	assert_int_equal(t->nstarted, 1);
	rt_free(t);
}

static void
on_dead(void *ctx, const char *method, const char *path)
{
	struct rt *t = ctx;

	t->dead_calls++;
	assert_string_equal(method, "POST");
	assert_string_equal(path, "/channels/1/messages");
}

/* A 401 on a bot route: the token is gone. What waits is dropped, nothing
 * more is sent, the host is told once. A 401 from an interaction endpoint
 * (its token expired) is that request's alone. */
static void
test_401_kills_the_queue(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	discord_rest_on_dead(t->r, on_dead, t);
	assert_int_equal(discord_rest_call(t->r, "POST", "/webhooks/1/tok", json_pack("{s:s}", "content", "x"), 0,
	                                   on_done, t), 0);
	answer(t, 0, 401, "{\"code\":0,\"message\":\"401: Unauthorized\"}", -1, 0, 0, false);
	assert_false(discord_rest_dead(t->r));
	send_msg(t, "1", "a");
	send_msg(t, "1", "b");
	send_msg(t, "2", "c");
	assert_int_equal(t->nstarted, 3);   /* a and c; b waits behind a */
	answer(t, 1, 401, "{\"code\":0,\"message\":\"401: Unauthorized\"}", -1, 0, 0, false);
	assert_true(discord_rest_dead(t->r));
	assert_int_equal(t->dead_calls, 1);
	/* b dropped; c, on its way, is answered but never retried */
	answer(t, 2, 429, NULL, -1, 0, 1.0, false);
	advance(t, 5000);
	assert_int_equal(t->nstarted, 3);
	assert_int_equal(discord_rest_pending(t->r), 0);
	assert_int_equal(t->done_calls, 3);
	assert_int_equal(discord_rest_call(t->r, "POST", "/channels/1/messages", NULL, 0, on_done, t), -1);
	assert_int_equal(t->dead_calls, 1);
	rt_free(t);
}

/* An interaction callback is dead 3 s after the interaction: a 5xx or 429
 * whose retry would land later is answered as it is, not retried. */
static void
test_no_retry_past_the_deadline(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	assert_int_equal(discord_rest_call_by(t->r, "POST", "/interactions/1/tok/callback", json_pack("{s:i}", "type", 4),
	                                      0, t->now + 3000, on_done, t), 0);
	assert_int_equal(discord_rest_call_by(t->r, "POST", "/interactions/2/tok/callback", json_pack("{s:i}", "type", 4),
	                                      0, t->now + 3000, on_done, t), 0);
	assert_int_equal(t->nstarted, 2);
	/* early: retried after 1 s */
	answer(t, 0, 503, NULL, -1, 0, 0, false);
	assert_int_equal(t->done_calls, 0);
	advance(t, 2500);
	assert_int_equal(t->nstarted, 3);
	/* the retry fails too, 2.5 s in: the next would be past 3 s */
	answer(t, 2, 503, NULL, -1, 0, 0, false);
	assert_int_equal(t->done_calls, 1);
	assert_int_equal(t->statuses[0], 503);
	/* a 429 whose retry_after ends past the deadline */
	answer(t, 1, 429, NULL, -1, 0, 1.0, false);
	assert_int_equal(t->done_calls, 2);
	assert_int_equal(t->statuses[1], 429);
	advance(t, 5000);
	assert_int_equal(t->nstarted, 3);
	assert_int_equal(discord_rest_pending(t->r), 0);
	rt_free(t);
}

static void
test_fifty_a_second(void **state)
{
	struct rt *t = rt_new();
	char ch[16];

	(void)state;
	for (int i = 0; i < 120; i++) {
		snprintf(ch, sizeof ch, "%d", 100 + i);
		send_msg(t, ch, "x");
	}
	assert_int_equal(t->nstarted, 50);
	for (int i = 0; i < 50; i++)
		answer(t, i, 200, NULL, 4, 5, 0, false);
	assert_int_equal(t->nstarted, 50);
	advance(t, 1000);
	assert_int_equal(t->nstarted, 100);
	for (int i = 50; i < 100; i++)
		answer(t, i, 200, NULL, 4, 5, 0, false);
	advance(t, 1000);
	assert_int_equal(t->nstarted, 120);
	rt_free(t);
}

static void
test_exhausted_bucket_from_headers(void **state)
{
	struct rt *t = rt_new();

	(void)state;
	send_msg(t, "1", "a");
	send_msg(t, "1", "b");
	answer(t, 0, 200, NULL, 0, 2.0, 0, false);
	/* Remaining 0: b waits for the reset instead of earning a 429 */
	assert_int_equal(t->nstarted, 1);
	advance(t, 1900);
	assert_int_equal(t->nstarted, 1);
	advance(t, 200);
	assert_int_equal(t->nstarted, 2);
	rt_free(t);
}

static void
test_forget_and_full_queue_and_start_failure(void **state)
{
	struct rt *t = rt_new();
	int refused = 0;

	(void)state;
	send_msg(t, "1", "a");
	discord_rest_forget(t->r, t);
	answer(t, 0, 200, NULL, 4, 5, 0, false);
	assert_int_equal(t->done_calls, 0);
	for (int i = 0; i < DISCORD_REST_MAX_QUEUE + 10; i++)
		if (discord_rest_call(t->r, "POST", "/channels/9/messages", json_pack("{s:s}", "content", "x"), 0,
		                      NULL, NULL) < 0)
			refused++;
	assert_int_equal(refused, 10);
	rt_free(t);
	/* a transport that cannot start retries later */
	t = rt_new();
	t->fail_start = 1;
	send_msg(t, "1", "a");
	assert_int_equal(t->nstarted, 0);
	advance(t, 1100);
	assert_int_equal(t->nstarted, 1);
	rt_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_parsed),
		cmocka_unit_test(test_routes_and_major_parameters),
		cmocka_unit_test(test_one_in_flight_per_bucket),
		cmocka_unit_test(test_exhausted_bucket_waits_for_reset),
		cmocka_unit_test(test_429_blocks_the_route_for_retry_after),
		cmocka_unit_test(test_429_wait_capped_at_an_hour),
		cmocka_unit_test(test_global_429_holds_all_but_interactions),
		cmocka_unit_test(test_global_50_per_second),
		cmocka_unit_test(test_shared_bucket_hash),
		cmocka_unit_test(test_queue_keeps_channel_order),
		cmocka_unit_test(test_withdraw_what_waits),
		cmocka_unit_test(test_wait_says_whether_it_would_start),
		cmocka_unit_test(test_429_waits_retry_after_and_loses_nothing),
		cmocka_unit_test(test_global_429_holds_everything_but_interactions),
		cmocka_unit_test(test_server_errors_retried_with_backoff_then_given_up),
		cmocka_unit_test(test_client_errors_answered_at_once),
		cmocka_unit_test(test_401_kills_the_queue),
		cmocka_unit_test(test_no_retry_past_the_deadline),
		cmocka_unit_test(test_fifty_a_second),
		cmocka_unit_test(test_exhausted_bucket_from_headers),
		cmocka_unit_test(test_forget_and_full_queue_and_start_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
