/* test-pcio.c: the pcio preset (003): reshuffled first discard, twice as many naturals, partners' foot turn, melding the rest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static struct hf_game *table(void)
{
	return t_table("pcio", 4, 21);
}

static void first_discard_and_dealer_starts(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed < 300; seed++) {
		struct hf_game *g = t_game("pcio", 4, seed);
		assert_int_equal(g->npile, 1);
		assert_false(g->pile[0] == HF_RED3 || hf_card_is_wild(g->pile[0]));
		assert_int_equal(g->turn, 3);           /* play proceeds from the dealer */
		assert_int_equal(g->seats[3].hand[HF_RED3], 0);
		t_check(g);
		hf_game_free(g);
	}
	struct hf_game *g = t_game("pcio", 4, 1);
	uint32_t shoe[HF_NCARD];
	hf_game_shoe(g, shoe);
	assert_int_equal(shoe[HF_JOKER], 10);       /* 5 decks, 270 cards */
	hf_game_free(g);
}

static void twice_as_many_naturals(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "9 9 9 9 2 2 K K K 2 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld K K K 2 2", HF_E_MELD, "a meld needs twice as many naturals as wilds");
	t_ok(g, 0, "meld 9 9 2");
	t_refused(g, 0, "meld 9: 2", HF_E_MELD, "twice as many naturals");
	t_ok(g, 0, "meld 9 9");
	t_ok(g, 0, "meld 9: 2");                    /* 6 cards, 2 wilds */
	assert_int_equal(g->sides[0].melds[1].twos, 2);
	hf_game_free(g);
}

static void pickup_top_seven_with_pair(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "8 8 2 5");
	t_pile(g, "4 4 5 5 6 6 7 7 8 8");
	t_refused(g, 0, "pickup 8 2", HF_E_PILE, "you need a natural pair of 8s");
	t_ok(g, 0, "pickup 8 8");
	assert_int_equal(g->npile, 3);
	assert_int_equal(g->seats[0].hand_n, 2 + 6);
	hf_game_free(g);
}

/* Side 0: 2 clean, 2 dirty, 1 wild closed and open 9s; seat 0 in the foot holds 5 5 5 and draws 5 6. */
static struct hf_game *ready(void)
{
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);    /* 70 */
	t_meld(g, 0, HF_QUEEN, 7, 0, 0);   /* 70 */
	t_meld(g, 0, HF_JACK, 5, 2, 0);    /* 50 + 40 = 90 */
	t_meld(g, 0, HF_TEN, 6, 0, 1);     /* 60 + 50 = 110 */
	t_meld(g, 0, HF_JOKER, 0, 7, 0);   /* 140 */
	t_meld(g, 0, HF_NINE, 3, 0, 0);    /* open: 30 */
	for (int s = 0; s < 4; s++) {
		t_foot(g, s, "");
		g->seats[s].in_foot = true;
	}
	t_hand(g, 0, "5 5 5");
	t_hand(g, 2, "8 8 8 9 2 4");
	g->seats[2].foot_turns = 1;
	t_hand(g, 1, "A JK");
	g->seats[1].in_foot = false;
	t_foot(g, 1, "K");
	t_hand(g, 3, "7");
	t_stock_top(g, "5 6");
	t_ok(g, 0, "draw");
	return g;
}

static void partner_must_have_played_from_foot(void **state)
{
	(void)state;
	struct hf_game *g = ready();
	g->seats[2].foot_turns = 0;
	g->permission = true;
	t_refused(g, 0, "meld 5 5 5 5", HF_E_GO_OUT, "every partner must have played a turn from the foot");
	t_ok(g, 0, "meld 5 5 5");
	t_ok(g, 0, "discard 6");
	hf_game_free(g);
}

