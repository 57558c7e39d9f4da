/* e2e-discord-gateway.c: the Gateway link (state machine + libwebsockets thread) against the fake Discord: resume, zombie, op 7/9, fatal codes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "loop.h"
#include "loopwait.h"
#include "discord/link.h"
#include "fakedc.h"
#include "e2e.h"

#define TOKEN "e2e-discord-token-not-real"

struct h {
	struct fakedc fake;
	struct loop *loop;
	struct discord_link *link;
	int ready, resumed, down, fatal, fatal_code, fetches;
	char fatal_text[256];
	char names[256][32];        /* dispatch names, in order */
	char ids[256][32];          /* INTERACTION_CREATE ids, in order */
	int nnames, nids;
	bool verbose;
};

static void
h_event(void *ctx, enum discord_gw_act_kind kind, int code, const char *name, json_t *d)
{
	struct h *h = ctx;

	switch (kind) {
	case DISCORD_GW_READY:
		h->ready++;
		break;
	case DISCORD_GW_RESUMED:
		h->resumed++;
		break;
	case DISCORD_GW_DOWN:
		h->down++;
		break;
	case DISCORD_GW_FATAL:
		h->fatal++;
		h->fatal_code = code;
		snprintf(h->fatal_text, sizeof h->fatal_text, "%s", name);
		break;
	case DISCORD_GW_DISPATCH:
		if (h->nnames < 256)
			snprintf(h->names[h->nnames++], 32, "%s", name);
		if (strcmp(name, "INTERACTION_CREATE") == 0 && h->nids < 256)
			snprintf(h->ids[h->nids++], 32, "%s", json_string_value(json_object_get(d, "id")));
		break;
	default:
		break;
	}
}

static void
h_log(void *ctx, int level, const char *msg)
{
	struct h *h = ctx;

	/* the token never reaches the log */
	assert_null(strstr(msg, TOKEN));
	if (h->verbose)
		fprintf(stderr, "<%d>%s\n", level, msg);
}

static void
h_fetch(void *ctx)
{
	struct h *h = ctx;
	json_t *j = fakedc_call(&h->fake, "GET", "/api/v10/gateway/bot", TOKEN, NULL, NULL);

	h->fetches++;
	discord_link_set_url(h->link, json_string_value(json_object_get(j, "url")));
	json_decref(j);
}

/* url NULL: asked from GET /gateway/bot */
static void
link_up_at(struct h *h, bool message_commands, const char *url)
{
	struct discord_gw_config cfg = {
		.token = TOKEN, .intents = discord_gateway_intents(message_commands), .url = url,
	};
	struct discord_link_host host = { .ctx = h, .event = h_event, .log = h_log, .fetch_url = h_fetch };
	char err[256];

	h->link = discord_link_new(h->loop, &cfg, NULL, &host, err, sizeof err);
	assert_non_null(h->link);
	discord_link_start(h->link);
}

static void
link_up(struct h *h, bool message_commands)
{
	link_up_at(h, message_commands, NULL);
}

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);

	if (h == NULL || fakedc_start(&h->fake) < 0) {
		free(h);
		return -1;
	}
	h->verbose = getenv("HF_VERBOSE") != NULL;
	h->loop = loop_new();
	e2e_secret_note(TOKEN);
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"token\":\"%s\",\"heartbeat_interval\":400,"
	                            "\"hb_tolerance_ms\":1500,\"identify_window_ms\":0}", TOKEN), 0);
	assert_int_equal(fakedc_ctl(&h->fake, "guild", "{\"id\":\"500\",\"name\":\"Cards\",\"channels\":"
	                            "[{\"id\":\"501\",\"name\":\"table\"}],\"members\":[{\"id\":\"601\","
	                            "\"username\":\"ann\",\"global_name\":\"Ann\"}]}"), 0);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;

	if (h->link != NULL)
		discord_link_free(h->link);
	loop_free(h->loop);
	fakedc_stop(&h->fake);
	free(h);
	return 0;
}

/* The last connection the fake saw. */
static json_t *
last_conn(struct h *h, json_t **state)
{
	json_t *conns;

	*state = fakedc_state(&h->fake);
	conns = json_object_get(*state, "connections");
	return json_array_get(conns, json_array_size(conns) - 1);
}

