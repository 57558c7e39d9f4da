/* e2e-discord-fake.c: the fake Discord refuses what Discord refuses (so that the adapter's tests can fail); raw WebSocket and REST calls. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "loopwait.h"
#include "discord/ws.h"
#include "fakedc.h"
#include "e2e.h"

#define TOKEN "e2e-fake-strictness-token"
#define APP   "900000000000000001"

struct h {
	struct fakedc fake;
	struct loop *loop;
	struct discord_ws *ws;
	int opens, closes, close_code, texts;
	char last[4096];
};

/* ------------------------------------------------------------------ a raw Gateway client */

static void
on_ws(void *ctx, enum discord_ws_ev ev, int code, const char *text, size_t len)
{
	struct h *h = ctx;

	switch (ev) {
	case DISCORD_WS_OPEN:
		h->opens++;
		break;
	case DISCORD_WS_TEXT:
		h->texts++;
		snprintf(h->last, sizeof h->last, "%.*s", (int)len, text);
		break;
	case DISCORD_WS_CLOSED:
		h->closes++;
		h->close_code = code;
		break;
	case DISCORD_WS_LOG:
		break;
	}
}

static void
ws_open(struct h *h, const char *query)
{
	char url[128];

	snprintf(url, sizeof url, "ws://127.0.0.1:%d/%s", h->fake.gateway, query);
	h->texts = 0;
	assert_int_equal(discord_ws_connect(h->ws, url), 0);
	assert_true(loopwait_until(h->loop, &h->texts, 1, 5000));
	assert_non_null(strstr(h->last, "\"op\": 10"));
}

static void
ws_send(struct h *h, const char *text)
{
	assert_int_equal(discord_ws_send(h->ws, text, strlen(text)), 0);
}

/* Sends text on a fresh connection and expects the server to close with code. */
static void
closes_with(struct h *h, const char *before, const char *text, int code)
{
	int c = h->closes;

	ws_open(h, "?v=10&encoding=json");
	if (before != NULL)
		ws_send(h, before);
	ws_send(h, text);
	assert_true(loopwait_until(h->loop, &h->closes, c + 1, 5000));
	assert_int_equal(h->close_code, code);
}

#define IDENTIFY(intents) "{\"op\":2,\"d\":{\"token\":\"" TOKEN "\",\"intents\":" intents "," \
                          "\"properties\":{\"os\":\"linux\",\"browser\":\"t\",\"device\":\"t\"}}}"

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);
	char err[200];

	if (h == NULL || fakedc_start(&h->fake) < 0) {
		free(h);
		return -1;
	}
	e2e_secret_note(TOKEN);
	h->loop = loop_new();
	h->ws = discord_ws_new(h->loop, NULL, on_ws, h, err, sizeof err);
	assert_non_null(h->ws);
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"token\":\"%s\",\"identify_window_ms\":0,"
	                            "\"interaction_deadline_ms\":3000,\"route_limits\":false}", TOKEN), 0);
	assert_int_equal(fakedc_ctl(&h->fake, "guild", "{\"id\":\"500\",\"name\":\"Cards\",\"channels\":"
	                            "[{\"id\":\"501\",\"name\":\"table\"}],\"members\":[{\"id\":\"601\","
	                            "\"username\":\"ann\"},{\"id\":\"602\",\"username\":\"bob\",\"dm_open\":false}]}"), 0);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;

	discord_ws_free(h->ws);
	loop_free(h->loop);
	fakedc_stop(&h->fake);
	free(h);
	return 0;
}

/* ------------------------------------------------------------------ Gateway refusals */

static void
test_gateway_close_codes(void **state)
{
	struct h *h = *state;
	char big[5000];

	/* a wrong token: 4004 */
	closes_with(h, NULL, "{\"op\":2,\"d\":{\"token\":\"nope\",\"intents\":1,\"properties\":{\"os\":\"l\","
	            "\"browser\":\"t\",\"device\":\"t\"}}}", 4004);
	/* intents: unknown bits 4013, privileged ones not enabled 4014 */
	closes_with(h, NULL, IDENTIFY("262144"), 4013);
	closes_with(h, NULL, IDENTIFY("32769"), 4014);
	/* anything but heartbeat/identify/resume before identifying: 4003 */
	closes_with(h, NULL, "{\"op\":3,\"d\":{}}", 4003);
	/* identify twice: 4005 */
	closes_with(h, IDENTIFY("1"), IDENTIFY("1"), 4005);
	/* not JSON, or over 4096 bytes: 4002 */
	closes_with(h, NULL, "not json", 4002);
	memset(big, ' ', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "{\"op\":1,\"d\":null}", 17);
	closes_with(h, NULL, big, 4002);
	/* an unknown opcode: 4001 */
	closes_with(h, NULL, "{\"op\":5,\"d\":null}", 4001);
	/* a resume with a seq from the future: 4007 */
	{
		json_t *s;
		char resume[256];

		ws_open(h, "?v=10&encoding=json");
		ws_send(h, IDENTIFY("1"));
		s = fakedc_state(&h->fake);
		json_decref(s);
		snprintf(resume, sizeof resume, "{\"op\":6,\"d\":{\"token\":\"" TOKEN "\",\"session_id\":\"sess1\","
		         "\"seq\":999}}");
		closes_with(h, NULL, resume, 4007);
	}
	/* no version: 4012 */
	{
		int c = h->closes;

		ws_open(h, "");
		assert_true(loopwait_until(h->loop, &h->closes, c + 1, 5000));
		assert_int_equal(h->close_code, 4012);
	}
}

