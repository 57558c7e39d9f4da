/* test-discord-route.c: where each message goes (answer, channel, DM, button), what is remembered of events and names, and the private-answer guard. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discord/again.h"
#include "discord/answer.h"
#include "discord/recent.h"
#include "discord/route.h"

#define ROOM  "500000000000000001"
#define DMCH  "500000000000000009"
#define ANN   "600000000000000001"
#define BOB   "600000000000000002"

static enum discord_route
route(bool private, const char *room, const char *user, const struct discord_recent_ev *ev, enum discord_private mode)
{
	struct discord_route_msg m = { .private = private, .room = room, .user = user, .ev = ev, .mode = mode };

	return discord_route(&m);
}

static void
test_room_lines(void **state)
{
	struct discord_recent_ev ia = { .ref = 1, .kind = DISCORD_RECENT_INTERACTION, .user = ANN, .channel = ROOM };
	struct discord_recent_ev typed = { .ref = 2, .kind = DISCORD_RECENT_MESSAGE, .user = ANN, .channel = ROOM };
	struct discord_recent_ev in_dm = { .ref = 3, .kind = DISCORD_RECENT_INTERACTION, .user = ANN, .channel = DMCH };

	(void)state;
	/* the answer to a command used in the room; else a post */
	assert_int_equal(route(false, ROOM, "", &ia, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_ANSWER);
	assert_int_equal(route(false, ROOM, "", NULL, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_CHANNEL);
	assert_int_equal(route(false, ROOM, "", &typed, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_CHANNEL);
	/* a command used in a DM moves the game in its room: the room's line goes to the room */
	assert_int_equal(route(false, ROOM, "", &in_dm, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_CHANNEL);
}

static void
test_private_lines_never_public(void **state)
{
	const enum discord_private modes[] = { DISCORD_PRIVATE_EPHEMERAL, DISCORD_PRIVATE_DM };
	const enum discord_recent_kind kinds[] = { 0, DISCORD_RECENT_INTERACTION, DISCORD_RECENT_MESSAGE };
	const char *users[] = { ANN, BOB }, *rooms[] = { ROOM, "", DMCH };

	(void)state;
	/* every combination: a private line is never a channel post, and is an
	 * answer only to its own player's interaction */
	for (size_t m = 0; m < 2; m++)
		for (size_t k = 0; k < 3; k++)
			for (size_t u = 0; u < 2; u++)
				for (size_t r = 0; r < 3; r++) {
					struct discord_recent_ev ev = { .ref = 7, .kind = kinds[k], .user = ANN, .channel = ROOM };
					enum discord_route got = route(true, rooms[r], users[u], kinds[k] ? &ev : NULL, modes[m]);

					assert_int_not_equal(got, DISCORD_ROUTE_CHANNEL);
					if (got == DISCORD_ROUTE_ANSWER)
						assert_true(kinds[k] == DISCORD_RECENT_INTERACTION && u == 0);
				}
	{
		struct discord_recent_ev ia = { .ref = 1, .kind = DISCORD_RECENT_INTERACTION, .user = ANN, .channel = ROOM };
		struct discord_recent_ev typed = { .ref = 2, .kind = DISCORD_RECENT_MESSAGE, .user = ANN, .channel = ROOM };

		/* Ann's own command: only she sees the answer, whatever she chose */
		assert_int_equal(route(true, ROOM, ANN, &ia, DISCORD_PRIVATE_DM), DISCORD_ROUTE_ANSWER);
		/* Ann's command dealt Bob a hand: not on Ann's answer; a button, or Bob's DM */
		assert_int_equal(route(true, ROOM, BOB, &ia, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_BUTTON);
		assert_int_equal(route(true, ROOM, BOB, &ia, DISCORD_PRIVATE_DM), DISCORD_ROUTE_DM);
		/* a typed command cannot be answered privately */
		assert_int_equal(route(true, ROOM, ANN, &typed, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_DM);
		/* a timer's hand, no room to offer it in: still private */
		assert_int_equal(route(true, "", BOB, NULL, DISCORD_PRIVATE_EPHEMERAL), DISCORD_ROUTE_DM);
	}
}

static void
test_recent_events_and_names(void **state)
{
	struct discord_recent *r = calloc(1, sizeof *r);
	char name[200];

	(void)state;
	assert_null(discord_recent_find(r, 0));
	assert_null(discord_recent_find(r, 5));
	for (uint64_t i = 1; i <= DISCORD_RECENT_EVENTS + 10; i++)
		discord_recent_event(r, i, DISCORD_RECENT_INTERACTION, ANN, ROOM);
	/* the oldest are forgotten, the newest found */
	assert_null(discord_recent_find(r, 5));
	assert_non_null(discord_recent_find(r, DISCORD_RECENT_EVENTS + 10));
	assert_string_equal(discord_recent_find(r, DISCORD_RECENT_EVENTS + 10)->user, ANN);
	/* names: the latest wins; cut as the core cuts them, on a character */
	discord_recent_set_name(r, ANN, "Ann");
	discord_recent_set_name(r, ANN, "Annie");
	assert_string_equal(discord_recent_name(r, ANN), "Annie");
	assert_null(discord_recent_name(r, BOB));
	memset(name, 0, sizeof name);
	for (int i = 0; i < 40; i++)
		strcat(name, "\xc3\xa9");
	discord_recent_set_name(r, BOB, name);
	assert_int_equal(strlen(discord_recent_name(r, BOB)), 62);
	free(r);
}

/* discord_answer_safe: the last check before an answer op goes out. */
static void
test_answer_guard(void **state)
{
	struct discord_answer_op op = { .private = true };

	(void)state;
	op.kind = DISCORD_ANS_CHANNEL;
	op.body = json_pack("{s:s}", "content", "Your hand");
	assert_false(discord_answer_safe(&op));
	op.kind = DISCORD_ANS_FOLLOWUP;
	assert_false(discord_answer_safe(&op));
	json_object_set_new(op.body, "flags", json_integer(64 | 4));
	assert_true(discord_answer_safe(&op));
	json_decref(op.body);
	op.kind = DISCORD_ANS_CALLBACK;
	op.body = json_pack("{s:i,s:{s:s,s:i}}", "type", 4, "data", "content", "Your hand", "flags", 4);
	assert_false(discord_answer_safe(&op));
	json_object_set_new(json_object_get(op.body, "data"), "flags", json_integer(68));
	assert_true(discord_answer_safe(&op));
	json_decref(op.body);
	op.body = NULL;
	op.private = false;
	op.kind = DISCORD_ANS_CHANNEL;
	assert_true(discord_answer_safe(&op));
}

/* Every private say of answer.c, in every state an interaction can be in, is safe. */
static void
test_private_says_always_safe(void **state)
{
	(void)state;
	/* the states: new; acking (answer in flight); answered; deferred (loading, then filled); failed */
	for (int path = 0; path < 5; path++) {
		struct discord_answer *a = discord_answer_new("900");
		struct discord_answer_op op;
		int64_t t = 0;
		int ops = 0;

		assert_int_equal(discord_answer_begin(a, 1, "11", "tok", "22", "33", false, t), 0);
		if (path == 2 || path == 4) {
			assert_int_equal(discord_answer_say(a, 1, false, json_pack("{s:s}", "content", "room"), t), 0);
			while (discord_answer_next(a, &op))
				discord_answer_op_free(&op);
			discord_answer_result(a, 1, DISCORD_ANS_CALLBACK, path == 2 ? 204 : 404, path == 2 ? 0 : 10062, t);
		}
		if (path == 3) {
			discord_answer_tick(a, t += DISCORD_ANSWER_DEFER_MS);
			while (discord_answer_next(a, &op))
				discord_answer_op_free(&op);
			discord_answer_result(a, 1, DISCORD_ANS_CALLBACK, 204, 0, t);
		}
		if (path == 1)
			assert_int_equal(discord_answer_say(a, 1, false, json_pack("{s:s}", "content", "room"), t), 0);
		for (int k = 0; k < 3; k++)
			assert_int_equal(discord_answer_say(a, 1, true, json_pack("{s:s,s:i}", "content", "Your hand", "flags", 4),
			                                    t), 0);
		if (path <= 1)
			/* the answer on its way landed: what waited for it goes */
			discord_answer_result(a, 1, DISCORD_ANS_CALLBACK, 204, 0, t);
		while (discord_answer_next(a, &op)) {
			if (op.private) {
				assert_true(discord_answer_safe(&op));
				assert_int_not_equal(op.kind, DISCORD_ANS_CHANNEL);
				ops++;
			}
			discord_answer_op_free(&op);
		}
		assert_int_equal(ops, 3);
		discord_answer_free(a);
	}
}

/* A player's ephemeral answers, per key and channel, for a minute; a line
 * that must be delivered (a hand changed) forgets them. */
static void
test_answers_said_again(void **state)
{
	struct discord_again *a = calloc(1, sizeof *a);
	const struct discord_again_entry *e;
	char user[8];

	(void)state;
	discord_again_keep(a, "601", "hand", "77", "Your hand (5): A\0", 17, 1, 1000);
	discord_again_keep(a, "601", "rules", "77", "Rules\0two\0", 10, 2, 1000);
	assert_non_null(e = discord_again_find(a, "601", "hand", "77", 1000 + DISCORD_AGAIN_MS - 1));
	assert_string_equal(e->pieces, "Your hand (5): A");
	assert_int_equal(e->npieces, 1);
	/* a minute on, the core answers again itself */
	assert_null(discord_again_find(a, "601", "hand", "77", 1000 + DISCORD_AGAIN_MS));
	/* another channel, another player, another key: not the same question */
	assert_null(discord_again_find(a, "601", "hand", "78", 2000));
	assert_null(discord_again_find(a, "602", "hand", "77", 2000));
	assert_null(discord_again_find(a, "601", "pile", "77", 2000));
	/* the newer answer replaces the older */
	discord_again_keep(a, "601", "hand", "77", "Your hand (6): A K\0", 19, 1, 3000);
	assert_string_equal(discord_again_find(a, "601", "hand", "77", 3000)->pieces, "Your hand (6): A K");
	/* forgotten: every key of that player */
	discord_again_forget(a, "601");
	assert_null(discord_again_find(a, "601", "hand", "77", 3000));
	assert_null(discord_again_find(a, "601", "rules", "77", 3000));
	/* full: the oldest goes, nothing breaks */
	for (int i = 0; i < DISCORD_AGAIN_MAX + 5; i++) {
		snprintf(user, sizeof user, "%d", 700 + i);
		discord_again_keep(a, user, "hand", "77", "x\0", 2, 1, 4000 + i);
	}
	assert_null(discord_again_find(a, "700", "hand", "77", 5000));
	assert_non_null(discord_again_find(a, user, "hand", "77", 5000));
	discord_again_free(a);
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_room_lines),
		cmocka_unit_test(test_private_lines_never_public),
		cmocka_unit_test(test_recent_events_and_names),
		cmocka_unit_test(test_answer_guard),
		cmocka_unit_test(test_private_says_always_safe),
		cmocka_unit_test(test_answers_said_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
