/* test-teams.c: partners as friends expect: !join N, the owner's team, !team, !who, !play with NAME, for every preset, seat count and team size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

static const char *const people[] = { "alice", "bob", "carol", "dave", "erin", "frank" };

/* n people at a table of preset, in k teams asked for in blocks (the first
 * n/k people team 1, the next team 2...: never the engine's alternation);
 * after the deal each sits in the team they asked for, and !who said it. */
static void
deal_teams(const char *preset, int n, int k)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	char cmd[64], who[64];
	int i, size = n / k;

	snprintf(cmd, sizeof cmd, "!new %s", preset);
	fake_say(f, "#g", people[0], cmd);
	snprintf(cmd, sizeof cmd, "!team %d", 1);
	fake_say(f, "#g", people[0], cmd);
	for (i = 1; i < n; i++) {
		snprintf(cmd, sizeof cmd, "!join %d", i / size + 1);
		fake_clear(f);
		fake_say(f, "#g", people[i], cmd);
		assert_non_null(fake_find(f, "sits down"));
	}
	fake_clear(f);
	fake_say(f, "#g", people[n - 1], "!who");
	for (i = 0; i < n && k < n; i++) {
		snprintf(who, sizeof who, "%s (team %d)", people[i], i / size + 1);
		assert_non_null(fake_find(f, who));
	}
	fake_say(f, "#g", people[0], "!start");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->state, SESS_PLAYING);
	assert_int_equal(hf_game_nsides(s->g), k);
	for (i = 0; i < n; i++) {
		int seat = session_seat_of(s, people[i]);
		assert_true(seat >= 0);
		assert_int_equal(hf_game_side_of(s->g, seat), i / size);
	}
	assert_non_null(fake_find(f, "Dealing"));
	fake_free(f);
}

/* Every preset, every count it deals to, every number of teams it allows. */
static void
test_every_preset_count_and_team_size(void **state)
{
	const char *const presets[] = { "classic", "sevens", "family", "pcio", "duel" };
	size_t p;
	int n, k, tried = 0;

	(void)state;
	for (p = 0; p < sizeof presets / sizeof presets[0]; p++) {
		struct hf_rules r;
		char why[HF_ERRLEN];

		assert_int_equal(hf_rules_parse(&r, presets[p], why, sizeof why), HF_OK);
		for (n = 2; n <= HF_MAX_SEATS; n++)
			for (k = 2; k <= n; k++)
				if (hf_rules_check_table(&r, n, k, why, sizeof why) == HF_OK) {
					deal_teams(presets[p], n, k);
					tried++;
				}
	}
	assert_true(tried >= 14);
}

/* The owner is in team 1 from the start, may change it, and a full team or a team past the rules is refused. */
static void
test_owner_team_and_refusals(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	fake_say(f, "#g", "bob", "!who");
	assert_non_null(fake_find(f, "alice (team 1) [owner]"));
	fake_say(f, "#g", "bob", "!join");
	assert_non_null(fake_find(f, "bob sits down (2 at the table), in team 2."));
	fake_say(f, "#g", "bob", "!join");
	assert_non_null(fake_find(f, "you already sit at this table (!join 2 moves you to team 2)"));
	fake_clear(f);
	fake_say(f, "#g", "alice", "!join 2");
	assert_non_null(fake_find(f, "alice changes team (2 at the table), in team 2."));
	fake_say(f, "#g", "bob", "!join 2");
	assert_non_null(fake_find(f, "bob changes team (2 at the table), in team 2 with alice."));
	fake_say(f, "#g", "carol", "!team 1");
	assert_non_null(fake_find(f, "carol: you have no seat"));
	fake_say(f, "#g", "carol", "!join 3");
	assert_non_null(fake_find(f, "the team is a number from 1 to 2, as in: !join 1."));
	/* a third in a team: the table heads for six */
	fake_say(f, "#g", "carol", "!join 2");
	assert_non_null(fake_find(f, "carol sits down (3 at the table), in team 2 with alice & bob."));
	fake_say(f, "#g", "dave", "!join 2");
	assert_non_null(fake_find(f, "dave: that team is full: classic has teams of 3 at most."));
	assert_int_equal(session_seat_of(fake_session(f, "#g"), "dave"), -1);
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!start");
	assert_non_null(fake_find(f, "alice: with 4 players classic has teams of 2: a team has more."));
	fake_advance(f, 10000);   /* alice's commands within the flood allowance */
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!start");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->state, SESS_PLAYING);
	assert_int_equal(hf_game_side_of(s->g, session_seat_of(s, "alice")),
	                 hf_game_side_of(s->g, session_seat_of(s, "bob")));
	assert_int_equal(hf_game_side_of(s->g, session_seat_of(s, "alice")),
	                 hf_game_side_of(s->g, session_seat_of(s, "carol")));
	assert_non_null(fake_find(f, "alice & bob & carol"));
	fake_clear(f);
	fake_say(f, "#g", "carol", "!who");
	assert_non_null(fake_find(f, "carol (team "));
	fake_say(f, "#g", "alice", "!team 1");
	assert_non_null(fake_find(f, "the game has already started"));
	fake_free(f);
}

/* !play with NAME: a table for two friends as partners, dealt when the other says !play. */
static void
test_play_with_partner(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	int a, b;

	(void)state;
	fake_say(f, "#g", "alice", "!play classic with Bob");
	assert_non_null(fake_find(f, "Bob: alice asks you to partner them at classic for 4"));
	assert_null(fake_find(f, "Dealing"));
	fake_say(f, "#g", "carol", "!play");
	assert_non_null(fake_find(f, "carol: there is a table here already"));
	fake_say(f, "#g", "bob", "!play");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->state, SESS_PLAYING);
	assert_int_equal(s->nseats, 4);
	a = session_seat_of(s, "alice");
	b = session_seat_of(s, "bob");
	assert_true(a >= 0 && b >= 0);
	assert_int_equal(hf_game_side_of(s->g, a), hf_game_side_of(s->g, b));
	assert_non_null(fake_find(f, "Dealing classic for 4: alice & bob vs "));
	fake_free(f);
	/* the same through !join, at six */
	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!play 6 classic with bob");
	fake_say(f, "#g", "bob", "!join");
	assert_non_null(s = fake_session(f, "#g"));
	assert_int_equal(s->nseats, 6);
	assert_int_equal(hf_game_side_of(s->g, session_seat_of(s, "alice")),
	                 hf_game_side_of(s->g, session_seat_of(s, "bob")));
	fake_free(f);
	/* no partners in a duel */
	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!play duel with bob");
	assert_non_null(fake_find(f, "with 2 players duel has no partners"));
	assert_null(fake_session(f, "#g"));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_preset_count_and_team_size),
		cmocka_unit_test(test_owner_team_and_refusals),
		cmocka_unit_test(test_play_with_partner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
