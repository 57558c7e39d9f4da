/* test-classic.c: the classic preset (000): what sets it apart, and its score sheet with worked numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

/* Seat 0 (side 0) to play, after the deal; everyone's hand set by the test. */
static struct hf_game *table(void)
{
	struct hf_game *g = t_table("classic", 4, 42);
	t_check(g);
	return g;
}

static void opening_minimum_by_round(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "K K K 9 9 9 5 5 5 4 4 7 7");
	t_stock_top(g, "7 4");
	t_ok(g, 0, "draw");
	/* K K K = 30 < 60 in round 1 */
	t_refused(g, 0, "meld K K K", HF_E_OPENING, "your opening meld must reach 60 points: this one makes 30");
	/* 30 + 30 + 15 = 75: one action, one player, for the side */
	t_ok(g, 0, "meld K K K, 9 9 9, 5 5 5");
	assert_true(g->sides[0].down);
	/* once down, any small meld will do */
	t_refused(g, 0, "meld 9: 7", HF_E_MELD, "7s do not go on 9s");
	t_ok(g, 0, "meld 7 7 7, 4 4 4");
	hf_game_free(g);
}

static void frozen_pile_needs_natural_pair(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "9 9 2 K K K 6 6");
	t_pile(g, "5 2 8 9");   /* a 2 in the pile: frozen */
	struct hf_view v;
	hf_game_view(g, 0, &v);
	assert_true(v.pile_frozen);
	t_refused(g, 0, "pickup 9 2", HF_E_PILE, "the pile is frozen: you need a natural pair of 9s");
	/* only the top card counts toward the opening: 9+9+9 = 30, + K K K = 60 */
	t_refused(g, 0, "pickup 9 9", HF_E_OPENING, "must reach 60 points: this one makes 30");
	t_ok(g, 0, "pickup 9 9, K K K");
	/* top 6 taken (all 4 here): the top melded, 3 to the hand (5 2 8) */
	assert_int_equal(g->npile, 0);
	assert_int_equal(g->seats[0].hand_n, 3 + 3);
	assert_int_equal(g->pile_freeze, 0);
	hf_game_free(g);
}

static void unfrozen_pile_pair_or_wild_or_open_meld(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "8 2 4 4");
	t_pile(g, "5 6 7 4 5 6 7 9 8");
	/* natural + wild: 8 8 2 with the top; takes the top 6 of 9 */
	t_ok(g, 0, "pickup 8 2");
	assert_int_equal(g->npile, 3);
	assert_int_equal(g->seats[0].hand_n, 2 + 5);
	hf_game_free(g);

	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_pile(g, "5 9");
	/* the top card plays onto the open 9s: no cards shown */
	t_ok(g, 0, "pickup");
	assert_int_equal(g->sides[0].melds[0].naturals, 4);
	hf_game_free(g);
}

static void black_three_blocks_and_closed_canasta(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "9 9 5");
	t_pile(g, "9 3c");
	t_refused(g, 0, "pickup 9 9", HF_E_PILE, "a black 3 on top blocks the pile");
	hf_game_free(g);

	g = table();
	t_meld(g, 0, HF_NINE, 7, 0, 0);   /* closed, clean */
	t_pile(g, "5 9");
	t_refused(g, 0, "pickup", HF_E_PILE, "open meld of 9s");
	hf_game_free(g);
}

static void jokers_cannot_be_discarded(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "JK 5 6");
	t_ok(g, 0, "draw");
	t_refused(g, 0, "discard JK", HF_E_DISCARD, "jokers cannot be discarded");
	t_refused(g, 0, "discard A", HF_E_NO_CARDS, "you hold no A");
	t_ok(g, 0, "discard 5");
	/* a discarded 2 freezes the pile */
	t_hand(g, 1, "2 7 7");
	t_ok(g, 1, "draw");
	t_ok(g, 1, "discard 2");
	assert_true(pickup_frozen(g));
	hf_game_free(g);
}

