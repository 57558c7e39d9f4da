/* test-stats.c: !stats by name or id: a name two players share is said to be ambiguous, with their ids to pick by. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* user, shown as name, says text in room. */
static void
say_as(struct fake *f, const char *room, const char *user, const char *name, const char *text)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = room, .user_id = user, .user_name = name, .text = text };

	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

/* One short game to its end for user, so that they have a record. */
static void
finish_game(struct fake *f, const char *room, const char *user, const char *name)
{
	say_as(f, room, user, name, "!play 2 duel rounds=1");
	say_as(f, room, user, name, "!auto");
	assert_true(fake_play_out(f, room, 200000));
}

static void
test_shared_name_is_ambiguous(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	const struct fake_msg *m;

	(void)state;
	finish_game(f, "#a", "acct:alice", "alice");
	finish_game(f, "#b", "nick:alice2", "Alice");
	finish_game(f, "#b", "nick:alice2", "Alice");
	finish_game(f, "#c", "acct:bob", "bob");

	/* two players called alice: neither is picked for the other */
	fake_clear(f);
	say_as(f, "#c", "acct:bob", "bob", "!stats alice");
	assert_non_null(m = fake_find(f, "2 players are called"));
	assert_non_null(strstr(m->text, "nick:alice2 (2 games)"));
	assert_non_null(strstr(m->text, "acct:alice (1 game)"));
	assert_non_null(strstr(m->text, "Ask for one by id: !stats nick:alice2"));
	assert_null(fake_find(f, "won,"));
	/* by id, each is found */
	fake_clear(f);
	say_as(f, "#c", "acct:bob", "bob", "!stats acct:alice");
	assert_non_null(fake_find(f, "alice: 1 game, "));
	say_as(f, "#c", "acct:bob", "bob", "!stats nick:alice2");
	assert_non_null(fake_find(f, "Alice: 2 games, "));
	/* a name one player has, in any case, and oneself */
	fake_clear(f);
	say_as(f, "#c", "acct:alice", "alice", "!stats BOB");
	assert_non_null(fake_find(f, "bob: 1 game, "));
	/* the same answer to the same room within a minute is said once (issue 16) */
	fake_advance(f, 61000);
	say_as(f, "#c", "acct:alice", "alice", "!stats");
	assert_non_null(fake_find(f, "alice: 1 game, "));
	say_as(f, "#c", "acct:bob", "bob", "!stats carol");
	assert_non_null(fake_find(f, "No finished games for carol yet."));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_name_is_ambiguous),
	};

	return cmocka_run_group_tests_name("!stats and shared names", tests, NULL, NULL);
}
