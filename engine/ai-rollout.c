/* ai-rollout.c: plays a sampled world on to the end of its round (hard's policy for one side, the normal player for the others) and scores it for that side. */
#include <string.h>

#include "ai.h"

/* A rollout that passes this many actions has lost its way: it is scored where it stands. */
#define ROLLOUT_MAX 4000

/* Every side's game score now, to measure what the rest of the round brings. */
void
ai_rollout_scores(const struct hf_game *g, int32_t score[HF_MAX_SIDES])
{
	int s;

	for (s = 0; s < hf_game_nsides(g); s++)
		score[s] = hf_game_score(g, s);
}

/*
 * The side searching plays on as its policy would (hard's: it takes a free
 * pile before opening where normal cannot, puts odd cards on closed
 * canastas...), or the search would misjudge its own next turns; the other
 * sides play as the normal player.
 */
int
ai_rollout_play(struct hf_game *g, struct hf_view *w, int side, uint64_t *rng)
{
	struct hf_action a;
	char why[HF_ERRLEN];
	int seats[HF_MAX_SEATS], round = hf_game_round(g), n;

	for (n = 0; n < ROLLOUT_MAX; n++) {
		if (hf_game_phase(g) == HF_PHASE_OVER || hf_game_round(g) != round)
			break;
		if (hf_game_waiting(g, seats) <= 0)
			break;
		hf_game_view(g, seats[0], w);
		if (w->seats[seats[0]].side == side)
			ai_hard_policy(w, rng, &a);
		else
			ai_normal_choose(w, rng, &a);
		if (hf_apply(g, seats[0], &a, why, sizeof why) != HF_OK) {
			/* never expected (the normal player is checked against the engine): end the turn plainly */
			memset(&a, 0, sizeof a);
			a.type = w->phase == HF_PHASE_DRAW ? HF_ACT_DRAW : w->phase == HF_PHASE_ASK ? HF_ACT_YES : HF_ACT_DISCARD;
			for (a.card = 1; a.card < HF_NCARD && !w->hand[a.card]; a.card++)
				;
			if (hf_apply(g, seats[0], &a, why, sizeof why) != HF_OK)
				break;
		}
	}
	return n;
}

/*
 * What the round brought side, against the best of the other sides: the
 * score sheets once the round is over (or the table as it stands if the
 * rollout was cut off).  A round that ends the game counts the game: a
 * win is worth more than any margin.
 */
int32_t
ai_rollout_value(const struct hf_game *g, int side, const int32_t before[HF_MAX_SIDES])
{
	int32_t gain[HF_MAX_SIDES], best = INT32_MIN;
	int s, n = hf_game_nsides(g), winner;

	for (s = 0; s < n; s++)
		gain[s] = hf_game_score(g, s) - before[s];
	for (s = 0; s < n; s++)
		if (s != side && gain[s] > best)
			best = gain[s];
	if (best == INT32_MIN)
		best = 0;
	if (hf_game_phase(g) != HF_PHASE_OVER)
		return gain[side] - best;
	winner = hf_game_winner(g);
	return gain[side] - best + (winner == side ? AI_WIN_VALUE : -AI_WIN_VALUE);
}
