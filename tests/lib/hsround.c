/* hsround.c: a whole round on a real homeserver, two people and two computer players, checked as its users read it back (see hsround.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "cardpick.h"
#include "hsround.h"
#include "synapse-bot.h"

#define BY_HAND 3   /* turns each person plays by hand before handing their seat to the computer */

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

void
hsround_private_stays(struct synapse *s, const struct synapse_user *u, const char *own, const char *seat)
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
		if (seat != NULL && synapse_readable(s, u->token, room, NULL, seat) != 0)
			fail_msg("%s's seat link is in %s", u->id, room);
	}
	json_decref(j);
}

/* Whether body names the player for their turn or asks them ("ann-1-2:
 * your turn (...)", "ann-1-2: may Ada go out?"). */
static bool
names_for_turn(const char *body, const char *name)
{
	char turn[96], ask[96];

	snprintf(turn, sizeof turn, "%s: your turn", name);
	snprintf(ask, sizeof ask, "%s: may ", name);
	return body != NULL && (strstr(body, turn) != NULL || strstr(body, ask) != NULL);
}

/* Every turn ping of user in room (the bot's m.text naming them for their
 * turn or mentioning them in m.mentions: both, or it fails) is in user's
 * /notifications, highlighted as the server's own push rules decided: every
 * one (HSROUND_EVERY_PING), or exactly those whose body is one line
 * (HSROUND_ONE_LINE_PINGS, counted in *one_line); how many there were. */
static int
assert_pings_highlight(struct synapse *s, const struct synapse_user *u, const char *bot, const char *room,
                       enum hsround_highlight hl, int *one_line)
{
	json_t *evs = bot_events(s, u, bot, room), *notes = synapse_notifications(s, u->token), *ev, *n;
	size_t i, k;
	int pings = 0;

	json_array_foreach(evs, i, ev) {
		const char *id = json_string_value(json_object_get(ev, "event_id"));
		const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
		bool found = false, lines = body != NULL && strchr(body, '\n') != NULL;

		if (!mentions_user(ev, u->id) && !names_for_turn(body, u->localpart))
			continue;
		if (!mentions_user(ev, u->id) || !names_for_turn(body, u->localpart))
			fail_msg("the ping %s to %s names them in %s alone: \"%s\"", id, u->id,
			         mentions_user(ev, u->id) ? "m.mentions" : "its text", body);
		pings++;
		assert_string_equal(json_string_value(json_object_get(json_object_get(ev, "content"), "msgtype")), "m.text");
		json_array_foreach(notes, k, n)
			if (strcmp(json_string_value(json_object_get(json_object_get(n, "event"), "event_id")), id) == 0) {
				found = true;
				if (synapse_highlighted(n) != (hl == HSROUND_EVERY_PING || !lines))
					fail_msg("the ping %s to %s (%s) notifies %s a highlight", id, u->id,
					         lines ? "lines" : "one line", synapse_highlighted(n) ? "with" : "without");
			}
		*one_line += !lines;
		if (!found)
			fail_msg("the ping %s to %s is not in their notifications", id, u->id);
	}
	json_decref(evs);
	json_decref(notes);
	return pings;
}

/* The game room as the people see it: where they are in reading it, and how
 * each plays. */
struct table {
	struct synapse *s;
	const struct synapse_bot *b;
	struct synapse_user *p;     /* ann and bob */
	const char *room;
	char dm[2][256];            /* each one's direct room: their hand */
	size_t seen;                /* the bot's room messages read */
	int by_hand[2];             /* turns each played by hand */
	bool automatic[2];          /* handed to the computer (!auto) */
};

enum prompt { PROMPT_OVER, PROMPT_TURN, PROMPT_ASK };

/* Whether body pings for a turn's beginning ("ann: your turn (!draw or
 * !pickup)"); a ping in the middle of a turn ("meld, then discard") is the
 * turn's own. */
static bool
begins_turn(const char *body)
{
	const char *p = strstr(body, "your turn ("), *draw = p != NULL ? strstr(p, "draw") : NULL;

	return draw != NULL && draw < strchr(p, ')');
}

/* The next of the bot's room messages, from t->seen on, that asks a person
 * not on !auto to begin their turn or to answer (which one in *who), or the
 * game's end; fails after 10 min with neither. */
static enum prompt
next_prompt(struct table *t, int *who)
{
	for (int w = 0; w < 6000; w++) {
		json_t *evs = bot_events(t->s, &t->p[0], t->b->u.id, t->room);
		enum prompt got = PROMPT_OVER;
		bool found = false;

		for (; t->seen < json_array_size(evs) && !found; t->seen++) {
			const json_t *ev = json_array_get(evs, t->seen);
			const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

			if (body == NULL)
				continue;
			for (int k = 0; k < 2 && !found; k++) {
				if (t->automatic[k] || !mentions_user(ev, t->p[k].id))
					continue;
				found = strstr(body, "go out?") != NULL || begins_turn(body);
				got = strstr(body, "go out?") != NULL ? PROMPT_ASK : PROMPT_TURN;
				*who = k;
			}
			found = found || strstr(body, "Game over") != NULL;
		}
		json_decref(evs);
		if (found)
			return got;
		e2e_sleep_ms(100);
	}
	fail_msg("no turn ping nor the game's end within 10 minutes");
	return PROMPT_OVER;
}

