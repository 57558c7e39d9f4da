/* test-tables.c: the caps on tables (max_tables, max_tables_per_user) and who may end a table: owner, moderator, vote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

static void
test_caps_refuse_and_free_up(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100\nmax_tables = 3\nmax_tables_per_user = 2");

	(void)state;
	assert_non_null(f);
	fake_say(f, "#a", "alice", "!new");
	fake_say(f, "#b", "alice", "!new duel");
	assert_non_null(fake_session(f, "#a"));
	assert_non_null(fake_session(f, "#b"));
	/* a third seat for alice: refused, and said so */
	fake_clear(f);
	fake_say(f, "#c", "alice", "!play 2 duel");
	assert_null(fake_session(f, "#c"));
	assert_non_null(fake_find(f, "alice: you sit at 2 tables already"));
	assert_non_null(fake_find(f, "max_tables_per_user"));
	/* bob opens the third table of the adapter; carol finds no room for a fourth */
	fake_say(f, "#c", "bob", "!new");
	assert_non_null(fake_session(f, "#c"));
	fake_clear(f);
	fake_say(f, "#d", "carol", "!new");
	assert_null(fake_session(f, "#d"));
	assert_non_null(fake_find(f, "No room for another table: 3 are in play here"));
	assert_int_equal(session_count(&f->bot->sessions, f->ad), 3);
	/* joining counts as a seat too */
	fake_clear(f);
	fake_say(f, "#c", "alice", "!join");
	assert_non_null(fake_find(f, "alice: you sit at 2 tables already"));
	assert_int_equal(session_seat_of(fake_session(f, "#c"), "alice"), -1);
	fake_say(f, "#c", "carol", "!join");
	assert_int_equal(session_seat_of(fake_session(f, "#c"), "carol"), 1);
	/* a table ended frees both */
	fake_say(f, "#a", "alice", "!abort");
	assert_null(fake_session(f, "#a"));
	assert_int_equal(session_count(&f->bot->sessions, f->ad), 2);
	fake_say(f, "#c", "alice", "!join");
	assert_int_equal(session_seat_of(fake_session(f, "#c"), "alice"), 2);
	fake_say(f, "#d", "dave", "!new");
	assert_non_null(fake_session(f, "#d"));
	fake_free(f);
}

/* The shipped defaults bound a player even when the file says nothing. */
static void
test_default_caps(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	char room[16];

	(void)state;
	assert_int_equal(f->bot->cfg->max_tables, 500);
	assert_int_equal(f->bot->cfg->max_tables_per_user, 4);
	for (int i = 0; i < 4; i++) {
		snprintf(room, sizeof room, "#r%d", i);
		fake_say(f, room, "mallory", "!play 2 duel");
		assert_non_null(fake_session(f, room));
	}
	fake_clear(f);
	fake_say(f, "#r4", "mallory", "!play 2 duel");
	assert_null(fake_session(f, "#r4"));
	assert_non_null(fake_find(f, "you sit at 4 tables already"));
	/* the longest name there is: the refusal still comes whole */
	{
		char name[80] = "";
		struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = "#r4", .user_id = "mallory", .user_name = name,
		                        .text = "!new" };

		for (int i = 0; i < 31; i++)
			strcat(name, "\xc3\xa9");
		fake_clear(f);
		adapter_emit(f->ad, &ev);
		reply_flush(f->bot);
		assert_non_null(fake_find(f, "tables already, the most one may (max_tables_per_user)."));
	}
	fake_free(f);
}

/* 0 lifts a cap; a bad value names the key. */
static void
test_caps_config(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100\nmax_tables = 0\nmax_tables_per_user = 0");
	struct bot_config *c;
	char room[16], err[256];

	(void)state;
	for (int i = 0; i < 20; i++) {
		snprintf(room, sizeof room, "#r%d", i);
		fake_say(f, room, "alice", "!new");
		assert_non_null(fake_session(f, room));
	}
	fake_free(f);
	c = config_load_string("[bot]\nmax_tables = -1\n", "t.conf", err, sizeof err);
	assert_null(c);
	assert_non_null(strstr(err, "t.conf:2: [bot] max_tables:"));
}

/* A table opened with !play has one human: without a moderator of the
 * room, nobody but that player could ever end it. */
static void
test_moderator_ends_any_table(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	f->moderators[0] = "mod";
	fake_say(f, "#a", "bob", "!play 2 duel");
	assert_non_null(fake_session(f, "#a"));
	fake_clear(f);
	fake_say(f, "#a", "carol", "!abort");
	assert_non_null(fake_session(f, "#a"));
	assert_non_null(fake_find(f, "carol: only the table's owner or its players can end it."));
	fake_say(f, "#a", "mod", "!abort");
	assert_null(fake_session(f, "#a"));
	assert_non_null(fake_find(f, "The game is over: ended by mod, a moderator of the room."));
	/* before the deal too; the owner still can, and so can a vote */
	fake_say(f, "#b", "bob", "!new");
	fake_say(f, "#b", "mod", "!abort");
	assert_null(fake_session(f, "#b"));
	fake_say(f, "#c", "bob", "!new");
	fake_say(f, "#c", "bob", "!abort");
	assert_null(fake_session(f, "#c"));
	fake_free(f);
}

/* The owner removes a person who sat down and went quiet before the deal
 * (issue 24); nobody else can, and nobody after the deal. */
static void
test_owner_removes_a_player_before_the_deal(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	struct session *s;

	(void)state;
	fake_say(f, "#a", "alice", "!new classic");
	fake_say(f, "#a", "bob", "!join");
	fake_say(f, "#a", "carol", "!join");
	assert_non_null(s = fake_session(f, "#a"));
	assert_int_equal(s->nseats, 3);
	fake_say(f, "#a", "carol", "!leave bob");
	assert_non_null(fake_find(f, "only the table's owner can remove a player"));
	assert_int_equal(s->nseats, 3);
	fake_say(f, "#a", "alice", "!leave nobody");
	assert_non_null(fake_find(f, "nobody called nobody sits at this table"));
	fake_say(f, "#a", "alice", "!leave bob");
	assert_non_null(fake_find(f, "bob is removed from the table by its owner (2 at the table)."));
	assert_int_equal(s->nseats, 2);
	assert_int_equal(session_seat_of(s, "bob"), -1);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_refuse_and_free_up),
		cmocka_unit_test(test_default_caps),
		cmocka_unit_test(test_caps_config),
		cmocka_unit_test(test_moderator_ends_any_table),
		cmocka_unit_test(test_owner_removes_a_player_before_the_deal),
	};

	return cmocka_run_group_tests_name("caps on tables", tests, NULL, NULL);
}
