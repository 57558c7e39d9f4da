/* ai-search.c: the hard player: its policy's play against the alternatives, each played out to the end of the round in worlds dealt from its view. */
#include <stdlib.h>
#include <string.h>

#include "ai.h"

/*
 * An alternative replaces the policy's play only when its mean gain over the
 * worlds clears this many standard errors, after at least MIN_WORLDS: the
 * policy is a good player and a round played out varies by thousands of
 * points, so a handful of worlds says little.
 */
#ifndef SEARCH_Z
#define SEARCH_Z 1.5
#endif
#ifndef SEARCH_MIN_WORLDS
#define SEARCH_MIN_WORLDS 8
#endif
/* An alternative is dropped once it trails the policy's play by this many standard errors. */
#ifndef SEARCH_DROP_Z
#define SEARCH_DROP_Z 1.0
#endif
#define SEARCH_DROP_AFTER 4
/* Dealing a world costs about as much as this many simulated actions: counted, so that many short
 * rollouts near the end of a round cannot stretch a decision past its budget's time. */
#define SEARCH_WORLD_COST 8

struct search {
	const struct hf_view *v;
	struct hf_action cand[AI_CANDS];
	int     n;
	double  sum[AI_CANDS], sum2[AI_CANDS];   /* value minus the policy's, per world */
	int     worlds[AI_CANDS];                /* worlds each was played in */
	bool    out[AI_CANDS];                   /* dropped, or refused in a world (not expected) */
	uint32_t used;                           /* actions simulated */
};

/* mean > z standard errors of the mean (squared: the engine has no libm); false for mean <= 0 */
static bool
clears(double sum, double sum2, int n, double z)
{
	double mean = sum / n, var = sum2 / n - mean * mean;

	return mean > 0 && n > 1 && mean * mean > z * z * var / (n - 1);
}

/*
 * One world: every live candidate played in it, then the round played out;
 * the same deal and rollout for all.  False if the world is given up: the
 * budget ran out in it (a world counts whole or not at all), or the policy's
 * play was refused.
 */
static bool
search_world(struct search *s, const struct hf_game *world, struct hf_game *scratch, struct hf_view *w,
             uint64_t seed, uint32_t budget)
{
	int32_t before[HF_MAX_SIDES], val[AI_CANDS];
	char why[HF_ERRLEN];
	int side = s->v->seats[s->v->seat].side, i;
	uint64_t r;

	ai_rollout_scores(world, before);
	s->used += SEARCH_WORLD_COST;
	for (i = 0; i < s->n; i++) {
		if (s->out[i])
			continue;
		hf_game_copy(scratch, world);
		if (hf_apply(scratch, s->v->seat, &s->cand[i], why, sizeof why) != HF_OK) {
			s->out[i] = true;
			continue;
		}
		r = seed;
		s->used += 1 + (uint32_t)ai_rollout_play(scratch, w, side, &r);
		val[i] = ai_rollout_value(scratch, side, before);
		if (s->used > budget)
			return false;
	}
	if (s->out[0])
		return false;
	for (i = 1; i < s->n; i++) {
		double d;

		if (s->out[i])
			continue;
		d = (double)val[i] - val[0];
		s->sum[i] += d;
		s->sum2[i] += d * d;
		s->worlds[i]++;
		/* clearly worse than the policy's play: no more worlds for it */
		if (s->worlds[i] >= SEARCH_DROP_AFTER && clears(-s->sum[i], s->sum2[i], s->worlds[i], SEARCH_DROP_Z))
			s->out[i] = true;
	}
	return true;
}

/* Alternatives still in the running. */
static int
search_live(const struct search *s)
{
	int i, n = 0;

	for (i = 1; i < s->n; i++)
		n += !s->out[i];
	return n;
}

/* The candidate to play: the best mean among those clearly better than the policy's, else the policy's. */
static int
search_pick(const struct search *s)
{
	double best = 0, mean;
	int i, pick = 0;

	for (i = 1; i < s->n; i++) {
		if (s->out[i] || s->worlds[i] < SEARCH_MIN_WORLDS)
			continue;
		mean = s->sum[i] / s->worlds[i];
		if (mean > best && clears(s->sum[i], s->sum2[i], s->worlds[i], SEARCH_Z)) {
			best = mean;
			pick = i;
		}
	}
	return pick;
}

void
ai_search_choose(const struct hf_view *v, uint32_t budget, uint64_t *rng, struct hf_action *out)
{
	struct search *s;
	struct ai_pos p;
	struct hf_game *world, *scratch = NULL;
	struct hf_view *w;
	uint64_t seed;
	int k;

	ai_hard_policy(v, rng, out);
	if (!budget || v->seat < 0 || v->phase == HF_PHASE_OVER)
		return;
	s = calloc(1, sizeof *s);
	w = malloc(sizeof *w);
	if (!s || !w)
		goto done;
	s->v = v;
	ai_pos_init(&p, v);
	p.sharp = true;
	s->n = ai_cand_list(&p, out, s->cand);
	if (s->n < 2)
		goto done;
	/* the worlds' seeds come from the caller's rng: the same view and rng give the same worlds */
	seed = hf_rng_next(rng);
	for (k = 0; k < AI_SEARCH_MAX_WORLDS && search_live(s); k++) {
		/* stop before a world that would pass the budget (each costs about the same) */
		if (k && s->used + s->used / (uint32_t)k > budget)
			break;
		world = hf_game_sample(v, seed + (uint64_t)k * 0x9e3779b97f4a7c15ULL);
		if (!world)
			break;
		if (!scratch)
			scratch = hf_game_clone(world);
		if (!scratch || !search_world(s, world, scratch, w, seed ^ ((uint64_t)k * 0xbf58476d1ce4e5b9ULL), budget)) {
			hf_game_free(world);
			break;
		}
		hf_game_free(world);
	}
	*out = s->cand[search_pick(s)];
done:
	hf_game_free(scratch);
	free(w);
	free(s);
}