static void
test_gateway_send_rate_limit(void **state)
{
	struct h *h = *state;
	int c = h->closes;

	/* 120 payloads a minute, then 4008 */
	ws_open(h, "?v=10&encoding=json");
	for (int i = 0; i < 125; i++)
		ws_send(h, "{\"op\":1,\"d\":null}");
	assert_true(loopwait_until(h->loop, &h->closes, c + 1, 5000));
	assert_int_equal(h->close_code, 4008);
}

static void
test_gateway_missed_heartbeat_closes(void **state)
{
	struct h *h = *state;
	int c = h->closes;

	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"heartbeat_interval\":200,\"hb_tolerance_ms\":100}"), 0);
	ws_open(h, "?v=10&encoding=json");
	assert_true(loopwait_until(h->loop, &h->closes, c + 1, 5000));
	assert_int_equal(h->close_code, 4000);
	assert_true(fakedc_violations(&h->fake, false) >= 1);
}

/* ------------------------------------------------------------------ REST refusals */

static long
rest(struct h *h, const char *method, const char *path, const char *body, json_t **out)
{
	long st = 0;
	json_t *j = fakedc_call(&h->fake, method, path, TOKEN, body, &st);

	if (out != NULL)
		*out = j;
	else
		json_decref(j);
	return st;
}

static void
test_messages_refused_as_discord_does(void **state)
{
	struct h *h = *state;
	char body[9000], text[8500];
	json_t *j;
	size_t n;

	/* 2000 characters pass; 2001 do not; an astral character counts two */
	memset(text, 'x', 2000);
	text[2000] = '\0';
	snprintf(body, sizeof body, "{\"content\":\"%s\"}", text);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", body, NULL), 200);
	snprintf(body, sizeof body, "{\"content\":\"%sx\"}", text);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", body, &j), 400);
	assert_int_equal(json_integer_value(json_object_get(j, "code")), 50035);
	json_decref(j);
	n = 0;
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "\xf0\x9f\x82\xa1");
	snprintf(body, sizeof body, "{\"content\":\"%sx\"}", text);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", body, NULL), 400);
	/* empty, ephemeral in a channel, unknown channel */
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", "{\"content\":\"\"}", NULL), 400);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", "{\"content\":\"a\",\"flags\":64}", NULL), 400);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/999/messages", "{\"content\":\"a\"}", &j), 404);
	assert_int_equal(json_integer_value(json_object_get(j, "code")), 10003);
	json_decref(j);
}