static void score_after_melding_the_rest(void **state)
{
	(void)state;
	struct hf_game *g = ready();
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	t_ok(g, 0, "meld 5 5 5 5");
	t_ok(g, 0, "discard 6");
	assert_non_null(t_event(g, HF_EV_OUT));
	/* the partner's 8 8 8 made a meld, the 9 and the 2 went onto the 9s; the 4 stays: -5.
	 * side 0: 70 + 70 + 90 + 110 + 140 + 9s (40 + 20) + 5s (20) + 8s (30) = 590;
	 * clean 2 x 500 + dirty 2 x 300 + wild 1500 + going out 100 = 3200; 590 + 3200 - 5 = 3785. */
	const struct hf_sheet *a = &g->last_sheet[0], *b = &g->last_sheet[1];
	assert_int_equal(a->laid_out, 590);
	assert_int_equal(a->wild, 1500);
	assert_int_equal(a->caught, -5);
	assert_int_equal(a->total, 3785);
	/* side 1: "cards they still hold in their hand": A + JK = 70, 7 = 5: -75 (seat 1's untaken foot, a K,
	 * is not in a hand) */
	assert_int_equal(b->caught, -75);
	assert_int_equal(b->total, -75);
	hf_game_free(g);
}

static void red_threes_before_the_first_turn(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 1, "3h 7 8");
	t_stock_top(g, "3h 9 10");
	/* laid out and replaced before the turn; a replacement red 3 again (drawn: replaced) */
	t_turn(g, 1);
	assert_int_equal(g->sides[1].red3s, 2);
	assert_int_equal(g->seats[1].hand_n, 3);     /* 7 8 and the 9 */
	assert_int_equal(g->seats[1].hand[HF_NINE], 1);
	assert_int_equal(g->stock[g->nstock - 1], HF_TEN);
	assert_int_equal(g->phase, HF_PHASE_DRAW);
	/* red 3s never go on the pile here */
	t_hand(g, 1, "3h 7 8");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 1, "discard 3h", HF_E_DISCARD, "red 3s cannot be discarded");
	t_check(g);
	hf_game_free(g);
}

/*
 * "Teams lose points for cards they still hold in their hand", and when the
 * stock is depleted "subtract based on the cards left in their hand" (003):
 * an untaken foot is not in a hand and does not count.
 */
static void stock_out_counts_the_hand_only(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);           /* clean: 70 + 500 */
	t_meld(g, 1, HF_ACE, 3, 0, 0);            /* open: 60 */
	for (int s = 0; s < 4; s++) {
		t_foot(g, s, "");
		g->seats[s].in_foot = true;
	}
	g->seats[1].in_foot = false;
	t_foot(g, 1, "K K");
	t_hand(g, 0, "5 6");
	t_hand(g, 1, "A");
	t_stock_top(g, "4 4");
	t_stock_keep(g, 2);
	t_ok(g, 0, "draw");
	t_ok(g, 0, "discard 6");
	assert_non_null(t_event(g, HF_EV_STOCK_OUT));
	const struct hf_sheet *a = &g->last_sheet[0], *b = &g->last_sheet[1];
	/* side 0: 70 + 500; seat 0 holds 5 4 4, seat 2 4 5 6: -30.  540 */
	assert_int_equal(a->caught, -30);
	assert_int_equal(a->total, 540);
	/* side 1: 60; seat 1 holds A (-20), seat 3 4 5 6 (-15); the foot K K is not counted.  25 */
	assert_int_equal(b->caught, -35);
	assert_int_equal(b->total, 25);
	hf_game_free(g);
}

/*
 * "Two cards in that player's hand must be of the same rank as the top card"
 * and "The player must be able to immediately meld those two cards with the
 * third in the pile" (003): a 2 on top is taken with two 2s, a wild meld.
 */
static void wild_on_top_taken_with_its_pair(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "2 2 JK 5");
	t_pile(g, "6 7 3c 2");
	t_refused(g, 0, "pickup 2 JK", HF_E_PILE, "to take the pile you need a pair of 2s");
	t_ok(g, 0, "pickup 2 2");
	assert_int_equal(g->sides[0].melds[1].rank, HF_JOKER);
	assert_int_equal(g->sides[0].melds[1].twos, 3);
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_discard_and_dealer_starts),
		cmocka_unit_test(twice_as_many_naturals),
		cmocka_unit_test(pickup_top_seven_with_pair),
		cmocka_unit_test(partner_must_have_played_from_foot),
		cmocka_unit_test(score_after_melding_the_rest),
		cmocka_unit_test(red_threes_before_the_first_turn),
		cmocka_unit_test(stock_out_counts_the_hand_only),
		cmocka_unit_test(wild_on_top_taken_with_its_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
