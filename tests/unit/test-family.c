/* test-family.c: the family preset (002): players+1 decks and books, red 3s under books, books of black 3s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static struct hf_game *table_with(const char *rules)
{
	return t_table(rules, 2, 11);
}

static struct hf_game *table(void)
{
	return table_with("family");
}

static void decks_and_sides_by_players(void **state)
{
	(void)state;
	static const int sides[] = { 0, 0, 2, 3, 2, 5, 3 };
	for (int n = 2; n <= 6; n++) {
		struct hf_game *g = t_game("family", n, 5);
		uint32_t shoe[HF_NCARD];
		hf_game_shoe(g, shoe);
		assert_int_equal(shoe[HF_JOKER], 2 * (n + 1));
		assert_int_equal(g->nsides, sides[n]);
		assert_int_equal(g->seats[0].hand_n + g->seats[0].hand[HF_RED3] * 0, 13);
		assert_int_equal(legal_need_total(&g->rules, n), n + 1);
		hf_game_free(g);
	}
}

static void deal_bonus_each_player(void **state)
{
	(void)state;
	int bonus = 0;
	for (uint64_t seed = 1; seed <= 450; seed++) {
		struct hf_game *g = t_game("family", 2, seed);
		size_t n;
		const struct hf_event *e = hf_game_events(g, &n);
		for (size_t i = 0; i < n; i++)
			if (e[i].type == HF_EV_DEAL_BONUS) {
				bonus++;
				assert_int_equal(g->sides[e[i].seat].deal_bonus, 100);
			}
		hf_game_free(g);
	}
	assert_in_range(bonus, 60, 140);   /* 900 cuts, 1 in 9 */
}

static void red_threes_kept_and_put_under_books(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_stock_top(g, "3h 9");
	t_ok(g, 0, "draw");
	assert_int_equal(g->seats[0].hand[HF_RED3], 1);   /* kept, not laid out */
	t_meld(g, 0, HF_KING, 7, 0, 0);
	t_hand(g, 0, "3h 3h 5 6 7");
	t_refused(g, 0, "meld 3h", HF_E_MELD, "a red 3 goes alone under a closed book: write K: 3h");
	t_refused(g, 0, "meld Q: 3h", HF_E_MELD, "without one");
	t_ok(g, 0, "meld K: 3h");
	assert_int_equal(g->sides[0].melds[0].red3s, 1);
	assert_non_null(t_event(g, HF_EV_UNDER));
	t_refused(g, 0, "meld K: 3h", HF_E_MELD, "a red 3 goes under a closed book: your side has no closed book of kings without one");
	/* a red 3 may be discarded, and it blocks the pile */
	t_ok(g, 0, "discard 3h");
	t_hand(g, 1, "3h 3h 3c 9");
	t_refused(g, 1, "pickup 3h 3h", HF_E_PILE, "a red 3 on top blocks the pile");
	t_ok(g, 1, "draw");
	t_ok(g, 1, "discard 3c");
	t_hand(g, 0, "3c 3c 5");
	t_refused(g, 0, "pickup 3c 3c", HF_E_PILE, "a black 3 on top blocks the pile");
	hf_game_free(g);
}

static void whole_pile_to_play_the_top_card(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "9 2 5");
	t_pile(g, "2 5 6 7 8 9");   /* a 2 in the pile does not freeze it here */
	t_ok(g, 0, "pickup 9 2");
	assert_int_equal(g->npile, 0);
	assert_int_equal(g->seats[0].hand_n, 1 + 5);
	hf_game_free(g);

	g = table();
	t_hand(g, 0, "9 9 K K K 5");
	t_pile(g, "Q Q Q Q 9");
	/* not down: only the top card counts toward 60: 9 9 9 + K K K = 60 */
	t_refused(g, 0, "pickup 9 9", HF_E_OPENING, "must reach 60 points: this one makes 30");
	t_ok(g, 0, "pickup 9 9, K K K");
	hf_game_free(g);
}

static void black_three_book_last_play(void **state)
{
	(void)state;
	/* 3 decks hold only 6 black 3s: this test plays with 4 */
	struct hf_game *g = table_with("family decks=4");
	t_meld(g, 0, HF_KING, 7, 0, 0);
	t_meld(g, 0, HF_QUEEN, 7, 0, 0);
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "3c 3c 3c 3c 3c 3c 3c 5 5 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld 3c 3c 3c", HF_E_MELD, "a book of black 3s needs 7 or more");
	t_refused(g, 0, "meld 3c x7", HF_E_MELD, "very last play before going out");
	t_ok(g, 0, "meld 5 5 5");
	/* now it is the last play, and the third book (2 players + 1): out */
	t_ok(g, 0, "meld 3c x7");
	assert_non_null(t_event(g, HF_EV_OUT));
	assert_int_equal(g->last_sheet[0].clean_count, 3);
	hf_game_free(g);
}

