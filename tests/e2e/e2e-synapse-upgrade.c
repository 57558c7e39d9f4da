/* e2e-synapse-upgrade.c: the real daemon on a real Synapse (default rate limits): a game room upgraded with Synapse's own POST /rooms/{id}/upgrade; the table moves before any command in the new room is read, and a command said there at once plays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "synapse-bot.h"
#include "synapse.h"

struct upg {
	struct synapse *s;
	struct synapse_bot b;
	struct synapse_user ann, bob;
	char room[256], nroom[256];
};

/* How many of the bot's lines, in every room it is in (a refusal goes to
 * the player's direct room), contain needle: read back as the bot's own
 * account, through the client-server API. */
static int
bot_says_anywhere(struct upg *u, const char *needle)
{
	json_t *j = synapse_call(u->s, "GET", "/_matrix/client/v3/joined_rooms", u->b.u.token, NULL, NULL), *r;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(j, "joined_rooms"), i, r)
		n += synapse_readable(u->s, u->b.u.token, json_string_value(r), u->b.u.id, needle);
	json_decref(j);
	return n;
}

/* ann's game room, bob and the bot in it, bob's duel dealt. */
static void
game_room(struct upg *u)
{
	char body[512];

	assert_int_equal(synapse_register(u->s, "ann", false, &u->ann), 0);
	assert_int_equal(synapse_register(u->s, "bob", false, &u->bob), 0);
	snprintf(body, sizeof body, "{\"preset\":\"private_chat\",\"name\":\"cards\",\"invite\":[\"%s\",\"%s\"]}",
	         u->b.u.id, u->bob.id);
	assert_int_equal(synapse_create_room(u->s, u->ann.token, body, u->room, sizeof u->room), 0);
	assert_int_equal(synapse_room_post(u->s, u->bob.token, u->room, "join", NULL), 200);
	assert_true(synapse_wait_membership(u->s, u->ann.token, u->room, u->b.u.id, "join", 30000));
	assert_int_equal(synapse_say(u->s, u->bob.token, u->room, "!play 2 duel"), 0);
	assert_true(synapse_wait_readable(u->s, u->bob.token, u->room, u->b.u.id, "Dealing duel", 1, 60000));
}

/* ann upgrades the room with Synapse's own endpoint (what Element's
 * /upgrade calls) and invites bob and the bot to the new room (as Element
 * offers: Synapse invites nobody); bob joins. */
static void
upgrade(struct upg *u)
{
	char path[512], *e = curl_easy_escape(NULL, u->room, 0);
	long st = 0;
	json_t *j;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/upgrade", e);
	curl_free(e);
	j = synapse_call(u->s, "POST", path, u->ann.token, "{\"new_version\":\"10\"}", &st);
	assert_int_equal(st, 200);
	assert_non_null(json_string_value(json_object_get(j, "replacement_room")));
	snprintf(u->nroom, sizeof u->nroom, "%s", json_string_value(json_object_get(j, "replacement_room")));
	json_decref(j);
	assert_int_equal(synapse_invite(u->s, u->ann.token, u->nroom, u->b.u.id), 200);
	assert_int_equal(synapse_invite(u->s, u->ann.token, u->nroom, u->bob.id), 200);
	assert_int_equal(synapse_room_post(u->s, u->bob.token, u->nroom, "join", NULL), 200);
}

/* bob's command in the new room played there; the table moved there before
 * it was read, and nobody was told there is no table. */
