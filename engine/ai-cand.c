/* ai-cand.c: the plays the hard player weighs at a decision: its policy's first, then the real alternatives. */
#include <string.h>

#include "ai.h"

/* Discards weighed besides the policy's play: the cheapest by the sharp cost. */
#define CAND_DISCARDS 4

static void
add(struct hf_action *list, int *n, const struct hf_action *a)
{
	int i;

	if (*n >= AI_CANDS)
		return;
	for (i = 0; i < *n; i++)
		if (!memcmp(&list[i], a, sizeof *a))
			return;
	list[(*n)++] = *a;
}

static void
add_type(struct hf_action *list, int *n, int type, int card)
{
	struct hf_action a;

	memset(&a, 0, sizeof a);
	a.type = (uint8_t)type;
	a.card = (uint8_t)card;
	add(list, n, &a);
}

/* Going out now, or asking to: the out plan's first step. */
static void
add_out(const struct ai_pos *p, struct hf_action *list, int *n)
{
	const struct hf_view *v = p->v;
	struct ai_out o;

	if (!ai_out_plan(&o, p))
		return;
	if (ai_out_need_ask(p)) {
		if (!v->asked_this_turn && !(p->r->ask_before_meld && v->melded_this_turn))
			add_type(list, n, HF_ACT_OUT, 0);
		return;
	}
	if (o.plan.act.ngroups)
		add(list, n, &o.plan.act);
	else
		add_type(list, n, HF_ACT_DISCARD, o.discard);
}

/* Melding less or more than the policy: naturals only, the normal mix, everything it can. */
static void
add_melds(const struct ai_pos *p, struct hf_action *list, int *n)
{
	int keep = p->v->seats[p->me].in_foot ? 2 : 1;
	const struct ai_style styles[] = {
		{ .keep = keep },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .keep = keep },
		{ .pairs = true, .wilds_close = true, .wild_meld = true, .wilds_all = true, .keep = keep },
	};
	struct ai_plan pl;
	size_t i;

	for (i = 0; i < sizeof styles / sizeof styles[0]; i++)
		if (ai_plan_melds(&pl, p, &styles[i], NULL, 0) && pl.act.ngroups)
			add(list, n, &pl.act);
}

static void
add_discards(const struct ai_pos *p, struct hf_action *list, int *n)
{
	int cost[HF_NCARD], k, c, pick;
	bool used[HF_NCARD] = { false };

	/* from the foot the last card only goes as a way out (the out plan) */
	if (p->v->seats[p->me].in_foot && p->hand_n <= 1)
		return;
	ai_discard_sharp_costs(p, cost);
	for (k = 0; k < CAND_DISCARDS; k++) {
		pick = HF_NOCARD;
		for (c = 1; c < HF_NCARD; c++)
			if (!used[c] && cost[c] != INT32_MAX && (pick == HF_NOCARD || cost[c] < cost[pick]))
				pick = c;
		if (pick == HF_NOCARD)
			break;
		used[pick] = true;
		add_type(list, n, HF_ACT_DISCARD, pick);
	}
}

int
ai_cand_list(const struct ai_pos *p, const struct hf_action *base, struct hf_action list[AI_CANDS])
{
	const struct hf_view *v = p->v;
	struct hf_action a;
	int n = 0, gain;

	add(list, &n, base);
	switch (v->phase) {
	case HF_PHASE_ASK:
		if (v->seat != v->asker && v->seats[v->seat].answer < 0) {
			add_type(list, &n, HF_ACT_YES, 0);
			add_type(list, &n, HF_ACT_NO, 0);
		}
		break;
	case HF_PHASE_DRAW:
		add_type(list, &n, HF_ACT_DRAW, 0);
		if (ai_pickup_plan(&a, p, &gain))
			add(list, &n, &a);
		break;
	case HF_PHASE_PLAY:
		add_out(p, list, &n);
		add_melds(p, list, &n);
		add_discards(p, list, &n);
		break;
	default:
		break;
	}
	return n;
}
