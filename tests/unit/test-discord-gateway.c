/* test-discord-gateway.c: the Discord Gateway state machine on a fake clock: every transition, heartbeat and close code. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discord/gateway.h"
#include "gwsim.h"

#define GW_URL  "wss://gateway.discord.gg"
#define RES_URL "wss://gateway-us-east1-b.discord.gg"

struct t {
	struct discord_gateway *g;
	int64_t now;
	uint32_t rnd;               /* what the injected random source returns */
	struct discord_gw_act acts[64];
	int nacts;
};

static uint32_t
fixed_random(void *ctx)
{
	return ((struct t *)ctx)->rnd;
}

/* Takes every queued action into t->acts (freeing the previous batch). */
static int
drain(struct t *t)
{
	for (int i = 0; i < t->nacts; i++)
		discord_gateway_act_free(&t->acts[i]);
	t->nacts = 0;
	while (t->nacts < 64 && discord_gateway_next(t->g, &t->acts[t->nacts]))
		t->nacts++;
	return t->nacts;
}

/* The first action of kind in the last batch, or NULL. */
static struct discord_gw_act *
find(struct t *t, enum discord_gw_act_kind kind)
{
	for (int i = 0; i < t->nacts; i++)
		if (t->acts[i].kind == kind)
			return &t->acts[i];
	return NULL;
}

static int
count(struct t *t, enum discord_gw_act_kind kind)
{
	int n = 0;

	for (int i = 0; i < t->nacts; i++)
		n += t->acts[i].kind == kind;
	return n;
}

static void
recv_json(struct t *t, const char *json)
{
	discord_gateway_received(t->g, json, strlen(json), t->now);
	drain(t);
}

static void
advance(struct t *t, int64_t ms)
{
	t->now += ms;
	discord_gateway_tick(t->g, t->now);
	drain(t);
}

/* The JSON of the only SEND in the last batch. */
static json_t *
sent(struct t *t)
{
	struct discord_gw_act *a = find(t, DISCORD_GW_SEND);

	assert_non_null(a);
	assert_int_equal(count(t, DISCORD_GW_SEND), 1);
	return json_loads(a->text, 0, NULL);
}

static int
sent_op(struct t *t)
{
	json_t *j = sent(t);
	int op = (int)json_integer_value(json_object_get(j, "op"));

	json_decref(j);
	return op;
}

static struct t *
mk(bool message_commands, const char *url)
{
	struct t *t = calloc(1, sizeof *t);
	struct discord_gw_config cfg = {
		.token = "secret-token", .intents = discord_gateway_intents(message_commands), .url = url,
		.random = fixed_random,
	};

	cfg.random_ctx = t;
	t->now = 100000;
	t->rnd = 1u << 30;  /* 0.25 */
	t->g = discord_gateway_new(&cfg);
	assert_non_null(t->g);
	return t;
}

static void
done(struct t *t)
{
	drain(t);
	discord_gateway_free(t->g);
	free(t);
}

/* Hello: the heartbeat interval in ms. */
static void
hello(struct t *t, int interval)
{
	char json[96];

	snprintf(json, sizeof json, "{\"op\":10,\"d\":{\"heartbeat_interval\":%d}}", interval);
	recv_json(t, json);
}

/* The socket closed with code. */
static void
closed(struct t *t, int code)
{
	discord_gateway_closed(t->g, code, t->now);
	drain(t);
}

static void
start(struct t *t)
{
	discord_gateway_start(t->g, t->now);
	drain(t);
}

/* The clock moved on to when the gateway is next due. */
static void
to_due(struct t *t)
{
	advance(t, discord_gateway_due(t->g) - t->now);
}

