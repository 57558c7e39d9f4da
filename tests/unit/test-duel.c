/* test-duel.c: the duel preset (004): take 7 with nothing shown, wild-pair opening, severe penalty, the turned stock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static struct hf_game *table_with(const char *rules)
{
	struct hf_game *g = t_game(rules, 2, 31);
	t_hand(g, 0, "4 5 6");
	t_hand(g, 1, "4 5 6");
	t_turn(g, 0);
	return g;
}

static struct hf_game *table(void)
{
	return table_with("duel");
}

static void pickup_seven_needs_nothing(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_pile(g, "4 5 6 7 8 9");
	t_refused(g, 0, "pickup", HF_E_PILE, "the pile must hold at least 7 cards to be taken (it has 6)");
	t_pile(g, "4 5 6 7 8 9 10 2");
	t_refused(g, 0, "pickup", HF_E_PILE, "a wild card on top blocks the pile");
	t_pile(g, "4 5 6 7 8 9 10 3h");
	t_refused(g, 0, "pickup", HF_E_PILE, "a red 3 on top blocks the pile");
	t_pile(g, "4 5 6 7 8 9 10 2 K");
	t_ok(g, 0, "pickup");
	assert_int_equal(g->npile, 2);
	assert_int_equal(g->seats[0].hand_n, 3 + 7);
	assert_false(g->sides[0].down);
	hf_game_free(g);
}

static void opening_by_score_and_wild_pairs(void **state)
{
	(void)state;
	struct hf_game *g = table();
	struct hf_view v;
	g->sides[0].score = 3000;
	g->sides[1].score = 3001;
	hf_game_view(g, 0, &v);
	assert_int_equal(v.sides[0].open_min, 50);
	assert_int_equal(v.sides[1].open_min, 90);
	g->sides[1].score = 6001;
	hf_game_view(g, 0, &v);
	assert_int_equal(v.sides[1].open_min, 120);
	g->sides[0].score = g->sides[1].score = 0;

	t_hand(g, 0, "9 9 9 2 K K 2 Q Q Q 2 2 JK 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld 9 9 9 2, Q Q Q", HF_E_MELD, "a wild card only goes with a pair starting a new meld");
	t_refused(g, 0, "meld 2 2 JK", HF_E_MELD, "melds of wild cards alone are not allowed");
	t_ok(g, 0, "meld K K 2, Q Q Q");            /* 40 + 30 = 70 >= 50 */
	t_ok(g, 0, "meld 9 9 9 2");                  /* down: naturals >= wilds */
	t_ok(g, 0, "meld 9: 2 2");                   /* 3 naturals, 3 wilds */
	t_refused(g, 0, "meld 9: JK", HF_E_MELD, "at least as many naturals as wilds");
	hf_game_free(g);
}

static void naturals_after_closing(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 5, 2, 0);             /* closed, dirty */
	t_hand(g, 0, "9 2 5 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld 9: 2", HF_E_MELD, "wild cards cannot be added to a closed canasta");
	t_ok(g, 0, "meld 9");
	assert_int_equal(g->sides[0].melds[0].naturals, 6);
	assert_int_equal(g->sides[0].melds[0].kind, HF_KIND_DIRTY);
	hf_game_free(g);
}

static void severe_penalty_and_behind_starts(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 4, 0, 0);             /* open, not a closed book: 40 */
	t_meld(g, 1, HF_ACE, 3, 0, 0);              /* the opponent's 60 */
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "5 5");
	t_hand(g, 1, "JK JK 4");                    /* not counted under the penalty */
	t_stock_top(g, "5 4");
	t_ok(g, 0, "draw");
	t_refused(g, 0, "out", HF_E_ASK, "just meld or discard your last cards");
	t_ok(g, 0, "meld 5 5 5");
	t_ok(g, 0, "discard 4");
	const struct hf_event *e = t_event(g, HF_EV_OUT);
	assert_non_null(e);
	assert_int_equal(e->flag, 1);
	/* the goer loses all meld points and scores -500; the opponent keeps its 60 and pays nothing */
	assert_int_equal(g->last_sheet[0].laid_out, 0);
	assert_int_equal(g->last_sheet[0].penalty, -500);
	assert_int_equal(g->last_sheet[0].total, -500);
	assert_int_equal(g->last_sheet[1].caught, 0);
	assert_int_equal(g->last_sheet[1].total, 60);
	/* round 2: the player behind in score starts */
	assert_int_equal(g->round, 2);
	assert_int_equal(g->turn, 0);
	hf_game_free(g);
}

static void plain_threes(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_pile(g, "4 5 6 7 8 9 10 3c");
	t_refused(g, 0, "pickup", HF_E_PILE, "a black 3 on top blocks the pile");
	t_hand(g, 0, "3h 3h 3h 5");
	t_ok(g, 0, "draw");
	t_refused(g, 0, "meld 3h 3h 3h", HF_E_MELD, "threes cannot be melded");
	t_ok(g, 0, "discard 3h");                   /* a plain three: discarded freely, never laid out */
	assert_int_equal(g->sides[0].red3s, 0);
	hf_game_free(g);
}

