/* test-sevens.c: the sevens preset (001): sevens canasta, foot at the first canasta, ask first, final discard. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static struct hf_game *table(void)
{
	return t_table("sevens", 4, 7);
}

static void deal_and_presets(void **state)
{
	(void)state;
	struct hf_game *g = t_game("sevens", 6, 3);
	uint32_t shoe[HF_NCARD];
	hf_game_shoe(g, shoe);
	assert_int_equal(shoe[HF_JOKER], 14);     /* 7 decks at 6 players */
	assert_int_equal(g->nsides, 2);
	hf_game_free(g);
	g = t_game("sevens", 4, 3);
	hf_game_shoe(g, shoe);
	assert_int_equal(shoe[HF_ACE], 24);       /* 6 decks */
	assert_int_equal(g->seats[1].foot_n, 13);
	/* red 3s are laid out at the deal, never kept */
	for (int s = 0; s < 4; s++)
		assert_int_equal(g->seats[s].hand[HF_RED3], 0);
	hf_game_free(g);
}

static void first_player_red_three_holder(void **state)
{
	(void)state;
	int sole = 0;
	for (uint64_t seed = 1; seed < 200; seed++) {
		struct hf_game *g = t_game("sevens", 4, seed);
		size_t n;
		const struct hf_event *e = hf_game_events(g, &n);
		int held[HF_MAX_SEATS] = { 0 }, holders = 0, who = -1;
		for (size_t i = 0; i < n; i++)
			if (e[i].type == HF_EV_RED3)
				held[e[i].seat] += e[i].count;
		for (int s = 0; s < 4; s++)
			if (held[s]) {
				holders++;
				who = s;
			}
		if (holders == 1) {
			sole++;
			assert_int_equal(g->turn, who);
		} else if (holders == 0) {
			assert_int_equal(g->turn, 0);     /* left of the dealer (seat 3) */
		} else {
			assert_true(held[g->turn] > 0);   /* one of the holders, by a drawn card */
		}
		hf_game_free(g);
	}
	assert_true(sole > 0);
}

static void pickup_needs_side_down_and_natural_pair(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "9 9 9 9 K K K");
	t_pile(g, "5 6 2 8 9");
	t_refused(g, 0, "pickup 9 9", HF_E_PILE, "your side must have melded before taking the pile");
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_refused(g, 0, "pickup 9 2", HF_E_PILE, "to take the pile: you need a natural pair of 9s");
	t_ok(g, 0, "pickup 9 9");
	/* the whole pile: 4 below the top join the hand; a 2 in the pile does not freeze it */
	assert_int_equal(g->npile, 0);
	assert_int_equal(g->seats[0].hand_n, 7 - 2 + 4);
	hf_game_free(g);
}

static void opening_by_score(void **state)
{
	(void)state;
	struct hf_game *g = table();
	struct hf_view v;
	g->sides[0].score = 14999;
	g->sides[1].score = 15000;
	hf_game_view(g, 0, &v);
	assert_int_equal(v.sides[0].open_min, 50);
	assert_int_equal(v.sides[1].open_min, 90);
	g->sides[1].score = 30000;
	hf_game_view(g, 0, &v);
	assert_int_equal(v.sides[1].open_min, 120);
	hf_game_free(g);
}

static void foot_at_first_canasta(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 5, 1, 0);
	t_hand(g, 0, "K 8 8 8 5");
	t_foot(g, 0, "A A A 4 4 4 6 6 6 9 9 9 3h");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "meld K");
	/* the closer takes the foot at once (its red 3 laid out, not replaced) and plays on */
	assert_true(g->seats[0].in_foot);
	assert_int_equal(g->seats[0].hand_n, 4 + 12);
	assert_int_equal(g->sides[0].red3s, 1);
	assert_int_equal(g->phase, HF_PHASE_PLAY);
	assert_int_equal(g->sides[0].melds[0].kind, HF_KIND_DIRTY);
	/* the partner (seat 2) takes it at the start of their own turn */
	assert_false(g->seats[2].in_foot);
	t_ok(g, 0, "discard 5");
	t_ok(g, 1, "draw");
	t_ok(g, 1, "discard 4");
	assert_int_equal(g->turn, 2);
	assert_true(g->seats[2].in_foot);
	assert_int_equal(g->seats[2].foot_n, 0);
	hf_game_free(g);
}

/* Side 0 with a wild, a sevens, a clean and a dirty canasta; seat 0 holds 5 5 5 8 8 and draws 8 5. */
static struct hf_game *ready(void)
{
	struct hf_game *g = table();
	t_meld(g, 0, HF_JOKER, 0, 4, 3);   /* wild: 4 x 20 + 3 x 50 = 230 */
	t_meld(g, 0, HF_SEVEN, 7, 0, 0);   /* sevens: 7 x 5 = 35 */
	t_meld(g, 0, HF_KING, 7, 0, 0);    /* clean: 70 */
	t_meld(g, 0, HF_QUEEN, 5, 2, 0);   /* dirty: 50 + 40 = 90 */
	t_meld(g, 1, HF_EIGHT, 3, 0, 0);   /* side 1: 30 */
	for (int s = 0; s < 4; s++) {
		t_foot(g, s, "");
		g->seats[s].in_foot = true;
	}
	t_hand(g, 0, "5 5 5 8 8");
	t_hand(g, 2, "3c 5");               /* the partner counts too: -100 - 5 */
	t_hand(g, 1, "A");                  /* -20 */
	t_hand(g, 3, "3c 3c");              /* -200 */
	g->seats[1].in_foot = false;
	t_foot(g, 1, "K K");                /* an untaken foot does not count in sevens */
	t_stock_top(g, "8 5");
	t_ok(g, 0, "draw");
	return g;
}

