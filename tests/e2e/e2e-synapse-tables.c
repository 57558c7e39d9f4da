/* e2e-synapse-tables.c: the real daemon on a real Synapse (default rate limits), with the web table on: a table opened from a direct message in a room the bot makes, and the table's public page as the room widget where the bot's power level allows it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hsround.h"
#include "ircserver.h"
#include "synapse-bot.h"
#include "synapse.h"

#define WIDGET     "im.vector.modular.widgets"
#define WIDGET_KEY "handfoot-table"   /* the state key widget.c writes */
/* The web table's public address, as an operator behind a proxy gives it: links start with it. */
#define BASE_URL   "https://cards.example.org"
#define SEAT_LINK  "keep the link to yourself): "

/* Starts the bot with the web table on (its links under BASE_URL). */
static void
bot_with_web(struct synapse *s, struct synapse_bot *b)
{
	char lines[256];

	snprintf(lines, sizeof lines, "\n[web test]\nlisten = 127.0.0.1:%d\nbase_url = " BASE_URL "\n",
	         ircserver_free_port());
	assert_int_equal(synapse_bot_start(s, b, "e2e-synapse-tables", NULL, lines), 0);
}

/* The first body of the bot's in room (as token's user reads it) holding needle, into out; "" if none. */
static void
bot_body(struct synapse *s, const char *token, const struct synapse_bot *b, const char *room, const char *needle,
         char *out, size_t len)
{
	json_t *evs = synapse_messages(s, token, room), *ev;
	size_t i;

	out[0] = '\0';
	json_array_foreach(evs, i, ev) {
		const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

		if (strcmp(json_string_value(json_object_get(ev, "sender")) ?: "", b->u.id) == 0 && body != NULL &&
		    strstr(body, needle) != NULL) {
			snprintf(out, len, "%s", body);
			break;
		}
	}
	json_decref(evs);
}

/* The link that follows marker in text (up to a space or the end), into out. */
static void
link_after(const char *text, const char *marker, char *out, size_t len)
{
	const char *at = strstr(text, marker);

	assert_non_null(at);
	at += strlen(marker);
	snprintf(out, len, "%.*s", (int)strcspn(at, " \n"), at);
	assert_true(strncmp(out, BASE_URL "/t/", strlen(BASE_URL "/t/")) == 0);
}

/* Waits (60 s) for the bot's m.direct to name a room for user; it in out. */
static void
await_direct(struct synapse *s, const struct synapse_bot *b, const char *user, char *out, size_t len)
{
	for (int t = 0; t < 600; t++) {
		json_t *d = synapse_account_data(s, &b->u, "m.direct");
		const char *r = json_string_value(json_array_get(json_object_get(d, user), 0));

		snprintf(out, len, "%s", r != NULL ? r : "");
		json_decref(d);
		if (out[0] != '\0')
			return;
		e2e_sleep_ms(100);
	}
	fail_msg("the bot made no direct room for %s", user);
}

/* u joins the room the bot made for their hands and reads their hand there; its id in hands, their seat's link in seat. */
static void
hand_room(struct synapse *s, const struct synapse_bot *b, const struct synapse_user *u, char *hands, size_t len,
          char *seat, size_t seatlen)
{
	char body[4096];

	await_direct(s, b, u->id, hands, len);
	assert_int_equal(synapse_room_post(s, u->token, hands, "join", NULL), 200);
	if (!synapse_wait_readable(s, u->token, hands, b->u.id, "Your hand", 1, 90000))
		fail_msg("no hand for %s in %s (daemon log: %s)", u->id, hands, b->d.log);
	assert_true(synapse_wait_readable(s, u->token, hands, b->u.id, SEAT_LINK, 1, 90000));
	bot_body(s, u->token, b, hands, SEAT_LINK, body, sizeof body);
	link_after(body, SEAT_LINK, seat, seatlen);
}

/* The bot's widget in room as Synapse keeps it, read as token's user: its url into out ("" if none or emptied). */
static void
widget_url(struct synapse *s, const char *token, const char *room, char *out, size_t len)
{
	json_t *w = synapse_state(s, token, room, WIDGET, WIDGET_KEY);

	snprintf(out, len, "%s", json_string_value(json_object_get(w, "url")) ?: "");
	json_decref(w);
}

