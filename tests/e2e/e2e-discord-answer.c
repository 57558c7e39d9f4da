/* e2e-discord-answer.c: interaction answers through REST against the fake: answered, followed up, deferred, hands only their player sees. */
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
#include "discord/answer.h"
#include "discord/rest.h"
#include "fakedc-rest.h"
#include "e2e.h"

#define TOKEN "e2e-discord-answer-token"
#define APP   "900000000000000001"

struct h;

struct pending_result {
	struct h *h;
	uint64_t ref;
	enum discord_answer_kind kind;
};

struct h {
	struct fakedc_rest dc;        /* the fake, and the REST queue to it */
	struct discord_answer *ans;
	long long timer;
	int undelivered, inflight;
};

static void run(struct h *h);

static void
on_done(void *ctx, long status, json_t *body)
{
	struct pending_result *p = ctx;
	struct h *h = p->h;

	discord_answer_result(h->ans, p->ref, p->kind, status, (int)json_integer_value(json_object_get(body, "code")),
	                      loop_now(h->dc.loop));
	h->inflight--;
	free(p);
	run(h);
}

static int64_t
on_timer(struct loop *l, long long id, void *data)
{
	struct h *h = data;

	(void)id;
	h->timer = 0;
	discord_answer_tick(h->ans, loop_now(l));
	run(h);
	return LOOP_NOMORE;
}

/* The glue phase 2 will have: ops to REST calls, results back, the tick timer. */
static void
run(struct h *h)
{
	struct discord_answer_op op;
	int64_t due;

	while (discord_answer_next(h->ans, &op)) {
		if (op.kind == DISCORD_ANS_UNDELIVERED) {
			h->undelivered++;
		} else {
			struct pending_result *p = calloc(1, sizeof *p);

			p->h = h;
			p->ref = op.ref;
			p->kind = op.kind;
			h->inflight++;
			assert_int_equal(discord_rest_call(h->dc.rest, op.method, op.path, json_incref(op.body), 0, on_done, p), 0);
		}
		discord_answer_op_free(&op);
	}
	if (h->timer != 0)
		loop_timer_del(h->dc.loop, h->timer);
	h->timer = 0;
	if ((due = discord_answer_due(h->ans)) >= 0)
		h->timer = loop_timer_add(h->dc.loop, due > loop_now(h->dc.loop) ? due - loop_now(h->dc.loop) : 0,
		                          on_timer, h);
}

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);
	long st = 0;
	json_t *j;

	if (h == NULL || fakedc_rest_start(&h->dc, TOKEN) < 0) {
		free(h);
		return -1;
	}
	h->ans = discord_answer_new(APP);
	assert_int_equal(fakedc_ctl(&h->dc.fake, "guild", "{\"id\":\"500\",\"name\":\"Cards\",\"channels\":"
	                            "[{\"id\":\"501\",\"name\":\"table\"}],\"members\":[{\"id\":\"601\",\"username\":\"ann\"}]}"), 0);
	j = fakedc_call(&h->dc.fake, "PUT", "/api/v10/applications/" APP "/guilds/500/commands", TOKEN,
	                "[{\"name\":\"draw\",\"description\":\"Draw two cards\"}]", &st);
	assert_int_equal(st, 200);
	json_decref(j);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;

	if (h->timer != 0)
		loop_timer_del(h->dc.loop, h->timer);
	fakedc_rest_stop(&h->dc);
	discord_answer_free(h->ans);
	free(h);
	return 0;
}

/* A /draw by ann in #table; the answerer knows it as ref. */
static void
interaction(struct h *h, uint64_t ref)
{
	long st = 0;
	json_t *j = fakedc_call(&h->dc.fake, "POST", "/_fake/interaction", NULL, "{\"user_id\":\"601\",\"guild_id\":\"500\","
	                        "\"channel_id\":\"501\",\"name\":\"draw\"}", &st);

	assert_int_equal(st, 200);
	assert_int_equal(discord_answer_begin(h->ans, ref, json_string_value(json_object_get(j, "id")),
	                                      json_string_value(json_object_get(j, "token")), "501", "601", false,
	                                      loop_now(h->dc.loop)), 0);
	json_decref(j);
	/* arms the defer timer */
	run(h);
}

