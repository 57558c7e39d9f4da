/* test-out-ready.c: hf_game_out_ready, the one place that says whether a side may go out and what it lacks, held to each preset's rule in docs/RULES.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

enum { CLEAN, DIRTY, WILD, SEVENS };

/* Closes a canasta of kind on side's table, each of another rank. */
static void
closed(struct hf_game *g, int side, int kind)
{
	static const int ranks[] = { HF_FOUR, HF_FIVE, HF_SIX, HF_EIGHT, HF_NINE, HF_TEN, HF_JACK, HF_QUEEN, HF_KING, HF_ACE };
	int size = g->rules.canasta_size, rank = ranks[g->sides[side].nmelds % 10];

	switch (kind) {
	case CLEAN: t_meld(g, side, rank, size, 0, 0); break;
	case DIRTY: t_meld(g, side, rank, size - 2, 2, 0); break;
	case WILD: t_meld(g, side, HF_JOKER, 0, size - 2, 2); break;
	default: t_meld(g, side, HF_SEVEN, size, 0, 0); break;
	}
}

/* seat's partners (the other seats of its side) in their foot, after turns from it. */
static void
partners_in_foot(struct hf_game *g, int seat, bool in_foot, int turns)
{
	for (int s = 0; s < g->nseats; s++)
		if (s != seat && game_side(g, s) == game_side(g, seat)) {
			g->seats[s].in_foot = in_foot;
			g->seats[s].foot_turns = (uint16_t)turns;
		}
}

static void
ready(const struct hf_game *g, int seat)
{
	char why[HF_ERRLEN] = "";

	if (!hf_game_out_ready(g, seat, why, sizeof why))
		fail_msg("seat %d should be ready to go out: %s", seat + 1, why);
}

static void
not_ready(const struct hf_game *g, int seat, const char *want)
{
	char why[HF_ERRLEN] = "";

	assert_false(hf_game_out_ready(g, seat, why, sizeof why));
	if (strcmp(why, want) != 0)
		fail_msg("seat %d: \"%s\", want \"%s\"", seat + 1, why, want);
}

/* classic: 5 canastas, 2+ clean and 3+ dirty; every partner playing from the foot. */
static void
classic_needs_two_clean_three_dirty_and_partners_in_foot(void **state)
{
	struct hf_game *g = t_game("classic", 4, 1);
	int side = game_side(g, 0);

	(void)state;
	partners_in_foot(g, 0, true, 1);
	not_ready(g, 0, "your side still needs 2 clean and 3 dirty canastas to go out");
	closed(g, side, CLEAN);
	closed(g, side, CLEAN);
	closed(g, side, CLEAN);
	closed(g, side, DIRTY);
	closed(g, side, DIRTY);
	/* five in all, but one dirty short */
	not_ready(g, 0, "your side still needs 1 dirty canasta to go out");
	closed(g, side, DIRTY);
	ready(g, 0);
	partners_in_foot(g, 0, false, 0);
	not_ready(g, 0, "every partner must be playing from the foot before you go out");
	/* the other side has nothing */
	not_ready(g, 1, "your side still needs 2 clean and 3 dirty canastas to go out");
	hf_game_free(g);
}

/* sevens: one each of clean, dirty, wild and sevens; partners' feet do not matter. */
static void
sevens_needs_one_of_each_kind(void **state)
{
	struct hf_game *g = t_game("sevens", 4, 2);
	int side = game_side(g, 0);

	(void)state;
	not_ready(g, 0, "your side still needs 1 clean, 1 dirty, 1 wild and 1 sevens canastas to go out");
	closed(g, side, CLEAN);
	closed(g, side, CLEAN);
	closed(g, side, DIRTY);
	closed(g, side, SEVENS);
	not_ready(g, 0, "your side still needs 1 wild canasta to go out");
	closed(g, side, WILD);
	ready(g, 0);
	hf_game_free(g);
}

/* family: as many books as players, and one more, per side; any kind. */
static void
family_needs_players_plus_one(void **state)
{
	struct hf_game *g = t_game("family", 4, 3);
	int side = game_side(g, 0);

	(void)state;
	not_ready(g, 0, "your side still needs 5 more canastas to go out");
	for (int i = 0; i < 4; i++)
		closed(g, side, i % 2 ? DIRTY : CLEAN);
	not_ready(g, 0, "your side still needs 1 more canasta to go out");
	closed(g, side, WILD);
	ready(g, 0);
	hf_game_free(g);
	g = t_game("family", 2, 3);
	side = game_side(g, 0);
	closed(g, side, CLEAN);
	closed(g, side, CLEAN);
	not_ready(g, 0, "your side still needs 1 more canasta to go out");
	closed(g, side, DIRTY);
	ready(g, 0);
	hf_game_free(g);
}

/* pcio: 2 clean, 2 dirty, 1 wild; the partner has played a turn from the foot. */
static void
pcio_needs_the_kinds_and_a_partner_turn_from_the_foot(void **state)
{
	struct hf_game *g = t_game("pcio", 4, 4);
	int side = game_side(g, 0);

	(void)state;
	closed(g, side, CLEAN);
	closed(g, side, DIRTY);
	not_ready(g, 0, "your side still needs 1 clean, 1 dirty and 1 wild canastas to go out");
	closed(g, side, CLEAN);
	closed(g, side, DIRTY);
	closed(g, side, WILD);
	partners_in_foot(g, 0, true, 0);
	not_ready(g, 0, "every partner must have played a turn from the foot before you go out");
	partners_in_foot(g, 0, true, 1);
	ready(g, 0);
	hf_game_free(g);
}

/* duel: short of 1 clean + 1 dirty a player may still go out (with the severe penalty). */
static void
duel_may_go_out_short(void **state)
{
	struct hf_game *g = t_game("duel", 2, 5);

	(void)state;
	ready(g, 0);
	ready(g, 1);
	hf_game_free(g);
}

static void
no_such_seat(void **state)
{
	struct hf_game *g = t_game("classic", 4, 6);
	char why[HF_ERRLEN];

	(void)state;
	assert_false(hf_game_out_ready(g, 4, why, sizeof why));
	assert_false(hf_game_out_ready(g, -1, why, sizeof why));
	hf_game_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classic_needs_two_clean_three_dirty_and_partners_in_foot),
		cmocka_unit_test(sevens_needs_one_of_each_kind),
		cmocka_unit_test(family_needs_players_plus_one),
		cmocka_unit_test(pcio_needs_the_kinds_and_a_partner_turn_from_the_foot),
		cmocka_unit_test(duel_may_go_out_short),
		cmocka_unit_test(no_such_seat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