/* How many of the bot's messages in room u reads, and the newest one's body into out ("" if none). */
static size_t
newest_body(struct synapse *s, const struct synapse_user *u, const char *bot, const char *room, char *out, size_t len)
{
	json_t *evs = bot_events(s, u, bot, room);
	size_t n = json_array_size(evs);
	const char *body = n > 0 ? json_string_value(json_object_get(json_object_get(json_array_get(evs, n - 1), "content"),
	                                                             "body")) : NULL;

	snprintf(out, len, "%s", body != NULL ? body : "");
	json_decref(evs);
	return n;
}

/* Person i's turn by hand: !draw, then, from the hand the bot sends to
 * their direct room for it, a discard a quick human would choose. */
static void
play_turn(struct table *t, int i)
{
	char hand[4096], cmd[32], pick[8] = "";
	size_t before = newest_body(t->s, &t->p[i], t->b->u.id, t->dm[i], hand, sizeof hand);

	assert_int_equal(synapse_say_waiting(t->s, t->p[i].token, t->room, "!draw"), 0);
	for (int w = 0; w < 1200 && pick[0] == '\0'; w++) {
		if (newest_body(t->s, &t->p[i], t->b->u.id, t->dm[i], hand, sizeof hand) > before)
			cardpick_discard(hand, pick, sizeof pick);
		if (pick[0] == '\0')
			e2e_sleep_ms(100);
	}
	if (pick[0] == '\0')
		fail_msg("%s drew, and no hand to discard from came within 2 minutes (last: %s)", t->p[i].id, hand);
	snprintf(cmd, sizeof cmd, "!discard %s", pick);
	assert_int_equal(synapse_say_waiting(t->s, t->p[i].token, t->room, cmd), 0);
	t->by_hand[i]++;
}

void
hsround_play(struct synapse *s, const char *tag, enum hsround_highlight hl)
{
	struct synapse_bot b;
	struct synapse_user p[2];
	char room[256], body[512], other[512];
	struct table t = { .s = s, .b = &b, .p = p, .room = room };
	enum prompt prompt;
	char (*dm)[256] = t.dm;
	int who, pings[2], one_line = 0;

	assert_int_equal(synapse_register(s, "ann", false, &p[0]), 0);
	assert_int_equal(synapse_register(s, "bob", false, &p[1]), 0);
	assert_int_equal(synapse_bot_start(s, &b, tag, NULL, NULL), 0);
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

	/* each, pinged for their turn, plays BY_HAND turns by hand, then hands
	 * their seat to the computer: the round runs to its end */
	t.seen = 0;
	while ((prompt = next_prompt(&t, &who)) != PROMPT_OVER) {
		if (prompt == PROMPT_ASK)
			assert_int_equal(synapse_say_waiting(s, p[who].token, room, "!yes"), 0);
		else if (t.by_hand[who] < BY_HAND)
			play_turn(&t, who);
		else {
			assert_int_equal(synapse_say_waiting(s, p[who].token, room, "!auto"), 0);
			t.automatic[who] = true;
		}
	}
	print_message("turns by hand: %d of ann's, %d of bob's\n", t.by_hand[0], t.by_hand[1]);
	assert_true(t.automatic[0] && t.automatic[1]);
	assert_int_equal(synapse_readable(s, p[1].token, room, b.u.id, "Game over"), 1);

	/* no hand in any room but its owner's, read back as each person; the
	 * other's room is not theirs to read */
	for (int i = 0; i < 2; i++) {
		hsround_private_stays(s, &p[i], dm[i], NULL);
		assert_int_equal(synapse_readable(s, p[i].token, dm[1 - i], NULL, "Your"), 0);
		assert_hand_room(s, &b, dm[i], p[i].id);
	}
	direct_of(s, &b, p[0].id, other, sizeof other);
	assert_string_equal(other, dm[0]);
	/* every turn ping notifies its player, with the highlight the server's
	 * push rules decide */
	for (int i = 0; i < 2; i++) {
		pings[i] = assert_pings_highlight(s, &p[i], b.u.id, room, hl, &one_line);
		/* at least: each turn played by hand, and the one handed over */
		assert_true(pings[i] >= t.by_hand[i] + 1);
	}
	print_message("pings: %d to ann, %d to bob, %d of them one line\n", pings[0], pings[1], one_line);
	/* where only one-line pings highlight, the server's rules are seen to work */
	if (hl == HSROUND_ONE_LINE_PINGS)
		assert_true(one_line > 0);
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}