static void score_sheet_worked_example(void **state)
{
	(void)state;
	struct hf_game *g = table();
	int k = t_meld(g, 0, HF_KING, 7, 0, 0);   /* clean: 70, and a red 3 under it */
	t_meld(g, 0, HF_QUEEN, 5, 0, 2);          /* dirty: 50 + 2 jokers x 20 = 90 */
	t_meld(g, 0, HF_JOKER, 0, 7, 0);          /* wild: 7 x 20 = 140 */
	t_meld(g, 1, HF_ACE, 3, 0, 0);            /* side 1: 60 */
	t_hand(g, 0, "3h");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "meld K: 3h");
	assert_int_equal(g->sides[0].melds[k].red3s, 1);
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "5 5");
	t_hand(g, 1, "3h 3c 9");
	t_foot(g, 1, "4 4");
	t_turn(g, 0);
	t_stock_top(g, "5 5");
	t_ok(g, 0, "draw");
	/* no ask, final discard optional: melding the last cards goes out */
	t_ok(g, 0, "meld 5 5 5 5");
	const struct hf_sheet *a = &g->last_sheet[0], *b = &g->last_sheet[1];
	/* side 0: 70 + 90 + 140 + 20 = 320; clean 500 + dirty 300 + wild 2500; red 3 under a book 100;
	 * going out 100.  320 + 3300 + 100 + 100 = 3820. */
	assert_int_equal(a->laid_out, 320);
	assert_int_equal(a->wild, 2500);
	assert_int_equal(a->red3_count, 1);
	assert_int_equal(a->red3s, 100);
	assert_int_equal(a->red3_caught_count, 0);
	assert_int_equal(a->total, 3820);
	/* side 1: A A A = 60; caught in hand 3c (5) + 9 (10) = -15 (the untaken foot's 4 4 do not count);
	 * the red 3 in hand -500.  60 - 15 - 500 = -455. */
	assert_int_equal(b->caught, -15);
	assert_int_equal(b->red3s, -500);
	assert_int_equal(b->red3_caught_count, 1);
	assert_int_equal(b->red3_count, 0);
	assert_int_equal(b->total, -455);
	hf_game_free(g);
}

/*
 * "You have to be able to play the top card" (002): a wild on top is played
 * wherever the player could lay it down: onto an open meld within the wild
 * limit (name it: pickup 9:), with a pair starting a meld, with two wilds
 * as a wild meld, or onto the side's open wild meld.
 */
static void wild_on_top_is_playable(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "K K 5 6");
	t_pile(g, "5 6 7 8 2");
	t_refused(g, 0, "pickup", HF_E_PILE, "to take the pile you must play the 2");
	t_ok(g, 0, "pickup 9:");
	assert_int_equal(g->sides[0].melds[0].twos, 1);
	assert_int_equal(g->npile, 0);
	assert_int_equal(g->seats[0].hand_n, 4 + 4);
	hf_game_free(g);

	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "K K 5 6");
	t_pile(g, "5 6 7 JK");
	t_ok(g, 0, "pickup K K");
	assert_int_equal(g->sides[0].melds[1].rank, HF_KING);
	assert_int_equal(g->sides[0].melds[1].jokers, 1);
	hf_game_free(g);

	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "2 2 5 6");
	t_pile(g, "5 6 7 JK");
	t_ok(g, 0, "pickup 2 2");
	assert_int_equal(g->sides[0].melds[1].rank, HF_JOKER);
	assert_int_equal(g->sides[0].melds[1].twos + g->sides[0].melds[1].jokers, 3);
	/* the next wild on top goes onto that wild meld with nothing shown */
	t_ok(g, 0, "discard 5");
	t_ok(g, 1, "draw");
	t_hand(g, 1, "2 4 5");
	t_ok(g, 1, "discard 2");
	t_ok(g, 0, "pickup");
	assert_int_equal(g->sides[0].melds[1].twos + g->sides[0].melds[1].jokers, 4);
	hf_game_free(g);

	/* the side not down: the wild counts toward the opening, 20 + K K K 30 + 9 9 20... */
	g = table();
	t_hand(g, 0, "K K Q Q Q 5");
	t_pile(g, "5 6 2");
	t_refused(g, 0, "pickup K K", HF_E_OPENING, "must reach 60 points: this one makes 40");
	t_ok(g, 0, "pickup K K, Q Q Q");
	hf_game_free(g);
}

