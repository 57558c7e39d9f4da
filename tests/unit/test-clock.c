/* test-clock.c: games at any pace: a table's clock (clock=1d), its reminder (a real mention) and takeover over days on a fake clock, across a restart; the room default; a person back after days gets the table and their hand in one answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake.h"

#define HOUR (3600 * 1000LL)

/* Advances the fake clock by ms, an hour at a time. */
static void
hours(struct fake *f, int64_t ms)
{
	for (int64_t t = 0; t < ms; t += HOUR)
		fake_advance(f, ms - t < HOUR ? ms - t : HOUR);
}

static void
test_clock_values(void **state)
{
	char why[128], text[512];
	int64_t ms;

	(void)state;
	assert_int_equal(clock_parse("2m", &ms, why, sizeof why), 0);
	assert_int_equal(ms, 120000);
	assert_int_equal(clock_parse("7d", &ms, why, sizeof why), 0);
	assert_int_equal(ms, 7 * 24 * HOUR);
	assert_int_equal(clock_parse("1m", &ms, why, sizeof why), -1);
	assert_int_equal(clock_parse("8d", &ms, why, sizeof why), -1);
	assert_int_equal(clock_parse("3x", &ms, why, sizeof why), -1);
	assert_int_equal(clock_parse("d", &ms, why, sizeof why), -1);
	snprintf(text, sizeof text, "classic clock=3h min1=50");
	assert_int_equal(clock_take(text, &ms, why, sizeof why), 0);
	assert_int_equal(ms, 3 * HOUR);
	assert_string_equal(text, "classic min1=50");
	snprintf(text, sizeof text, "clock=1d");
	assert_int_equal(clock_take(text, &ms, why, sizeof why), 0);
	assert_string_equal(text, "");
}

/* A duel with clock=1d over several days: no reminder for hours; the
 * reminder at 2/5 of a day, a mention of alice (her nick first, her id in
 * mentions, a prompt); a restart keeps the clock; the takeover at a day;
 * alice back on the third day gets the table and her hand in one answer. */
static void
test_table_over_days(void **state)
{
	char db[] = "/tmp/hf-clock-XXXXXX";
	struct fake *f;
	struct session *s;
	const struct fake_msg *m;
	int64_t wall;
	int i;

	(void)state;
	fake_tmpdb(db);
	f = fake_new(db, "turn_reminder = 60\nturn_timeout = 120");
	fake_say(f, "#g", "alice", "!play 2 duel clock=1d");
	s = fake_session(f, "#g");
	assert_non_null(s);
	assert_int_equal(s->clock_ms, 24 * HOUR);
	for (i = 0; i < 200 && s->wait_seat != session_seat_of(s, "alice"); i++)
		fake_advance(f, 10);
	assert_int_equal(s->wait_seat, session_seat_of(s, "alice"));
	fake_clear(f);
	/* the [bot] keys (60 s, 120 s) do not apply: hours pass quietly */
	hours(f, 9 * HOUR);
	assert_null(fake_find(f, "reminder"));
	assert_false(s->seats[session_seat_of(s, "alice")].away);
	hours(f, 1 * HOUR);
	assert_non_null(m = fake_find(f, "alice: reminder"));
	assert_int_equal(strncmp(m->text, "alice", 5), 0);
	assert_string_equal(m->mention, "alice");
	assert_string_equal(m->prompt, "alice");
	wall = fake_wall(f);
	fake_free(f);

	/* a restart two hours later: the same clock, the same wait */
	f = fake_new_at(db, "turn_reminder = 60\nturn_timeout = 120", wall + 2 * HOUR);
	s = fake_session(f, "#g");
	assert_non_null(s);
	assert_int_equal(s->clock_ms, 24 * HOUR);
	fake_clear(f);
	hours(f, 10 * HOUR);
	assert_null(fake_find(f, "is away"));
	hours(f, 3 * HOUR);
	assert_non_null(fake_find(f, "alice is away"));
	/* the computer plays for her meanwhile; she is back on the third day */
	hours(f, 36 * HOUR);
	fake_clear(f);
	fake_say(f, "#g", "alice", "!who");
	assert_non_null(m = fake_find(f, "Welcome back, alice."));
	assert_int_equal(m->kind, MSG_PRIVATE);
	/* one answer: the table, and her hand (the fake cuts a message into lines) */
	assert_non_null(fake_find(f, "Your hand"));
	assert_non_null(fake_find(f, "alice is back"));
	fake_free(f);
	fake_rmdb(db);
}

/* The room's default clock: !clock 3h; the next table has it; !clock says it. */
static void
test_room_default(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;

	(void)state;
	fake_say(f, "#g", "alice", "!clock 3h");
	assert_non_null(fake_find(f, "Clock 3h for the tables of this room."));
	fake_say(f, "#g", "alice", "!new classic");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->clock_ms, 3 * HOUR);
	fake_say(f, "#g", "bob", "!clock");
	assert_non_null(fake_find(f, "This table: a reminder after 72m, the computer plays for whoever is silent after 3h."));
	fake_say(f, "#g", "bob", "!clock 1d");
	assert_non_null(fake_find(f, "bob: only the table's owner can change its clock."));
	fake_say(f, "#g", "bob", "!clock 9d");
	assert_non_null(fake_find(f, "the clock is a time from 2m to 7d"));
	fake_say(f, "#h", "bob", "!new classic clock=1m");
	assert_non_null(fake_find(f, "the clock is a time from 2m to 7d"));
	assert_null(fake_session(f, "#h"));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_values),
		cmocka_unit_test(test_table_over_days),
		cmocka_unit_test(test_room_default),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