static void
played(struct upg *u)
{
	json_t *evs;
	size_t i;
	const json_t *ev;
	int moved = -1, over = -1;
	char want[160];

	/* Synapse names a user registered without one by their localpart */
	snprintf(want, sizeof want, "The game is over: ended by %s.", u->bob.localpart);

	if (!synapse_wait_readable(u->s, u->bob.token, u->nroom, u->b.u.id, want, 1, 60000)) {
		/* what the bot read and said, for the reader of the failure */
		json_t *j = synapse_call(u->s, "GET", "/_matrix/client/v3/joined_rooms", u->b.u.token, NULL, NULL), *r;

		json_array_foreach(json_object_get(j, "joined_rooms"), i, r) {
			evs = synapse_messages(u->s, u->b.u.token, json_string_value(r));
			print_error("%s (the bot's log: %s):\n", json_string_value(r), u->b.d.log);
			for (size_t k = 0; k < json_array_size(evs); k++) {
				ev = json_array_get(evs, k);
				print_error("  %s %s: %s\n", json_string_value(json_object_get(ev, "sender")),
				            json_string_value(json_object_get(ev, "type")),
				            json_string_value(json_object_get(json_object_get(ev, "content"), "body")));
			}
			json_decref(evs);
		}
		json_decref(j);
		fail_msg("the bot did not play bob's command in %s", u->nroom);
	}
	evs = synapse_messages(u->s, u->bob.token, u->nroom);
	json_array_foreach(evs, i, ev) {
		const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
		const char *who = json_string_value(json_object_get(ev, "sender"));

		if (body == NULL || who == NULL || strcmp(who, u->b.u.id) != 0)
			continue;
		if (moved < 0 && strstr(body, "The table moved here") != NULL)
			moved = (int)i;
		if (over < 0 && strstr(body, want) != NULL)
			over = (int)i;
	}
	json_decref(evs);
	assert_true(moved >= 0);
	assert_true(moved < over);
	assert_int_equal(bot_says_anywhere(u, "no table here"), 0);
}

static struct upg *
start(void **state, const char *tag)
{
	struct upg *u = calloc(1, sizeof *u);

	assert_non_null(u);
	u->s = *state;
	/* bob says two commands in a few seconds: no flood limit in the way */
	assert_int_equal(synapse_bot_start(u->s, &u->b, tag, "flood_burst = 100\n", NULL), 0);
	return u;
}

static void
end(struct upg *u)
{
	assert_int_equal(synapse_bot_stop(&u->b), 0);
	synapse_bot_end(&u->b);
	free(u);
}

/* The daemon running: bob says his command as soon as he is in the new
 * room, most likely before the bot is (the history is shared, so the bot
 * reads it once in). */
static void
test_upgrade_while_running(void **state)
{
	struct upg *u = start(state, "e2e-synapse-upgrade");

	game_room(u);
	upgrade(u);
	assert_int_equal(synapse_say(u->s, u->bob.token, u->nroom, "!abort"), 0);
	played(u);
	end(u);
}

/* The daemon down meanwhile: the upgrade, the bot's account joining the new
 * room (from another device: its operator's client, say) and bob's command
 * there all come in the first sync after the restart. */
static void
test_upgrade_while_down(void **state)
{
	struct upg *u = start(state, "e2e-synapse-upgrade-down");
	char body[512];
	json_t *j;
	long st = 0;
	const char *tok;

	game_room(u);
	assert_int_equal(synapse_bot_stop(&u->b), 0);
	upgrade(u);
	snprintf(body, sizeof body, "{\"type\":\"m.login.password\",\"identifier\":{\"type\":\"m.id.user\",\"user\":\"%s\"},"
	         "\"password\":\"%s\",\"device_id\":\"OPERATOR\"}", u->b.u.localpart, u->b.u.password);
	j = synapse_call(u->s, "POST", "/_matrix/client/v3/login", NULL, body, &st);
	assert_int_equal(st, 200);
	tok = json_string_value(json_object_get(j, "access_token"));
	assert_non_null(tok);
	assert_int_equal(synapse_room_post(u->s, tok, u->nroom, "join", NULL), 200);
	json_decref(j);
	assert_int_equal(synapse_say(u->s, u->bob.token, u->nroom, "!abort"), 0);
	assert_int_equal(synapse_bot_restart(&u->b), 0);
	played(u);
	end(u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upgrade_while_running),
		cmocka_unit_test(test_upgrade_while_down),
	};

	return cmocka_run_group_tests_name("room upgrades on Synapse", tests, synapse_group_setup,
	                                   synapse_group_teardown);
}
