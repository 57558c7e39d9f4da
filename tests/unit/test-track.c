/* test-track.c: what the table knows of each hand (cards taken from the pile, what plays gave away), in views and sampled games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static struct hf_game *table(void)
{
	return t_table("pcio", 4, 21);
}

/* Seat 0 takes seven cards with 8 8 shown: every other seat's view knows the six that joined the hand. */
static void pickup_cards_known(void **state)
{
	(void)state;
	struct hf_game *g = table();
	struct hf_view *v = malloc(sizeof *v);
	assert_non_null(v);
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "8 8 9 9 Q K");
	t_pile(g, "4 4 5 5 6 6 7 7 9 8");
	t_ok(g, 0, "pickup 8 8");
	hf_game_view(g, 1, v);
	/* the top 8 went to the meld with the pair; 9 7 7 6 6 5 joined the hand */
	assert_int_equal(v->seats[0].known[HF_EIGHT], 0);
	assert_int_equal(v->seats[0].known[HF_NINE], 1);
	assert_int_equal(v->seats[0].known[HF_SEVEN], 2);
	assert_int_equal(v->seats[0].known[HF_SIX], 2);
	assert_int_equal(v->seats[0].known[HF_FIVE], 1);
	assert_int_equal(v->seats[0].known[HF_FOUR], 0);
	assert_int_equal(v->seats[0].known[HF_KING], 0);
	/* the pile left is public too, bottom first */
	assert_int_equal(v->pile_size, 3);
	assert_int_equal(v->pile[0], HF_FOUR);
	assert_int_equal(v->pile[1], HF_FOUR);
	assert_int_equal(v->pile[2], HF_FIVE);
	/* playing a card of a known kind: the table cannot tell it from the hand's own, so one fewer is known */
	t_ok(g, 0, "meld 9 9 9");
	hf_game_view(g, 2, v);
	assert_int_equal(v->seats[0].known[HF_NINE], 0);
	t_ok(g, 0, "discard 7");
	hf_game_view(g, 2, v);
	assert_int_equal(v->seats[0].known[HF_SEVEN], 1);
	t_check(g);
	free(v);
	hf_game_free(g);
}

/* A draw where a natural pair of the top card would have taken the pile, and a throw: the table guesses. */
static void plays_give_away(void **state)
{
	(void)state;
	struct hf_game *g = table();
	struct hf_view *v = malloc(sizeof *v);
	assert_non_null(v);
	t_hand(g, 0, "K Q 5 9");
	t_pile(g, "4 6 9");
	t_ok(g, 0, "draw");
	t_ok(g, 0, "discard K");
	hf_game_view(g, 1, v);
	/* at most one 9 (it did not take the pile), no king left (it threw one) */
	assert_int_equal(v->seats[0].guessed[HF_NINE], 2);
	assert_int_equal(v->seats[0].guessed[HF_KING], 1);
	assert_int_equal(v->seats[0].guessed[HF_QUEEN], 0);
	free(v);
	hf_game_free(g);
}

/* A game sampled from seat 2's view: seat 0's known cards are in seat 0's hand, the pile is the real one. */
static void sampled_worlds_keep_what_is_known(void **state)
{
	(void)state;
	struct hf_game *g = table();
	struct hf_view *v = malloc(sizeof *v), *w = malloc(sizeof *w);
	assert_non_null(v);
	assert_non_null(w);
	t_meld(g, 0, HF_ACE, 3, 0, 0);
	t_hand(g, 0, "8 8 9 Q K");
	t_pile(g, "J 10 4 4 5 5 6 6 7 7 9 8");
	t_ok(g, 0, "pickup 8 8");
	hf_game_view(g, 2, v);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct hf_game *s = hf_game_sample(v, seed);
		assert_non_null(s);
		t_check(s);
		for (int k = 1; k < HF_NCARD; k++)
			assert_true(s->seats[0].hand[k] >= v->seats[0].known[k]);
		assert_int_equal(s->npile, 5);
		assert_int_equal(s->pile[0], HF_JACK);
		assert_int_equal(s->pile[1], HF_TEN);
		assert_int_equal(s->pile[4], HF_FIVE);
		/* the sampled game gives seat 2 the same view */
		hf_game_view(s, 2, w);
		assert_memory_equal(w->hand, v->hand, sizeof v->hand);
		assert_memory_equal(w->unseen, v->unseen, sizeof v->unseen);
		assert_memory_equal(w->seats, v->seats, sizeof v->seats);
		assert_memory_equal(w->pile, v->pile, v->pile_size);
		hf_game_free(s);
	}
	free(v);
	free(w);
	hf_game_free(g);
}

/* A new round forgets everything. */
static void new_round_forgets(void **state)
{
	(void)state;
	struct hf_game *g = t_game("duel", 2, 3);
	struct hf_view *v = malloc(sizeof *v);
	char why[HF_ERRLEN];
	uint64_t rng = 5;
	int round = hf_game_round(g), seats[HF_MAX_SEATS], n = 0;
	struct hf_action a;
	assert_non_null(v);
	/* normal players to the next round; some pile was taken on the way */
	while (hf_game_round(g) == round && hf_game_phase(g) != HF_PHASE_OVER) {
		hf_game_waiting(g, seats);
		hf_game_view(g, seats[0], v);
		hf_ai_decide(v, HF_AI_NORMAL, 0, &rng, &a);
		assert_int_equal(hf_apply(g, seats[0], &a, why, sizeof why), HF_OK);
		n += a.type == HF_ACT_PICKUP;
		t_check(g);
	}
	assert_true(n > 0);
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < HF_NCARD; k++) {
			assert_int_equal(g->seats[s].known[k], 0);
			assert_int_equal(g->seats[s].guessed[k], 0);
		}
	free(v);
	hf_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pickup_cards_known),
		cmocka_unit_test(plays_give_away),
		cmocka_unit_test(sampled_worlds_keep_what_is_known),
		cmocka_unit_test(new_round_forgets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