/*
 * "RED 3 = -500 points if left in your hand/foot when a player goes out"
 * (002): only then.  When the stock runs out, a red 3 left in the hand is a
 * three like any other ("7-3= 5 points"), counted against its holder.
 */
static void red_threes_charged_only_when_a_player_goes_out(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);           /* clean: 70 + 500 */
	t_meld(g, 1, HF_ACE, 3, 0, 0);            /* open: 60 */
	for (int s = 0; s < 2; s++) {
		t_foot(g, s, "");
		g->seats[s].in_foot = true;
	}
	t_hand(g, 0, "5 6");
	t_hand(g, 1, "3h 9");
	t_stock_top(g, "4 4");
	t_stock_keep(g, 2);
	t_ok(g, 0, "draw");
	t_ok(g, 0, "discard 6");
	assert_non_null(t_event(g, HF_EV_STOCK_OUT));
	assert_null(t_event(g, HF_EV_OUT));
	const struct hf_sheet *a = &g->last_sheet[0], *b = &g->last_sheet[1];
	/* side 0: 70 + 500, caught 5 4 4 = -15: 555 */
	assert_int_equal(a->caught, -15);
	assert_int_equal(a->total, 555);
	/* side 1: 60, caught 3h (5) + 9 (10) = -15, no red 3 penalty: 45 */
	assert_int_equal(b->red3_caught_count, 0);
	assert_int_equal(b->red3s, 0);
	assert_int_equal(b->caught, -15);
	assert_int_equal(b->total, 45);
	hf_game_free(g);
}

/*
 * "Wild cards can be used for any card in a meld or creating a meld of all
 * wild cards" (002): no limit on the wilds beside the naturals; a meld of a
 * rank needs one natural to name it, and "A meld is created with 3 to 7
 * cards of the same number/face".
 */
static void wilds_for_any_card_in_a_meld(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "9 2 2 2 2 2 JK K K 5 6");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "meld 9 2 2");                 /* one natural, two wilds: a meld of 9s */
	t_ok(g, 0, "meld 9: 2 2 2 JK");           /* 1 natural + 6 wilds: a dirty book */
	assert_int_equal(g->sides[0].melds[1].kind, HF_KIND_DIRTY);
	t_refused(g, 0, "meld K K", HF_E_MELD, "a new meld needs 3 cards with at least 1 natural K");
	hf_game_free(g);
}

/*
 * "Players score points for cards they have melded and lose points for cards
 * left in hand"; "count individual card points left in your hand as negative
 * points"; but "RED 3 = -500 points if left in your hand/foot when a player
 * goes out" (002): a foot never taken up counts only its red 3s.
 */
static void caught_in_hand_and_red_threes_in_foot(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);           /* 3 clean books: 210 + 1500 */
	t_meld(g, 0, HF_QUEEN, 7, 0, 0);
	t_meld(g, 0, HF_JACK, 7, 0, 0);
	t_meld(g, 1, HF_ACE, 3, 0, 0);            /* side 1: 60 */
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "5 5");
	t_hand(g, 1, "3c 9");
	t_foot(g, 1, "4 4 3h");
	t_stock_top(g, "5 5");
	t_ok(g, 0, "draw");
	t_ok(g, 0, "meld 5 5 5 5");
	assert_non_null(t_event(g, HF_EV_OUT));
	const struct hf_sheet *b = &g->last_sheet[1];
	/* side 1: 60; the hand 3c 9: -15; the foot's 4 4 not counted, its red 3 -500.  -455 */
	assert_int_equal(b->caught, -15);
	assert_int_equal(b->red3_caught_count, 1);
	assert_int_equal(b->red3s, -500);
	assert_int_equal(b->total, -455);
	/* side 0: 210 + 20 (5 5 5 5) + 1500 + going out 100 = 1830 */
	assert_int_equal(g->last_sheet[0].total, 1830);
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decks_and_sides_by_players),
		cmocka_unit_test(deal_bonus_each_player),
		cmocka_unit_test(red_threes_kept_and_put_under_books),
		cmocka_unit_test(whole_pile_to_play_the_top_card),
		cmocka_unit_test(black_three_book_last_play),
		cmocka_unit_test(score_sheet_worked_example),
		cmocka_unit_test(wild_on_top_is_playable),
		cmocka_unit_test(red_threes_charged_only_when_a_player_goes_out),
		cmocka_unit_test(wilds_for_any_card_in_a_meld),
		cmocka_unit_test(caught_in_hand_and_red_threes_in_foot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
