/* fallback.c: a simple legal move for a computer seat whose own move was refused, so a table never stalls silently. */
#include <string.h>

#include "bot.h"

/* Draw, else discard the cheapest card that may go, else say yes; failing
 * all, the easy player's play, which tries any play it finds. */
int
fallback_move(struct bot *b, struct session *s, int seat)
{
	struct hf_action a;
	struct hf_view v;
	char why[HF_ERRLEN];
	int c, best, rc, tries;

	hf_game_view(s->g, seat, &v);
	memset(&a, 0, sizeof a);
	if (v.phase == HF_PHASE_DRAW) {
		a.type = HF_ACT_DRAW;
		return flow_apply(b, s, seat, &a, why, sizeof why);
	}
	if (v.phase == HF_PHASE_ASK) {
		a.type = HF_ACT_YES;
		return flow_apply(b, s, seat, &a, why, sizeof why);
	}
	for (;;) {
		best = -1;
		for (c = 1; c < HF_NCARD; c++)
			if (v.hand[c] > 0 && (best < 0 || v.rules->value[c] < v.rules->value[best]))
				best = c;
		if (best < 0)
			break;
		a.type = HF_ACT_DISCARD;
		a.card = (uint8_t)best;
		if ((rc = flow_apply(b, s, seat, &a, why, sizeof why)) >= 0)
			return rc;
		/* that card may not go: the next cheapest (this view is ours to change) */
		v.hand[best] = 0;
	}
	/* No discard will do (say, the last card cannot go out yet). */
	hf_game_view(s->g, seat, &v);
	for (tries = 0; tries < 64; tries++) {
		memset(&a, 0, sizeof a);
		hf_ai_choose(&v, HF_AI_EASY, &s->ai_rng, &a);
		if ((rc = flow_apply(b, s, seat, &a, why, sizeof why)) >= 0)
			return rc;
	}
	return -1;
}