/* Start, Hello (interval 40000), Identify, READY with session "S1": connected. */
static void
to_ready(struct t *t)
{
	start(t);
	assert_non_null(find(t, DISCORD_GW_CONNECT));
	hello(t, 40000);
	assert_int_equal(sent_op(t), 2);
	recv_json(t, "{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"v\":10,\"session_id\":\"S1\","
	             "\"resume_gateway_url\":\"" RES_URL "\",\"user\":{\"id\":\"42\",\"username\":\"hf\"},"
	             "\"application\":{\"id\":\"77\"},\"guilds\":[]}}");
	assert_non_null(find(t, DISCORD_GW_READY));
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_CONNECTED);
}

/* ------------------------------------------------------------------ tests */

/* gateway.mdx: 1000 Identifys a day, then the token is reset. An outage of
 * a minute costs at most 3 whatever Discord answers (op 9 false, no READY,
 * a close), an hour's a few more, and none is ever sent past the budget. */
static void
test_outage_costs_few_identifies(void **state)
{
	struct gwsim_result r;

	(void)state;
	for (uint32_t seed = 1; seed <= 20; seed++) {
		for (int k = GWSIM_INVALID; k <= GWSIM_REFUSED; k++) {
			gwsim_run((enum gwsim_outage)k, 60000, 1000, seed * 2654435761u, &r);
			assert_true(r.identifies >= 1);
			assert_true(r.identifies <= 3);
			gwsim_run((enum gwsim_outage)k, 3600000, 1000, seed * 2654435761u, &r);
			assert_true(r.identifies <= 12);
			/* a budget of 2: two Identifys, then waiting for the reset */
			gwsim_run((enum gwsim_outage)k, 3600000, 2, seed, &r);
			assert_int_equal(r.past_budget, 0);
			assert_true(r.identifies <= 2);
		}
		/* READY withheld, heartbeats answered: the link is kept, no second Identify */
		gwsim_run(GWSIM_WITHHELD, 300000, 1000, seed, &r);
		assert_int_equal(r.identifies, 1);
	}
}

/* A budgeted gateway asks GET /gateway/bot before every Identify, waits for
 * the reset when none is left, and keeps max_concurrency's 5 s window. */
static void
test_identify_waits_for_the_budget_and_the_window(void **state)
{
	struct t *t = calloc(1, sizeof *t);
	struct discord_gw_config cfg = { .token = "secret-token", .intents = 1, .budgeted = true, .random = fixed_random };
	json_t *bot;
	struct discord_gw_act *a;

	(void)state;
	cfg.random_ctx = t;
	t->now = 100000;
	t->rnd = 1u << 30;
	assert_non_null(t->g = discord_gateway_new(&cfg));
	start(t);
	assert_non_null(find(t, DISCORD_GW_FETCH_URL));
	assert_null(find(t, DISCORD_GW_CONNECT));
	bot = json_pack("{s:s,s:{s:i,s:i,s:i,s:i}}", "url", GW_URL, "session_start_limit", "total", 1000,
	                "remaining", 0, "reset_after", 600000, "max_concurrency", 1);
	assert_int_equal(discord_gateway_set_bot(t->g, bot, 1700000000, t->now), 0);
	json_decref(bot);
	drain(t);
	/* none left: no connection, a log line that says until when */
	assert_null(find(t, DISCORD_GW_CONNECT));
	a = find(t, DISCORD_GW_LOG);
	assert_non_null(a);
	assert_non_null(strstr(a->text, "budget is spent"));
	assert_non_null(strstr(a->text, "waiting until 2023-11-14 22:23:20 UTC (600 s)"));
	advance(t, 600000);
	/* at the reset: asked again */
	assert_non_null(find(t, DISCORD_GW_FETCH_URL));
	bot = json_pack("{s:s,s:{s:i,s:i,s:i,s:i}}", "url", GW_URL, "session_start_limit", "total", 1000,
	                "remaining", 1000, "reset_after", 86400000, "max_concurrency", 1);
	discord_gateway_set_bot(t->g, bot, 1700000600, t->now);
	drain(t);
	assert_non_null(find(t, DISCORD_GW_CONNECT));
	hello(t, 40000);
	assert_int_equal(sent_op(t), 2);
	/* a close at once: the next Identify is not before 5 s (the window, and the backoff) */
	closed(t, 4000);
	advance(t, 1000);
	assert_non_null(find(t, DISCORD_GW_FETCH_URL));
	discord_gateway_set_bot(t->g, bot, 1700000601, t->now);
	drain(t);
	assert_null(find(t, DISCORD_GW_CONNECT));
	assert_true(discord_gateway_due(t->g) - t->now >= 4000);
	json_decref(bot);
	done(t);
}

