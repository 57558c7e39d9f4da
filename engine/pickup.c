/* pickup.c: taking the discard pile: what blocks it, what justifies it, and the opening made with it. */
#include <string.h>

#include "game-internal.h"

bool pickup_frozen(const struct hf_game *g)
{
	return g->rules.freeze_on_wild && g->pile_wilds > 0;
}

static enum hf_err blocked(const struct hf_game *g, int seat, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	if (g->npile == 0)
		return hf_fail(HF_E_PILE, why, len, "the discard pile is empty");
	int top = g->pile[g->npile - 1];
	if (g->npile < r->pickup_min_pile)
		return hf_fail(HF_E_PILE, why, len, "the pile must hold at least %d cards to be taken (it has %d)",
		               r->pickup_min_pile, g->npile);
	if (top == HF_BLACK3 && (r->pickup_blocked_by & HF_BLOCK_BLACK3))
		return hf_fail(HF_E_PILE, why, len, "a black 3 on top blocks the pile");
	if (top == HF_RED3 && (r->pickup_blocked_by & HF_BLOCK_RED3))
		return hf_fail(HF_E_PILE, why, len, "a red 3 on top blocks the pile");
	if (hf_card_is_wild(top) && (r->pickup_blocked_by & HF_BLOCK_WILD))
		return hf_fail(HF_E_PILE, why, len, "a wild card on top blocks the pile");
	if (r->pickup_needs_down && !g->sides[game_side(g, seat)].down)
		return hf_fail(HF_E_PILE, why, len, "your side must have melded before taking the pile");
	return HF_OK;
}

bool pickup_may(const struct hf_game *g, int seat)
{
	return g->phase == HF_PHASE_DRAW && g->turn == seat && blocked(g, seat, NULL, 0) == HF_OK;
}

static bool only_pair(const struct hf_group *shown, int top)
{
	return shown->count[top] >= 2 && cards_total(shown->count) == shown->count[top];
}

/* What the player needs to show (before anything moves). */
static enum hf_err justify(const struct hf_game *g, int seat, const struct hf_group *shown, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	int top = g->pile[g->npile - 1];
	bool has = shown != NULL && cards_total(shown->count) > 0;
	bool frozen = pickup_frozen(g);
	if (has && shown->target)
		return hf_fail(HF_E_SYNTAX, why, len, "the cards shown for the pile take no target");
	if (r->pickup_need == HF_NEED_NOTHING && !frozen)
		return HF_OK;
	if (!hf_card_is_natural(top))
		return hf_fail(HF_E_PILE, why, len, "a %s on top cannot be played: the pile cannot be taken",
		               hf_card_name(top));
	if (r->pickup_need == HF_NEED_NATURAL_PAIR || frozen) {
		if (!has || !only_pair(shown, top))
			return hf_fail(HF_E_PILE, why, len, "%s: you need a natural pair of %s",
			               frozen ? "the pile is frozen" : "to take the pile", card_plural(top));
		return HF_OK;
	}
	if (!has) {
		const struct side_state *sd = &g->sides[game_side(g, seat)];
		for (int i = 0; i < sd->nmelds; i++)
			if (sd->melds[i].rank == top && sd->melds[i].kind == HF_KIND_OPEN)
				return HF_OK;
		return hf_fail(HF_E_PILE, why, len, "to take the pile you must play the %s: show a pair, a natural and "
		               "a wild, or have an open meld of %s", hf_card_name(top), card_plural(top));
	}
	return HF_OK;
}

static int taken_count(const struct hf_game *g)
{
	int n = g->rules.pickup_count;
	return n == 0 || n > g->npile ? g->npile : n;
}

static enum hf_err hand_cap(const struct hf_game *g, int seat, const struct hf_action *a, bool top_melded,
                            char *why, size_t len)
{
	int cap = g->rules.hand_cap, n = g->seats[seat].hand_n + taken_count(g) - (top_melded ? 1 : 0);
	for (int i = 0; i < a->ngroups; i++)
		n -= cards_total(a->groups[i].count);
	if (cap && n > cap)
		return hf_fail(HF_E_PILE, why, len, "a hand may hold at most %d cards: this would make %d", cap, n);
	return HF_OK;
}

enum hf_err pickup_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	struct seat_state *ss = &g->seats[seat];
	int side = game_side(g, seat);
	const struct hf_group *shown = a->ngroups > 0 ? &a->groups[0] : NULL;
	bool has = shown != NULL && cards_total(shown->count) > 0;
	bool top_melded = has || r->pickup_need == HF_NEED_PLAY_TOP;
	enum hf_err e;

	if (g->phase != HF_PHASE_DRAW)
		return hf_fail(HF_E_PHASE, why, len, "you have already drawn this turn");
	if (a->ngroups > HF_MAX_GROUPS)
		return hf_fail(HF_E_SYNTAX, why, len, "too many melds in one move");
	if ((e = blocked(g, seat, why, len)) != HF_OK || (e = justify(g, seat, shown, why, len)) != HF_OK ||
	    (e = hand_cap(g, seat, a, top_melded, why, len)) != HF_OK)
		return e;

	bool was_down = g->sides[side].down;
	int closed_before = meld_closed_count(g, side);
	struct meld_ctx c = { .seat = seat, .opening = !was_down };
	int n = taken_count(g), top = g->pile[g->npile - 1];
	uint8_t more[HF_SHOE_MAX];
	for (int i = 0; i < n; i++) {
		uint8_t card = g->pile[--g->npile];
		g->pile[g->npile] = 0;
		g->pile_wilds -= hf_card_is_wild(card);
		more[i] = card;
	}
	game_event(g, HF_EV_PICKUP, seat, top, n, 0);
	/* the groups come from the hand as it was before the pile: only the top card counts */
	if (top_melded) {
		struct hf_group none;
		memset(&none, 0, sizeof none);
		if ((e = meld_group(g, &c, has ? shown : &none, top, true, why, len)) != HF_OK)
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