static void
interaction(struct h *h)
{
	/* a slash command needs a registered command: register one as the bot would */
	long st = 0;
	json_t *j = fakedc_call(&h->fake, "PUT", "/api/v10/applications/900000000000000001/commands", TOKEN,
	                        "[{\"name\":\"draw\",\"description\":\"Draw two cards\",\"integration_types\":[0]}]", &st);

	assert_int_equal(st, 200);
	json_decref(j);
	assert_int_equal(fakedc_ctl(&h->fake, "interaction", "{\"kind\":\"command\",\"user_id\":\"601\","
	                            "\"guild_id\":\"500\",\"channel_id\":\"501\",\"name\":\"draw\"}"), 0);
}

/* The link up (no privileged intent) and its session READY. */
static void
ready(struct h *h)
{
	link_up(h, false);
	assert_true(loopwait_until(h->loop, &h->ready, 1, 10000));
}

/* The fake's gateway told to do what action (JSON) says. */
static void
gateway_ctl(struct h *h, const char *action)
{
	assert_int_equal(fakedc_ctl(&h->fake, "gateway", "%s", action), 0);
}

/* The close code the link sent on the first connection (0: none). */
static json_int_t
first_closed_by_client(struct h *h)
{
	json_t *s = fakedc_state(&h->fake);
	json_int_t code = json_integer_value(
	    json_object_get(json_array_get(json_object_get(s, "connections"), 0), "closed_by_client"));

	json_decref(s);
	return code;
}

/* After action, the link resumed its session: it closed the connection
 * itself, and not with 1000/1001 (which would end the session). */
static void
resumes_after(struct h *h, const char *action)
{
	ready(h);
	gateway_ctl(h, action);
	assert_true(loopwait_until(h->loop, &h->resumed, 1, 10000));
	assert_int_equal(h->ready, 1);
	assert_int_equal(first_closed_by_client(h), 4000);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

/* ------------------------------------------------------------------ tests */

static void
test_identify_ready_only_needed_intents(void **state)
{
	struct h *h = *state;
	json_t *s, *c;

	ready(h);
	/* the URL was asked from GET /gateway/bot, as Discord asks bots to */
	assert_int_equal(h->fetches, 1);
	/* GUILD_CREATE follows READY (the GUILDS intent) */
	loopwait_for(h->loop, 300);
	assert_string_equal(h->names[0], "GUILD_CREATE");
	c = last_conn(h, &s);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "identify"), "intents")), 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(c, "query"), "v")), "10");
	json_decref(s);
	/* heartbeats flow (interval 400 ms) and are ACKed: nothing breaks for a while */
	loopwait_for(h->loop, 1500);
	assert_int_equal(h->down, 0);
	c = last_conn(h, &s);
	assert_true(json_array_size(json_object_get(c, "heartbeats")) >= 3);
	json_decref(s);
	interaction(h);
	loopwait_for(h->loop, 300);
	assert_int_equal(h->nids, 1);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