static void
test_intents_only_what_is_needed(void **state)
{
	(void)state;
	/* no MESSAGE_CONTENT (privileged) nor message events unless asked */
	assert_int_equal(discord_gateway_intents(false), 1);
	assert_int_equal(discord_gateway_intents(true), 1 | 1 << 9 | 1 << 12 | 1 << 15);
}

static void
test_url_gets_version_and_encoding(void **state)
{
	char out[128];

	(void)state;
	assert_int_equal(discord_gateway_url("wss://gateway.discord.gg", out, sizeof out), 0);
	assert_string_equal(out, "wss://gateway.discord.gg/?v=10&encoding=json");
	assert_int_equal(discord_gateway_url("wss://gateway.discord.gg/", out, sizeof out), 0);
	assert_string_equal(out, "wss://gateway.discord.gg/?v=10&encoding=json");
	assert_int_equal(discord_gateway_url("wss://gateway.discord.gg", out, 20), -1);
}

static void
test_fetch_url_first_when_none(void **state)
{
	struct t *t = mk(false, NULL);
	struct discord_gw_act *a;

	(void)state;
	start(t);
	assert_int_equal(t->nacts, 1);
	assert_int_equal(t->acts[0].kind, DISCORD_GW_FETCH_URL);
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_WAIT_URL);
	/* a URL that is not a WebSocket URL is refused and logged */
	discord_gateway_set_url(t->g, "http://x", t->now);
	drain(t);
	assert_non_null(find(t, DISCORD_GW_LOG));
	assert_null(find(t, DISCORD_GW_CONNECT));
	discord_gateway_set_url(t->g, GW_URL, t->now);
	drain(t);
	assert_non_null(a = find(t, DISCORD_GW_CONNECT));
	assert_string_equal(a->text, GW_URL "/?v=10&encoding=json");
	done(t);
}

static void
test_hello_identify_and_jittered_first_heartbeat(void **state)
{
	struct t *t = mk(true, GW_URL);
	json_t *j, *d;

	(void)state;
	start(t);
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_CONNECTING);
	/* nothing is sent before Hello */
	assert_null(find(t, DISCORD_GW_SEND));
	hello(t, 40000);
	j = sent(t);
	d = json_object_get(j, "d");
	assert_int_equal(json_integer_value(json_object_get(j, "op")), 2);
	assert_string_equal(json_string_value(json_object_get(d, "token")), "secret-token");
	assert_int_equal(json_integer_value(json_object_get(d, "intents")), 1 | 1 << 9 | 1 << 12 | 1 << 15);
	assert_string_equal(json_string_value(json_object_get(json_object_get(d, "properties"), "os")), "linux");
	assert_non_null(json_string_value(json_object_get(json_object_get(d, "properties"), "browser")));
	json_decref(j);
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_IDENTIFYING);
	/* the first heartbeat at interval * jitter: jitter 0.25 -> 10 s */
	assert_int_equal(discord_gateway_due(t->g), t->now + 10000);
	advance(t, 9999);
	assert_null(find(t, DISCORD_GW_SEND));
	advance(t, 1);
	j = sent(t);
	assert_int_equal(json_integer_value(json_object_get(j, "op")), 1);
	/* no dispatch seen yet: d is null */
	assert_true(json_is_null(json_object_get(j, "d")));
	json_decref(j);
	/* then every interval */
	recv_json(t, "{\"op\":11}");
	recv_json(t, "{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"session_id\":\"S1\","
	             "\"resume_gateway_url\":\"" RES_URL "\",\"user\":{\"id\":\"42\"},\"application\":{\"id\":\"77\"}}}");
	assert_int_equal(discord_gateway_due(t->g), t->now + 40000);
	done(t);
}

