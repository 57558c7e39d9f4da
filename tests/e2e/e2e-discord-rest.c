/* e2e-discord-rest.c: the REST queue over libcurl against the fake Discord: buckets, 429 storms, the global limit, nothing lost. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "loop.h"
#include "loopwait.h"
#include "discord/rest.h"
#include "fakedc-rest.h"
#include "e2e.h"

#define TOKEN "e2e-discord-rest-token"

struct h {
	struct fakedc_rest dc;        /* the fake, and the REST queue to it */
	int done;
	long status[256];
};

static void
on_done(void *ctx, long status, json_t *body)
{
	struct h *h = ctx;

	(void)body;
	if (h->done < 256)
		h->status[h->done] = status;
	h->done++;
}

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);
	char chans[8192];
	size_t n = 0;

	if (h == NULL || fakedc_rest_start(&h->dc, TOKEN) < 0) {
		free(h);
		return -1;
	}
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(chans + n, sizeof chans - n, "%s{\"id\":\"%d\",\"name\":\"c%d\"}", i ? "," : "",
		                      1000 + i, i);
	assert_int_equal(fakedc_ctl(&h->dc.fake, "guild", "{\"id\":\"500\",\"name\":\"Cards\",\"channels\":[%s],"
	                            "\"members\":[{\"id\":\"601\",\"username\":\"ann\"}]}", chans), 0);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;

	fakedc_rest_stop(&h->dc);
	free(h);
	return 0;
}

static void
post(struct h *h, int channel, int i)
{
	char path[64], text[32];

	snprintf(path, sizeof path, "/channels/%d/messages", channel);
	snprintf(text, sizeof text, "line %d", i);
	assert_int_equal(discord_rest_call(h->dc.rest, "POST", path,
	                                   json_pack("{s:s,s:{s:[]}}", "content", text, "allowed_mentions", "parse"),
	                                   0, on_done, h), 0);
}

/* The contents the fake holds for channel, in order, joined by '|'. */
static void
contents(struct h *h, int channel, char *out, size_t len)
{
	json_t *s = fakedc_state(&h->dc.fake), *msgs = json_object_get(s, "messages"), *m;
	char id[16];
	size_t i, n = 0;

	out[0] = '\0';
	snprintf(id, sizeof id, "%d", channel);
	json_array_foreach(msgs, i, m) {
		if (strcmp(json_string_value(json_object_get(m, "channel_id")), id) == 0)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "|" : "",
			                      json_string_value(json_object_get(m, "content")));
	}
	json_decref(s);
}

/* HTTP 429s the fake gave that we earned (not injected). */
static int
count_status(struct h *h, long status)
{
	json_t *s = fakedc_state(&h->dc.fake), *reqs = json_object_get(s, "requests"), *r;
	size_t i;
	int n = 0;

	json_array_foreach(reqs, i, r)
		n += json_integer_value(json_object_get(r, "status")) == status;
	json_decref(s);
	return n;
}

