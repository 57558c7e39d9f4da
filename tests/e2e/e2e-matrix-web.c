/* e2e-matrix-web.c: the web table's page as the game room's widget (im.vector.modular.widgets) on the fake Matrix homeserver: set at the deal where the bot's power level lets it, removed at the end, never a seat's link; where it may not, the link is in the lines only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "e2e.h"
#include "fakemx.h"
#include "ircserver.h"
#include "world.h"

#define WIDGET "im.vector.modular.widgets"

static struct world w;           /* the fake homeserver is w.mx */
static char ann[128];

/* The contents of the bot's widget events in room, in order (caller decrefs). */
static json_t *
widgets(const char *room)
{
	json_t *evs = fakemx_events(&w.mx, room), *ev, *out = json_array();
	size_t i;

	json_array_foreach(evs, i, ev)
		if (strcmp(json_string_value(json_object_get(ev, "type")), WIDGET) == 0 &&
		    strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") == 0)
			json_array_append(out, json_object_get(ev, "content"));
	json_decref(evs);
	return out;
}

/* The first of the bot's message bodies in room holding needle, copied to out; waited for ms. */
static bool
bot_said(const char *room, const char *needle, char *out, size_t len, int ms)
{
	for (int t = 0; t < ms; t += 200) {
		json_t *evs = fakemx_events(&w.mx, room), *ev;
		size_t i;

		json_array_foreach(evs, i, ev) {
			const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

			if (strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") == 0 && body != NULL &&
			    strstr(body, needle) != NULL) {
				snprintf(out, len, "%s", body);
				json_decref(evs);
				return true;
			}
		}
		json_decref(evs);
		e2e_sleep_ms(200);
	}
	{
		json_t *evs = fakemx_events(&w.mx, room), *ev;
		size_t i;

		json_array_foreach(evs, i, ev)
			print_message("  %s: %s\n", json_string_value(json_object_get(ev, "sender")),
			              json_string_value(json_object_get(json_object_get(ev, "content"), "body")));
		json_decref(evs);
	}
	print_error("no \"%s\" in %s (daemon log: %s)\n", needle, room, w.d.log);
	return false;
}

/* Ann and a computer play a short game in room, to its end; the deal's line in deal. */
static void
play(const char *room, char *deal, size_t len)
{
	char line[2048];

	assert_int_equal(fakemx_say(&w.mx, ann, room, "!play 4 classic rounds=1 decks=1 hand=5 foot=5"), 0);
	assert_true(bot_said(room, "Watch: ", deal, len, 15000));
	assert_int_equal(fakemx_say(&w.mx, ann, room, "!auto"), 0);
	assert_true(bot_said(room, "Game over", line, sizeof line, 240000));
}

/* Waits until the bot's last widget event in room is the empty one the game's end sends. */
static bool
widget_emptied(const char *room, int ms)
{
	for (int t = 0; t <= ms; t += 100) {
		json_t *ws = widgets(room);
		bool done = json_array_size(ws) >= 2 && json_object_size(json_array_get(ws, json_array_size(ws) - 1)) == 0;

		json_decref(ws);
		if (done)
			return true;
		e2e_sleep_ms(100);
	}
	return false;
}

static int
setup(void **state)
{
	static const struct world_spec matrix = { .matrix = true };
	char pw[300], text[1024], tok[128];

	*state = &w;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (world_init(&w, &matrix) < 0)
		return -1;
	fakemx_user(&w.mx, "bot", "widget-pw", tok, sizeof tok);
	fakemx_user(&w.mx, "ann", "x", ann, sizeof ann);
	snprintf(pw, sizeof pw, "%s/pw", w.dir);
	snprintf(text, sizeof text,
	         "[matrix t]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 2\n\n"
	         "[web test]\nlisten = 127.0.0.1:%d\n",
	         w.mx.base, pw, ircserver_free_port());
	e2e_secret_note("widget-pw");
	world_conf(&w, "ai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\n", text);
	return e2e_write_file(pw, "widget-pw\n");
}

static void
test_widget_where_the_bot_may(void **state)
{
	char room[256], low[256], deal[2048], url[512], body[2048];
	const char *at;
	json_t *ws, *first, *last;

	(void)state;
	/* ann's room gives the bot 50 (state_default: it may set state); the other leaves it at 0 */
	assert_int_equal(fakemx_room(&w.mx, ann, "{\"invite\":[\"@bot:hs\"],\"power_level_content_override\":"
	                             "{\"users\":{\"@ann:hs\":100,\"@bot:hs\":50}}}", room, sizeof room), 0);
	assert_int_equal(fakemx_room(&w.mx, ann, "{\"invite\":[\"@bot:hs\"]}", low, sizeof low), 0);
	world_daemon(&w, "e2e-matrix-web");
	assert_int_equal(e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000), 0);
	/* the bot joins both rooms from its invites and reads their power
	 * levels in the syncs after "up"; the fake's 2 s long-poll paces them */
	e2e_sleep_ms(2000);

	play(room, deal, sizeof deal);
	assert_true(widget_emptied(room, 15000));
	assert_non_null(at = strstr(deal, "Watch: "));
	snprintf(url, sizeof url, "%.*s", (int)strcspn(at + 7, " \n"), at + 7);
	assert_non_null(strstr(url, "/t/"));
	/* set with the deal (the table's public page, as in the line), emptied at the end */
	ws = widgets(room);
	assert_true(json_array_size(ws) >= 2);
	first = json_array_get(ws, 0);
	last = json_array_get(ws, json_array_size(ws) - 1);
	assert_string_equal(json_string_value(json_object_get(first, "type")), "m.custom");
	assert_string_equal(json_string_value(json_object_get(first, "url")), url);
	assert_non_null(json_object_get(first, "name"));
	assert_true(json_is_object(json_object_get(first, "data")));
	assert_int_equal(json_object_size(last), 0);
	/* every one of them is the table's link: no seat's */
	for (size_t i = 0; i + 1 < json_array_size(ws); i++)
		assert_string_equal(json_string_value(json_object_get(json_array_get(ws, i), "url")), url);
	json_decref(ws);

	/* after a restart (the levels kept: the sync tells only what changes) the next deal sets it again */
	world_daemon_stop(&w);
	world_daemon(&w, "e2e-matrix-web");
	assert_int_equal(e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000), 0);
	/* its first sync after the restart, on the fake's long-poll */
	e2e_sleep_ms(1000);
	play(room, deal, sizeof deal);
	/* the second game's widgets: set, then emptied */
	for (int t = 0; t < 150 && (ws = widgets(room), json_array_size(ws) < 4); t++) {
		json_decref(ws);
		e2e_sleep_ms(100);
	}
	json_decref(ws);
	assert_true(widget_emptied(room, 15000));
	ws = widgets(room);
	assert_true(json_array_size(ws) >= 4);
	assert_non_null(json_object_get(json_array_get(ws, json_array_size(ws) - 2), "url"));
	assert_int_equal(json_object_size(json_array_get(ws, json_array_size(ws) - 1)), 0);
	json_decref(ws);

	/* where the bot's level is below state_default: no widget, the link in the line only */
	play(low, body, sizeof body);
	/* nothing must come: a widget set with the deal or emptied at the end
	 * would have been sent around "Game over"; 1 s gives it its chance */
	e2e_sleep_ms(1000);
	assert_non_null(strstr(body, "Watch: "));
	ws = widgets(low);
	assert_int_equal(json_array_size(ws), 0);
	json_decref(ws);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widget_where_the_bot_may),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