static void
test_other_jitters_move_the_first_heartbeat(void **state)
{
	struct t *t = mk(false, GW_URL);

	(void)state;
	t->rnd = 0;
	start(t);
	hello(t, 40000);
	assert_int_equal(discord_gateway_due(t->g), t->now);
	done(t);
	t = mk(false, GW_URL);
	t->rnd = 0xffffffffu;
	start(t);
	hello(t, 20000);
	/* below one interval, never at it */
	assert_true(discord_gateway_due(t->g) < t->now + 20000);
	assert_true(discord_gateway_due(t->g) > t->now + 19990);
	done(t);
}

static void
test_ready_dispatch_and_heartbeat_seq(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;
	json_t *j;

	(void)state;
	to_ready(t);
	a = find(t, DISCORD_GW_READY);
	assert_string_equal(json_string_value(json_object_get(json_object_get(a->d, "user"), "id")), "42");
	assert_string_equal(discord_gateway_session(t->g), "S1");
	assert_int_equal(discord_gateway_seq(t->g), 1);
	recv_json(t, "{\"op\":0,\"t\":\"INTERACTION_CREATE\",\"s\":7,\"d\":{\"id\":\"5\"}}");
	a = find(t, DISCORD_GW_DISPATCH);
	assert_non_null(a);
	assert_string_equal(a->text, "INTERACTION_CREATE");
	assert_string_equal(json_string_value(json_object_get(a->d, "id")), "5");
	assert_int_equal(discord_gateway_seq(t->g), 7);
	/* the heartbeat carries the last sequence number */
	to_due(t);
	j = sent(t);
	assert_int_equal(json_integer_value(json_object_get(j, "d")), 7);
	json_decref(j);
	/* a null s does not reset it */
	recv_json(t, "{\"op\":11,\"s\":null}");
	assert_int_equal(discord_gateway_seq(t->g), 7);
	done(t);
}

static void
test_missing_ack_is_a_zombie_then_resume(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;
	json_t *j, *d;

	(void)state;
	to_ready(t);
	recv_json(t, "{\"op\":0,\"t\":\"GUILD_CREATE\",\"s\":3,\"d\":{}}");
	to_due(t);
	assert_int_equal(sent_op(t), 1);
	/* no ACK before the next heartbeat: close, not with 1000/1001 (that would end the session) */
	advance(t, 40000);
	assert_null(find(t, DISCORD_GW_SEND));
	a = find(t, DISCORD_GW_CLOSE);
	assert_non_null(a);
	assert_true(a->code != 1000 && a->code != 1001);
	assert_non_null(find(t, DISCORD_GW_DOWN));
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_CLOSING);
	/* once closed: straight to the resume URL */
	closed(t, a->code);
	a = find(t, DISCORD_GW_CONNECT);
	assert_non_null(a);
	assert_string_equal(a->text, RES_URL "/?v=10&encoding=json");
	hello(t, 40000);
	j = sent(t);
	d = json_object_get(j, "d");
	assert_int_equal(json_integer_value(json_object_get(j, "op")), 6);
	assert_string_equal(json_string_value(json_object_get(d, "session_id")), "S1");
	assert_int_equal(json_integer_value(json_object_get(d, "seq")), 3);
	assert_string_equal(json_string_value(json_object_get(d, "token")), "secret-token");
	json_decref(j);
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_RESUMING);
	/* missed events are replayed before RESUMED: passed on */
	recv_json(t, "{\"op\":0,\"t\":\"INTERACTION_CREATE\",\"s\":4,\"d\":{\"id\":\"9\"}}");
	assert_non_null(find(t, DISCORD_GW_DISPATCH));
	recv_json(t, "{\"op\":0,\"t\":\"RESUMED\",\"s\":5,\"d\":null}");
	assert_non_null(find(t, DISCORD_GW_RESUMED));
	assert_null(find(t, DISCORD_GW_READY));
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_CONNECTED);
	assert_int_equal(discord_gateway_seq(t->g), 5);
	done(t);
}