static void red_threes_laid_out_and_replaced(void **state)
{
	(void)state;
	struct hf_game *g = table();
	/* dealt red 3s wait for the first turn, then go out and are replaced */
	t_hand(g, 1, "3h 3h 5");
	t_stock_top(g, "K Q");
	t_turn(g, 1);
	assert_int_equal(g->sides[1].red3s, 2);
	assert_int_equal(g->seats[1].hand[HF_RED3], 0);
	assert_int_equal(g->seats[1].hand[HF_KING] + g->seats[1].hand[HF_QUEEN], 2);
	/* a drawn red 3 too */
	t_turn(g, 0);
	t_stock_top(g, "3h 9 8");
	t_ok(g, 0, "draw");
	assert_int_equal(g->sides[0].red3s, 1);
	assert_int_equal(g->seats[0].hand[HF_NINE], 1);
	assert_int_equal(g->seats[0].hand[HF_EIGHT], 1);
	const struct hf_event *e = t_event(g, HF_EV_RED3);
	assert_non_null(e);
	assert_int_equal(e->flag, 1);
	hf_game_free(g);
}

static void first_discard_turns_until_natural(void **state)
{
	(void)state;
	int deeper = 0;
	for (uint64_t seed = 1; seed < 300; seed++) {
		struct hf_game *g = t_game("classic", 4, seed);
		assert_true(hf_card_is_natural(g->pile[g->npile - 1]));
		for (int i = 0; i + 1 < g->npile; i++)
			assert_false(hf_card_is_natural(g->pile[i]));
		deeper += g->npile > 1;
		assert_int_equal(g->seats[0].hand_n + g->seats[0].hand[HF_RED3] * 0, g->seats[0].hand_n);
		assert_int_equal(g->seats[1].foot_n, 11);
		hf_game_free(g);
	}
	assert_true(deeper > 0);
}

static void deal_bonus_one_in_nine(void **state)
{
	(void)state;
	int bonus = 0;
	for (uint64_t seed = 1; seed <= 900; seed++) {
		struct hf_game *g = t_game("classic", 4, seed);
		const struct hf_event *e = t_event(g, HF_EV_DEAL_BONUS);
		if (e != NULL) {
			bonus++;
			assert_int_equal(e->seat, 3);   /* the dealer of round 1 is the last seat */
			assert_int_equal(g->sides[1].deal_bonus, 100);
		}
		hf_game_free(g);
	}
	assert_in_range(bonus, 60, 140);
}

static void foot_by_melding_or_discarding(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "K K K");
	t_foot(g, 0, "A A A 6 6 6 7 7 7 8 8");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "meld K K K");
	assert_true(g->seats[0].in_foot);
	assert_int_equal(g->seats[0].hand_n, 11);
	assert_int_equal(g->phase, HF_PHASE_PLAY);   /* plays on */
	assert_int_equal(t_event(g, HF_EV_FOOT)->flag, 1);
	hf_game_free(g);

	g = table();
	t_hand(g, 0, "5");
	t_foot(g, 0, "A A A 6 6 6 7 7 7 8 8");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "discard 5");
	assert_true(g->seats[0].in_foot);
	assert_int_equal(g->seats[0].hand_n, 11);
	assert_int_equal(g->turn, 1);                /* plays it next turn */
	assert_int_equal(t_event(g, HF_EV_FOOT)->flag, 0);
	hf_game_free(g);
}

/* Side 0 with 2 clean and 3 dirty canastas, seat 0 in the foot about to go out. */
static struct hf_game *ready_to_go_out(void)
{
	struct hf_game *g = table();
	t_meld(g, 0, HF_KING, 7, 0, 0);    /* clean: 70 */
	t_meld(g, 0, HF_QUEEN, 7, 0, 0);   /* clean: 70 */
	t_meld(g, 0, HF_JACK, 5, 2, 0);    /* dirty: 50 + 40 = 90 */
	t_meld(g, 0, HF_TEN, 6, 0, 1);     /* dirty: 60 + 50 = 110 */
	t_meld(g, 0, HF_NINE, 4, 3, 0);    /* dirty: 40 + 60 = 100 */
	t_meld(g, 1, HF_EIGHT, 3, 0, 0);   /* side 1, open: 30 */
	t_hand(g, 0, "5 5 5 7");
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 2, "A A A 4");            /* the partner: dismissed */
	t_foot(g, 2, "");
	g->seats[2].in_foot = true;
	t_hand(g, 1, "A A JK");             /* 15 + 15 + 50 = 80 */
	t_foot(g, 1, "");
	g->seats[1].in_foot = true;
	t_hand(g, 3, "4");                  /* 5, and the untaken foot K K = 20 */
	t_foot(g, 3, "K K");
	/* one red 3 laid out for side 0 */
	t_hand(g, 0, "5 5 5 7 3h");
	turn_red3s(g, 0, false);
	t_stock_top(g, "7 7");
	t_ok(g, 0, "draw");
	return g;
}

