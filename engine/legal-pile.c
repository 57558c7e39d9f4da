/* legal-pile.c: the rulebook on the pile: what freezes it, when it is open, what taking it asks. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

bool
legal_freezes(const struct hf_rules *r, int card)
{
	return r->freeze_on_two && card == HF_TWO;
}

int
legal_taken(const struct hf_rules *r, int npile)
{
	int n = r->pickup_count;

	return n == 0 || n > npile ? npile : n;
}

enum hf_err
legal_pile_open(const struct legal_pos *p, char *why, size_t len)
{
	const struct hf_rules *r = p->r;
	int top = p->pile_top, b = top;

	if (p->pile_n == 0)
		return hf_fail(HF_E_PILE, why, len, "the discard pile is empty");
	if (p->pile_n < r->pickup_min_pile)
		return hf_fail(HF_E_PILE, why, len, "the pile must hold at least %d cards to be taken (it has %d)",
		               r->pickup_min_pile, p->pile_n);
	/* sevens: "Black 3s freeze the pile until a normal card is discarded on top of it" */
	if ((r->pickup_blocked_by & HF_BLOCK_UNDER_WILD) && hf_card_is_wild(top))
		b = p->pile_plain;
	if (b == HF_BLACK3 && (r->pickup_blocked_by & HF_BLOCK_BLACK3))
		return hf_fail(HF_E_PILE, why, len, b == top ? "a black 3 on top blocks the pile" :
		               "a black 3 blocks the pile until a natural card covers it");
	if (b == HF_RED3 && (r->pickup_blocked_by & HF_BLOCK_RED3))
		return hf_fail(HF_E_PILE, why, len, b == top ? "a red 3 on top blocks the pile" :
		               "a red 3 blocks the pile until a natural card covers it");
	if (hf_card_is_wild(top) && (r->pickup_blocked_by & HF_BLOCK_WILD))
		return hf_fail(HF_E_PILE, why, len, "a wild card on top blocks the pile");
	if (r->pickup_needs_down && !p->down)
		return hf_fail(HF_E_PILE, why, len, "your side must have melded before taking the pile");
	return HF_OK;
}

static bool
shows(const struct hf_action *a)
{
	return a->ngroups > 0 && cards_total(a->groups[0].count) > 0;
}

bool
legal_top_melded(const struct hf_rules *r, const struct hf_action *a)
{
	return shows(a) || (a->ngroups > 0 && a->groups[0].target) || r->pickup_need == HF_NEED_PLAY_TOP;
}

static bool
only_pair(const struct hf_group *shown, int top)
{
	return shown->count[top] >= 2 && cards_total(shown->count) == shown->count[top];
}

/* What the player shows to take the pile (before anything moves). */
static enum hf_err
justify(const struct legal_pos *p, const struct hf_action *a, char *why, size_t len)
{
	const struct hf_rules *r = p->r;
	const struct hf_group *shown = a->ngroups > 0 ? &a->groups[0] : NULL;
	int top = p->pile_top;
	bool has = shows(a), frozen = p->frozen;

	if (has && shown->target)
		return hf_fail(HF_E_SYNTAX, why, len, "the cards shown for the pile take no target");
	if (r->pickup_need == HF_NEED_NOTHING && !frozen)
		return HF_OK;
	/* a wild on top plays where it could be laid down: where, legal_group says as it is melded */
	if (hf_card_is_wild(top) && r->pickup_need == HF_NEED_PLAY_TOP && !frozen) {
		if (!has && !(shown != NULL && shown->target) && legal_find(p->melds, p->nmelds, HF_JOKER, true) < 0)
			return hf_fail(HF_E_PILE, why, len, "to take the pile you must play the %s: show a pair or two "
			               "wilds to meld with it, or name the open meld it goes on (pickup 9:)",
			               hf_card_name(top));
		return HF_OK;
	}
	/* sevens, pcio: "a pair ... matching the top card", "two cards ... of the same rank": 2 2 for a 2 */
	if (hf_card_is_wild(top) && r->pickup_need == HF_NEED_NATURAL_PAIR && !frozen) {
		if (!has || !only_pair(shown, top))
			return hf_fail(HF_E_PILE, why, len, "to take the pile you need a pair of %s", card_plural(top));
		return HF_OK;
	}
	if (!hf_card_is_natural(top))
		return hf_fail(HF_E_PILE, why, len, "a %s on top cannot be played: the pile cannot be taken",
		               hf_card_name(top));
	if (r->pickup_need == HF_NEED_NATURAL_PAIR || frozen) {
		if (!has || !only_pair(shown, top))
			return hf_fail(HF_E_PILE, why, len, "%s: you need a natural pair of %s",
			               frozen ? "the pile is frozen" : "to take the pile", card_plural(top));
		return HF_OK;
	}
	if (!has && !(shown != NULL && shown->target) && legal_find(p->melds, p->nmelds, top, true) < 0)
		return hf_fail(HF_E_PILE, why, len, "to take the pile you must play the %s: show a pair, a natural and "
		               "a wild, or have an open meld of %s", hf_card_name(top), card_plural(top));
	return HF_OK;
}

enum hf_err
legal_pickup(const struct legal_pos *p, const struct hf_action *a, char *why, size_t len)
{
	int cap = p->r->hand_cap, n;
	enum hf_err e;

	if (a->ngroups > HF_MAX_GROUPS)
		return hf_fail(HF_E_SYNTAX, why, len, "too many melds in one move");
	if ((e = legal_pile_open(p, why, len)) != HF_OK || (e = justify(p, a, why, len)) != HF_OK)
		return e;
	n = p->hand_n + legal_taken(p->r, p->pile_n) - (legal_top_melded(p->r, a) ? 1 : 0);
	for (int i = 0; i < a->ngroups; i++)
		n -= cards_total(a->groups[i].count);
	if (cap && n > cap)
		return hf_fail(HF_E_PILE, why, len, "a hand may hold at most %d cards: this would make %d", cap, n);
	return HF_OK;
}
