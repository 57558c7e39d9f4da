/* ai-hard.c: the hard computer player: its policy (the normal player's plan, sharpened where normal leaves points), overruled by its search. */
#include <string.h>

#include "ai.h"

/* Where the pile needs nothing shown (duel), it may be taken before the side has opened. */
static bool
free_pickup(const struct ai_pos *p)
{
	const struct hf_view *v = p->v;
	int taken = p->r->pickup_count && p->r->pickup_count < v->pile_size ? p->r->pickup_count : v->pile_size;

	if (p->r->pickup_need != HF_NEED_NOTHING || v->pile_frozen || !v->may_pickup)
		return false;
	if (p->r->hand_cap && p->hand_n + taken > p->r->hand_cap)
		return false;
	return !v->seats[p->me].in_foot;
}

/*
 * In the foot, seven more cards mostly delay going out: in a duel the pile
 * taken from the foot lost more rounds (to the stock running out, a tie)
 * than it won.  Only where the pile needs nothing shown: elsewhere taking
 * it means the top card already plays.
 */
static bool
skip_pile(const struct ai_pos *p)
{
	return p->r->pickup_need == HF_NEED_NOTHING && p->v->seats[p->me].in_foot;
}

void
ai_hard_choose(const struct hf_view *v, uint32_t budget, uint64_t *rng, struct hf_action *out)
{
	ai_search_choose(v, budget, rng, out);
}

void
ai_hard_policy(const struct hf_view *v, uint64_t *rng, struct hf_action *out)
{
	struct ai_pos p;

	ai_pos_init(&p, v);
	p.sharp = true;
	ai_normal_move(&p, rng, out);
	if (v->phase != HF_PHASE_DRAW || v->seat < 0)
		return;
	if (out->type == HF_ACT_DRAW && free_pickup(&p)) {
		memset(out, 0, sizeof *out);
		out->type = HF_ACT_PICKUP;
	} else if (out->type == HF_ACT_PICKUP && skip_pile(&p)) {
		memset(out, 0, sizeof *out);
		out->type = HF_ACT_DRAW;
	}
}