/* ann, in a direct chat with the bot, says "!play 2 duel @bob": the bot
 * makes a room for the table (invite only, history from the join, not
 * encrypted, its name the preset's), invites both, opens the table as ann
 * joins and deals once bob has; the game plays there; the hands go to each
 * player's own room, never to the table's nor the direct chat; the table's
 * public page is the table room's widget (the bot made it: in Synapse's
 * default room version 12 it has a creator's power), never a seat's link. */
static void
test_table_from_a_direct_message(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann, bob;
	char dm[256], table[512], got[512], body[4096], watch[512], hands[2][256], seat[2][512];

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	assert_int_equal(synapse_register(s, "bob", false, &bob), 0);
	bot_with_web(s, &b);
	/* a direct chat as Element makes one with a user who has no device keys: not encrypted */
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"],\"is_direct\":true,\"preset\":\"trusted_private_chat\"}", b.u.id);
	assert_int_equal(synapse_create_room(s, ann.token, body, dm, sizeof dm), 0);
	assert_true(synapse_wait_membership(s, ann.token, dm, b.u.id, "join", 30000));

	snprintf(body, sizeof body, "!play 2 duel %s", bob.id);
	assert_int_equal(synapse_say(s, ann.token, dm, body), 0);
	if (!synapse_wait_readable(s, ann.token, dm, b.u.id, "for your table and invited you", 1, 60000))
		fail_msg("no table room made (daemon log: %s)", b.d.log);
	synapse_invites(s, ann.token, table, sizeof table);
	assert_true(table[0] == '!' && strchr(table, ' ') == NULL);   /* one invite: the table's room */
	synapse_invites(s, bob.token, got, sizeof got);
	assert_string_equal(got, table);

	/* the room as Synapse made it, read back as the bot */
	synapse_members(s, b.u.token, table, "join", got, sizeof got);
	assert_string_equal(got, b.u.id);
	synapse_members(s, b.u.token, table, "invite", got, sizeof got);
	snprintf(body, sizeof body, "%s %s", strcmp(ann.id, bob.id) < 0 ? ann.id : bob.id,
	         strcmp(ann.id, bob.id) < 0 ? bob.id : ann.id);
	assert_string_equal(got, body);
	synapse_state_str(s, b.u.token, table, "m.room.join_rules", "join_rule", got, sizeof got);
	assert_string_equal(got, "invite");
	synapse_state_str(s, b.u.token, table, "m.room.history_visibility", "history_visibility", got, sizeof got);
	assert_string_equal(got, "joined");
	synapse_state_str(s, b.u.token, table, "m.room.name", "name", got, sizeof got);
	assert_string_equal(got, "Hand and Foot: duel");
	assert_null(synapse_state(s, b.u.token, table, "m.room.encryption", ""));

	/* ann joins: the table opens; bob joins: it deals */
	assert_int_equal(synapse_room_post(s, ann.token, table, "join", NULL), 200);
	if (!synapse_wait_readable(s, ann.token, table, b.u.id, "opens a duel table", 1, 60000))
		fail_msg("the table did not open as ann joined (daemon log: %s)", b.d.log);
	assert_int_equal(synapse_room_post(s, bob.token, table, "join", NULL), 200);
	if (!synapse_wait_readable(s, ann.token, table, b.u.id, "Dealing duel", 1, 60000))
		fail_msg("no deal once bob joined (daemon log: %s)", b.d.log);
	synapse_members(s, b.u.token, table, "join", got, sizeof got);
	assert_non_null(strstr(got, ann.id));
	assert_non_null(strstr(got, bob.id));
	assert_non_null(strstr(got, b.u.id));
	synapse_members(s, b.u.token, table, "invite", got, sizeof got);
	assert_string_equal(got, "");

	/* hands in each player's own room */
	hand_room(s, &b, &ann, hands[0], sizeof hands[0], seat[0], sizeof seat[0]);
	hand_room(s, &b, &bob, hands[1], sizeof hands[1], seat[1], sizeof seat[1]);
	assert_string_not_equal(hands[0], table);
	assert_string_not_equal(hands[0], dm);

	/* the game plays in the table's room: both say !draw there; the one on
	 * turn draws (told "You drew" in their own room: the room hears of the
	 * turn when it ends), the other is told it is not their turn */
	assert_int_equal(synapse_say(s, ann.token, table, "!draw"), 0);
	assert_int_equal(synapse_say(s, bob.token, table, "!draw"), 0);
	for (int t = 0; t < 600 && synapse_readable(s, ann.token, hands[0], b.u.id, "You drew") +
	                           synapse_readable(s, bob.token, hands[1], b.u.id, "You drew") == 0; t++)
		e2e_sleep_ms(100);
	if (synapse_readable(s, ann.token, hands[0], b.u.id, "You drew") +
	    synapse_readable(s, bob.token, hands[1], b.u.id, "You drew") != 1)
		fail_msg("no draw from the table's room (daemon log: %s)", b.d.log);

	/* the widget: the table's public page, as on the deal's line */
	bot_body(s, ann.token, &b, table, "Dealing duel", body, sizeof body);
	link_after(body, "Watch: ", watch, sizeof watch);
	widget_url(s, ann.token, table, got, sizeof got);
	assert_string_equal(got, watch);
	assert_string_not_equal(seat[0], watch);
	assert_string_not_equal(seat[1], watch);
	/* no hand and no seat link outside its owner's room */
	hsround_private_stays(s, &ann, hands[0], seat[0]);
	hsround_private_stays(s, &bob, hands[1], seat[1]);
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