static void
say(struct h *h, uint64_t ref, bool private, const char *content)
{
	assert_int_equal(discord_answer_say(h->ans, ref, private, json_pack("{s:s,s:{s:[]}}", "content", content,
	                                                                     "allowed_mentions", "parse"),
	                                    loop_now(h->dc.loop)), 0);
	run(h);
}

/* The fake's messages as "via/ephemeral/content" lines joined by '|'. */
static void
messages(struct h *h, char *out, size_t len)
{
	json_t *s = fakedc_state(&h->dc.fake), *m;
	size_t i, n = 0;

	out[0] = '\0';
	json_array_foreach(json_object_get(s, "messages"), i, m)
		n += (size_t)snprintf(out + n, len - n, "%s%s/%s/%s", n ? "|" : "",
		                      json_string_value(json_object_get(m, "via")),
		                      json_is_true(json_object_get(m, "ephemeral")) ? "private" : "public",
		                      json_string_value(json_object_get(m, "content")));
	json_decref(s);
}

static void
test_answer_then_private_hand(void **state)
{
	struct h *h = *state;
	char got[1024];

	interaction(h, 1);
	say(h, 1, false, "Ann draws two cards.");
	say(h, 1, true, "Your hand: A A K 7");
	loopwait_for(h->dc.loop, 1000);
	messages(h, got, sizeof got);
	assert_string_equal(got, "callback/public/Ann draws two cards.|followup/private/Your hand: A A K 7");
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_slow_answer_deferred_in_time(void **state)
{
	struct h *h = *state;
	char got[1024];
	json_t *s, *it;
	const char *k;

	interaction(h, 2);
	/* nothing to say for a while: deferred before 3 s, privately */
	loopwait_for(h->dc.loop, 2500);
	say(h, 2, false, "Ann picks up the pile.");
	say(h, 2, true, "Your hand: Q Q Q");
	loopwait_for(h->dc.loop, 1000);
	messages(h, got, sizeof got);
	/* a follow-up would only have filled the private "thinking..." (deleted
	 * first, its empty content here): the room's line and the hand then
	 * followed up, through the interaction, never the channel (the bot may
	 * play where it may not post) */
	assert_string_equal(got, "deferred/private/|followup/public/Ann picks up the pile.|"
	                    "followup/private/Your hand: Q Q Q");
	s = fakedc_state(&h->dc.fake);
	json_object_foreach(json_object_get(s, "interactions"), k, it) {
		assert_int_equal(json_integer_value(json_object_get(json_object_get(it, "ack"), "type")), 5);
		assert_true(json_number_value(json_object_get(json_object_get(it, "ack"), "ms")) < 3000);
	}
	json_decref(s);
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

static void
test_unfilled_defer_is_deleted(void **state)
{
	struct h *h = *state;
	json_t *s;

	json_t *r, *m;
	size_t i;
	int n = 0;

	interaction(h, 3);
	loopwait_for(h->dc.loop, DISCORD_ANSWER_DEFER_MS + DISCORD_ANSWER_SETTLE_MS + 1500);
	assert_int_equal(h->inflight, 0);
	s = fakedc_state(&h->dc.fake);
	/* the defer and its deletion, both accepted */
	json_array_foreach(json_object_get(s, "requests"), i, r) {
		const char *path = json_string_value(json_object_get(r, "path"));

		if (strstr(path, "/interactions/") != NULL || strstr(path, "/webhooks/") != NULL) {
			assert_true(json_integer_value(json_object_get(r, "status")) < 300);
			n++;
		}
	}
	assert_int_equal(n, 2);
	/* no "thinking..." left */
	m = json_array_get(json_object_get(s, "messages"), 0);
	assert_true(json_is_true(json_object_get(m, "deleted")));
	json_decref(s);
	assert_int_equal(fakedc_violations(&h->dc.fake, true), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_answer_then_private_hand, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_answer_deferred_in_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unfilled_defer_is_deleted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