static void going_out_needs_canastas_partners_and_permission(void **state)
{
	(void)state;
	struct hf_game *g = ready_to_go_out();
	t_refused(g, 0, "meld 5 5 5, 7 7 7", HF_E_GO_OUT, "ask your partners first");
	/* a meld that would leave one card needs the same right to go out */
	t_refused(g, 0, "meld 5 5 5, 7 7", HF_E_MELD, NULL);
	t_refused(g, 2, "yes", HF_E_NOT_TURN, NULL);
	t_ok(g, 0, "out");
	assert_int_equal(g->phase, HF_PHASE_ASK);
	int seats[HF_MAX_SEATS];
	assert_int_equal(hf_game_waiting(g, seats), 1);
	assert_int_equal(seats[0], 2);
	t_refused(g, 0, "meld 5 5 5", HF_E_PHASE, NULL);
	t_refused(g, 1, "yes", HF_E_ASK, NULL);
	t_ok(g, 2, "no");
	assert_int_equal(g->phase, HF_PHASE_PLAY);
	t_refused(g, 0, "meld 5 5 5, 7 7 7", HF_E_GO_OUT, "ask your partners first");
	t_refused(g, 0, "out", HF_E_ASK, "already asked");
	hf_game_free(g);

	g = ready_to_go_out();
	g->seats[2].in_foot = false;
	g->permission = true;
	t_refused(g, 0, "meld 5 5 5, 7 7 7", HF_E_GO_OUT, "every partner must be playing from the foot");
	hf_game_free(g);

	g = ready_to_go_out();
	g->permission = true;
	g->sides[0].melds[4].kind = HF_KIND_OPEN;   /* only 2 dirty now: 4 nines + 3 twos re-opened */
	g->sides[0].melds[4].twos = 2;
	memmove(&g->stock[1], &g->stock[0], g->nstock);
	g->stock[0] = HF_TWO;
	g->nstock++;
	t_refused(g, 0, "meld 5 5 5, 7 7 7", HF_E_GO_OUT,
	          "your side needs 2 clean and 3 dirty canastas (it has 2 and 2)");
	hf_game_free(g);
}

static void score_sheet_worked_example(void **state)
{
	(void)state;
	struct hf_game *g = ready_to_go_out();
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	t_ok(g, 0, "meld 5 5 5, 7 7 7");
	assert_non_null(t_event(g, HF_EV_OUT));
	assert_non_null(t_event(g, HF_EV_ROUND_END));
	struct hf_view v;
	hf_game_view(g, 1, &v);
	const struct hf_sheet *a = &v.last_sheet[0], *b = &v.last_sheet[1];
	/* side 0: cards 70+70+90+110+100 + 15 (5 5 5) + 15 (7 7 7) = 470;
	 * 2 clean x 500 = 1000; 3 dirty x 300 = 900; 1 red 3 = 100; going out 100;
	 * the partner's A A A 4 are dismissed.  Total 470+1000+900+100+100 = 2570. */
	assert_int_equal(a->laid_out, 470);
	assert_int_equal(a->clean_count, 2);
	assert_int_equal(a->clean, 1000);
	assert_int_equal(a->dirty_count, 3);
	assert_int_equal(a->dirty, 900);
	assert_int_equal(a->red3s, 100);
	assert_int_equal(a->going_out, 100);
	assert_int_equal(a->caught, 0);
	assert_int_equal(a->total, 2570);
	/* side 1: 8 8 8 = 30 on the table; caught A A JK (80) + 4 (5) + foot K K (20) = -105.  Total -75. */
	assert_int_equal(b->laid_out, 30);
	assert_int_equal(b->caught, -105);
	assert_int_equal(b->total, -75);
	assert_int_equal(v.nrounds_scored, 1);
	assert_int_equal(v.round_totals[0][0], 2570);
	assert_int_equal(v.sides[1].score, -75);
	/* round 2: the deal passed left, the opening minimum is 90 */
	assert_int_equal(v.round, 2);
	assert_int_equal(v.dealer, 0);
	assert_int_equal(v.turn, 1);
	assert_int_equal(v.sides[0].open_min, 90);
	hf_game_free(g);
}

