/* ai-pickup.c: whether this seat can justify taking the discard pile, and the action that does it. */
#include <string.h>

#include "ai.h"

/* The cards shown from hand with the top card t; false if the rules allow none. */
static bool
shown_group(const struct ai_pos *p, int t, struct hf_group *g)
{
	const struct hf_rules *r = p->r;
	int nat = p->hand[t], room, w;
	bool open = p->down && p->open_idx[t] >= 0;
	bool pair_only = p->v->pile_frozen || r->pickup_need == HF_NEED_NATURAL_PAIR;

	memset(g, 0, sizeof *g);
	room = r->canasta_size - 1;
	if (open)
		room -= ai_pos_meld_size(&p->melds[p->open_idx[t]]);
	if (room < 0)
		return false;
	if (nat > room)
		nat = room;
	/* a frozen pile needs a natural pair even where the pile needs nothing shown */
	if (r->pickup_need == HF_NEED_NOTHING && p->down && !p->v->pile_frozen)
		return true;
	if (nat >= 2) {
		g->count[t] = (uint8_t)nat;
		return true;
	}
	if (pair_only)
		return false;
	if (open && r->pickup_need != HF_NEED_NOTHING) {
		g->count[t] = (uint8_t)nat;
		return true;
	}
	/* one natural and a wild start a new meld with the top card */
	if (nat == 1 && room >= 2 && ai_pos_wild_ok(p, t, 2, 1)) {
		w = p->hand[HF_TWO] ? HF_TWO : p->hand[HF_JOKER] ? HF_JOKER : 0;
		if (!w)
			return false;
		g->count[t] = 1;
		g->count[w] = 1;
		return true;
	}
	return false;
}

/*
 * The rulebook's word on a planned pickup.  gain: the cards taken; hidden:
 * red 3s that may lie under the top, laid out as the pile is taken (the
 * fewest cards the hand may be left with is what must pass).
 */
static bool
pickup_legal(const struct ai_pos *p, const struct hf_action *a, int gain, int hidden)
{
	struct legal_pos lp;
	bool top = legal_top_melded(p->r, a);

	ai_pos_legal(p, &lp);
	if (legal_pickup(&lp, a, NULL, 0) != HF_OK)
		return false;
	if (!top)
		return a->ngroups == 0;
	return legal_melds(&lp, a, p->v->pile_top, gain - 1 - hidden, NULL, NULL, 0) == HF_OK;
}

bool
ai_pickup_plan(struct hf_action *a, const struct ai_pos *p, int *gain)
{
	static const struct ai_style styles[] = {
		{ .keep = 1 },
		{ .pairs = true, .keep = 1 },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .keep = 1 },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .wilds_all = true, .keep = 1 },
	};
	const struct hf_view *v = p->v;
	const struct hf_rules *r = p->r;
	struct ai_plan pl;
	struct ai_pos q;
	struct hf_group g;
	int t = v->pile_top, i, c, left, hidden = 0;

	if (!v->may_pickup || !v->pile_size || !hf_card_is_natural(t))
		return false;
	if (r->pickup_min_pile && v->pile_size < r->pickup_min_pile)
		return false;
	if (r->pickup_needs_down && !p->down)
		return false;
	*gain = r->pickup_count && r->pickup_count < v->pile_size ? r->pickup_count : v->pile_size;
	if (!shown_group(p, t, &g))
		return false;
	/* the hand after taking the pile must still allow a discard that does not empty it */
	left = p->hand_n + *gain - 1;
	for (c = 0; c < HF_NCARD; c++)
		left -= g.count[c];
	/* red 3s hidden in the pile are laid out as it is taken (classic's first discard may bury some): count the worst */
	if (r->red3_mode == HF_RED3_BONUS)
		hidden = v->unseen[HF_RED3] < *gain - 1 ? v->unseen[HF_RED3] : *gain - 1;
	left -= hidden;
	if (left < (v->seats[p->me].in_foot ? 2 : 1))
		return false;
	memset(a, 0, sizeof *a);
	a->type = HF_ACT_PICKUP;
	if (p->down) {
		bool any = false;

		for (c = 0; c < HF_NCARD; c++)
			any |= g.count[c] != 0;
		/* nothing shown: the top card plays onto the open meld (or needs nothing) */
		if (any) {
			a->groups[0] = g;
			a->ngroups = 1;
		}
		return pickup_legal(p, a, *gain, hidden);
	}
	/* not down: the pickup carries the whole opening, from the hand as it is */
	q = *p;
	for (c = 0; c < HF_NCARD; c++) {
		q.hand[c] = (uint8_t)(q.hand[c] - g.count[c]);
		q.hand_n -= g.count[c];
	}
	if (g.count[t] + 1 < 2 || g.count[t] + 1 + g.count[HF_TWO] + g.count[HF_JOKER] < 3)
		return false;
	for (i = 0; i < (int)(sizeof styles / sizeof styles[0]); i++)
		if (ai_plan_melds(&pl, &q, &styles[i], &g, t) && pl.after.hand_n + *gain - 1 - hidden >= 1 &&
		    pickup_legal(p, &pl.act, *gain, hidden)) {
			*a = pl.act;
			return true;
		}
	return false;
}
