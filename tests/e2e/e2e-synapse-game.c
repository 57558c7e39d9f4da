/* e2e-synapse-game.c: the real daemon on a real Synapse (default rate limits): two people and two computer players play a whole round; hands reach their owners alone, turn pings highlight. */
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

/* The bot's messages in room as u reads them back: their events, oldest first (caller decrefs). */
static json_t *
bot_events(struct synapse *s, const struct synapse_user *reader, const char *bot, const char *room)
{
	json_t *evs = synapse_messages(s, reader->token, room), *out = json_array(), *ev;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *who = json_string_value(json_object_get(ev, "sender"));
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (who != NULL && strcmp(who, bot) == 0 && type != NULL && strcmp(type, "m.room.message") == 0)
			json_array_append(out, ev);
	}
	json_decref(evs);
	return out;
}

/* The user ids the event's m.mentions names. */
static const json_t *
mentions(const json_t *ev)
{
	return json_object_get(json_object_get(json_object_get(ev, "content"), "m.mentions"), "user_ids");
}

static bool
mentions_user(const json_t *ev, const char *user)
{
	const json_t *id;
	size_t i;

	json_array_foreach(mentions(ev), i, id)
		if (strcmp(json_string_value(id), user) == 0)
			return true;
	return false;
}

/* The bot's room for user in its m.direct (read back from Synapse as the bot), into out ("" if none). */
static void
direct_of(struct synapse *s, const struct synapse_bot *b, const char *user, char *out, size_t len)
{
	json_t *d = synapse_account_data(s, &b->u, "m.direct");
	const char *r = json_string_value(json_array_get(json_object_get(d, user), 0));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(d);
}

/* Waits (up to 60 s) for the bot to record a direct room for user; its id in out. */
static void
await_direct(struct synapse *s, const struct synapse_bot *b, const char *user, char *out, size_t len)
{
	for (int t = 0; t < 600 && (direct_of(s, b, user, out, len), out[0] == '\0'); t++)
		e2e_sleep_ms(100);
	assert_string_not_equal(out, "");
}

/* A room hands go to, as Synapse keeps it: joined by exactly the bot and
 * player, nobody invited, invite-only, history hidden from later members. */
static void
assert_hand_room(struct synapse *s, const struct synapse_bot *b, const char *room, const char *player)
{
	char got[512], want[512], hv[32];

	snprintf(want, sizeof want, "%s %s", strcmp(b->u.id, player) < 0 ? b->u.id : player,
	         strcmp(b->u.id, player) < 0 ? player : b->u.id);
	synapse_members(s, b->u.token, room, "join", got, sizeof got);
	assert_string_equal(got, want);
	synapse_members(s, b->u.token, room, "invite", got, sizeof got);
	assert_string_equal(got, "");
	synapse_state_str(s, b->u.token, room, "m.room.join_rules", "join_rule", got, sizeof got);
	assert_string_equal(got, "invite");
	synapse_state_str(s, b->u.token, room, "m.room.history_visibility", "history_visibility", hv, sizeof hv);
	assert_true(strcmp(hv, "joined") == 0 || strcmp(hv, "invited") == 0);
	assert_null(synapse_state(s, b->u.token, room, "m.room.encryption", ""));
}

/* How many hands (or feet) u reads back in each room u is in, other than
 * own (its own hand room); none is allowed. */
static void
assert_no_hand_elsewhere(struct synapse *s, const struct synapse_user *u, const char *own)
{
	json_t *j = synapse_call(s, "GET", "/_matrix/client/v3/joined_rooms", u->token, NULL, NULL), *r;
	size_t i;

	assert_non_null(j);
	json_array_foreach(json_object_get(j, "joined_rooms"), i, r) {
		const char *room = json_string_value(r);

		if (strcmp(room, own) == 0)
			continue;
		if (synapse_readable(s, u->token, room, NULL, "Your hand") + synapse_readable(s, u->token, room, NULL, "Your foot") != 0)
			fail_msg("%s reads a hand in %s, not their own room", u->id, room);
	}
	json_decref(j);
}

/* Every turn ping of user in room (the bot's m.text naming them in
 * m.mentions) is in user's /notifications, highlighted as Synapse's own push
 * rules decided; how many there were. */
static int
assert_pings_highlight(struct synapse *s, const struct synapse_user *u, const char *bot, const char *room)
{
	json_t *evs = bot_events(s, u, bot, room), *notes = synapse_notifications(s, u->token), *ev, *n;
	size_t i, k;
	int pings = 0;

	json_array_foreach(evs, i, ev) {
		const char *id = json_string_value(json_object_get(ev, "event_id"));
		bool found = false;

		if (!mentions_user(ev, u->id))
			continue;
		pings++;
		assert_string_equal(json_string_value(json_object_get(json_object_get(ev, "content"), "msgtype")), "m.text");
		json_array_foreach(notes, k, n)
			if (strcmp(json_string_value(json_object_get(json_object_get(n, "event"), "event_id")), id) == 0) {
				found = true;
				if (!synapse_highlighted(n))
					fail_msg("the ping %s to %s notifies without a highlight", id, u->id);
			}
		if (!found)
			fail_msg("the ping %s to %s is not in their notifications", id, u->id);
	}
	json_decref(evs);
	json_decref(notes);
	return pings;
}

