/* test-play-fill.c: !play by the owner of an open table fills it with computer players and deals; players named by id are refused where no adapter makes a room for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* The owner's !play at an open table: the rest filled (to the count the
 * seats head for, or the one asked), then dealt; anyone else is told to wait. */
static void
test_owner_play_fills_and_deals(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	fake_say(f, "#g", "bob", "!join");
	fake_clear(f);
	fake_say(f, "#g", "bob", "!play");
	assert_non_null(fake_find(f, "waits for"));
	assert_int_equal(fake_session(f, "#g")->state, SESS_OPEN);
	fake_clear(f);
	fake_say(f, "#g", "alice", "!play");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->state, SESS_PLAYING);
	assert_non_null(fake_find(f, "Dealing classic for 4"));
	assert_true(session_seat_of(s, "alice") >= 0);
	assert_true(session_seat_of(s, "bob") >= 0);
	fake_free(f);

	/* a count asked for; one too small for who sits is refused and changes nothing */
	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!new classic");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "carol", "!join");
	fake_clear(f);
	fake_say(f, "#g", "alice", "!play 2");
	assert_non_null(fake_find(f, "and 3 sit here"));
	assert_int_equal(fake_session(f, "#g")->state, SESS_OPEN);
	fake_say(f, "#g", "alice", "!play 6");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->state, SESS_PLAYING);
	assert_non_null(fake_find(f, "Dealing classic for 6"));
	fake_free(f);
}

/* "!play @bob:hs" reaches the core only where no adapter made a room of it:
 * it says so, and opens nothing (the id is not taken for a rule). */
static void
test_ids_refused_here(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);

	(void)state;
	fake_say(f, "#g", "alice", "!play classic @bob:hs @carol:hs");
	assert_non_null(fake_find(f, "named by id is opened from a direct message"));
	assert_null(fake_session(f, "#g"));
	fake_clear(f);
	fake_say(f, "#g", "alice", "!new classic @bob:hs");
	assert_non_null(fake_find(f, "named by id is opened from a direct message"));
	assert_null(fake_session(f, "#g"));
	/* a partner asked for by id is no such table */
	fake_clear(f);
	fake_say(f, "#g", "alice", "!play 4 classic with @bob:hs");
	assert_non_null(fake_find(f, "asks you to partner them"));
	assert_non_null(fake_session(f, "#g"));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_play_fills_and_deals),
		cmocka_unit_test(test_ids_refused_here),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
