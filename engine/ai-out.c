/* ai-out.c: going out: whether this seat can end the round now, whether it must ask, and how a partner answers. */
#include <string.h>

#include "ai.h"

bool
ai_out_plan(struct ai_out *o, const struct ai_pos *p)
{
	const struct hf_view *v = p->v;
	int keep = p->r->final_discard_required ? 1 : 0, c;
	struct ai_pos q;

	if (v->seat < 0 || !v->seats[p->me].in_foot || !ai_pos_partners_ready(p))
		return false;
	/* planned as if the partners agreed: whether to ask is the caller's question */
	q = *p;
	q.permission = true;
	if (!ai_plan_all(&o->plan, &q, keep))
		return false;
	if (o->plan.after.hand_n > 1)
		return false;
	if (!ai_pos_melds_ready(&o->plan.after))
		return false;
	o->discard = HF_NOCARD;
	if (o->plan.after.hand_n == 1) {
		for (c = 1; c < HF_NCARD; c++)
			if (o->plan.after.hand[c])
				o->discard = c;
		if (!ai_pos_can_discard(&o->plan.after, o->discard))
			return false;
	}
	return true;
}

bool
ai_out_need_ask(const struct ai_pos *p)
{
	return p->r->ask_partner && !p->permission && ai_pos_has_partners(p);
}

/* The value of the cards this seat would be caught with. */
static int
caught_value(const struct ai_pos *p)
{
	int v = ai_pos_value(p, p->hand), c;

	if (p->r->red3_mode == HF_RED3_BOOK)
		v += p->hand[HF_RED3] * (p->r->red3_caught - p->r->value[HF_RED3]);
	if (p->me >= 0 && p->v->seats[p->me].foot_count) {
		/* an untaken foot: count it at the average value of an unseen card */
		int unseen = 0, val = 0;

		for (c = 0; c < HF_NCARD; c++) {
			unseen += p->v->unseen[c];
			val += p->v->unseen[c] * p->r->value[c];
		}
		if (unseen && p->r->caught_counts_foot)
			v += val * p->v->seats[p->me].foot_count / unseen;
	}
	return v < 0 ? -v : v;
}

/*
 * "May I go out?"  Yes unless this seat holds a lot that going out would
 * cost and the round still has cards enough to meld them.  Where partners'
 * cards are dismissed, holding cards costs nothing: always yes.
 */
bool
ai_out_answer(const struct ai_pos *p)
{
	if (p->r->partners_dismissed)
		return true;
	if (p->v->stock < 12)
		return true;
	return caught_value(p) < 150;
}