static void game_ends_after_four_rounds(void **state)
{
	(void)state;
	struct hf_game *g = t_game("classic", 6, 9);
	assert_int_equal(g->nsides, 2);
	assert_int_equal(hf_game_side_of(g, 3), 1);
	assert_int_equal(hf_game_side_of(g, 4), 0);
	for (int round = 1; round <= 4; round++) {
		assert_int_equal(g->round, round);
		/* run the stock out: the round is scored as it stands */
		t_stock_keep(g, 2);
		int seat = g->turn;
		t_ok(g, seat, "draw");
		char text[32];
		int c = HF_FOUR;
		while (g->seats[seat].hand[c] == 0)
			c++;
		snprintf(text, sizeof text, "discard %s", hf_card_name(c));
		t_ok(g, seat, text);
		assert_non_null(t_event(g, HF_EV_STOCK_OUT));
	}
	assert_int_equal(hf_game_phase(g), HF_PHASE_OVER);
	assert_int_equal(g->nrounds_scored, 4);
	assert_true(hf_game_winner(g) >= -1);
	t_refused(g, 0, "draw", HF_E_OVER, NULL);
	hf_game_free(g);
}

static void meld_events_and_closing(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 4, 1, 0);
	t_hand(g, 0, "9 2 5 5 5 6");
	g->phase = HF_PHASE_PLAY;
	/* 5 naturals + 2 wilds: fewer wilds than naturals, and 7 cards close it */
	t_ok(g, 0, "meld 9 2");
	const struct hf_event *e = t_event(g, HF_EV_MELD);
	assert_non_null(e);
	assert_int_equal(e->seat, 0);
	assert_int_equal(e->side, 0);
	assert_int_equal(e->meld, 0);
	assert_int_equal(e->group.count[HF_NINE], 1);
	assert_int_equal(e->group.count[HF_TWO], 1);
	e = t_event(g, HF_EV_CLOSED);
	assert_non_null(e);
	assert_int_equal(e->flag, HF_KIND_DIRTY);
	/* a closed canasta takes naturals (classic) but never wilds; a new one of the same rank may start */
	t_hand(g, 0, "9 9 9 9 2 5");
	t_refused(g, 0, "meld 9: 2", HF_E_MELD, "wild cards cannot be added to a closed canasta");
	t_ok(g, 0, "meld 9");
	assert_int_equal(g->sides[0].melds[0].naturals, 6);
	t_ok(g, 0, "meld 9 9 9");
	assert_int_equal(g->sides[0].nmelds, 2);
	/* one open meld per rank: more 9s join it */
	t_hand(g, 0, "9 9 9 5 6");
	t_ok(g, 0, "meld 9 9 9");
	assert_int_equal(g->sides[0].nmelds, 2);
	assert_int_equal(g->sides[0].melds[1].naturals, 6);
	t_refused(g, 0, "meld 5 6", HF_E_MELD, "a meld holds one rank");
	t_refused(g, 0, "meld 3c 3c 3c", HF_E_NO_CARDS, NULL);
	t_hand(g, 0, "3c 3c 3c 5 6");
	t_refused(g, 0, "meld 3c 3c 3c", HF_E_MELD, "threes cannot be melded");
	hf_game_free(g);
}

static void frozen_pile_not_onto_open_meld(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_pile(g, "2 5 9");
	t_refused(g, 0, "pickup", HF_E_PILE, "the pile is frozen: you need a natural pair of 9s");
	hf_game_free(g);
}

/*
 * "a discarded deuce freezes the discard pile"; "If the discard pile contains
 * a deuce ... you must use two cards of the same rank as the top card" (000):
 * only a deuce freezes.  Seed 3 turns up a joker under the first card.
 */
