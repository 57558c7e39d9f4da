/* test-answers.c: every command gets an answer: a repeated one may be shortened, never dropped; not even shortened where nothing limits lines; a flooder is warned once, then silence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* Messages to user (privately) or naming them in room since from. */
static size_t
count_to(struct fake *f, size_t from, const char *user, const char *needle)
{
	size_t i, n = 0;

	for (i = from; i < f->nmsgs; i++)
		if (strstr(f->msgs[i].text, needle) != NULL &&
		    (strcmp(f->msgs[i].user, user) == 0 || strstr(f->msgs[i].text, user) != NULL))
			n++;
	return n;
}

static void
dump(struct fake *f, size_t from)
{
	if (getenv("DUMP"))
		for (size_t i = from; i < f->nmsgs; i++)
			printf("  [%s %s] %s\n", f->msgs[i].room, f->msgs[i].user, f->msgs[i].text);
}

/* A second !hand within a minute is answered: the whole hand (it is short), not silence. */
static void
test_second_hand_answered(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	size_t from;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_advance(f, 5000);
	from = f->nmsgs;
	fake_say(f, "#g", "alice", "!hand");
	assert_int_equal(count_to(f, from, "alice", "Your hand"), 1);
	fake_advance(f, 20000);
	from = f->nmsgs;
	fake_say(f, "#g", "alice", "!hand");
	dump(f, 0);
	assert_true(f->nmsgs > from);
	assert_int_equal(count_to(f, from, "alice", "Your hand"), 1);
	fake_free(f);
}

/* carol, at no seat: !hand refused, then !hint, then !hint again: three answers. */
static void
test_refusals_all_answered(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	size_t from;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_advance(f, 3000);
	from = f->nmsgs;
	fake_say(f, "#g", "carol", "!hand");
	fake_advance(f, 9000);
	fake_say(f, "#g", "carol", "!hint");
	fake_advance(f, 9000);
	fake_say(f, "#g", "carol", "!hint");
	assert_int_equal(count_to(f, from, "carol", "you have no seat"), 3);
	/* and !start after a refusal of it 34 s before */
	from = f->nmsgs;
	fake_say(f, "#g", "carol", "!start");
	fake_advance(f, 34000);
	fake_say(f, "#g", "carol", "!start");
	assert_int_equal(count_to(f, from, "carol", "carol: "), 2);
	fake_free(f);
}

/* !score, !join, !abort within a second: three answers, none replacing another. */
static void
test_three_at_once(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	size_t from;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_advance(f, 3000);
	fake_say(f, "#g", "bob", "!score");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "bob", "!abort");
	from = 0;
	dump(f, 0);
	assert_non_null(fake_find(f, "Round 1, no round scored yet"));
	assert_int_equal(count_to(f, from, "bob", "the game has already started"), 1);
	assert_int_equal(count_to(f, from, "bob", "only the table's owner or its players can end it"), 1);
	fake_free(f);
}

/* Two events handled before one flush, each saying !who. */
static void
who_twice(struct fake *f, uint64_t ref1, uint64_t ref2)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = "#g", .user_id = "bob", .user_name = "bob",
	                        .text = "!who", .ref = ref1 };

	adapter_emit(f->ad, &ev);
	ev.ref = ref2;
	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

/* Two !who handled in one flush: with handles of their own (Discord
 * interactions: each shows "thinking..." until answered), each is answered;
 * without, the newer answer replaces the older (one line). */
static void
test_each_interaction_answered(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	size_t from, i, n = 0;
	bool saw100 = false, saw101 = false;

	(void)state;
	fake_say(f, "#g", "alice", "!new duel");
	from = f->nmsgs;
	who_twice(f, 100, 101);
	dump(f, from);
	for (i = from; i < f->nmsgs; i++) {
		saw100 = saw100 || f->msgs[i].reply_to == 100;
		saw101 = saw101 || f->msgs[i].reply_to == 101;
	}
	assert_true(saw100);
	assert_true(saw101);
	fake_advance(f, 61000);
	from = f->nmsgs;
	who_twice(f, 0, 0);
	for (i = from; i < f->nmsgs; i++)
		n += strstr(f->msgs[i].text, "alice") != NULL;
	assert_int_equal(n, 1);
	fake_free(f);
}

/* Six at a table: !who is a long line. */
static void
six_seated(struct fake *f)
{
	static const char *const who[] = { "bob", "carol", "dave", "erin", "frank" };

	fake_say(f, "#g", "alice", "!new classic");
	for (size_t i = 0; i < 5; i++)
		fake_say(f, "#g", who[i], "!join");
}