static void
test_zombie_before_ready_identifies_again(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	start(t);
	hello(t, 1000);
	advance(t, 250);
	assert_int_equal(sent_op(t), 1);
	advance(t, 1000);
	a = find(t, DISCORD_GW_CLOSE);
	assert_non_null(a);
	/* never up: no DOWN */
	assert_null(find(t, DISCORD_GW_DOWN));
	closed(t, 1006);
	a = find(t, DISCORD_GW_CONNECT);
	assert_string_equal(a->text, GW_URL "/?v=10&encoding=json");
	done(t);
}

static void
test_op7_reconnects_and_resumes_at_once(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	to_ready(t);
	recv_json(t, "{\"op\":7,\"d\":null}");
	a = find(t, DISCORD_GW_CLOSE);
	assert_non_null(a);
	assert_true(a->code != 1000 && a->code != 1001);
	closed(t, a->code);
	/* no wait: reconnect and resume immediately */
	a = find(t, DISCORD_GW_CONNECT);
	assert_non_null(a);
	assert_string_equal(a->text, RES_URL "/?v=10&encoding=json");
	hello(t, 40000);
	assert_int_equal(sent_op(t), 6);
	done(t);
}

static void
test_op9_true_resumes(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	to_ready(t);
	recv_json(t, "{\"op\":9,\"d\":true}");
	a = find(t, DISCORD_GW_CLOSE);
	closed(t, a->code);
	a = find(t, DISCORD_GW_CONNECT);
	assert_string_equal(a->text, RES_URL "/?v=10&encoding=json");
	hello(t, 40000);
	assert_int_equal(sent_op(t), 6);
	done(t);
}

static void
test_op9_false_identifies_after_1_to_5_s(void **state)
{
	for (int k = 0; k < 3; k++) {
		uint32_t rnd[] = { 0, 1u << 31, 0xffffffffu };
		struct t *t = mk(false, GW_URL);
		struct discord_gw_act *a;
		int64_t due;

		(void)state;
		t->rnd = rnd[k];
		to_ready(t);
		recv_json(t, "{\"op\":9,\"d\":false}");
		a = find(t, DISCORD_GW_CLOSE);
		assert_non_null(a);
		closed(t, a->code);
		assert_null(find(t, DISCORD_GW_CONNECT));
		assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_WAIT_RETRY);
		due = discord_gateway_due(t->g) - t->now;
		assert_true(due >= 1000 && due <= 5000);
		/* the session is gone */
		assert_string_equal(discord_gateway_session(t->g), "");
		advance(t, due);
		a = find(t, DISCORD_GW_CONNECT);
		assert_non_null(a);
		assert_string_equal(a->text, GW_URL "/?v=10&encoding=json");
		hello(t, 40000);
		assert_int_equal(sent_op(t), 2);
		done(t);
	}
}

static void
test_fatal_close_codes_never_retry(void **state)
{
	int codes[] = { 4004, 4010, 4011, 4012, 4013, 4014 };

	(void)state;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		struct t *t = mk(true, GW_URL);
		struct discord_gw_act *a;

		to_ready(t);
		closed(t, codes[i]);
		a = find(t, DISCORD_GW_FATAL);
		assert_non_null(a);
		assert_int_equal(a->code, codes[i]);
		assert_non_null(find(t, DISCORD_GW_DOWN));
		assert_null(find(t, DISCORD_GW_CONNECT));
		assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_FATAL);
		assert_int_equal(discord_gateway_due(t->g), -1);
		/* time passing brings nothing: no retry loop */
		advance(t, 3600 * 1000);
		assert_int_equal(t->nacts, 0);
		discord_gateway_closed(t->g, 1006, t->now);
		assert_int_equal(drain(t), 0);
		done(t);
	}
}

