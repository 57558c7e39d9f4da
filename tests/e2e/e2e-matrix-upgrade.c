/* e2e-matrix-upgrade.c: the real daemon through the fake homeserver: a game room upgraded, and a command said at once in the new room plays there (the table moved before the bot reads it), however the sync batches what happened. */
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
#include "world.h"

static struct world w;           /* the fake homeserver is w.mx */
static char room[256], ann[128], bob[128];
static char other[128];          /* another client of the bot's account (its operator's Element, say) */

/* Waits up to 20 s for the bot to say want in r (more times than before). */
static void
wait_says(const char *r, const char *want, int before)
{
	for (int t = 0; t < 200; t++) {
		if (fakemx_bot_says(&w.mx, r, want) > before)
			return;
		e2e_sleep_ms(100);
	}
	print_error("the bot never said \"%s\" in %s (daemon log: %s); the room's timeline:\n", want, r, w.d.log);
	{
		json_t *evs = fakemx_events(&w.mx, r), *ev;
		size_t i;

		json_array_foreach(evs, i, ev)
			print_error("  %s %s: %s\n", json_string_value(json_object_get(ev, "sender")),
			            json_string_value(json_object_get(ev, "type")),
			            json_string_value(json_object_get(json_object_get(ev, "content"), "body")));
		json_decref(evs);
	}
	fail();
}

static void
say_expect(const char *token, const char *r, const char *text, const char *want)
{
	int before = fakemx_bot_says(&w.mx, r, want);

	assert_int_equal(fakemx_say(&w.mx, token, r, text), 0);
	wait_says(r, want, before);
}

static void
control(const char *path, const char *body)
{
	long st = 0;

	json_decref(fakemx_call(&w.mx, "POST", path, NULL, body, &st));
	assert_int_equal(st, 200);
}

/* ann upgrades the game room (POST /upgrade, as Element's /upgrade does)
 * and invites bob and the bot to the new room, which bob joins; its id in nroom. */
