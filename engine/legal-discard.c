/* legal-discard.c: the rulebook on discards: which cards may go onto the pile, and when none can. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

bool
legal_forbidden(const struct hf_rules *r, int card)
{
	return (card == HF_JOKER && !r->discard_joker_ok) || (card == HF_RED3 && !r->discard_red3_ok);
}

/* One group of n cards of a forbidden kind onto target: a candidate play for legal_stuck. */
static bool
plays(const struct legal_pos *p, int kind, int n, int target, struct hf_action *a)
{
	memset(a, 0, sizeof *a);
	a->type = HF_ACT_MELD;
	a->ngroups = 1;
	a->groups[0].target = (uint8_t)target;
	a->groups[0].count[kind] = (uint8_t)n;
	return legal_melds(p, a, 0, 0, NULL, NULL, 0) == HF_OK;
}

/*
 * Forbidden cards may be melded: wilds onto an open meld or into a wild
 * meld, red 3s under closed books.  Each kind alone, every count, every
 * place: a move of several groups needs one of them to be legal alone
 * (an opening of forbidden cards is one wild meld; a group that leaves
 * cards in hand is judged as the whole move would be).
 */
bool
legal_stuck(const struct legal_pos *p, struct hf_action *play)
{
	struct hf_action a;
	int k, n, i;

	for (k = 1; k < HF_NCARD; k++) {
		if (!p->hand[k] || !legal_forbidden(p->r, k))
			continue;
		for (n = 1; n <= p->hand[k]; n++) {
			if (hf_card_is_wild(k) && plays(p, k, n, HF_JOKER, &a))
				goto found;
			for (i = 0; i < p->nmelds; i++) {
				const struct hf_meld *m = &p->melds[i];
				bool open = m->kind == HF_KIND_OPEN;

				if (!hf_card_is_natural(m->rank) || (hf_card_is_wild(k) ? !open : open || k != HF_RED3))
					continue;
				if (plays(p, k, n, m->rank, &a))
					goto found;
			}
		}
	}
	return true;
found:
	if (play != NULL)
		*play = a;
	return false;
}

bool
legal_discard_plain(const struct hf_rules *r, int card, int hand_n, bool in_foot)
{
	return !legal_forbidden(r, card) && !(hand_n == 1 && in_foot);
}

enum hf_err
legal_discard(const struct legal_pos *p, int card, char *why, size_t len)
{
	bool short_out;

	if (card <= HF_NOCARD || card >= HF_NCARD || p->hand[card] == 0)
		return hf_fail(HF_E_NO_CARDS, why, len, "you hold no %s", hf_card_name(card));
	if (legal_discard_plain(p->r, card, p->hand_n, p->in_foot))
		return HF_OK;
	if (legal_forbidden(p->r, card)) {
		const char *what = card == HF_JOKER ? "jokers" : "red 3s";
		struct hf_action play;
		char text[64];

		for (int k = 1; k < HF_NCARD; k++)
			if (p->hand[k] && !legal_forbidden(p->r, k))
				return hf_fail(HF_E_DISCARD, why, len, "%s cannot be discarded", what);
		/* a hand of forbidden cards only: one may go, so the turn can end, if none of them plays */
		if (!legal_stuck(p, &play)) {
			hf_action_format(&play, text, sizeof text);
			return hf_fail(HF_E_DISCARD, why, len, "%s cannot be discarded while one can be melded: %s", what,
			               text);
		}
	}
	/*
	 * The last card from the foot goes out where the side may, and where only
	 * the partners' word is missing the player asks first.  Where the side
	 * cannot go out, no other move is left (melding the card would empty the
	 * hand as well): it goes all the same and the seat plays on from an empty
	 * hand.  Only red 3s laid out and not replaced (a house rule) leave a seat
	 * one card after its draw; with the stock empty the round ends anyway.
	 */
	if (p->hand_n == 1 && p->in_foot && p->stock > 0 && p->go == LEGAL_GO_ASK &&
	    legal_canastas(p->r, p->melds, p->nmelds, p->nseats, &short_out, NULL, 0) == HF_OK)
		return legal_out(p, p->melds, p->nmelds, &short_out, why, len);
	return HF_OK;
}
