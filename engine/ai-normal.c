/* ai-normal.c: the normal computer player: meld what makes canastas, open early, take good piles, throw safe cards. */
#include <string.h>

#include "ai.h"

/* Answers a partner's "may I go out?"; false if this seat has no answer to give. */
bool
ai_normal_common(const struct ai_pos *p, struct hf_action *out)
{
	const struct hf_view *v = p->v;

	if (v->phase != HF_PHASE_ASK)
		return false;
	out->type = HF_ACT_YES;
	if (v->seat >= 0 && v->seat != v->asker && v->seats[v->seat].answer < 0)
		out->type = ai_out_answer(p) ? HF_ACT_YES : HF_ACT_NO;
	return true;
}

/* Is the pile worth more than two cards from the stock? */
static bool
want_pile(const struct ai_pos *p, int gain)
{
	const struct hf_view *v = p->v;

	/* in the foot with the side's canastas made, a big pile only delays going out */
	if (v->seats[p->me].in_foot && ai_pos_melds_ready(p) && gain > 3)
		return false;
	return gain >= 2 || p->open_idx[v->pile_top] >= 0 || p->hand[v->pile_top] >= 2;
}

/* The melds to make this turn when not going out. */
static bool
plan_turn(struct ai_plan *pl, const struct ai_pos *p)
{
	static const struct ai_style opening[] = {
		{ .keep = 1 },
		{ .pairs = true, .keep = 1 },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .keep = 1 },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .wilds_all = true, .keep = 1 },
	};
	struct ai_style st = { .pairs = true, .wilds_close = true, .wild_meld = true, .keep = 1 };
	bool in_foot = p->v->seats[p->me].in_foot;
	size_t i;

	if (!p->down) {
		for (i = 0; i < sizeof opening / sizeof opening[0]; i++)
			if (ai_plan_melds(pl, p, &opening[i], NULL, 0))
				return pl->act.ngroups > 0;
		return false;
	}
	/* in the hand, melding it all takes up the foot at once: worth every wild */
	if (!in_foot && ai_plan_all(pl, p, 0) && pl->after.hand_n == 0 && pl->act.ngroups)
		return true;
	st.keep = in_foot ? 2 : 1;
	if (in_foot)
		st.wilds_all = p->hand_n <= 6;
	return ai_plan_melds(pl, p, &st, NULL, 0) && pl->act.ngroups > 0;
}

void
ai_normal_choose(const struct hf_view *v, uint64_t *rng, struct hf_action *out)
{
	struct ai_pos p;

	ai_pos_init(&p, v);
	ai_normal_move(&p, rng, out);
}

void
ai_normal_move(const struct ai_pos *p, uint64_t *rng, struct hf_action *out)
{
	const struct hf_view *v = p->v;
	struct ai_plan pl;
	struct ai_out o;
	int gain;

	memset(out, 0, sizeof *out);
	if (ai_normal_common(p, out))
		return;
	if (v->phase == HF_PHASE_DRAW) {
		if (ai_pickup_plan(out, p, &gain) && want_pile(p, gain))
			return;
		memset(out, 0, sizeof *out);
		out->type = HF_ACT_DRAW;
		return;
	}
	if (ai_out_plan(&o, p)) {
		if (!ai_out_need_ask(p)) {
			if (o.plan.act.ngroups) {
				*out = o.plan.act;
				return;
			}
			out->type = HF_ACT_DISCARD;
			out->card = (uint8_t)o.discard;
			return;
		}
		if (!v->asked_this_turn && !v->melded_this_turn) {
			out->type = HF_ACT_OUT;
			return;
		}
	}
	if (plan_turn(&pl, p)) {
		*out = pl.act;
		return;
	}
	out->type = HF_ACT_DISCARD;
	out->card = (uint8_t)(p->sharp ? ai_discard_sharp(p) : ai_discard_choose(p, rng, true));
	if (out->card == HF_NOCARD)
		ai_pos_forced(p, out);
}