static void
test_bucket_limit_kept_in_order(void **state)
{
	struct h *h = *state;
	char got[512];

	/* the fake's message bucket is 5 per 5 s per channel: 8 need one wait */
	for (int i = 0; i < 8; i++)
		post(h, 1000, i);
	for (int i = 0; i < 3; i++)
		post(h, 1001, i);
	assert_true(loopwait_until(h->dc.loop, &h->done, 11, 20000));
	for (int i = 0; i < 11; i++)
		assert_int_equal(h->status[i], 200);
	contents(h, 1000, got, sizeof got);
	assert_string_equal(got, "line 0|line 1|line 2|line 3|line 4|line 5|line 6|line 7");
	contents(h, 1001, got, sizeof got);
	assert_string_equal(got, "line 0|line 1|line 2");
	/* the headers were heeded: not one 429 earned */
	assert_int_equal(count_status(h, 429), 0);
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_429_storm_nothing_lost(void **state)
{
	struct h *h = *state;
	char got[512];

	assert_int_equal(fakedc_ctl(&h->dc.fake, "ratelimit", "{\"route\":\"^POST /channels/\",\"count\":6,"
	                            "\"retry_after\":0.4}"), 0);
	for (int i = 0; i < 4; i++)
		post(h, 1002, i);
	for (int i = 0; i < 2; i++)
		post(h, 1003, i);
	assert_true(loopwait_until(h->dc.loop, &h->done, 6, 20000));
	for (int i = 0; i < 6; i++)
		assert_int_equal(h->status[i], 200);
	contents(h, 1002, got, sizeof got);
	assert_string_equal(got, "line 0|line 1|line 2|line 3");
	assert_true(count_status(h, 429) >= 6);
	/* no request before retry_after had passed */
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_global_429_and_interactions(void **state)
{
	struct h *h = *state;

	assert_int_equal(fakedc_ctl(&h->dc.fake, "ratelimit", "{\"route\":\"^POST /channels/\",\"count\":1,"
	                            "\"retry_after\":0.8,\"global\":true}"), 0);
	post(h, 1004, 0);
	post(h, 1005, 0);
	post(h, 1006, 0);
	assert_true(loopwait_until(h->dc.loop, &h->done, 3, 20000));
	for (int i = 0; i < 3; i++)
		assert_int_equal(h->status[i], 200);
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_global_fifty_a_second(void **state)
{
	struct h *h = *state;

	/* 60 channels are 60 buckets: only the global limit holds them back */
	for (int i = 0; i < 60; i++)
		post(h, 1000 + i, 0);
	assert_true(loopwait_until(h->dc.loop, &h->done, 60, 20000));
	for (int i = 0; i < 60; i++)
		assert_int_equal(h->status[i], 200);
	assert_int_equal(count_status(h, 429), 0);
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_answers_are_passed_on(void **state)
{
	struct h *h = *state;

	/* a refused token */
	assert_int_equal(fakedc_ctl(&h->dc.fake, "config", "{\"token\":\"another\"}"), 0);
	assert_int_equal(discord_rest_call(h->dc.rest, "GET", "/gateway/bot", NULL, 0, on_done, h), 0);
	assert_true(loopwait_until(h->dc.loop, &h->done, 1, 10000));
	assert_int_equal(h->status[0], 401);
	/* a refused token refuses everything after it: the queue is dead (nothing more is sent) */
	assert_true(discord_rest_dead(h->dc.rest));
	assert_int_equal(discord_rest_call(h->dc.rest, "GET", "/gateway/bot", NULL, 0, on_done, h), -1);
	assert_int_equal(fakedc_ctl(&h->dc.fake, "config", "{\"token\":\"%s\"}", TOKEN), 0);
	{
		struct discord_rest_io io;

		discord_rest_free(h->dc.rest);
		discord_restio_ops(h->dc.io, &io);
		h->dc.rest = discord_rest_new(h->dc.loop, h->dc.fake.api, TOKEN, &io);
	}
	/* content over 2000 characters is refused, not retried */
	{
		char *big = malloc(2002);

		memset(big, 'x', 2001);
		big[2001] = '\0';
		assert_int_equal(discord_rest_call(h->dc.rest, "POST", "/channels/1000/messages",
		                                   json_pack("{s:s}", "content", big), 0, on_done, h), 0);
		free(big);
	}
	assert_true(loopwait_until(h->dc.loop, &h->done, 2, 10000));
	assert_int_equal(h->status[1], 400);
	/* an unknown interaction */
	assert_int_equal(discord_rest_call(h->dc.rest, "POST", "/interactions/1/nope/callback",
	                                   json_pack("{s:i}", "type", 5), 0, on_done, h), 0);
	assert_true(loopwait_until(h->dc.loop, &h->done, 3, 10000));
	assert_int_equal(h->status[2], 404);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bucket_limit_kept_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_429_storm_nothing_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_global_429_and_interactions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_global_fifty_a_second, setup, teardown),
		cmocka_unit_test_setup_teardown(test_answers_are_passed_on, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