static void
test_components_and_mentions_checked(void **state)
{
	struct h *h = *state;
	const char *bad[] = {
		/* six buttons in a row */
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":["
		"{\"type\":2,\"style\":1,\"label\":\"1\",\"custom_id\":\"a\"},{\"type\":2,\"style\":1,\"label\":\"2\",\"custom_id\":\"b\"},"
		"{\"type\":2,\"style\":1,\"label\":\"3\",\"custom_id\":\"c\"},{\"type\":2,\"style\":1,\"label\":\"4\",\"custom_id\":\"d\"},"
		"{\"type\":2,\"style\":1,\"label\":\"5\",\"custom_id\":\"e\"},{\"type\":2,\"style\":1,\"label\":\"6\",\"custom_id\":\"f\"}]}]}",
		/* a button outside an action row */
		"{\"content\":\"a\",\"components\":[{\"type\":2,\"style\":1,\"label\":\"x\",\"custom_id\":\"a\"}]}",
		/* the same custom_id twice */
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"label\":\"x\","
		"\"custom_id\":\"a\"},{\"type\":2,\"style\":2,\"label\":\"y\",\"custom_id\":\"a\"}]}]}",
		/* no custom_id on a non-link button; a link button with one */
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"label\":\"x\"}]}]}",
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"label\":\"x\","
		"\"url\":\"https://x\",\"custom_id\":\"a\"}]}]}",
		/* a link button with no url, or one that is not http(s) */
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"label\":\"x\"}]}]}",
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"label\":\"x\","
		"\"url\":\"javascript:alert(1)\"}]}]}",
		"{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"label\":\"x\","
		"\"url\":\"/t/relative\"}]}]}",
		/* parse users and a users list together */
		"{\"content\":\"<@601>\",\"allowed_mentions\":{\"parse\":[\"users\"],\"users\":[\"601\"]}}",
		"{\"content\":\"a\",\"allowed_mentions\":{\"parse\":[\"all\"]}}",
	};
	json_t *s, *msgs, *m;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", bad[i], NULL), 400);
	/* a link button beside the others: a url and no custom_id */
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages",
	                      "{\"content\":\"a\",\"components\":[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,"
	                      "\"label\":\"x\",\"custom_id\":\"a\"},{\"type\":2,\"style\":5,\"label\":\"Table page\","
	                      "\"url\":\"https://cards.example.org/t/ab\"}]}]}", NULL), 200);
	/* what pings: default (no allowed_mentions) pings all; parse [] + users pings that user only */
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages",
	                      "{\"content\":\"@everyone <@601> <@602>\",\"allowed_mentions\":{\"parse\":[],\"users\":[\"601\"]}}",
	                      NULL), 200);
	assert_int_equal(rest(h, "POST", "/api/v10/channels/501/messages", "{\"content\":\"@here <@602>\"}", NULL), 200);
	s = fakedc_state(&h->fake);
	msgs = json_object_get(s, "messages");
	m = json_object_get(json_array_get(msgs, 1), "pings");
	assert_false(json_is_true(json_object_get(m, "everyone")));
	assert_int_equal(json_array_size(json_object_get(m, "users")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(m, "users"), 0)), "601");
	m = json_object_get(json_array_get(msgs, 2), "pings");
	assert_true(json_is_true(json_object_get(m, "everyone")));
	json_decref(s);
}

static void
test_auth_agent_dm(void **state)
{
	struct h *h = *state;
	long st = 0;
	json_t *j;

	j = fakedc_call(&h->fake, "GET", "/api/v10/gateway/bot", "wrong", NULL, &st);
	json_decref(j);
	assert_int_equal(st, 401);
	/* a DM channel, and a user who closed DMs */
	assert_int_equal(rest(h, "POST", "/api/v10/users/@me/channels", "{\"recipient_id\":\"602\"}", &j), 200);
	{
		char path[64];

		snprintf(path, sizeof path, "/api/v10/channels/%s/messages", json_string_value(json_object_get(j, "id")));
		json_decref(j);
		assert_int_equal(rest(h, "POST", path, "{\"content\":\"your hand\"}", &j), 403);
		assert_int_equal(json_integer_value(json_object_get(j, "code")), 50007);
		json_decref(j);
	}
}

static void
test_commands_validated(void **state)
{
	struct h *h = *state;
	char desc[160];

	memset(desc, 'd', 101);
	desc[101] = '\0';
	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/commands",
	                      "[{\"name\":\"Draw\",\"description\":\"x\"}]", NULL), 400);
	{
		char body[400];

		snprintf(body, sizeof body, "[{\"name\":\"draw\",\"description\":\"%s\"}]", desc);
		assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/commands", body, NULL), 400);
	}
	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/commands",
	                      "[{\"name\":\"meld\",\"description\":\"x\",\"options\":[{\"type\":3,\"name\":\"a\","
	                      "\"description\":\"a\"},{\"type\":3,\"name\":\"b\",\"description\":\"b\",\"required\":true}]}]",
	                      NULL), 400);
	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/commands",
	                      "[{\"name\":\"draw\",\"description\":\"x\"},{\"name\":\"draw\",\"description\":\"y\"}]", NULL), 400);
	/* a guild the bot is not in */
	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/guilds/777/commands", "[]", NULL), 403);
	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/guilds/500/commands",
	                      "[{\"name\":\"draw\",\"description\":\"Draw\"},{\"name\":\"meld\",\"description\":\"Meld\","
	                      "\"options\":[{\"type\":3,\"name\":\"cards\",\"description\":\"cards\",\"required\":true}]}]",
	                      NULL), 200);
	/* a slash command not registered cannot be used */
	assert_int_equal(fakedc_ctl(&h->fake, "interaction", "{\"user_id\":\"601\",\"guild_id\":\"500\","
	                            "\"channel_id\":\"501\",\"name\":\"pickup\"}"), -1);
	assert_int_equal(fakedc_ctl(&h->fake, "interaction", "{\"user_id\":\"601\",\"guild_id\":\"500\","
	                            "\"channel_id\":\"501\",\"name\":\"meld\"}"), -1);
}

