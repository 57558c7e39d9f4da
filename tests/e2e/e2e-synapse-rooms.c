/* e2e-synapse-rooms.c: the real daemon on a real Synapse: a moderator's !abort by power level, invites, leaves and rejoins, history said before the bot came in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "synapse-bot.h"
#include "synapse.h"

/* u says text in room; the bot's answer holding want comes within 60 s
 * (the bot's messages at Synapse's rc_message may wait their turn). */
static void
say_expect(struct synapse *s, const struct synapse_bot *b, const struct synapse_user *u, const char *room,
           const char *text, const char *want)
{
	int before = synapse_readable(s, u->token, room, b->u.id, want);

	assert_int_equal(synapse_say(s, u->token, room, text), 0);
	if (!synapse_wait_readable(s, u->token, room, b->u.id, want, before + 1, 60000))
		fail_msg("no \"%s\" after %s said \"%s\" (daemon log: %s)", want, u->localpart, text, b->d.log);
}

/* A room of owner's with the bot and the others (joined), the bot in it. */
static void
room_with(struct synapse *s, const struct synapse_bot *b, const struct synapse_user *owner,
          const struct synapse_user *others, int n, char *room, size_t len)
{
	char body[1024];
	size_t o = (size_t)snprintf(body, sizeof body, "{\"invite\":[\"%s\"", b->u.id);

	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(body + o, sizeof body - o, ",\"%s\"", others[i].id);
	snprintf(body + o, sizeof body - o, "]}");
	assert_int_equal(synapse_create_room(s, owner->token, body, room, len), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(synapse_room_post(s, others[i].token, room, "join", NULL), 200);
	assert_true(synapse_wait_membership(s, owner->token, room, b->u.id, "join", 30000));
}

/* The room's power levels as Synapse made them, with user at level (as token's user); the HTTP status. */
static long
set_level(struct synapse *s, const char *token, const char *room, const char *user, int level)
{
	json_t *pl = synapse_state(s, token, room, "m.room.power_levels", "");
	char *body;
	long st;

	assert_non_null(pl);
	json_object_set_new(json_object_get(pl, "users"), user, json_integer(level));
	body = json_dumps(pl, JSON_COMPACT);
	st = synapse_put_state(s, token, room, "m.room.power_levels", "", body);
	free(body);
	json_decref(pl);
	return st;
}

/* ann made the room (100); bob opens a table; cy, a member, cannot end it,
 * ann can; cy cannot raise herself; raised to 50 (kick and redact) by ann
 * she can; lowered, she cannot. */
static void
test_moderator_abort_by_power_level(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann, m[2];
	char room[256];

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	assert_int_equal(synapse_register(s, "bob", false, &m[0]), 0);
	assert_int_equal(synapse_register(s, "cy", false, &m[1]), 0);
	assert_int_equal(synapse_bot_start(s, &b, "e2e-synapse-rooms", NULL, NULL), 0);
	room_with(s, &b, &ann, m, 2, room, sizeof room);

	say_expect(s, &b, &m[0], room, "!play 2 duel", "Dealing duel");
	say_expect(s, &b, &m[1], room, "!abort", "only the table's owner or its players can end it.");
	say_expect(s, &b, &ann, room, "!abort", "a moderator of the room.");
	assert_int_equal(set_level(s, m[1].token, room, m[1].id, 50), 403);
	assert_int_equal(set_level(s, ann.token, room, m[1].id, 50), 200);
	say_expect(s, &b, &m[0], room, "!play 2 duel", "Dealing duel");
	say_expect(s, &b, &m[1], room, "!abort", "ended by cy");
	assert_int_equal(set_level(s, ann.token, room, m[1].id, 0), 200);
	say_expect(s, &b, &m[0], room, "!play 2 duel", "Dealing duel");
	say_expect(s, &b, &m[1], room, "!abort", "only the table's owner or its players can end it.");
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

/* What was said in a room before the bot came in is history: the bot
 * joins, acts on none of it and says nothing about it; then it answers. */
static void
test_history_before_the_invite(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann, bob;
	char room[256], body[256];

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	assert_int_equal(synapse_register(s, "bob", false, &bob), 0);
	assert_int_equal(synapse_bot_start(s, &b, "e2e-synapse-rooms", NULL, NULL), 0);
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"]}", bob.id);
	assert_int_equal(synapse_create_room(s, ann.token, body, room, sizeof room), 0);
	assert_int_equal(synapse_room_post(s, bob.token, room, "join", NULL), 200);
	assert_int_equal(synapse_say(s, bob.token, room, "!play 2 duel"), 0);
	assert_int_equal(synapse_say(s, ann.token, room, "!help"), 0);
	assert_int_equal(synapse_invite(s, ann.token, room, b.u.id), 200);
	assert_true(synapse_wait_membership(s, ann.token, room, b.u.id, "join", 30000));
	say_expect(s, &b, &bob, room, "!play 2 duel", "Dealing duel");
	assert_int_equal(synapse_readable(s, ann.token, room, b.u.id, "Dealing"), 1);
	assert_int_equal(synapse_readable(s, ann.token, room, b.u.id, "I missed part"), 0);
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

/* A player leaves the room their hands go to: the bot drops it and tells
 * the game room; the player opens a direct chat with the bot (history hidden,
 * not encrypted): the bot takes it and their hand comes there.  A third
 * person invited into a hand room: the bot leaves it at the invite.  The
 * bot kicked from the game room and invited back rejoins and plays on. */
static void
test_invites_leaves_and_rejoins(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann, bob, eve;
	char room[256], dm[256], own[256], body[1024];

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	assert_int_equal(synapse_register(s, "bob", false, &bob), 0);
	assert_int_equal(synapse_register(s, "eve", false, &eve), 0);
	assert_int_equal(synapse_bot_start(s, &b, "e2e-synapse-rooms", NULL, NULL), 0);
	room_with(s, &b, &ann, &bob, 1, room, sizeof room);
	say_expect(s, &b, &ann, room, "!play 2 duel", "Dealing duel");
	{
		json_t *d;

		for (int t = 0; t < 600; t++) {
			d = synapse_account_data(s, &b.u, "m.direct");
			snprintf(dm, sizeof dm, "%s", json_string_value(json_array_get(json_object_get(d, ann.id), 0)) ?: "");
			json_decref(d);
			if (dm[0] != '\0')
				break;
			e2e_sleep_ms(100);
		}
	}
	assert_string_not_equal(dm, "");
	assert_int_equal(synapse_room_post(s, ann.token, dm, "join", NULL), 200);
	assert_true(synapse_wait_readable(s, ann.token, dm, b.u.id, "Your hand", 1, 60000));

	/* ann leaves it: the bot drops it (and leaves) */
	assert_int_equal(synapse_room_post(s, ann.token, dm, "leave", NULL), 200);
	assert_true(synapse_wait_membership(s, b.u.token, dm, b.u.id, "leave", 30000));
	/* her own direct chat, history hidden from later members */
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"],\"is_direct\":true,\"preset\":\"trusted_private_chat\","
	         "\"initial_state\":[{\"type\":\"m.room.history_visibility\",\"state_key\":\"\","
	         "\"content\":{\"history_visibility\":\"joined\"}}]}", b.u.id);
	assert_int_equal(synapse_create_room(s, ann.token, body, own, sizeof own), 0);
	assert_true(synapse_wait_membership(s, ann.token, own, b.u.id, "join", 30000));
	assert_int_equal(synapse_say(s, ann.token, room, "!hand"), 0);
	assert_true(synapse_wait_readable(s, ann.token, own, b.u.id, "Your hand", 1, 60000));
	/* eve invited into it: the bot leaves at the invite, eve reads no hand */
	assert_int_equal(synapse_invite(s, ann.token, own, eve.id), 200);
	assert_true(synapse_wait_membership(s, ann.token, own, b.u.id, "leave", 30000));
	assert_int_equal(synapse_room_post(s, eve.token, own, "join", NULL), 200);
	assert_int_equal(synapse_readable(s, eve.token, own, NULL, "Your hand"), 0);

	/* the bot kicked from the game room, then invited back: it rejoins and
	 * the table is still there */
	snprintf(body, sizeof body, "{\"user_id\":\"%s\"}", b.u.id);
	assert_int_equal(synapse_room_post(s, ann.token, room, "kick", body), 200);
	assert_true(synapse_wait_membership(s, ann.token, room, b.u.id, "leave", 5000));
	assert_int_equal(synapse_invite(s, ann.token, room, b.u.id), 200);
	assert_true(synapse_wait_membership(s, ann.token, room, b.u.id, "join", 30000));
	say_expect(s, &b, &bob, room, "!who", "to play");
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moderator_abort_by_power_level),
		cmocka_unit_test(test_history_before_the_invite),
		cmocka_unit_test(test_invites_leaves_and_rejoins),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
