/* rplayer.c: a random player for tests: random candidate moves, many illegal, biased so games end. */
#include <string.h>

#include "hftest.h"

static int pick_card(const struct hf_view *v, uint64_t *rng)
{
	int n = v->hand_count;
	if (n == 0)
		return HF_FOUR + (int)hf_rng_below(rng, 11);
	int k = (int)hf_rng_below(rng, (uint32_t)n);
	for (int c = 1; c < HF_NCARD; c++) {
		if (k < v->hand[c])
			return c;
		k -= v->hand[c];
	}
	return HF_FOUR;
}

static void group_of(struct hf_group *g, int card, int n)
{
	memset(g, 0, sizeof *g);
	g->count[card] = (uint8_t)n;
}

static bool has_open(const struct hf_view *v, int rank)
{
	const struct hf_side_view *sv = &v->sides[v->seats[v->seat].side];
	for (int i = 0; i < sv->nmelds; i++)
		if (sv->melds[i].rank == rank && sv->melds[i].kind == HF_KIND_OPEN)
			return true;
	return false;
}

/* A plausible meld: a rank held 3+ times, onto an open meld, or a pair with a wild. */
static bool smart_guess(const struct hf_view *v, uint64_t *rng, struct hf_action *a)
{
	int start = (int)hf_rng_below(rng, 11), w = v->hand[HF_TWO] + v->hand[HF_JOKER];
	for (int i = 0; i < 11; i++) {
		int c = HF_FOUR + (start + i) % 11, n = v->hand[c];
		bool open = has_open(v, c);
		if (n == 0 || (n < 3 && !open && !(n == 2 && w > 0)))
			continue;
		a->type = HF_ACT_MELD;
		a->ngroups = 1;
		group_of(&a->groups[0], c, n);
		if ((n == 2 && !open) || (w && hf_rng_below(rng, 4) == 0))
			a->groups[0].count[v->hand[HF_TWO] ? HF_TWO : HF_JOKER] = 1;
		return true;
	}
	return false;
}

/* A meld guess: the biggest natural group, a pair with a wild, wilds on an open meld, or junk. */
static void meld_guess(const struct hf_view *v, uint64_t *rng, struct hf_action *a)
{
	int r = (int)hf_rng_below(rng, 10), best = 0;
	for (int c = HF_FOUR; c <= HF_ACE; c++)
		if (v->hand[c] > v->hand[best] || best == 0)
			best = v->hand[c] ? c : best;
	a->type = HF_ACT_MELD;
	a->ngroups = 1;
	if (r < 4 && best) {
		int c = best;
		/* rotate through ranks so several melds are tried */
		for (int i = 0; i < (int)hf_rng_below(rng, 11); i++) {
			int d = HF_FOUR + (int)hf_rng_below(rng, 11);
			if (v->hand[d] >= 2)
				c = d;
		}
		group_of(&a->groups[0], c, v->hand[c]);
		if (v->hand[HF_TWO] && hf_rng_below(rng, 3) == 0)
			a->groups[0].count[HF_TWO] = 1;
		if (hf_rng_below(rng, 3) == 0) {
			/* a second group: another rank */
			int d = HF_FOUR + (int)hf_rng_below(rng, 11);
			if (d != c && v->hand[d]) {
				group_of(&a->groups[1], d, v->hand[d]);
				a->ngroups = 2;
			}
		}
	} else if (r < 6) {
		int c = pick_card(v, rng);
		group_of(&a->groups[0], c, 1 + (int)hf_rng_below(rng, 3));
	} else if (r < 8) {
		const struct hf_side_view *sv = &v->sides[v->seats[v->seat].side];
		int w = v->hand[HF_TWO] ? HF_TWO : HF_JOKER;
		group_of(&a->groups[0], w, 1);
		if (sv->nmelds)
			a->groups[0].target = sv->melds[hf_rng_below(rng, sv->nmelds)].rank;
		if (r == 7) {
			a->groups[0].count[HF_TWO] = v->hand[HF_TWO];
			a->groups[0].count[HF_JOKER] = v->hand[HF_JOKER];
			a->groups[0].target = 0;
		}
	} else if (r == 8 && v->hand[HF_RED3]) {
		group_of(&a->groups[0], HF_RED3, 1);
		a->groups[0].target = (uint8_t)(HF_FOUR + hf_rng_below(rng, 11));
	} else {
		int c = pick_card(v, rng);
		group_of(&a->groups[0], c, v->hand[c]);
	}
}

void rp_propose(const struct hf_view *v, uint64_t *rng, int attempt, struct hf_action *a)
{
	memset(a, 0, sizeof *a);
	int r = (int)hf_rng_below(rng, 100);
	if (v->phase == HF_PHASE_ASK) {
		a->type = r < 80 ? HF_ACT_YES : r < 95 ? HF_ACT_NO : HF_ACT_DRAW;
		return;
	}
	if (v->phase == HF_PHASE_DRAW) {
		if (attempt > 6 || r < 60) {
			a->type = HF_ACT_DRAW;
		} else if (r < 90) {
			a->type = HF_ACT_PICKUP;
			int top = v->pile_top;
			if (top && hf_rng_below(rng, 4) != 0) {
				a->ngroups = 1;
				group_of(&a->groups[0], top, v->hand[top] < 2 ? 2 : v->hand[top]);
				if (r < 70 && v->hand[HF_TWO])
					a->groups[0].count[HF_TWO] = 1;
			}
		} else {
			a->type = HF_ACT_DISCARD;
			a->card = (uint8_t)pick_card(v, rng);
		}
		return;
	}
	/* play: mostly melds first, then a discard; the bound makes the turn end */
	if (attempt < 12 && r < 85 && smart_guess(v, rng, a))
		return;
	if (attempt < 12 && v->seats[v->seat].in_foot && v->hand_count <= 3 && r < 60 && !v->asked_this_turn) {
		a->type = HF_ACT_OUT;
		return;
	}
	/* a hand that may not be discarded (classic's jokers while one can be melded) must meld them */
	if (attempt >= 20 && attempt % 2 && v->hand[HF_JOKER] + v->hand[HF_TWO] == v->hand_count) {
		const struct hf_side_view *sv = &v->sides[v->seats[v->seat].side];
		int w = v->hand[HF_JOKER] ? HF_JOKER : HF_TWO, k = (int)hf_rng_below(rng, (uint32_t)sv->nmelds + 1);
		a->type = HF_ACT_MELD;
		a->ngroups = 1;
		group_of(&a->groups[0], w, 1 + (int)hf_rng_below(rng, v->hand[w]));
		a->groups[0].target = k < sv->nmelds ? sv->melds[k].rank : HF_JOKER;
		return;
	}
	r = (int)hf_rng_below(rng, 100);
	if (attempt < 12 && r < 30) {
		meld_guess(v, rng, a);
	} else if (attempt < 12 && r < 35) {
		a->type = HF_ACT_OUT;
	} else if (attempt < 12 && r < 37) {
		a->type = HF_ACT_YES;
	} else {
		a->type = HF_ACT_DISCARD;
		a->card = (uint8_t)pick_card(v, rng);
	}
}