static void
test_fatal_text_is_plain(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	start(t);
	hello(t, 40000);
	/* a bad token closes with 4004 right after Identify */
	closed(t, 4004);
	a = find(t, DISCORD_GW_FATAL);
	assert_non_null(a);
	assert_non_null(strstr(a->text, "token"));
	/* the token itself is never in it */
	assert_null(strstr(a->text, "secret-token"));
	assert_non_null(strstr(discord_gateway_close_text(4014), "Message Content"));
	assert_false(discord_gateway_close_fatal(4000));
	assert_false(discord_gateway_close_fatal(4009));
	done(t);
}

static void
test_session_ending_codes_identify_others_resume(void **state)
{
	struct {
		int code;
		bool resume;
	} cases[] = { { 4000, true }, { 4001, true }, { 4002, true }, { 4008, true }, { 1006, true },
	              { 0, true }, { 1001, true }, { 4003, false }, { 4007, false }, { 4009, false } };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct t *t = mk(false, GW_URL);
		struct discord_gw_act *a;
		int64_t due;

		to_ready(t);
		closed(t, cases[i].code);
		assert_non_null(find(t, DISCORD_GW_DOWN));
		assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_WAIT_RETRY);
		/* after a link that was up: within a jittered second */
		due = discord_gateway_due(t->g) - t->now;
		assert_true(due >= 0 && due <= 1000);
		advance(t, due);
		a = find(t, DISCORD_GW_CONNECT);
		assert_non_null(a);
		assert_string_equal(a->text, cases[i].resume ? RES_URL "/?v=10&encoding=json"
		                                             : GW_URL "/?v=10&encoding=json");
		hello(t, 40000);
		assert_int_equal(sent_op(t), cases[i].resume ? 6 : 2);
		done(t);
	}
}

static void
test_backoff_grows_with_jitter_and_asks_url_again(void **state)
{
	struct t *t = mk(false, GW_URL);
	int64_t prev = 0;
	int fetches = 0;

	(void)state;
	t->rnd = 0;  /* no jitter cut: the full delay */
	start(t);
	for (int i = 1; i <= 9; i++) {
		int64_t due, want = i >= 7 ? 60000 : (int64_t)1000 << (i - 1);

		/* the connection fails before Hello */
		closed(t, 1006);
		fetches += count(t, DISCORD_GW_FETCH_URL);
		due = discord_gateway_due(t->g) - t->now;
		assert_int_equal(due, want);
		assert_true(due >= prev);
		prev = due;
		advance(t, due);
		assert_non_null(find(t, DISCORD_GW_CONNECT));
	}
	/* every third failure asks GET /gateway/bot again */
	assert_int_equal(fetches, 3);
	discord_gateway_set_url(t->g, "wss://other.discord.gg", t->now);
	drain(t);
	/* the new URL is used from the next connect on */
	closed(t, 1006);
	to_due(t);
	assert_string_equal(find(t, DISCORD_GW_CONNECT)->text, "wss://other.discord.gg/?v=10&encoding=json");
	done(t);
	/* with jitter, the delay is cut by up to half */
	t = mk(false, GW_URL);
	t->rnd = 0xffffffffu;
	start(t);
	closed(t, 1006);
	discord_gateway_closed(t->g, 1006, t->now);
	assert_true(discord_gateway_due(t->g) - t->now > 500 && discord_gateway_due(t->g) - t->now <= 1000);
	done(t);
}

static void
test_ready_resets_backoff(void **state)
{
	struct t *t = mk(false, GW_URL);

	(void)state;
	t->rnd = 0;
	start(t);
	for (int i = 0; i < 4; i++) {
		closed(t, 1006);
		to_due(t);
	}
	hello(t, 40000);
	recv_json(t, "{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"session_id\":\"S2\","
	             "\"resume_gateway_url\":\"" RES_URL "\",\"user\":{\"id\":\"42\"},\"application\":{\"id\":\"77\"}}}");
	assert_non_null(find(t, DISCORD_GW_READY));
	closed(t, 1006);
	/* no wait left over from the failures before (jitter 0 here) */
	assert_non_null(find(t, DISCORD_GW_CONNECT));
	done(t);
}

