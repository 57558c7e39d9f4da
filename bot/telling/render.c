/* render.c: what players see, from seat views only, in styled text (lib/style.h), never a wire format: here a card, a hand, a group (the rest: render-*.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

const char *
render_card(int card)
{
	switch (card) {
	case HF_RED3: return "3♥";
	case HF_BLACK3: return "3♣";
	case HF_JOKER: return "JK";
	default: return hf_card_name(card);
	}
}

const char *
render_rank_plural(int rank)
{
	static const char *const names[HF_NCARD] = {
		"?", "red 3s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Js", "Qs", "Ks", "As", "wilds"
	};
	return rank >= 0 && rank < HF_NCARD ? names[rank] : "?";
}

void
render_hand(struct rbuf *b, const struct hf_view *v)
{
	const struct hf_seat_view *me = &v->seats[v->seat];
	bool first = true;
	size_t i;

	rbuf_printf(b, "Your %s (%u): ", me->in_foot ? "foot" : "hand", v->hand_count);
	for (i = 0; i < sizeof hand_order / sizeof hand_order[0]; i++)
		card_run(b, hand_order[i], v->hand[hand_order[i]], &first);
	if (first)
		rbuf_add(b, "(empty)");
	/* "Your foot" already says where the cards come from; a hand says what waits. */
	if (!me->in_foot)
		rbuf_printf(b, " | foot: %u card%s waiting", me->foot_count, me->foot_count == 1 ? "" : "s");
	if (v->phase != HF_PHASE_OVER && me->side < v->nsides && !v->sides[me->side].down)
		rbuf_printf(b, " | to open: %d points", v->sides[me->side].open_min);
	if (v->phase != HF_PHASE_OVER && v->turn == v->seat) {
		if (v->phase == HF_PHASE_DRAW)
			rbuf_add(b, " | your turn: " CMD("draw") " or " CMD("pickup"));
		else if (v->phase == HF_PHASE_ASK)
			rbuf_add(b, " | waiting for your partners' answer");
		else if (v->phase == HF_PHASE_PLAY && v->permission)
			rbuf_add(b, " | your partners agree: go out (meld or discard your last cards)");
		else if (v->phase == HF_PHASE_PLAY && v->asked_this_turn)
			rbuf_add(b, " | your partners said no: meld, then discard");
		else if (v->phase == HF_PHASE_PLAY)
			rbuf_add(b, " | " CMD("meld") ", then " CMD("discard"));
	}
}

void
render_group(struct rbuf *b, const struct hf_group *g)
{
	bool first = true;
	size_t i;

	for (i = 0; i < sizeof hand_order / sizeof hand_order[0]; i++) {
		int c = hand_order[i], k;
		for (k = 0; k < g->count[c]; k++) {
			if (!first)
				rbuf_add(b, " ");
			card_add(b, c);
			first = false;
		}
	}
}