static void
test_abnormal_close_resumes_with_missed_events(void **state)
{
	struct h *h = *state;
	json_t *s, *c;

	ready(h);
	/* a drop without a close frame (1006) */
	gateway_ctl(h, "{\"action\":\"drop\"}");
	/* an event while we are away: replayed by the Resume */
	interaction(h);
	assert_true(loopwait_until(h->loop, &h->resumed, 1, 10000));
	assert_int_equal(h->ready, 1);
	assert_int_equal(h->down, 1);
	assert_int_equal(h->nids, 1);
	c = last_conn(h, &s);
	/* on the resume URL's port, with the session */
	assert_int_equal(json_integer_value(json_object_get(c, "port")), h->fake.resume);
	assert_string_equal(json_string_value(json_object_get(json_object_get(c, "resume"), "session_id")), "sess1");
	json_decref(s);
	/* a close with a resumable code too */
	gateway_ctl(h, "{\"action\":\"close\",\"code\":4000}");
	assert_true(loopwait_until(h->loop, &h->resumed, 2, 10000));
	assert_int_equal(h->ready, 1);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

static void
test_op7_resumes(void **state)
{
	resumes_after(*state, "{\"action\":\"reconnect\"}");
}

static void
test_zombie_link_detected_and_resumed(void **state)
{
	/* the server keeps the socket but stops answering heartbeats */
	resumes_after(*state, "{\"action\":\"ack\",\"on\":false}");
}

static void
test_op9_resumable_and_not(void **state)
{
	struct h *h = *state;

	ready(h);
	gateway_ctl(h, "{\"action\":\"invalid_session\",\"resumable\":true}");
	assert_true(loopwait_until(h->loop, &h->resumed, 1, 10000));
	assert_int_equal(h->ready, 1);
	/* not resumable: a new session (after 1-5 s) */
	gateway_ctl(h, "{\"action\":\"invalid_session\",\"resumable\":false}");
	assert_true(loopwait_until(h->loop, &h->ready, 2, 10000));
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

static void
test_session_timed_out_identifies(void **state)
{
	struct h *h = *state;

	ready(h);
	gateway_ctl(h, "{\"action\":\"close\",\"code\":4009}");
	assert_true(loopwait_until(h->loop, &h->ready, 2, 10000));
	assert_int_equal(h->resumed, 0);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

static void
test_bad_token_is_fatal_without_retry(void **state)
{
	struct h *h = *state;
	json_t *s;

	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"token\":\"another-token\"}"), 0);
	/* REST would refuse the token too (401): give the Gateway URL directly */
	link_up_at(h, false, h->fake.gateway_url);
	assert_true(loopwait_until(h->loop, &h->fatal, 1, 10000));
	assert_int_equal(h->fatal_code, 4004);
	assert_non_null(strstr(h->fatal_text, "token_file"));
	/* no retry loop: one connection, however long we wait */
	loopwait_for(h->loop, 2500);
	s = fakedc_state(&h->fake);
	assert_int_equal(json_array_size(json_object_get(s, "connections")), 1);
	json_decref(s);
	assert_int_equal(discord_link_phase(h->link), DISCORD_GW_PH_FATAL);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
}

static void
test_message_content_not_enabled_is_fatal(void **state)
{
	struct h *h = *state;

	/* message_commands = yes asks MESSAGE_CONTENT, not enabled for this app: 4014 */
	link_up(h, true);
	assert_true(loopwait_until(h->loop, &h->fatal, 1, 10000));
	assert_int_equal(h->fatal_code, 4014);
	assert_non_null(strstr(h->fatal_text, "Message Content"));
	loopwait_for(h->loop, 1500);
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
	discord_link_free(h->link);
	h->link = NULL;
	/* enabled: fine */
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"privileged\":[15]}"), 0);
	link_up(h, true);
	assert_true(loopwait_until(h->loop, &h->ready, 1, 10000));
}

static void
test_injected_fatal_close_stops(void **state)
{
	struct h *h = *state;

	ready(h);
	gateway_ctl(h, "{\"action\":\"close\",\"code\":4013}");
	assert_true(loopwait_until(h->loop, &h->fatal, 1, 10000));
	loopwait_for(h->loop, 2000);
	/* the fake notes a reconnect after a fatal close as a violation */
	assert_int_equal(fakedc_violations(&h->fake, true), 0);
	assert_int_equal(h->ready, 1);
}

static void
test_stop_ends_the_session(void **state)
{
	struct h *h = *state;
	json_t *s;

	ready(h);
	discord_link_stop(h->link);
	loopwait_for(h->loop, 500);
	assert_int_equal(first_closed_by_client(h), 1000);
	s = fakedc_state(&h->fake);
	assert_true(json_is_true(json_object_get(json_object_get(json_object_get(s, "sessions"), "sess1"), "invalid")));
	json_decref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identify_ready_only_needed_intents, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abnormal_close_resumes_with_missed_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_op7_resumes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zombie_link_detected_and_resumed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_op9_resumable_and_not, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_timed_out_identifies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_token_is_fatal_without_retry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_message_content_not_enabled_is_fatal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injected_fatal_close_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_ends_the_session, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