/* A long answer asked again within a minute is pointed at ("the same as 20 s ago"); after a minute, said whole. */
static void
test_long_answer_shortened(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;
	char first[1024];

	(void)state;
	six_seated(f);
	fake_clear(f);
	fake_say(f, "#g", "zed", "!who");
	assert_true(f->nmsgs >= 1);
	snprintf(first, sizeof first, "%s", f->msgs[0].text);
	dump(f, 0);
	assert_true(strlen(first) > 120);
	fake_advance(f, 20000);
	fake_clear(f);
	fake_say(f, "#g", "zed", "!who");
	assert_non_null(m = fake_find(f, "zed: the same as 20 s ago, above."));
	assert_int_equal(m->kind, MSG_ROOM);
	fake_advance(f, 61000);
	fake_clear(f);
	fake_say(f, "#g", "zed", "!who");
	assert_string_equal(f->msgs[0].text, first);
	fake_free(f);
}

/* Where nothing limits lines (an adapter with no paced queue: the console), a repeat is said whole. */
static void
test_unlimited_said_whole(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct adapter_ops ops = *f->ad->ops;
	char first[1024];

	(void)state;
	ops.pending = NULL;
	f->ad->ops = &ops;
	six_seated(f);
	fake_clear(f);
	fake_say(f, "#g", "zed", "!who");
	snprintf(first, sizeof first, "%s", f->msgs[0].text);
	fake_advance(f, 5000);
	fake_clear(f);
	fake_say(f, "#g", "zed", "!who");
	assert_string_equal(f->msgs[0].text, first);
	fake_free(f);
}

/* What a paced adapter still holds for the room: a player's hand only, or
 * (room_busy) a line of the room's too. */
static bool room_busy;

static size_t
hand_pending(struct adapter *a, const char *room, enum adapter_pending what)
{
	(void)a;
	(void)room;
	return what == PENDING_GAME || room_busy ? 1 : 0;
}

/* A bystander's answer about the table never waits for the room's story
 * (it waited 10 s behind a player's hand, then 30 s behind two busy
 * tables' lines on IRC): it goes at once, and says how much of the story
 * is still on its way, but only when some of it is, and never counts a
 * player's hand as the story. */
static void
test_answer_never_waits_for_the_story(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct adapter_ops ops = *f->ad->ops;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_advance(f, 5000);
	ops.pending = hand_pending;
	f->ad->ops = &ops;
	room_busy = false;
	fake_clear(f);
	fake_say(f, "#g", "zed", "!pile");
	dump(f, 0);
	assert_int_equal(count_to(f, 0, "", "Pile:"), 1);
	assert_int_equal(count_to(f, 0, "", "on its way"), 0);
	/* a line of the room's still to go: answered at once all the same */
	room_busy = true;
	fake_advance(f, 5000);
	fake_clear(f);
	fake_say(f, "#g", "bob", "!table");
	dump(f, 0);
	assert_int_equal(count_to(f, 0, "", "alice (score"), 1);
	assert_int_equal(count_to(f, 0, "", "(1 line of the table still on its way to the room)"), 1);
	fake_clear(f);
	fake_say(f, "#g", "yan", "!pile");
	assert_int_equal(count_to(f, 0, "", "Pile:"), 1);
	assert_int_equal(count_to(f, 0, "", "still on its way"), 1);
	/* what does not describe the table says nothing of it */
	fake_clear(f);
	fake_say(f, "#g", "xia", "!rules");
	assert_true(f->nmsgs > 0);
	assert_int_equal(count_to(f, 0, "", "on its way"), 0);
	fake_free(f);
}

/* A seated player's answer that must be delivered ("alice steps away") is
 * marked as an answer (its asker): the adapter counts it for the computer
 * seats, but not as the story an answer about the table says is on its way. */
static void
test_answer_marked_apart_from_the_story(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	for (size_t i = 0; i < f->nmsgs; i++)
		if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "Round 1") != NULL)
			assert_string_equal(f->msgs[i].asker, "");
	fake_advance(f, 5000);
	fake_clear(f);
	fake_say(f, "#g", "alice", "!auto");
	assert_int_equal(count_to(f, 0, "", "steps away"), 1);
	for (size_t i = 0; i < f->nmsgs; i++)
		if (strstr(f->msgs[i].text, "steps away") != NULL) {
			assert_string_equal(f->msgs[i].key, "");
			assert_string_equal(f->msgs[i].asker, "alice");
		}
	fake_free(f);
}

/* A flooder gets one warning, then silence. */
static void
test_flooder_warned_once(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	int i;

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	fake_clear(f);
	for (i = 0; i < 30; i++)
		fake_say(f, "#g", "eve", "!who");
	assert_int_equal(count_to(f, 0, "eve", "slow down"), 1);
	assert_true(f->nmsgs <= 7);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_hand_answered),
		cmocka_unit_test(test_refusals_all_answered),
		cmocka_unit_test(test_three_at_once),
		cmocka_unit_test(test_each_interaction_answered),
		cmocka_unit_test(test_long_answer_shortened),
		cmocka_unit_test(test_unlimited_said_whole),
		cmocka_unit_test(test_answer_never_waits_for_the_story),
		cmocka_unit_test(test_answer_marked_apart_from_the_story),
		cmocka_unit_test(test_flooder_warned_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