static void
test_failed_resumes_fall_back_to_identify(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	to_ready(t);
	closed(t, 1006);
	for (int i = 0; i < DISCORD_GW_RESUME_TRIES; i++) {
		to_due(t);
		a = find(t, DISCORD_GW_CONNECT);
		assert_string_equal(a->text, RES_URL "/?v=10&encoding=json");
		closed(t, 1006);
	}
	to_due(t);
	a = find(t, DISCORD_GW_CONNECT);
	assert_string_equal(a->text, GW_URL "/?v=10&encoding=json");
	done(t);
}

static void
test_invalid_resume_session_gets_op9_false(void **state)
{
	struct t *t = mk(false, GW_URL);

	(void)state;
	to_ready(t);
	closed(t, 1006);
	to_due(t);
	hello(t, 40000);
	assert_int_equal(sent_op(t), 6);
	/* too late to resume: op 9 false, then a new session */
	recv_json(t, "{\"op\":9,\"d\":false}");
	assert_non_null(find(t, DISCORD_GW_CLOSE));
	closed(t, 4000);
	to_due(t);
	assert_string_equal(find(t, DISCORD_GW_CONNECT)->text, GW_URL "/?v=10&encoding=json");
	hello(t, 40000);
	assert_int_equal(sent_op(t), 2);
	done(t);
}

static void
test_timeouts_for_hello_and_ready(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	start(t);
	advance(t, DISCORD_GW_HELLO_TIMEOUT);
	a = find(t, DISCORD_GW_CLOSE);
	assert_non_null(a);
	/* the socket never reports closed: the machine goes on by itself */
	advance(t, DISCORD_GW_CLOSE_TIMEOUT);
	to_due(t);
	assert_non_null(find(t, DISCORD_GW_CONNECT));
	hello(t, 100000);
	assert_int_equal(sent_op(t), 2);
	/* no READY in time: a heartbeat asks whether Discord is there; no ACK either: closed */
	advance(t, DISCORD_GW_READY_TIMEOUT);
	assert_null(find(t, DISCORD_GW_CLOSE));
	assert_int_equal(sent_op(t), 1);
	advance(t, DISCORD_GW_PROBE_TIMEOUT);
	assert_non_null(find(t, DISCORD_GW_CLOSE));
	done(t);
}

static void
test_heartbeat_request_answered_at_once(void **state)
{
	struct t *t = mk(false, GW_URL);
	int64_t due;

	(void)state;
	to_ready(t);
	due = discord_gateway_due(t->g);
	recv_json(t, "{\"op\":1,\"d\":null}");
	assert_int_equal(sent_op(t), 1);
	/* the interval is kept */
	assert_int_equal(discord_gateway_due(t->g), due);
	recv_json(t, "{\"op\":11}");
	done(t);
}

static void
test_stop_closes_1000_and_stays(void **state)
{
	struct t *t = mk(false, GW_URL);
	struct discord_gw_act *a;

	(void)state;
	to_ready(t);
	discord_gateway_stop(t->g, t->now);
	drain(t);
	a = find(t, DISCORD_GW_CLOSE);
	assert_non_null(a);
	assert_int_equal(a->code, 1000);
	discord_gateway_closed(t->g, 1000, t->now);
	advance(t, 3600 * 1000);
	assert_int_equal(t->nacts, 0);
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_STOPPED);
	done(t);
}