static void going_out_with_books(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);             /* clean: 70 + 500 */
	t_meld(g, 0, HF_QUEEN, 4, 3, 0);            /* dirty: 40 + 60 + 300 */
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "5 5");
	t_hand(g, 1, "JK 3h");                      /* -55: a plain red 3 counts 5 */
	t_foot(g, 1, "A");                          /* -20: the opponent's foot counts */
	t_stock_top(g, "5 5");
	t_ok(g, 0, "draw");
	t_ok(g, 0, "meld 5 5 5 5");                 /* the last card may be melded */
	/* 70 + 100 + 20 = 190; 500 + 300 + 100 going out = 900: 1090 */
	assert_int_equal(g->last_sheet[0].total, 1090);
	assert_int_equal(g->last_sheet[1].total, -75);
	/* behind in score: seat 1 starts round 2 */
	assert_int_equal(g->turn, 1);
	hf_game_free(g);
}

/* Leaves keep cards in the stock; the rest go into seat's untaken foot (out of play for this test). */
static void stock_to_foot(struct hf_game *g, int seat, int keep)
{
	while (g->nstock > keep) {
		uint8_t c = g->stock[0];
		memmove(&g->stock[0], &g->stock[1], (size_t)(g->nstock - 1));
		g->stock[--g->nstock] = 0;
		g->seats[seat].foot[c]++;
		g->seats[seat].foot_n++;
	}
}

static void discard_any(struct hf_game *g, int seat)
{
	char text[32];
	int c = HF_FOUR;
	while (g->seats[seat].hand[c] == 0)
		c++;
	snprintf(text, sizeof text, "discard %s", hf_card_name(c));
	t_ok(g, seat, text);
}

/*
 * "If the draw pile runs out of cards, the discard pile is turned over to use
 * again until all playable cards are used"; "If play ends because no one
 * could go out and all the playable cards are depleted from the draw pile, a
 * tie is declared" (004).  The pile (but its top card) is turned over each
 * time the stock runs out, while it holds two cards to draw under its top;
 * then the round is a tie.  Each turn uses up a card, so a round always ends.
 */
static void stock_turned_until_cards_run_out(void **state)
{
	(void)state;
	struct hf_game *g = table();
	int round = g->round, turned = 0, counts[8] = { 0 };
	t_pile(g, "4 5 6 7 8");
	stock_to_foot(g, 1, 2);
	for (int i = 0; i < 20 && g->round == round; i++) {
		int seat = g->turn;
		t_ok(g, seat, "draw");
		discard_any(g, seat);
		const struct hf_event *e = t_event(g, HF_EV_STOCK_TURNED);
		if (e != NULL) {
			assert_int_equal(g->npile, 1);
			assert_true(g->stock_turned);
			counts[turned++] = e->count;
		}
	}
	/* 5 + the discard: 5 turned; 3; then 2; then one card under the top: the tie */
	assert_int_equal(turned, 3);
	assert_int_equal(counts[0], 5);
	assert_int_equal(counts[1], 3);
	assert_int_equal(counts[2], 2);
	assert_int_equal(g->round, round + 1);
	assert_non_null(t_event(g, HF_EV_STOCK_OUT));
	assert_int_equal(g->round_totals[0][0], 0);
	assert_int_equal(g->round_totals[0][1], 0);
	hf_game_free(g);
}

static void hand_cap_house_rule(void **state)
{
	(void)state;
	struct hf_game *g = table_with("duel hand_cap=40");
	t_hand(g, 0, "4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9 10 10 10 10 J J J J Q Q Q Q");
	t_pile(g, "A A A A K K K");
	t_refused(g, 0, "pickup", HF_E_PILE, "a hand may hold at most 40 cards: this would make 43");
	t_ok(g, 0, "draw");
	hf_game_free(g);
}

/*
 * A dirty book starts as "a pair of the same denomination with 1 wild card";
 * "On the initial meld Wild cards can only be used with pairs starting a new
 * book" (004): in the opening, one wild card with a pair, no more.
 */
static void opening_one_wild_to_a_pair(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "K K K Q Q 2 2 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld K K K, Q Q 2 2", HF_E_MELD, "a wild card only goes with a pair starting a new meld");
	t_ok(g, 0, "meld K K K, Q Q 2");            /* 30 + 40 = 70 >= 50 */
	/* down: another wild may join the queens (2 naturals, 2 wilds) */
	t_ok(g, 0, "meld Q: 2");
	assert_int_equal(g->sides[0].melds[1].twos, 2);
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pickup_seven_needs_nothing),
		cmocka_unit_test(opening_by_score_and_wild_pairs),
		cmocka_unit_test(naturals_after_closing),
		cmocka_unit_test(severe_penalty_and_behind_starts),
		cmocka_unit_test(plain_threes),
		cmocka_unit_test(going_out_with_books),
		cmocka_unit_test(stock_turned_until_cards_run_out),
		cmocka_unit_test(hand_cap_house_rule),
		cmocka_unit_test(opening_one_wild_to_a_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
