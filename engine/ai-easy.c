/* ai-easy.c: the easy computer player: a random choice among the plays it can tell are legal. */
#include <string.h>

#include "ai.h"

void
ai_easy_choose(const struct hf_view *v, uint64_t *rng, struct hf_action *out)
{
	struct ai_pos p;
	struct ai_out o;
	struct ai_plan pl;
	struct hf_action pick;
	bool in_foot, can_meld, can_discard;
	int gain, i, n, k;

	memset(out, 0, sizeof *out);
	ai_pos_init(&p, v);
	if (v->phase == HF_PHASE_ASK) {
		out->type = hf_rng_below(rng, 4) ? HF_ACT_YES : HF_ACT_NO;
		if (v->seat < 0 || v->seat == v->asker)
			out->type = HF_ACT_YES;
		return;
	}
	if (v->phase == HF_PHASE_DRAW) {
		out->type = HF_ACT_DRAW;
		if (hf_rng_below(rng, 2) && ai_pickup_plan(&pick, &p, &gain))
			*out = pick;
		return;
	}
	in_foot = v->seats[p.me].in_foot;
	if (ai_out_plan(&o, &p) && hf_rng_below(rng, 2)) {
		if (!ai_out_need_ask(&p)) {
			if (o.plan.act.ngroups) {
				*out = o.plan.act;
			} else {
				out->type = HF_ACT_DISCARD;
				out->card = (uint8_t)o.discard;
			}
			return;
		}
		if (!v->asked_this_turn && !v->melded_this_turn) {
			out->type = HF_ACT_OUT;
			return;
		}
	}
	can_meld = ai_plan_all(&pl, &p, in_foot ? 2 : 1) && pl.act.ngroups > 0;
	can_discard = p.hand_n >= (in_foot ? 2 : 1);
	if (can_meld && (!can_discard || hf_rng_below(rng, 2))) {
		*out = pl.act;
		if (p.down && pl.act.ngroups > 1) {
			/* any nonempty subset of the groups is legal on its own once down */
			n = 0;
			k = (int)hf_rng_below(rng, pl.act.ngroups) + 1;
			for (i = 0; i < pl.act.ngroups && n < k; i++)
				if (hf_rng_below(rng, 2) || pl.act.ngroups - i <= k - n)
					out->groups[n++] = pl.act.groups[i];
			out->ngroups = (uint8_t)n;
		}
		return;
	}
	out->type = HF_ACT_DISCARD;
	out->card = (uint8_t)ai_discard_choose(&p, rng, false);
	if (out->card == HF_NOCARD)
		ai_pos_forced(&p, out);
}