static void
test_hostile_payloads_ignored(void **state)
{
	struct t *t = mk(false, GW_URL);
	const char *bad[] = {
		"", "null", "[]", "{}", "{\"op\":\"0\"}", "{\"op\":0}", "{\"op\":0,\"t\":\"X\"}",
		"{\"op\":0,\"t\":5,\"s\":2}", "{\"op\":0,\"t\":\"X\",\"s\":-1}", "{\"op\":0,\"t\":\"X\",\"s\":\"2\"}",
		"{\"op\":10}", "{\"op\":99,\"d\":{}}", "not json", "{\"op\":0,\"op\":1}",
	};

	(void)state;
	to_ready(t);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		recv_json(t, bad[i]);
		assert_null(find(t, DISCORD_GW_DISPATCH));
		assert_null(find(t, DISCORD_GW_CLOSE));
		assert_int_equal(discord_gateway_seq(t->g), 1);
	}
	assert_int_equal(discord_gateway_phase(t->g), DISCORD_GW_PH_CONNECTED);
	done(t);
}

static void
test_bad_hello_or_ready_retries(void **state)
{
	const char *readies[] = {
		/* no session id */
		"{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"resume_gateway_url\":\"" RES_URL "\","
		"\"user\":{\"id\":\"42\"},\"application\":{\"id\":\"77\"}}}",
		/* a plain-text resume URL for a TLS gateway: a downgrade */
		"{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"session_id\":\"S\",\"resume_gateway_url\":\"ws://evil\","
		"\"user\":{\"id\":\"42\"},\"application\":{\"id\":\"77\"}}}",
		/* a user id that is not a snowflake */
		"{\"op\":0,\"t\":\"READY\",\"s\":1,\"d\":{\"session_id\":\"S\",\"resume_gateway_url\":\"" RES_URL "\","
		"\"user\":{\"id\":\"4x\"},\"application\":{\"id\":\"77\"}}}",
	};
	struct t *t = mk(false, GW_URL);

	(void)state;
	start(t);
	hello(t, 0);
	assert_non_null(find(t, DISCORD_GW_CLOSE));
	done(t);
	for (size_t i = 0; i < sizeof readies / sizeof readies[0]; i++) {
		t = mk(false, GW_URL);
		start(t);
		hello(t, 40000);
		recv_json(t, readies[i]);
		assert_null(find(t, DISCORD_GW_READY));
		assert_non_null(find(t, DISCORD_GW_CLOSE));
		done(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intents_only_what_is_needed),
		cmocka_unit_test(test_url_gets_version_and_encoding),
		cmocka_unit_test(test_fetch_url_first_when_none),
		cmocka_unit_test(test_outage_costs_few_identifies),
		cmocka_unit_test(test_identify_waits_for_the_budget_and_the_window),
		cmocka_unit_test(test_hello_identify_and_jittered_first_heartbeat),
		cmocka_unit_test(test_other_jitters_move_the_first_heartbeat),
		cmocka_unit_test(test_ready_dispatch_and_heartbeat_seq),
		cmocka_unit_test(test_missing_ack_is_a_zombie_then_resume),
		cmocka_unit_test(test_zombie_before_ready_identifies_again),
		cmocka_unit_test(test_op7_reconnects_and_resumes_at_once),
		cmocka_unit_test(test_op9_true_resumes),
		cmocka_unit_test(test_op9_false_identifies_after_1_to_5_s),
		cmocka_unit_test(test_fatal_close_codes_never_retry),
		cmocka_unit_test(test_fatal_text_is_plain),
		cmocka_unit_test(test_session_ending_codes_identify_others_resume),
		cmocka_unit_test(test_backoff_grows_with_jitter_and_asks_url_again),
		cmocka_unit_test(test_ready_resets_backoff),
		cmocka_unit_test(test_failed_resumes_fall_back_to_identify),
		cmocka_unit_test(test_invalid_resume_session_gets_op9_false),
		cmocka_unit_test(test_timeouts_for_hello_and_ready),
		cmocka_unit_test(test_heartbeat_request_answered_at_once),
		cmocka_unit_test(test_stop_closes_1000_and_stays),
		cmocka_unit_test(test_hostile_payloads_ignored),
		cmocka_unit_test(test_bad_hello_or_ready_retries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