static void only_a_deuce_freezes(void **state)
{
	(void)state;
	struct hf_game *g = t_game("classic", 4, 3);
	int jokers = 0, twos = 0;
	for (int i = 0; i < g->npile; i++) {
		jokers += g->pile[i] == HF_JOKER;
		twos += g->pile[i] == HF_TWO;
	}
	assert_int_equal(jokers, 1);
	assert_int_equal(twos, 0);
	struct hf_view v;
	hf_game_view(g, g->turn, &v);
	assert_false(v.pile_frozen);
	hf_game_free(g);

	/* a joker in the pile: natural + wild still takes it */
	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "8 2 5 6");
	t_pile(g, "5 JK 7 8");
	t_ok(g, 0, "pickup 8 2");
	assert_int_equal(g->sides[0].melds[1].rank, HF_EIGHT);
	hf_game_free(g);

	/* a deuce in the pile: a natural pair only */
	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "8 8 2 5 6");
	t_pile(g, "5 2 7 8");
	t_refused(g, 0, "pickup 8 2", HF_E_PILE, "the pile is frozen: you need a natural pair of 8s");
	t_ok(g, 0, "pickup 8 8");
	hf_game_free(g);
}

/*
 * "It is illegal to discard a joker" (000).  A hand of jokers only may throw
 * one only when no play of them is legal at all, so a turn can still end.
 */
static void joker_discarded_only_when_nothing_else_plays(void **state)
{
	(void)state;
	/* a joker that can go onto the open 8s must: that empties the hand into the foot */
	struct hf_game *g = table();
	t_meld(g, 0, HF_EIGHT, 3, 0, 0);
	t_hand(g, 0, "JK");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "discard JK", HF_E_DISCARD, "jokers cannot be discarded while one can be melded: meld 8: JK");
	t_ok(g, 0, "meld 8: JK");
	assert_true(g->seats[0].in_foot);
	hf_game_free(g);

	/* side not down, one joker: no play exists, the joker may go; it does not freeze the pile */
	g = table();
	t_hand(g, 0, "JK");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "discard JK");
	assert_int_equal(g->pile[g->npile - 1], HF_JOKER);
	assert_false(pickup_frozen(g));
	assert_true(g->seats[0].in_foot);             /* the last card: the foot is taken up */
	assert_int_equal(g->turn, 1);
	hf_game_free(g);

	/* in the foot, two jokers and no going out: melding one leaves one card, which could only
	 * go out; melding both would go out.  Nothing plays: a joker may be discarded. */
	g = table();
	t_meld(g, 0, HF_EIGHT, 3, 0, 0);
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "JK JK");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "meld 8: JK", HF_E_GO_OUT, "keep two cards");
	t_refused(g, 0, "meld 8: JK, 9: JK", HF_E_GO_OUT, "your side needs");
	t_ok(g, 0, "discard JK");
	assert_int_equal(g->seats[0].hand_n, 1);
	hf_game_free(g);
}

/*
 * Red threes are worth "100 points each", and "Cards held in an opponent's
 * hand or foot at the end of a round count against the team.  Totals are
 * calculated by summing card values" (000): a red 3 in a foot never taken
 * up counts 100 against.
 */
static void red_three_caught_counts_its_value(void **state)
{
	(void)state;
	struct hf_game *g = ready_to_go_out();
	t_foot(g, 3, "K K 3h");
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	t_ok(g, 0, "meld 5 5 5, 7 7 7");
	/* side 1: 30 on the table; A A JK (80) + 4 (5) + foot K K (20) + 3h (100) = -205.  Total -175. */
	assert_int_equal(g->last_sheet[1].caught, -205);
	assert_int_equal(g->last_sheet[1].total, -175);
	assert_int_equal(g->last_sheet[0].total, 2570);
	hf_game_free(g);
}

/*
 * "Red threes in your foot should be laid out on the first turn in which you
 * play your foot" (000): a foot taken up by discarding keeps its red 3s until
 * that next turn; one taken up by melding is played at once, so they go at once.
 */
static void foot_red_threes_wait_for_the_foot_turn(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "5");
	t_foot(g, 0, "3h A A A 6 6 6 7 7 7 8");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "discard 5");
	assert_true(g->seats[0].in_foot);
	assert_int_equal(g->seats[0].hand[HF_RED3], 1);
	assert_int_equal(g->sides[0].red3s, 0);
	t_stock_top(g, "K");
	t_turn(g, 0);
	assert_int_equal(g->sides[0].red3s, 1);
	assert_int_equal(g->seats[0].hand[HF_RED3], 0);
	assert_int_equal(g->seats[0].hand[HF_KING], 1);
	assert_int_equal(g->seats[0].hand_n, 11);
	hf_game_free(g);

	g = table();
	t_meld(g, 0, HF_NINE, 3, 0, 0);
	t_hand(g, 0, "K K K");
	t_foot(g, 0, "3h A A A 6 6 6 7 7 7 8");
	g->phase = HF_PHASE_PLAY;
	t_ok(g, 0, "meld K K K");
	assert_int_equal(g->sides[0].red3s, 1);
	assert_int_equal(g->seats[0].hand[HF_RED3], 0);
	hf_game_free(g);
}

