/* test-game.c: cards, randomness, action text, and the game as a value: replay, views, samples, events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static void cards_parse_and_name(void **state)
{
	(void)state;
	static const struct { const char *t; int c; } cases[] = {
		{ "A", HF_ACE }, { "a", HF_ACE }, { "10", HF_TEN }, { "T", HF_TEN }, { "10h", HF_TEN },
		{ "J", HF_JACK }, { "JK", HF_JOKER }, { "joker", HF_JOKER }, { "*", HF_JOKER }, { "3", HF_BLACK3 },
		{ "3h", HF_RED3 }, { "3D", HF_RED3 }, { "3c", HF_BLACK3 }, { "3s", HF_BLACK3 }, { "2", HF_TWO },
		{ "3\xe2\x99\xa5", HF_RED3 }, { "K\xe2\x99\xa0", HF_KING }, { "1", HF_NOCARD }, { "3x", HF_NOCARD },
		{ "", HF_NOCARD }, { "11", HF_NOCARD }, { "Z", HF_NOCARD },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(hf_card_parse(cases[i].t, strlen(cases[i].t)), cases[i].c);
	const char *names = "A K Q J 10 9 8 7 6 5 4 3h 3c 2 JK";
	static const int order[] = { HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN,
	                             HF_SIX, HF_FIVE, HF_FOUR, HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER };
	char buf[80] = "";
	for (size_t i = 0; i < 15; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", hf_card_name(order[i]));
	assert_string_equal(buf, names);
	assert_true(hf_card_is_wild(HF_TWO) && hf_card_is_wild(HF_JOKER) && !hf_card_is_wild(HF_ACE));
	assert_true(hf_card_is_natural(HF_FOUR) && !hf_card_is_natural(HF_BLACK3));
	assert_string_equal(hf_strerror(HF_E_PILE), "you cannot take the discard pile");
}

static void rng_is_deterministic_and_unbiased(void **state)
{
	(void)state;
	uint64_t a = 42, b = 42;
	for (int i = 0; i < 100; i++)
		assert_true(hf_rng_next(&a) == hf_rng_next(&b));
	int hist[7] = { 0 };
	for (int i = 0; i < 70000; i++) {
		uint32_t x = hf_rng_below(&a, 7);
		assert_true(x < 7);
		hist[x]++;
	}
	for (int i = 0; i < 7; i++)
		assert_in_range(hist[i], 9400, 10600);
	assert_int_equal(hf_rng_below(&a, 1), 0);
}

static void actions_parse_and_format(void **state)
{
	(void)state;
	static const struct { const char *in, *out; } cases[] = {
		{ "draw", "draw" }, { "  DRAW ", "draw" }, { "!draw", "draw" }, { "pickup", "pickup" },
		{ "pickup 9 9", "pickup 9 9" }, { "pickup 9 9, K K K", "pickup 9 9, K K K" },
		{ "meld 9 9 2, K K K", "meld 9 9 2, K K K" }, { "meld Kx3", "meld K K K" }, { "meld K x4", "meld Kx4" },
		{ "meld 2 9 9", "meld 9 9 2" }, { "meld 9: 2 JK", "meld 9: 2 JK" }, { "meld K:3h", "meld K: 3h" },
		{ "meld 3 3c 3s", "meld 3c 3c 3c" }, { "meld K\xc3\x97" "5", "meld Kx5" },
		{ "discard 7", "discard 7" }, { "discard joker", "discard JK" }, { "out", "out" }, { "yes", "yes" },
		{ "no", "no" }, { "pickup , K K K", "pickup , K K K" }, { "pickup 9:", "pickup 9:" },
		{ "pickup JK: , K K K", "pickup JK:, K K K" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hf_action a, b;
		char why[HF_ERRLEN], buf[128];
		if (hf_action_parse(&a, cases[i].in, why, sizeof why) != HF_OK)
			fail_msg("%s: %s", cases[i].in, why);
		hf_action_format(&a, buf, sizeof buf);
		assert_string_equal(buf, cases[i].out);
		assert_int_equal(hf_action_parse(&b, buf, why, sizeof why), HF_OK);
		assert_memory_equal(&a, &b, sizeof a);
	}
	static const char *bad[] = { "", "dance", "draw 2", "discard", "discard 7 8", "meld", "meld 9 9,", "meld Q: ",
	                             "meld 1 2", "meld x3", "out now", "meld ,9 9 9", "meld 9:",
	                             "pickup 9 9, K:" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct hf_action a;
		char why[HF_ERRLEN] = "";
		if (hf_action_parse(&a, bad[i], why, sizeof why) != HF_E_SYNTAX)
			fail_msg("\"%s\" parsed", bad[i]);
		assert_true(why[0] != '\0');
	}
}

static void deal_is_seeded_and_conserves_cards(void **state)
{
	(void)state;
	struct hf_game *a = t_game("classic", 4, 77), *b = t_game("classic", 4, 77), *c = t_game("classic", 4, 78);
	assert_true(hf_game_equal(a, b));
	assert_false(hf_game_equal(a, c));
	t_check(a);
	assert_int_equal(hf_game_size(), sizeof(struct hf_game));
	struct hf_game *d = hf_game_clone(a);
	assert_true(hf_game_equal(a, d));
	hf_game_copy(d, c);
	assert_true(hf_game_equal(c, d));
	/* every round's shuffle differs and comes from (seed, round) */
	assert_true(deal_round_seed(77, 1) != deal_round_seed(77, 2));
	hf_game_free(a);
	hf_game_free(b);
	hf_game_free(c);
	hf_game_free(d);
	struct hf_game *g = NULL;
	char why[HF_ERRLEN];
	assert_int_equal(hf_game_new(&g, hf_preset("classic"), 3, 0, 1, why, sizeof why), HF_E_RULES);
	assert_null(g);
	assert_string_equal(why, "classic is played by 4 to 6 players, not 3");
}

