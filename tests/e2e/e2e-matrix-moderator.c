/* e2e-matrix-moderator.c: the real daemon through the fake homeserver: a user at the room's kick/redact power level ends a stranger's table, across a restart; others cannot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "e2e.h"
#include "fakemx.h"
#include "world.h"

static struct world w;           /* the fake homeserver is w.mx */
static char room[256], ann[128], bob[128], cy[128];

/* token says text in the room; the bot's answer holding want comes within 20 s. */
static void
say_expect(const char *token, const char *who, const char *text, const char *want)
{
	int before = fakemx_bot_says(&w.mx, room, want);

	assert_int_equal(fakemx_say(&w.mx, token, room, text), 0);
	for (int t = 0; t < 200; t++) {
		if (fakemx_bot_says(&w.mx, room, want) > before)
			return;
		e2e_sleep_ms(100);
	}
	print_error("no \"%s\" after %s said \"%s\" (daemon log: %s)\n", want, who, text, w.d.log);
	fail();
}

/* The room's power levels as Synapse makes them, with cy at level. */
static long
power(const char *token, int cy_level)
{
	char path[512], body[1024], *e = curl_easy_escape(NULL, room, 0);
	long status = 0;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state/m.room.power_levels", e);
	curl_free(e);
	snprintf(body, sizeof body,
	         "{\"users\":{\"@ann:hs\":100,\"@cy:hs\":%d},\"users_default\":0,\"events_default\":0,"
	         "\"state_default\":50,\"ban\":50,\"kick\":50,\"redact\":50,\"invite\":0,"
	         "\"events\":{\"m.room.power_levels\":100}}", cy_level);
	json_decref(fakemx_call(&w.mx, "PUT", path, token, body, &status));
	return status;
}

static void
daemon_up(void)
{
	assert_int_equal(e2e_daemon_start(&w.d, "e2e-matrix-moderator", w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000), 0);
}

static int
setup(void **state)
{
	static const struct world_spec matrix = { .matrix = true };
	char pw[300], text[1024], tok[128], m[32];

	*state = &w;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (world_init(&w, &matrix) < 0)
		return -1;
	fakemx_user(&w.mx, "bot", "mod-pw", tok, sizeof tok);
	fakemx_user(&w.mx, "ann", "x", ann, sizeof ann);
	fakemx_user(&w.mx, "bob", "x", bob, sizeof bob);
	fakemx_user(&w.mx, "cy", "x", cy, sizeof cy);
	snprintf(pw, sizeof pw, "%s/pw", w.dir);
	snprintf(text, sizeof text, "[matrix t]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 2\n",
	         w.mx.base, pw);
	e2e_secret_note("mod-pw");
	world_conf(&w, "ai_delay = 0\nturn_reminder = 0\n", text);
	if (e2e_write_file(pw, "mod-pw\n") < 0)
		return -1;
	/* ann's room: she made it, so she is at 100 */
	if (fakemx_room(&w.mx, ann, "{\"invite\":[\"@bot:hs\",\"@bob:hs\",\"@cy:hs\"]}", room, sizeof room) < 0 ||
	    fakemx_room_post(&w.mx, bob, room, "join", "{}") != 200 || fakemx_room_post(&w.mx, cy, room, "join", "{}") != 200)
		return -1;
	daemon_up();
	for (int t = 0; t < 200; t++) {
		fakemx_membership(&w.mx, room, "@bot:hs", m, sizeof m);
		if (strcmp(m, "join") == 0)
			return 0;
		e2e_sleep_ms(100);
	}
	return -1;
}

static void
test_power_levels_moderate(void **state)
{
	(void)state;
	e2e_sleep_ms(500);   /* what was said before the bot was in is history */

	/* the room's creator ends bob's table; cy, a plain member, cannot */
	say_expect(bob, "bob", "!play 2 duel", "Dealing duel");
	say_expect(cy, "cy", "!abort", "cy: only the table's owner or its players can end it.");
	say_expect(ann, "ann", "!abort", "The game is over: ended by ann, a moderator of the room.");

	/* the fake refuses what a homeserver refuses: cy cannot raise herself */
	assert_int_equal(power(cy, 50), 403);
	/* at 50 (the room's kick and redact level) she can */
	assert_int_equal(power(ann, 50), 200);
	say_expect(bob, "bob", "!play 2 duel", "Dealing duel");
	say_expect(cy, "cy", "!abort", "ended by cy, a moderator of the room.");

	/* a restart resumes the sync, which tells only what changes: the
	 * levels were kept */
	e2e_daemon_signal(&w.d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(&w.d, 10000), 0);
	daemon_up();
	say_expect(bob, "bob", "!play 2 duel", "Dealing duel");
	say_expect(cy, "cy", "!abort", "ended by cy, a moderator of the room.");

	/* lowered again, she is a member like any other */
	assert_int_equal(power(ann, 0), 200);
	say_expect(bob, "bob", "!play 2 duel", "Dealing duel");
	say_expect(cy, "cy", "!abort", "cy: only the table's owner or its players can end it.");
	say_expect(bob, "bob", "!abort", "The game is over: ended by bob.");
}