/*
 * "deal 2 stacks of 11 cards (face down) for each player"; "Six (6) decks of
 * cards are used, including jokers"; "Every player sits between players of
 * the opposing team"; and the card values, "used when melding and/or when
 * counting the cards": here counted against a hand left at the end.
 */
static void deal_and_card_values(void **state)
{
	(void)state;
	for (int n = 4; n <= 6; n += 2) {
		struct hf_game *g = t_game("classic", n, 8);
		uint32_t shoe[HF_NCARD];
		hf_game_shoe(g, shoe);
		assert_int_equal(shoe[HF_JOKER], 12);
		assert_int_equal(shoe[HF_ACE], 24);
		assert_int_equal(g->nsides, 2);
		for (int s = 0; s < n; s++) {
			assert_int_equal(hf_game_side_of(g, s), s % 2);
			assert_int_equal(g->seats[s].foot_n, 11);
		}
		hf_game_free(g);
	}
	struct hf_game *g = ready_to_go_out();
	t_hand(g, 1, "A 2 JK 8 4 3c");
	t_foot(g, 3, "");
	g->seats[3].in_foot = true;
	t_hand(g, 3, "");
	t_ok(g, 0, "out");
	t_ok(g, 2, "yes");
	t_ok(g, 0, "meld 5 5 5, 7 7 7");
	/* ace 15, 2 20, joker 50, 8 10, 4 5, black 3 0 */
	assert_int_equal(g->last_sheet[1].caught, -100);
	hf_game_free(g);
}

/* "A red three cannot be discarded"; "Red threes are laid out by themselves"; "Red threes never count
 * towards the meld" (000). */
static void red_threes_never_discarded_nor_melded(void **state)
{
	(void)state;
	struct hf_game *g = table();
	t_hand(g, 0, "3h K K K 5");
	g->phase = HF_PHASE_PLAY;
	t_refused(g, 0, "discard 3h", HF_E_DISCARD, "red 3s cannot be discarded");
	t_refused(g, 0, "meld K K K 3h", HF_E_MELD, "red 3s are laid out by themselves, never melded");
	/* K K K = 30, short of 60: a red 3 laid out adds nothing to the opening */
	turn_red3s(g, 0, false);
	assert_int_equal(g->sides[0].red3s, 1);
	t_refused(g, 0, "meld K K K", HF_E_OPENING, "this one makes 30");
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opening_minimum_by_round),
		cmocka_unit_test(frozen_pile_needs_natural_pair),
		cmocka_unit_test(unfrozen_pile_pair_or_wild_or_open_meld),
		cmocka_unit_test(black_three_blocks_and_closed_canasta),
		cmocka_unit_test(jokers_cannot_be_discarded),
		cmocka_unit_test(red_threes_laid_out_and_replaced),
		cmocka_unit_test(first_discard_turns_until_natural),
		cmocka_unit_test(deal_bonus_one_in_nine),
		cmocka_unit_test(foot_by_melding_or_discarding),
		cmocka_unit_test(going_out_needs_canastas_partners_and_permission),
		cmocka_unit_test(score_sheet_worked_example),
		cmocka_unit_test(game_ends_after_four_rounds),
		cmocka_unit_test(meld_events_and_closing),
		cmocka_unit_test(frozen_pile_not_onto_open_meld),
		cmocka_unit_test(only_a_deuce_freezes),
		cmocka_unit_test(joker_discarded_only_when_nothing_else_plays),
		cmocka_unit_test(red_three_caught_counts_its_value),
		cmocka_unit_test(foot_red_threes_wait_for_the_foot_turn),
		cmocka_unit_test(deal_and_card_values),
		cmocka_unit_test(red_threes_never_discarded_nor_melded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
