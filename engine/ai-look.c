/* ai-look.c: the hard player's look-ahead: near-equal discards tried in worlds sampled from its view, against the next seat's reply. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"

/* Discards whose sharp cost is within this of the cheapest are checked (at most LOOK_CANDS). */
#define LOOK_MARGIN 80
/* The look-ahead overrules the policy only for a clear gain: a smaller gift by this much per world. */
#define LOOK_GAIN   200
#define LOOK_CANDS  4
/* Actions of the next seat played out in a world before giving up on its turn. */
#define LOOK_STEPS  24

/* What a side has: its game score, plus its table this round at face value and closed canastas' bonuses. */
static int32_t
side_worth(const struct hf_view *v, int side)
{
	const struct hf_rules *r = v->rules;
	const struct hf_side_view *sv = &v->sides[side];
	int32_t w = sv->score;
	int i;

	for (i = 0; i < sv->nmelds; i++) {
		const struct hf_meld *m = &sv->melds[i];

		if (m->rank < HF_NCARD)
			w += m->naturals * r->value[m->rank];
		w += m->twos * r->value[HF_TWO] + m->jokers * r->value[HF_JOKER];
		switch (m->kind) {
		case HF_KIND_CLEAN:  w += r->clean_bonus; break;
		case HF_KIND_DIRTY:  w += r->dirty_bonus; break;
		case HF_KIND_WILD:   w += r->wild_bonus; break;
		case HF_KIND_SEVENS: w += r->sevens_bonus; break;
		default: break;
		}
	}
	return w;
}

/*
 * Plays the discard in world g, then the next seat's turn with the normal
 * player's policy (the opponent model), and returns what that turn moved:
 * the other side's worth gained minus ours, in *out.  False if the discard is refused.
 */
static bool
gift(struct hf_game *g, const struct ai_pos *p, int card, struct hf_view *w, uint64_t seed, int *out)
{
	struct hf_action a;
	char why[HF_ERRLEN];
	int seats[HF_MAX_SEATS], next = (p->me + 1) % p->v->nseats, opp = p->v->seats[next].side;
	int round = hf_game_round(g), steps;
	int32_t before, after;
	uint64_t rng = seed;

	memset(&a, 0, sizeof a);
	a.type = HF_ACT_DISCARD;
	a.card = (uint8_t)card;
	hf_game_view(g, next, w);
	before = side_worth(w, opp) - side_worth(w, p->side);
	if (hf_apply(g, p->me, &a, why, sizeof why) != HF_OK)
		return false;
	for (steps = 0; steps < LOOK_STEPS; steps++) {
		if (hf_game_phase(g) == HF_PHASE_OVER || hf_game_round(g) != round || hf_game_turn(g) != next)
			break;
		hf_game_waiting(g, seats);
		hf_game_view(g, seats[0], w);
		ai_normal_choose(w, &rng, &a);
		if (hf_apply(g, seats[0], &a, why, sizeof why) != HF_OK)
			break;
	}
	hf_game_view(g, next, w);
	after = side_worth(w, opp) - side_worth(w, p->side);
	*out = (int)(after - before);
	return true;
}

int
ai_look_discard(const struct ai_pos *p, uint64_t *rng)
{
	const struct hf_view *v = p->v;
	int cost[HF_NCARD], cand[LOOK_CANDS], ncand = 0, best, c, i, k, g;
	long sum[LOOK_CANDS] = { 0 };
	int next = (p->me + 1) % (v->nseats ? v->nseats : 1);
	struct hf_game *world = NULL, *scratch = NULL;
	struct hf_view *w = NULL;
	uint64_t base;

	best = ai_discard_sharp_costs(p, cost);
	/* only where the next seat, an opponent, may take the pile once this card is on it */
	if (p->look_worlds <= 0 || best == HF_NOCARD || v->seats[next].side == p->side ||
	    v->pile_size + 1 < p->r->pickup_min_pile)
		return best;
	/* the candidates: the cheapest and those near it, cheapest first */
	cand[ncand++] = best;
	while (ncand < LOOK_CANDS) {
		int pick = HF_NOCARD;

		for (c = 1; c < HF_NCARD; c++) {
			bool taken = false;

			for (i = 0; i < ncand; i++)
				taken |= cand[i] == c;
			if (taken || cost[c] == INT32_MAX || cost[c] > cost[best] + LOOK_MARGIN)
				continue;
			if (pick == HF_NOCARD || cost[c] < cost[pick])
				pick = c;
		}
		if (pick == HF_NOCARD)
			break;
		cand[ncand++] = pick;
	}
	if (ncand < 2)
		return best;
	/* the worlds' seeds come from the caller's rng: the same view gives the same worlds */
	base = hf_rng_next(rng);
	w = malloc(sizeof *w);
	if (!w)
		return best;
	for (k = 0; k < p->look_worlds; k++) {
		uint64_t seed = base + (uint64_t)k * 0x9e3779b97f4a7c15ULL;

		world = hf_game_sample(v, seed);
		if (!world)
			break;
		if (!scratch)
			scratch = hf_game_clone(world);
		if (!scratch)
			break;
		for (i = 0; i < ncand; i++) {
			hf_game_copy(scratch, world);
			/* a world that refuses a candidate (it should not happen) counts no gift */
			if (gift(scratch, p, cand[i], w, seed ^ 0x5851f42d4c957f2dULL, &g))
				sum[i] += g;
		}
		hf_game_free(world);
		world = NULL;
	}
	hf_game_free(scratch);
	free(w);
	if (k < p->look_worlds)
		return best;
	/* the sharp cost plus the expected gift, both per world */
	k = 0;
	for (i = 1; i < ncand; i++)
		if ((long)cost[cand[i]] * p->look_worlds + sum[i] < (long)cost[cand[k]] * p->look_worlds + sum[k])
			k = i;
	if (k && (sum[0] - sum[k]) / p->look_worlds - (cost[cand[k]] - cost[cand[0]]) < LOOK_GAIN)
		k = 0;
	return cand[k];
}