/* The room is upgraded mid-game: the bot follows the tombstone (invited to
 * the new room, as Element offers), the table goes on there, both rooms are
 * told; the old room then refuses the bot (the upgrade raised its
 * events_default), which the daemon notes. */
static void
test_room_upgrade_moves_the_table(void **state)
{
	char path[512], nroom[256], m[32], *e;
	json_t *j;
	int t;

	(void)state;
	say_expect(bob, "bob", "!play 2 duel", "Dealing duel");
	e = curl_easy_escape(NULL, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/upgrade", e);
	curl_free(e);
	j = fakemx_call(&w.mx, "POST", path, ann, "{\"new_version\":\"12\"}", NULL);
	assert_non_null(json_string_value(json_object_get(j, "replacement_room")));
	snprintf(nroom, sizeof nroom, "%s", json_string_value(json_object_get(j, "replacement_room")));
	json_decref(j);
	assert_int_equal(fakemx_room_post(&w.mx, ann, nroom, "invite", "{\"user_id\":\"@bot:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&w.mx, ann, nroom, "invite", "{\"user_id\":\"@bob:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&w.mx, bob, nroom, "join", "{}"), 200);
	for (t = 0; t < 200 && fakemx_bot_says(&w.mx, nroom, "The table moved here") == 0; t++)
		e2e_sleep_ms(100);
	assert_int_equal(fakemx_bot_says(&w.mx, nroom, "The table moved here"), 1);
	fakemx_membership(&w.mx, nroom, "@bot:hs", m, sizeof m);
	assert_string_equal(m, "join");
	/* the game answers in the new room */
	snprintf(room, sizeof room, "%s", nroom);
	say_expect(bob, "bob", "!abort", "The game is over: ended by bob.");
}

/* The room stops letting the bot speak (its power level below
 * events_default): each refused line is a room-level BOT_EV_SEND_FAILED, and
 * the table's owner is told, privately, once. */
static void
test_refused_room_tells_the_owner(void **state)
{
	char path[512], dm[256] = "", *e;
	json_t *j;
	long st = 0;
	int t;

	(void)state;
	/* the room of the test before (upgraded): cy comes in too */
	fakemx_room_post(&w.mx, ann, room, "invite", "{\"user_id\":\"@cy:hs\"}");
	fakemx_room_post(&w.mx, cy, room, "join", "{}");
	say_expect(cy, "cy", "!play 2 duel", "Dealing duel");
	e = curl_easy_escape(NULL, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state/m.room.power_levels", e);
	curl_free(e);
	json_decref(fakemx_call(&w.mx, "PUT", path, ann,
	                        "{\"users\":{\"@ann:hs\":100,\"@cy:hs\":50},\"users_default\":0,\"events_default\":50,"
	                        "\"state_default\":50,\"ban\":50,\"kick\":50,\"redact\":50,\"invite\":0,"
	                        "\"events\":{\"m.room.power_levels\":100}}", &st));
	assert_int_equal(st, 200);
	assert_int_equal(fakemx_say(&w.mx, cy, room, "!who"), 0);
	/* cy, the owner, gets a direct chat with the why */
	for (t = 0; t < 200 && dm[0] == '\0'; t++) {
		j = fakemx_call(&w.mx, "GET", "/_fake/rooms", NULL, NULL, NULL);
		dm[0] = '\0';
		{
			const char *rid;
			json_t *r;

			json_object_foreach(json_object_get(j, "rooms"), rid, r) {
				const char *m = json_string_value(json_object_get(json_object_get(r, "members"), "@cy:hs"));

				if (m != NULL && strcmp(m, "invite") == 0 && strcmp(rid, room) != 0)
					snprintf(dm, sizeof dm, "%s", rid);
			}
		}
		json_decref(j);
		if (dm[0] == '\0')
			e2e_sleep_ms(100);
	}
	assert_string_not_equal(dm, "");
	assert_int_equal(fakemx_room_post(&w.mx, cy, dm, "join", "{}"), 200);
	for (t = 0; t < 200 && fakemx_bot_says(&w.mx, dm, "cannot be followed") == 0; t++)
		e2e_sleep_ms(100);
	assert_int_equal(fakemx_bot_says(&w.mx, dm, "cannot be followed"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power_levels_moderate),
		cmocka_unit_test(test_room_upgrade_moves_the_table),
		cmocka_unit_test(test_refused_room_tells_the_owner),
	};

	return cmocka_run_group_tests_name("moderators on Matrix (fake homeserver)", tests, setup, world_end_state);
}