static void turn_order_and_phases(void **state)
{
	(void)state;
	struct hf_game *g = t_game("classic", 4, 5);
	t_hand(g, 0, "4 5 6 7");
	int seats[HF_MAX_SEATS];
	assert_int_equal(hf_game_waiting(g, seats), 1);
	assert_int_equal(seats[0], 0);
	t_refused(g, 1, "draw", HF_E_NOT_TURN, "it is not your turn");
	t_refused(g, 0, "discard 4", HF_E_PHASE, "draw or take the pile first");
	t_refused(g, 0, "meld 4 4 4", HF_E_PHASE, NULL);
	t_refused(g, 0, "out", HF_E_PHASE, NULL);
	t_refused(g, 0, "yes", HF_E_ASK, "nobody is asking");
	t_ok(g, 0, "draw");
	assert_int_equal(t_event(g, HF_EV_DRAW)->count, 2);
	t_refused(g, 0, "draw", HF_E_PHASE, "you have already drawn this turn");
	t_ok(g, 0, "discard 4");
	assert_int_equal(hf_game_turn(g), 1);
	assert_non_null(t_event(g, HF_EV_TURN));
	const struct hf_event *e = t_event(g, HF_EV_DISCARD);
	assert_int_equal(e->card, HF_FOUR);
	assert_int_equal(e->seat, 0);
	hf_game_free(g);
}

/*
 * Red 3s laid out as drawn and not replaced (family red3=bonus, the random
 * house-rule sweep found it): a seat in its foot with one card draws two red
 * 3s and holds that one card, which fits no meld, and its side cannot go
 * out.  No move was legal and the table stalled.  The card may go: the seat
 * plays on from an empty hand, and a draw that leaves an empty hand draws
 * again.
 */
static void a_turn_can_always_end(void **state)
{
	(void)state;
	struct hf_game *g = t_game("family red3=bonus red3_replace=none", 2, 5);
	t_quiet(g);
	t_meld(g, 0, HF_ACE, 7, 0, 0);
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_hand(g, 0, "A");
	t_hand(g, 1, "4 5 6 7");
	t_stock_top(g, "3h 3h 3h 3h 9 10");
	t_turn(g, 0);
	t_ok(g, 0, "draw");
	assert_int_equal(g->seats[0].hand_n, 1);
	t_refused(g, 0, "meld A", HF_E_MELD, NULL);
	t_ok(g, 0, "discard A");
	assert_int_equal(g->seats[0].hand_n, 0);
	assert_int_equal(hf_game_turn(g), 1);
	t_ok(g, 1, "draw");
	t_ok(g, 1, "discard 4");
	/* two more red 3s: the hand would be empty, so the seat draws again */
	t_ok(g, 0, "draw");
	assert_int_equal(g->seats[0].hand_n, 2);
	assert_int_equal(g->seats[0].hand[HF_NINE] + g->seats[0].hand[HF_TEN], 2);
	t_check(g);
	hf_game_free(g);
}