/* Two rooms of ann's (Synapse's default room version 12: ann is the
 * creator), the bot invited to both: in one ann raised the bot to 50 (the
 * widget event's level, state_default); in the other it is at 0.  A table
 * dealt in each: the first room's widget is the table's public page, emptied
 * when the table ends; the second gets none, and the bot never asked. */
static void
test_widget_by_power_level(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann;
	char room[256], low[256], body[4096], watch[512], got[512], hands[256], seat[512];

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	bot_with_web(s, &b);
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"],\"power_level_content_override\":{\"users\":{\"%s\":50}}}",
	         b.u.id, b.u.id);
	assert_int_equal(synapse_create_room(s, ann.token, body, room, sizeof room), 0);
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"]}", b.u.id);
	assert_int_equal(synapse_create_room(s, ann.token, body, low, sizeof low), 0);
	assert_true(synapse_wait_membership(s, ann.token, room, b.u.id, "join", 30000));
	assert_true(synapse_wait_membership(s, ann.token, low, b.u.id, "join", 30000));

	assert_int_equal(synapse_say(s, ann.token, room, "!play 2 duel"), 0);
	if (!synapse_wait_readable(s, ann.token, room, b.u.id, "Dealing duel", 1, 60000))
		fail_msg("no deal (daemon log: %s)", b.d.log);
	bot_body(s, ann.token, &b, room, "Dealing duel", body, sizeof body);
	link_after(body, "Watch: ", watch, sizeof watch);
	hand_room(s, &b, &ann, hands, sizeof hands, seat, sizeof seat);
	for (int t = 0; t < 300 && (widget_url(s, ann.token, room, got, sizeof got), got[0] == '\0'); t++)
		e2e_sleep_ms(100);
	assert_string_equal(got, watch);
	assert_string_not_equal(seat, watch);

	assert_int_equal(synapse_say(s, ann.token, low, "!play 2 duel"), 0);
	if (!synapse_wait_readable(s, ann.token, low, b.u.id, "Dealing duel", 1, 60000))
		fail_msg("no deal in the second room (daemon log: %s)", b.d.log);
	assert_null(synapse_state(s, ann.token, low, WIDGET, WIDGET_KEY));
	assert_false(e2e_daemon_log_has(&b.d, "the room widget was not set"));

	/* the table ends: its widget is emptied (what Element writes to remove one) */
	assert_int_equal(synapse_say(s, ann.token, room, "!abort"), 0);
	for (int t = 0; t < 600 && (widget_url(s, ann.token, room, got, sizeof got), got[0] != '\0'); t++)
		e2e_sleep_ms(100);
	assert_string_equal(got, "");
	hsround_private_stays(s, &ann, hands, seat);
	assert_false(e2e_daemon_log_has(&b.d, "the room widget was not set"));
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_from_a_direct_message),
		cmocka_unit_test(test_widget_by_power_level),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
