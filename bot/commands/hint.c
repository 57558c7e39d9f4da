/* hint.c: a hint as commands the player can type, in the order to play them, cards named as in the hand. */
#include <string.h>

#include "cmd.h"

/* As the hand shows them: highest first, wilds last. */
static const int hint_order[] = {
	HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN, HF_SIX, HF_FIVE, HF_FOUR,
	HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER
};

/* "9 9 2", "K×4 JK", "9: 2" (a wild onto the open 9s): what the meld command reads back. */
static void
hint_group(struct rbuf *b, const struct hf_group *g)
{
	bool first = true;
	size_t i;
	int k;

	/* the rank is named only for wilds alone onto an open meld */
	if (g->target != HF_NOCARD && g->count[g->target] == 0) {
		rbuf_printf(b, "%s:", render_card(g->target));
		first = false;
	}
	for (i = 0; i < sizeof hint_order / sizeof hint_order[0]; i++) {
		int c = hint_order[i], n = g->count[c];

		if (n > 3) {
			rbuf_printf(b, "%s%s×%d", first ? "" : " ", render_card(c), n);
			first = false;
			continue;
		}
		for (k = 0; k < n; k++, first = false)
			rbuf_printf(b, "%s%s", first ? "" : " ", render_card(c));
	}
}

static bool
hint_shown(const struct hf_group *g)
{
	int c;

	for (c = 0; c < HF_NCARD; c++)
		if (g->count[c] > 0)
			return true;
	return g->target != HF_NOCARD;
}

/* One step as a command: "!meld 4 4 2, 5 5 5". */
static void
hint_step(struct rbuf *b, const struct hf_action *a)
{
	int i, from = 0;

	switch (a->type) {
	case HF_ACT_DRAW: rbuf_add(b, CMD("draw")); return;
	case HF_ACT_OUT: rbuf_add(b, CMD("out")); return;
	case HF_ACT_YES: rbuf_add(b, CMD("yes")); return;
	case HF_ACT_NO: rbuf_add(b, CMD("no")); return;
	case HF_ACT_DISCARD:
		rbuf_printf(b, CMD("discard") " %s", render_card(a->card));
		return;
	case HF_ACT_PICKUP:
		rbuf_add(b, CMD("pickup"));
		/* none shown: the top card joins the open meld of its rank */
		if (a->ngroups == 0 || (a->ngroups == 1 && !hint_shown(&a->groups[0])))
			return;
		break;
	case HF_ACT_MELD:
		rbuf_add(b, CMD("meld"));
		break;
	default:
		return;
	}
	for (i = from; i < a->ngroups; i++) {
		rbuf_add(b, i == from ? " " : ", ");
		hint_group(b, &a->groups[i]);
	}
}

void
hint_line(struct rbuf *b, const struct hf_hint *h)
{
	int i;

	switch (h->kind) {
	case HF_HINT_OFF:
		rbuf_add(b, "hints are off at this table (house rule hints=no).");
		return;
	case HF_HINT_WAIT:
		rbuf_add(b, "hint: nothing to do now: wait for your turn.");
		return;
	case HF_HINT_NONE:
		rbuf_add(b, "hint: no sure step now: " CMD("hand") " and " CMD("table") " show where you stand.");
		return;
	case HF_HINT_PLAN:
		break;
	}
	rbuf_add(b, "hint: ");
	for (i = 0; i < h->nsteps; i++) {
		if (i > 0)
			rbuf_add(b, " · ");
		hint_step(b, &h->steps[i]);
	}
	if (h->out)
		rbuf_add(b, " (you go out)");
	else if (h->foot)
		rbuf_add(b, " (your foot comes up)");
	if (h->again)
		rbuf_add(b, ", then " CMD("hint") " again");
}