/* An interaction of a registered guild command; its id and token. */
static void
new_interaction(struct h *h, char *id, char *tok)
{
	json_t *j;
	long st = 0;

	assert_int_equal(rest(h, "PUT", "/api/v10/applications/" APP "/guilds/500/commands",
	                      "[{\"name\":\"draw\",\"description\":\"Draw\"}]", NULL), 200);
	j = fakedc_call(&h->fake, "POST", "/_fake/interaction", NULL, "{\"user_id\":\"601\",\"guild_id\":\"500\","
	                "\"channel_id\":\"501\",\"name\":\"draw\"}", &st);
	assert_int_equal(st, 200);
	snprintf(id, 32, "%s", json_string_value(json_object_get(j, "id")));
	snprintf(tok, 256, "%s", json_string_value(json_object_get(j, "token")));
	json_decref(j);
}

static void
test_interactions_three_seconds_once(void **state)
{
	struct h *h = *state;
	char id[32], tok[256], path[512];
	json_t *j, *s, *m;

	new_interaction(h, id, tok);
	snprintf(path, sizeof path, "/api/v10/interactions/%s/%s/callback", id, tok);
	/* no follow-up before the first answer */
	{
		char wh[512];

		snprintf(wh, sizeof wh, "/api/v10/webhooks/" APP "/%s", tok);
		assert_int_equal(rest(h, "POST", wh, "{\"content\":\"x\"}", &j), 404);
		assert_int_equal(json_integer_value(json_object_get(j, "code")), 10015);
		json_decref(j);
		/* a public defer, then a follow-up asking for ephemeral: it edits the loading
		 * message, which stays public (receiving-and-responding.mdx) */
		assert_int_equal(rest(h, "POST", path, "{\"type\":5}", NULL), 204);
		assert_int_equal(rest(h, "POST", path, "{\"type\":4,\"data\":{\"content\":\"again\"}}", &j), 400);
		assert_int_equal(json_integer_value(json_object_get(j, "code")), 40060);
		json_decref(j);
		assert_int_equal(rest(h, "POST", wh, "{\"content\":\"secret hand\",\"flags\":64}", NULL), 200);
		assert_int_equal(rest(h, "POST", wh, "{\"content\":\"second\",\"flags\":64}", NULL), 200);
	}
	s = fakedc_state(&h->fake);
	m = json_object_get(s, "messages");
	assert_string_equal(json_string_value(json_object_get(json_array_get(m, 0), "content")), "secret hand");
	assert_false(json_is_true(json_object_get(json_array_get(m, 0), "ephemeral")));
	assert_true(json_is_true(json_object_get(json_array_get(m, 1), "ephemeral")));
	json_decref(s);
	/* answered twice: a violation */
	assert_int_equal(fakedc_violations(&h->fake, false), 1);
	/* too late: 3 s have passed */
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"interaction_deadline_ms\":100}"), 0);
	new_interaction(h, id, tok);
	e2e_sleep_ms(300);
	snprintf(path, sizeof path, "/api/v10/interactions/%s/%s/callback", id, tok);
	assert_int_equal(rest(h, "POST", path, "{\"type\":4,\"data\":{\"content\":\"late\"}}", &j), 404);
	assert_int_equal(json_integer_value(json_object_get(j, "code")), 10062);
	json_decref(j);
	/* a component-only type for a slash command */
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"interaction_deadline_ms\":3000}"), 0);
	new_interaction(h, id, tok);
	snprintf(path, sizeof path, "/api/v10/interactions/%s/%s/callback", id, tok);
	assert_int_equal(rest(h, "POST", path, "{\"type\":7,\"data\":{\"content\":\"x\"}}", NULL), 400);
	assert_int_equal(rest(h, "POST", path, "{\"type\":5,\"data\":{\"flags\":4}}", NULL), 400);
	assert_int_equal(rest(h, "POST", path, "{\"type\":4,\"data\":{\"content\":\"only you\",\"flags\":64}}", NULL), 204);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gateway_close_codes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gateway_send_rate_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gateway_missed_heartbeat_closes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_messages_refused_as_discord_does, setup, teardown),
		cmocka_unit_test_setup_teardown(test_components_and_mentions_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_auth_agent_dm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commands_validated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interactions_three_seconds_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