/* Until the newest ping in room names a person not yet on !auto, or the
 * game ends: that person's index (0 or 1), -1 at the end; fails after 10 min. */
static int
next_ping(struct synapse *s, const struct synapse_bot *b, struct synapse_user *p, const char *room, bool *automatic)
{
	for (int t = 0; t < 6000; t++) {
		json_t *evs = bot_events(s, &p[0], b->u.id, room);
		size_t n = json_array_size(evs);
		int who = -2;

		for (size_t i = n; i > 0 && who == -2; i--) {
			const json_t *ev = json_array_get(evs, i - 1);
			const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

			if (body != NULL && strstr(body, "Game over") != NULL)
				who = -1;
			for (int k = 0; k < 2 && who == -2; k++)
				if (!automatic[k] && mentions_user(ev, p[k].id))
					who = k;
		}
		json_decref(evs);
		if (who != -2)
			return who;
		e2e_sleep_ms(100);
	}
	fail_msg("no turn ping nor the game's end within 10 minutes");
	return -1;
}

/* ann and bob play classic, four seats (two computer players), one round. */
static void
test_two_people_two_computers_a_whole_round(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user p[2];
	char room[256], body[512], dm[2][256], other[512];
	bool automatic[2] = { false, false };
	int who, pings[2];

	assert_int_equal(synapse_register(s, "ann", false, &p[0]), 0);
	assert_int_equal(synapse_register(s, "bob", false, &p[1]), 0);
	assert_int_equal(synapse_bot_start(s, &b, "e2e-synapse-game", NULL, NULL), 0);
	snprintf(body, sizeof body, "{\"name\":\"cards\",\"invite\":[\"%s\",\"%s\"]}", b.u.id, p[1].id);
	assert_int_equal(synapse_create_room(s, p[0].token, body, room, sizeof room), 0);
	assert_int_equal(synapse_room_post(s, p[1].token, room, "join", NULL), 200);
	assert_true(synapse_wait_membership(s, p[0].token, room, b.u.id, "join", 30000));

	assert_int_equal(synapse_say(s, p[0].token, room, "!new classic rounds=1"), 0);
	assert_true(synapse_wait_readable(s, p[0].token, room, b.u.id, "!start", 1, 30000));
	assert_int_equal(synapse_say(s, p[1].token, room, "!join"), 0);
	assert_true(synapse_wait_readable(s, p[0].token, room, b.u.id, p[1].localpart, 1, 30000));
	assert_int_equal(synapse_say(s, p[0].token, room, "!play 4"), 0);
	assert_true(synapse_wait_readable(s, p[0].token, room, b.u.id, "Dealing classic", 1, 60000));

	/* each person's hand comes in a room the bot makes and records in
	 * m.direct, once they accept its invite */
	for (int i = 0; i < 2; i++) {
		await_direct(s, &b, p[i].id, dm[i], sizeof dm[i]);
		assert_int_equal(synapse_room_post(s, p[i].token, dm[i], "join", NULL), 200);
		assert_true(synapse_wait_readable(s, p[i].token, dm[i], b.u.id, "Your hand", 1, 120000));
		assert_hand_room(s, &b, dm[i], p[i].id);
	}
	assert_string_not_equal(dm[0], dm[1]);

	/* each, pinged for their turn, hands their seat to the computer: the
	 * round runs to its end */
	while ((who = next_ping(s, &b, p, room, automatic)) >= 0) {
		assert_int_equal(synapse_say(s, p[who].token, room, "!auto"), 0);
		automatic[who] = true;
	}
	assert_true(automatic[0] && automatic[1]);
	assert_int_equal(synapse_readable(s, p[1].token, room, b.u.id, "Game over"), 1);

	/* no hand in any room but its owner's, read back as each person; the
	 * other's room is not theirs to read */
	for (int i = 0; i < 2; i++) {
		assert_no_hand_elsewhere(s, &p[i], dm[i]);
		assert_int_equal(synapse_readable(s, p[i].token, dm[1 - i], NULL, "Your"), 0);
		assert_hand_room(s, &b, dm[i], p[i].id);
	}
	direct_of(s, &b, p[0].id, other, sizeof other);
	assert_string_equal(other, dm[0]);
	/* every turn ping highlights its player, as Synapse's push rules decide */
	for (int i = 0; i < 2; i++) {
		pings[i] = assert_pings_highlight(s, &p[i], b.u.id, room);
		assert_true(pings[i] >= 1);
	}
	print_message("pings: %d to ann, %d to bob\n", pings[0], pings[1]);
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_people_two_computers_a_whole_round),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
