/* ai-look.c: look-ahead for the hard player: candidate moves compared on the same sampled worlds, played on by normal players. */
#include <stdlib.h>
#include <string.h>

#include "ai.h"

#define HARD_SAMPLES   8     /* worlds dealt from the unseen cards per decision */
#define HARD_CANDS     6     /* actions compared */
#define HARD_MAXSTEPS  120   /* actions played out per world at most */
#define HARD_MARGIN    30.0  /* points a move must gain on average over the normal move */

/* A side's standing in points: the table, a bit for open melds, less what its hands hold. */
static double
side_eval(const struct hf_view *v, int side)
{
	const struct hf_rules *r = v->rules;
	const struct hf_side_view *sv = &v->sides[side];
	double e = 0;
	int i, s, size;

	for (i = 0; i < sv->nmelds; i++) {
		const struct hf_meld *m = &sv->melds[i];

		size = m->naturals + m->twos + m->jokers;
		if (m->rank < HF_NCARD && m->rank != HF_JOKER)
			e += m->naturals * r->value[m->rank];
		e += m->twos * r->value[HF_TWO] + m->jokers * r->value[HF_JOKER];
		switch (m->kind) {
		case HF_KIND_CLEAN:  e += r->clean_bonus; break;
		case HF_KIND_DIRTY:  e += r->dirty_bonus; break;
		case HF_KIND_WILD:   e += r->wild_bonus; break;
		case HF_KIND_SEVENS: e += r->sevens_bonus; break;
		default:
			/* an open meld is worth a share of the canasta it may become */
			e += (double)size * size / (r->canasta_size * r->canasta_size) *
			     (m->twos + m->jokers ? r->dirty_bonus : r->clean_bonus) * 0.6;
		}
		if (m->red3s)
			e += m->red3s * r->red3_bonus;
	}
	e += sv->red3s * r->red3_bonus;
	if (!sv->down)
		e -= 40;
	for (s = 0; s < v->nseats; s++)
		if (v->seats[s].side == side)
			e += 3.0 * v->seats[s].hand_count;
	return e;
}

static double
eval(const struct hf_game *g, int me, int round0)
{
	struct hf_view *v = malloc(sizeof *v);
	double mine, best = -1e18, e;
	int side, s, last;

	if (!v)
		return 0;
	hf_game_view(g, me, v);
	side = v->seats[me].side;
	if (v->round != round0 || v->phase == HF_PHASE_OVER) {
		/* the round ended: its score sheet says it all */
		last = v->nrounds_scored - 1;
		mine = last >= 0 ? v->round_totals[last][side] : 0;
		for (s = 0; s < v->nsides; s++)
			if (s != side && last >= 0 && v->round_totals[last][s] > best)
				best = v->round_totals[last][s];
		free(v);
		return mine - best;
	}
	mine = side_eval(v, side);
	for (s = 0; s < v->nsides; s++)
		if (s != side && (e = side_eval(v, s)) > best)
			best = e;
	free(v);
	return mine - best;
}

/* Plays a world on with normal players until this seat has played its next turn (or the round ends). */
static void
playout(struct hf_game *g, struct hf_view *v, int me, int round0, uint64_t *rng)
{
	struct hf_action a;
	char why[HF_ERRLEN];
	int seats[HF_MAX_SEATS], step, n, turns = 0, last_turn = me;

	for (step = 0; step < HARD_MAXSTEPS; step++) {
		if (hf_game_phase(g) == HF_PHASE_OVER || hf_game_round(g) != round0)
			return;
		n = hf_game_waiting(g, seats);
		if (n <= 0)
			return;
		if (hf_game_turn(g) != last_turn) {
			last_turn = hf_game_turn(g);
			if (last_turn == me && ++turns >= 2)
				return;
		}
		hf_game_view(g, seats[0], v);
		ai_normal_choose(v, rng, &a);
		if (hf_apply(g, seats[0], &a, why, sizeof why) != HF_OK)
			return;
	}
}

/* The candidate discards: every distinct card the rules let this seat throw, cheapest first. */
int
ai_look_discards(const struct ai_pos *p, struct hf_action *c, int max, int skip)
{
	int n = 0, k, i, j;
	int cost[HF_NCARD];
	struct hf_action t;

	for (k = 1; k < HF_NCARD && n < HF_NCARD; k++) {
		if (!ai_pos_can_discard(p, k) || k == skip)
			continue;
		memset(&c[n], 0, sizeof c[n]);
		c[n].type = HF_ACT_DISCARD;
		c[n].card = (uint8_t)k;
		cost[n] = ai_discard_danger(p, k) + (hf_card_is_wild(k) ? 400 : 0) +
		          (p->hand[k] >= 3 ? 200 : p->hand[k] == 2 ? 60 : 0);
		n++;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cost[j] < cost[j - 1]; j--) {
			int x = cost[j];

			cost[j] = cost[j - 1];
			cost[j - 1] = x;
			t = c[j];
			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	return n < max ? n : max;
}

/* Picks among candidate actions by their average outcome over sampled worlds. */
int
ai_look_best(const struct hf_view *v, const struct hf_action *cands, int n, uint64_t *rng)
{
	double total[HF_NCARD + 2] = {0};
	int tried[HF_NCARD + 2] = {0};
	struct hf_game *world, *scratch = NULL;
	struct hf_view *tmp;
	char why[HF_ERRLEN];
	uint64_t seed, prng;
	int s, i, best;

	tmp = malloc(sizeof *tmp);
	if (!tmp)
		return -1;
	for (s = 0; s < HARD_SAMPLES; s++) {
		seed = hf_rng_next(rng);
		world = hf_game_sample(v, seed);
		if (!world)
			continue;
		if (!scratch)
			scratch = hf_game_clone(world);
		if (!scratch) {
			hf_game_free(world);
			break;
		}
		for (i = 0; i < n; i++) {
			hf_game_copy(scratch, world);
			if (hf_apply(scratch, v->seat, &cands[i], why, sizeof why) != HF_OK)
				continue;
			/* the same stream for every candidate: differences are the move's, not luck's */
			prng = seed ^ 0x9e3779b97f4a7c15ULL;
			playout(scratch, tmp, v->seat, v->round, &prng);
			total[i] += eval(scratch, v->seat, v->round);
			tried[i]++;
		}
		hf_game_free(world);
	}
	if (scratch)
		hf_game_free(scratch);
	free(tmp);
	/* the first candidate is the normal player's move: leave it only for a clear gain, as worlds are noisy */
	if (!tried[0])
		return -1;
	best = 0;
	for (i = 1; i < n; i++)
		if (tried[i] == tried[0] && total[i] / tried[i] > total[best] / tried[best] + HARD_MARGIN)
			best = i;
	return best;
}