static void
upgrade(char *nroom, size_t len)
{
	char path[512], *e = curl_easy_escape(NULL, room, 0);
	json_t *j;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/upgrade", e);
	curl_free(e);
	j = fakemx_call(&w.mx, "POST", path, ann, "{\"new_version\":\"10\"}", NULL);
	assert_non_null(json_string_value(json_object_get(j, "replacement_room")));
	snprintf(nroom, len, "%s", json_string_value(json_object_get(j, "replacement_room")));
	json_decref(j);
	assert_int_equal(fakemx_room_post(&w.mx, ann, nroom, "invite", "{\"user_id\":\"@bot:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&w.mx, ann, nroom, "invite", "{\"user_id\":\"@bob:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&w.mx, bob, nroom, "join", "{}"), 200);
}

/* How many of the bot's messages, in every room (refusals go to the
 * player's direct room), contain needle. */
static int
says_anywhere(const char *needle)
{
	json_t *j = fakemx_call(&w.mx, "GET", "/_fake/rooms", NULL, NULL, NULL), *r;
	const char *id;
	int n = 0;

	json_object_foreach(json_object_get(j, "rooms"), id, r)
		n += fakemx_bot_says(&w.mx, id, needle);
	json_decref(j);
	return n;
}

/* The command said in the new room played there: the table moved there
 * first, and bob was not told there is no table. */
static void
played_in(const char *nroom)
{
	wait_says(nroom, "The game is over: ended by bob.", 0);
	assert_int_equal(fakemx_bot_says(&w.mx, nroom, "The table moved here"), 1);
	assert_int_equal(says_anywhere("no table here"), 0);
}

/* A new game room of ann's, bob and the bot in it. */
static void
fresh_room(void)
{
	char m[32] = "";

	assert_int_equal(fakemx_room(&w.mx, ann, "{\"invite\":[\"@bot:hs\",\"@bob:hs\"]}", room, sizeof room), 0);
	assert_int_equal(fakemx_room_post(&w.mx, bob, room, "join", "{}"), 200);
	for (int t = 0; t < 200 && strcmp(m, "join") != 0; t++) {
		e2e_sleep_ms(100);
		fakemx_membership(&w.mx, room, "@bot:hs", m, sizeof m);
	}
	assert_string_equal(m, "join");
}

static int
setup(void **state)
{
	static const struct world_spec matrix = { .matrix = true };
	char pw[300], text[1024], tok[128];
	json_t *j;

	*state = &w;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (world_init(&w, &matrix) < 0)
		return -1;
	fakemx_user(&w.mx, "bot", "upg-pw", tok, sizeof tok);
	fakemx_user(&w.mx, "ann", "x", ann, sizeof ann);
	fakemx_user(&w.mx, "bob", "x", bob, sizeof bob);
	/* the account's other client, on a device of its own */
	j = fakemx_call(&w.mx, "POST", "/_matrix/client/v3/login", NULL,
	                "{\"type\":\"m.login.password\",\"identifier\":{\"type\":\"m.id.user\",\"user\":\"bot\"},"
	                "\"password\":\"upg-pw\",\"device_id\":\"ELEMENT\"}", NULL);
	snprintf(other, sizeof other, "%s", json_string_value(json_object_get(j, "access_token")) != NULL ?
	         json_string_value(json_object_get(j, "access_token")) : "");
	json_decref(j);
	snprintf(pw, sizeof pw, "%s/pw", w.dir);
	snprintf(text, sizeof text, "[matrix t]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 2\n",
	         w.mx.base, pw);
	e2e_secret_note("upg-pw");
	/* bob says a command or two per test, faster than a person: no flood limit here */
	world_conf(&w, "ai_delay = 0\nturn_reminder = 0\nflood_burst = 100\n", text);
	if (other[0] == '\0' || e2e_write_file(pw, "upg-pw\n") < 0)
		return -1;
	if (e2e_daemon_start(&w.d, "e2e-matrix-upgrade", w.conf, NULL) < 0 ||
	    e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000) < 0)
		return -1;
	return 0;
}

/* The bot joins the new room, but the answer to its join comes late: the
 * sync shows it in the room, and bob's command there, first.  Found by a
 * new user: "no table here", then "The table moved here". */
static void
test_join_answered_late(void **state)
{
	char nroom[256], m[32];
	int t;

	(void)state;
	fresh_room();
	say_expect(bob, room, "!play 2 duel", "Dealing duel");
	control("/_fake/fail", "{\"method\":\"POST\",\"path\":\"/join\",\"user\":\"@bot:hs\",\"late_ms\":4000,\"count\":4}");
	upgrade(nroom, sizeof nroom);
	for (t = 0; t < 200; t++) {
		fakemx_membership(&w.mx, nroom, "@bot:hs", m, sizeof m);
		if (strcmp(m, "join") == 0)
			break;
		e2e_sleep_ms(100);
	}
	assert_string_equal(m, "join");
	/* the bot is in (its join took effect; the answer is on its way) */
	assert_int_equal(fakemx_say(&w.mx, bob, nroom, "!abort"), 0);
	control("/_fake/clear", "{}");
	played_in(nroom);
}

/* The tombstone, the bot in the new room and bob's command there, all in
 * one sync answer (the bot's sync held meanwhile; its account's other client
 * joined the new room), the rooms listed in either order. */
static void
one_batch(bool reversed)
{
	char nroom[256];

	fresh_room();
	say_expect(bob, room, "!play 2 duel", "Dealing duel");
	control("/_fake/config", reversed ? "{\"hold_sync\":[\"@bot:hs\"],\"rooms_reversed\":true}" :
	                                    "{\"hold_sync\":[\"@bot:hs\"],\"rooms_reversed\":false}");
	upgrade(nroom, sizeof nroom);
	assert_int_equal(fakemx_room_post(&w.mx, other, nroom, "join", "{}"), 200);
	assert_int_equal(fakemx_say(&w.mx, bob, nroom, "!abort"), 0);
	control("/_fake/config", "{\"hold_sync\":[],\"rooms_reversed\":false}");
	played_in(nroom);
}

static void
test_one_batch(void **state)
{
	(void)state;
	one_batch(false);
}

static void
test_one_batch_rooms_reversed(void **state)
{
	(void)state;
	one_batch(true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_answered_late),
		cmocka_unit_test(test_one_batch),
		cmocka_unit_test(test_one_batch_rooms_reversed),
	};

	return cmocka_run_group_tests_name("room upgrades on Matrix (fake homeserver)", tests, setup, world_end_state);
}
