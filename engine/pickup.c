/* pickup.c: taking the discard pile: the cards taken, the top card melded with the cards shown, and the opening made with it. */
#include <string.h>

#include "game-internal.h"

bool
pickup_frozen(const struct hf_game *g)
{
	return g->pile_freeze > 0;
}

bool
pickup_may(const struct hf_game *g, int seat)
{
	struct legal_pos p;

	if (g->phase != HF_PHASE_DRAW || g->turn != seat)
		return false;
	game_pos(g, seat, &p);
	return legal_pile_open(&p, NULL, 0) == HF_OK;
}

enum hf_err
pickup_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	struct seat_state *ss = &g->seats[seat];
	int side = game_side(g, seat);
	const struct hf_group *shown = a->ngroups > 0 ? &a->groups[0] : NULL;
	bool top_melded = legal_top_melded(r, a);
	struct legal_pos p;
	enum hf_err e;

	if (g->phase != HF_PHASE_DRAW)
		return hf_fail(HF_E_PHASE, why, len, "you have already drawn this turn");
	game_pos(g, seat, &p);
	if ((e = legal_pickup(&p, a, why, len)) != HF_OK)
		return e;

	bool was_down = g->sides[side].down;
	int closed_before = legal_closed(g->sides[side].melds, g->sides[side].nmelds);
	struct meld_ctx c = { .seat = seat, .opening = !was_down };
	int n = legal_taken(r, g->npile), top = g->pile[g->npile - 1];
	uint8_t more[HF_SHOE_MAX];
	for (int i = 0; i < n; i++) {
		uint8_t card = g->pile[--g->npile];
		g->pile[g->npile] = 0;
		g->pile_freeze -= legal_freezes(&g->rules, card);
		more[i] = card;
	}
	game_event(g, HF_EV_PICKUP, seat, top, n, 0);
	/* the groups come from the hand as it was before the pile: only the top card counts */
	if (top_melded) {
		struct hf_group none;
		memset(&none, 0, sizeof none);
		if ((e = meld_group(g, &c, shown != NULL ? shown : &none, top, true, why, len)) != HF_OK)
			return e;
	}
	for (int i = 1; i < a->ngroups; i++)
		if ((e = meld_group(g, &c, &a->groups[i], 0, false, why, len)) != HF_OK)
			return e;
	for (int i = top_melded ? 1 : 0; i < n; i++) {
		ss->hand[more[i]]++;
		ss->hand_n++;
	}
	/* red threes from the pile are laid out, not replaced */
	turn_red3s(g, seat, false);
	g->phase = HF_PHASE_PLAY;
	if (top_melded || a->ngroups > 1)
		return meld_after(g, &c, was_down, closed_before, why, len);
	return HF_OK;
}
