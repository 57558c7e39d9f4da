/* ai-discard.c: which card to throw: the least useful one that gives the next seat the least. */
#include <stdint.h>
#include <string.h>

#include "ai.h"

static bool
blocks(const struct ai_pos *p, int card)
{
	int b = p->r->pickup_blocked_by;

	return (card == HF_BLACK3 && (b & HF_BLOCK_BLACK3)) || (card == HF_RED3 && (b & HF_BLOCK_RED3)) ||
	       (hf_card_is_wild(card) && (b & HF_BLOCK_WILD));
}

/* P(at least k of a rank among h cards) where q of the unseen cards are that rank: binomial estimate. */
static double
p_at_least(double q, int h, int k)
{
	double none = 1.0, one, qq = 1.0 - q;
	int i;

	for (i = 0; i < h; i++)
		none *= qq;
	if (k <= 1)
		return 1.0 - none;
	one = qq > 0 ? h * q * none / qq : 0;
	return 1.0 - none - one;
}

/*
 * What the next seat is expected to gain (in points, roughly) if card
 * lands on the pile: the chance it can take the pile times what it takes.
 */
int
ai_discard_danger(const struct ai_pos *p, int card)
{
	const struct hf_view *v = p->v;
	const struct hf_rules *r = p->r;
	const struct hf_side_view *os;
	int next = (p->me + 1) % v->nseats, pile = v->pile_size + 1, taken, unseen = 0, i, h;
	double prob, q, qw;
	bool open = false;

	if (v->seats[next].side == p->side)
		return 0;
	if (blocks(p, card) || !hf_card_is_natural(card))
		return 0;
	if (r->pickup_min_pile && pile < r->pickup_min_pile)
		return 0;
	os = &v->sides[v->seats[next].side];
	if (r->pickup_needs_down && !os->down)
		return 0;
	taken = r->pickup_count && r->pickup_count < pile ? r->pickup_count : pile;
	for (i = 0; i < os->nmelds; i++)
		if (os->melds[i].rank == card && os->melds[i].kind == HF_KIND_OPEN)
			open = true;
	for (i = 0; i < HF_NCARD; i++)
		unseen += v->unseen[i];
	h = v->seats[next].hand_count;
	if (r->pickup_need == HF_NEED_NOTHING) {
		prob = 1.0;
	} else if (r->pickup_need == HF_NEED_PLAY_TOP && !v->pile_frozen && open && os->down) {
		prob = 1.0;
	} else {
		q = unseen ? (double)v->unseen[card] / unseen : 0;
		prob = p_at_least(q, h, 2);
		if (r->pickup_need == HF_NEED_PLAY_TOP && !v->pile_frozen) {
			qw = unseen ? (double)(v->unseen[HF_TWO] + v->unseen[HF_JOKER]) / unseen : 0;
			prob += (1.0 - prob) * p_at_least(q, h, 1) * p_at_least(qw, h, 1);
		}
		if (!os->down)
			prob *= 0.5;
	}
	return (int)(prob * taken * 12.0);
}

/* What holding card is worth to this seat. */
static int
keep_value(const struct ai_pos *p, int c)
{
	const struct hf_rules *r = p->r;
	int n = p->hand[c];

	if (c == HF_BLACK3)
		return -300;
	if (c == HF_RED3)
		return r->red3_mode == HF_RED3_BOOK ? -200 : -300;
	if (hf_card_is_wild(c))
		return 300 + r->value[c];
	if (p->open_idx[c] >= 0)
		return 150;
	if (ai_pos_sevens_rank(p, c))
		return 120 + 20 * n;
	if (n >= 3)
		return 200;
	if (n == 2)
		return 60 + r->value[c];
	/* a single: scarcer ranks are less likely to pair up */
	return 5 + (p->v->unseen[c] > 20 ? 20 : p->v->unseen[c]);
}

/* Would a natural thrown now let the next seat, an opponent, take the pile? */
static bool
exposed(const struct ai_pos *p)
{
	const struct hf_view *v = p->v;
	int next = (p->me + 1) % v->nseats;

	return v->seats[next].side != p->side && v->pile_size + 1 >= p->r->pickup_min_pile;
}

/* The sharp cost of throwing each card kind (INT32_MAX: not discardable); returns the cheapest. */
int
ai_discard_sharp_costs(const struct ai_pos *p, int cost[HF_NCARD])
{
	int c, best = HF_NOCARD;
	bool open = exposed(p) && p->r->pickup_min_pile;

	for (c = 0; c < HF_NCARD; c++) {
		cost[c] = INT32_MAX;
		if (c == HF_NOCARD || !ai_pos_can_discard(p, c))
			continue;
		cost[c] = keep_value(p, c) + ai_discard_danger(p, c);
		/*
		 * Where a pile of enough cards is free to take (duel), a 2 that
		 * blocks it costs less than the seven cards it keeps from the
		 * next seat, and the pile comes back to this seat next turn.
		 */
		if (c == HF_TWO && open && blocks(p, c))
			cost[c] = 60;
		if (best == HF_NOCARD || cost[c] < cost[best])
			best = c;
	}
	return best;
}

int
ai_discard_sharp(const struct ai_pos *p)
{
	int cost[HF_NCARD];

	return ai_discard_sharp_costs(p, cost);
}

int
ai_discard_choose(const struct ai_pos *p, uint64_t *rng, bool careful)
{
	int c, best = HF_NOCARD, cost, best_cost = 0, n = 0, pick;

	if (!careful) {
		for (c = 1; c < HF_NCARD; c++)
			n += ai_pos_can_discard(p, c) ? p->hand[c] : 0;
		if (!n)
			return HF_NOCARD;
		pick = (int)hf_rng_below(rng, (uint32_t)n);
		for (c = 1; c < HF_NCARD; c++) {
			if (!ai_pos_can_discard(p, c))
				continue;
			if (pick < p->hand[c])
				return c;
			pick -= p->hand[c];
		}
		return HF_NOCARD;
	}
	for (c = 1; c < HF_NCARD; c++) {
		if (!ai_pos_can_discard(p, c))
			continue;
		cost = keep_value(p, c) + ai_discard_danger(p, c);
		if (best == HF_NOCARD || cost < best_cost) {
			best = c;
			best_cost = cost;
		}
	}
	return best;
}