static void views_hold_only_what_a_seat_may_know(void **state)
{
	(void)state;
	struct hf_game *g = t_game("classic", 4, 13);
	static struct hf_view v, w;
	hf_game_view(g, 1, &v);
	assert_int_equal(v.seat, 1);
	assert_memory_equal(v.hand, g->seats[1].hand, sizeof v.hand);
	assert_int_equal(v.seats[2].hand_count, g->seats[2].hand_n);
	assert_int_equal(v.seats[2].foot_count, 11);
	/* unseen = shoe - own hand - tables - red 3s - pile top */
	uint32_t shoe[HF_NCARD];
	hf_game_shoe(g, shoe);
	int total = 0;
	for (int k = 1; k < HF_NCARD; k++)
		total += v.unseen[k];
	assert_int_equal(total, (int)(6 * 54) - v.hand_count - 1 - g->sides[0].red3s - g->sides[1].red3s);
	/* permuting another seat's hidden cards leaves this view unchanged */
	struct hf_game *h = hf_game_clone(g);
	int a = HF_FOUR;
	while (h->seats[2].hand[a] == 0)
		a++;
	int b = HF_NCARD - 1;
	while (h->seats[2].foot[b] == 0 || b == a)
		b--;
	h->seats[2].hand[a]--;
	h->seats[2].foot[a]++;
	h->seats[2].foot[b]--;
	h->seats[2].hand[b]++;
	hf_game_view(h, 1, &w);
	v.rules = w.rules = NULL;
	assert_memory_equal(&v, &w, sizeof v);
	/* a spectator sees no hand */
	hf_game_view(g, -1, &w);
	for (int k = 0; k < HF_NCARD; k++)
		assert_int_equal(w.hand[k], 0);
	hf_game_free(h);
	hf_game_free(g);
}

static void samples_are_consistent_and_playable(void **state)
{
	(void)state;
	const char *presets[] = { "classic", "sevens", "family", "pcio", "duel" };
	const int players[] = { 4, 4, 3, 4, 2 };
	for (int p = 0; p < 5; p++) {
		struct hf_game *g = t_game(presets[p], players[p], 99);
		static struct hf_view v, w;
		hf_game_view(g, g->turn, &v);
		for (uint64_t s = 0; s < 20; s++) {
			struct hf_game *x = hf_game_sample(&v, s);
			t_check(x);
			hf_game_view(x, g->turn, &w);
			assert_memory_equal(v.hand, w.hand, sizeof v.hand);
			assert_memory_equal(v.unseen, w.unseen, sizeof v.unseen);
			assert_int_equal(v.stock, w.stock);
			assert_int_equal(v.pile_top, w.pile_top);
			char why[HF_ERRLEN];
			assert_int_equal(t_play(x, x->turn, "draw", why, sizeof why), HF_OK);
			hf_game_free(x);
		}
		hf_game_free(g);
	}
}

static void replay_gives_the_same_game(void **state)
{
	(void)state;
	struct hf_game *g = t_game("pcio", 4, 123);
	uint64_t rng = 9;
	char log[400][128];
	int seats[400], n = 0, attempts = 0;
	while (n < 400 && g->phase != HF_PHASE_OVER && attempts < 100000) {
		int w[HF_MAX_SEATS], k = hf_game_waiting(g, w), seat = w[hf_rng_below(&rng, (uint32_t)k)];
		static struct hf_view v;
		struct hf_action a;
		char why[HF_ERRLEN];
		hf_game_view(g, seat, &v);
		rp_propose(&v, &rng, attempts % 20, &a);
		attempts++;
		if (hf_apply(g, seat, &a, why, sizeof why) != HF_OK)
			continue;
		hf_action_format(&a, log[n], sizeof log[n]);
		seats[n++] = seat;
	}
	struct hf_game *r = t_game("pcio", 4, 123);
	for (int i = 0; i < n; i++)
		t_ok(r, seats[i], log[i]);
	assert_true(hf_game_equal(g, r));
	hf_game_free(g);
	hf_game_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cards_parse_and_name),
		cmocka_unit_test(rng_is_deterministic_and_unbiased),
		cmocka_unit_test(actions_parse_and_format),
		cmocka_unit_test(deal_is_seeded_and_conserves_cards),
		cmocka_unit_test(turn_order_and_phases),
		cmocka_unit_test(a_turn_can_always_end),
		cmocka_unit_test(views_hold_only_what_a_seat_may_know),
		cmocka_unit_test(samples_are_consistent_and_playable),
		cmocka_unit_test(replay_gives_the_same_game),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