static void ask_first_and_final_discard(void **state)
{
	(void)state;
	struct hf_game *g = ready();
	/* melding first, then asking: refused (the ask comes before any meld) */
	t_ok(g, 0, "meld 5 5 5");
	t_refused(g, 0, "out", HF_E_ASK, "you must ask before you meld anything this turn");
	/* without permission the last card could not be discarded: keep two */
	t_refused(g, 0, "meld 8 8 8", HF_E_GO_OUT, "keep two cards: you cannot go out");
	hf_game_free(g);

	g = ready();
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	assert_true(g->permission);
	t_refused(g, 0, "meld 5 5 5 5, 8 8 8", HF_E_GO_OUT, "you must keep one card for the final discard");
	hf_game_free(g);

	/* a sevens canasta is not also a clean one */
	g = ready();
	g->sides[0].melds[2].kind = HF_KIND_OPEN;
	g->sides[0].melds[2].naturals = 6;
	memmove(&g->stock[1], &g->stock[0], g->nstock);
	g->stock[0] = HF_KING;
	g->nstock++;
	g->permission = true;
	t_refused(g, 0, "meld 5 5 5, 8 8 8", HF_E_GO_OUT,
	          "keep two cards: you cannot go out: your side needs 1 clean, 1 dirty, 1 wild and 1 sevens canastas (it has 0, 1, 1 and 1)");
	hf_game_free(g);
}

static void score_sheet_worked_example(void **state)
{
	(void)state;
	struct hf_game *g = ready();
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	t_ok(g, 0, "meld 5 5 5, 8 8 8");
	t_ok(g, 0, "discard 5");
	assert_non_null(t_event(g, HF_EV_OUT));
	const struct hf_sheet *a = &g->last_sheet[0], *b = &g->last_sheet[1];
	/* side 0: cards 230 + 35 + 70 + 90 + 15 + 30 = 470; wild 2500 + sevens 5000 + clean 500 + dirty 300
	 * = 8300; going out 200; the partner's 3c 5 count: -100 - 5.  470 + 8300 + 200 - 105 = 8865. */
	assert_int_equal(a->laid_out, 470);
	assert_int_equal(a->wild, 2500);
	assert_int_equal(a->sevens_count, 1);
	assert_int_equal(a->sevens, 5000);
	assert_int_equal(a->clean, 500);
	assert_int_equal(a->dirty, 300);
	assert_int_equal(a->going_out, 200);
	assert_int_equal(a->caught, -105);
	assert_int_equal(a->total, 8865);
	/* side 1: 30 on the table; A (-20) and two black 3s (-200); the untaken foot K K is not counted. */
	assert_int_equal(b->caught, -220);
	assert_int_equal(b->total, -190);
	assert_int_equal(hf_game_score(g, 0), 8865);
	/* a target game: not over at 8865 of 50,000; the next first player is left of the last one */
	assert_int_equal(hf_game_phase(g), HF_PHASE_DRAW);
	hf_game_free(g);
}

static void individuals_do_not_ask(void **state)
{
	(void)state;
	struct hf_game *g = t_game("sevens", 2, 4);
	int seat = g->turn;
	t_ok(g, seat, "draw");
	t_refused(g, seat, "out", HF_E_ASK, "nobody needs to be asked");
	hf_game_free(g);
}

/*
 * "Players who do not go out, including a team member, must deduct the total
 * point values of cards remaining in their hands" (001), and at a stock-out
 * the same: an untaken foot never counts; a black 3 in hand costs 100.
 */
static void stock_out_counts_the_hand_only(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);           /* clean: 70 + 500 */
	for (int s = 0; s < 4; s++) {
		t_foot(g, s, "");
		g->seats[s].in_foot = true;
	}
	g->seats[1].in_foot = false;
	t_foot(g, 1, "A A");
	t_hand(g, 0, "5 6");
	t_hand(g, 1, "3c");
	t_stock_top(g, "4 4");
	t_stock_keep(g, 2);
	t_ok(g, 0, "draw");
	t_ok(g, 0, "discard 6");
	assert_non_null(t_event(g, HF_EV_STOCK_OUT));
	/* side 0: 570 - (5 4 4) - (4 5 6) = 540; side 1: -100 for the black 3, -15 for 4 5 6, the foot A A not counted */
	assert_int_equal(g->last_sheet[0].total, 540);
	assert_int_equal(g->last_sheet[1].caught, -115);
	assert_int_equal(g->last_sheet[1].total, -115);
	hf_game_free(g);
}

/*
 * "a pair from their hand matching the top card" (001): a 2 on top is taken
 * with a pair of 2s.  But "Black 3s freeze the pile until a normal card is
 * discarded on top of it": a wild thrown on a black 3 leaves it blocked.
 */
static void wild_on_top_and_black_three_under_it(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "2 2 5");
	t_pile(g, "6 3c 2");
	t_refused(g, 0, "pickup 2 2", HF_E_PILE, "a black 3 blocks the pile until a natural card covers it");
	t_pile(g, "6 3c 9 2");
	t_ok(g, 0, "pickup 2 2");
	assert_int_equal(g->sides[0].melds[1].rank, HF_JOKER);
	assert_int_equal(g->npile, 0);
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deal_and_presets),
		cmocka_unit_test(first_player_red_three_holder),
		cmocka_unit_test(pickup_needs_side_down_and_natural_pair),
		cmocka_unit_test(opening_by_score),
		cmocka_unit_test(foot_at_first_canasta),
		cmocka_unit_test(score_sheet_worked_example),
		cmocka_unit_test(ask_first_and_final_discard),
		cmocka_unit_test(individuals_do_not_ask),
		cmocka_unit_test(stock_out_counts_the_hand_only),
		cmocka_unit_test(wild_on_top_and_black_three_under_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
