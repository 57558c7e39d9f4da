/* ai-plan.c: builds one meld action from a hand and the side's table, checking every group against the rules. */
#include <string.h>

#include "ai.h"

/* Adds n cards of kind card to the meld of rank key, in the action and on the table. */
static void
put(struct ai_plan *pl, int key, int card, int n)
{
	struct hf_group g;
	struct hf_group *ag;
	int gi;

	if (n <= 0)
		return;
	gi = pl->group_of[key];
	if (gi < 0) {
		if (pl->act.ngroups >= HF_MAX_GROUPS)
			return;
		gi = pl->act.ngroups++;
		memset(&pl->act.groups[gi], 0, sizeof pl->act.groups[gi]);
		pl->group_of[key] = (int8_t)gi;
	}
	ag = &pl->act.groups[gi];
	ag->count[card] = (uint8_t)(ag->count[card] + n);
	memset(&g, 0, sizeof g);
	g.count[card] = (uint8_t)n;
	if (hf_card_is_wild(card) && key != HF_JOKER)
		g.target = (uint8_t)key;
	ai_pos_add(&pl->after, &g);
	pl->value += n * pl->after.r->value[card];
}

static int
wilds(const struct ai_pos *p)
{
	return p->hand[HF_TWO] + p->hand[HF_JOKER];
}

/* Puts up to n wilds (twos first: jokers are worth more kept for big closings) on meld key. */
static void
put_wilds(struct ai_plan *pl, int key, int n)
{
	int t = pl->after.hand[HF_TWO] < n ? pl->after.hand[HF_TWO] : n;

	put(pl, key, HF_TWO, t);
	n -= t;
	if (n > pl->after.hand[HF_JOKER])
		n = pl->after.hand[HF_JOKER];
	put(pl, key, HF_JOKER, n);
}

static int
closed_of(const struct ai_pos *p, int kind)
{
	int i, n = 0;

	for (i = 0; i < p->nmelds; i++)
		n += p->melds[i].kind == kind;
	return n;
}

/*
 * Wilds free for natural melds: while the side still needs a wild canasta,
 * the wilds in hand are kept for it (as many as the wild meld lacks), so
 * they are not all spent closing dirty canastas it has enough of.
 */
static int
spare_wilds(const struct ai_pos *a)
{
	int w = wilds(a), keep;

	if (!w || !a->r->need_wild || !a->r->wild_melds || closed_of(a, HF_KIND_WILD) >= a->r->need_wild)
		return w;
	keep = a->r->canasta_size;
	if (a->open_idx[HF_JOKER] >= 0)
		keep -= ai_pos_meld_size(&a->melds[a->open_idx[HF_JOKER]]);
	return w > keep ? w - keep : 0;
}

/*
 * The open clean melds kept clean: while the side needs clean canastas,
 * the biggest clean open melds (as many as it lacks) take no wild.
 */
static bool
kept_clean(const struct ai_pos *a, int rank)
{
	const struct hf_meld *m = &a->melds[a->open_idx[rank]];
	int lack = a->r->need_clean - closed_of(a, HF_KIND_CLEAN), bigger = 0, r;

	if (lack <= 0 || m->twos + m->jokers)
		return false;
	for (r = HF_FOUR; r <= HF_ACE; r++) {
		const struct hf_meld *o;

		if (r == rank || a->open_idx[r] < 0)
			continue;
		o = &a->melds[a->open_idx[r]];
		if (!(o->twos + o->jokers) && !ai_pos_sevens_rank(a, r) &&
		    (ai_pos_meld_size(o) > ai_pos_meld_size(m) || (ai_pos_meld_size(o) == ai_pos_meld_size(m) && r > rank)))
			bigger++;
	}
	return bigger < lack;
}

/* Wilds may go on meld m in this action (duel's opening allows one, beside a pair starting a meld). */
static bool
wilds_may_join(const struct ai_plan *pl, const struct hf_meld *m)
{
	/* a pickup's shown cards must be a natural pair where the pile asks for one */
	if (m->rank == pl->pair_only)
		return false;
	return pl->opening->down || !pl->opening->r->opening_wild_pair_only ||
	       (m->naturals == 2 && m->twos + m->jokers == 0);
}

/* A rank may take cards in this action: not a meld that closed during it. */
static bool
rank_free(const struct ai_plan *pl, int rank)
{
	return pl->group_of[rank] < 0 || pl->after.open_idx[rank] >= 0;
}

static void
red3s_under_books(struct ai_plan *pl)
{
	struct ai_pos *a = &pl->after;
	bool used[HF_NCARD] = {false};
	struct hf_group g;
	int i;

	if (a->r->red3_mode != HF_RED3_BOOK || !a->down)
		return;
	for (i = 0; i < a->nmelds && a->hand[HF_RED3] && pl->act.ngroups < HF_MAX_GROUPS; i++) {
		const struct hf_meld *m = &a->melds[i];

		if (!a->closed_before[i] || m->red3s || !hf_card_is_natural(m->rank) || used[m->rank])
			continue;
		used[m->rank] = true;
		memset(&g, 0, sizeof g);
		g.target = m->rank;
		g.count[HF_RED3] = 1;
		pl->act.groups[pl->act.ngroups++] = g;
		ai_pos_add(a, &g);
	}
}

static void
naturals(struct ai_plan *pl)
{
	struct ai_pos *a = &pl->after;
	int cap = a->r->canasta_size, r, n;

	/* onto open melds first: they never need wilds */
	for (r = HF_FOUR; r <= HF_ACE; r++)
		if (a->open_idx[r] >= 0 && a->hand[r]) {
			n = cap - ai_pos_meld_size(&a->melds[a->open_idx[r]]);
			put(pl, r, r, a->hand[r] < n ? a->hand[r] : n);
		}
	for (r = HF_FOUR; r <= HF_ACE; r++)
		if (a->open_idx[r] < 0 && pl->group_of[r] < 0 && a->hand[r] >= 3)
			put(pl, r, r, a->hand[r] < cap ? a->hand[r] : cap);
}

/*
 * Where naturals may go on a closed canasta (duel, classic), the odd one or
 * two of a closed rank go there: held, they can only be thrown or caught.
 */
static void
onto_closed(struct ai_plan *pl)
{
	struct ai_pos *a = &pl->after;
	struct hf_group *g;
	int r, i, n;

	if (!a->sharp || !a->r->add_after_close || !a->down)
		return;
	for (r = HF_FOUR; r <= HF_ACE && pl->act.ngroups < HF_MAX_GROUPS; r++) {
		if (!a->hand[r] || a->open_idx[r] >= 0 || pl->group_of[r] >= 0)
			continue;
		for (i = 0; i < a->nmelds && !(a->closed_before[i] && a->melds[i].rank == r); i++)
			;
		if (i == a->nmelds)
			continue;
		n = a->hand[r];
		pl->group_of[r] = (int8_t)pl->act.ngroups;
		g = &pl->act.groups[pl->act.ngroups++];
		memset(g, 0, sizeof *g);
		g->target = (uint8_t)r;
		g->count[r] = (uint8_t)n;
		a->melds[i].naturals = (uint8_t)(a->melds[i].naturals + n);
		a->hand[r] = (uint8_t)(a->hand[r] - n);
		a->hand_n -= n;
		pl->value += n * a->r->value[r];
	}
}

static void
wild_meld(struct ai_plan *pl, const struct ai_style *st)
{
	struct ai_pos *a = &pl->after;
	int cap = a->r->canasta_size, n;
	bool want = closed_of(a, HF_KIND_WILD) < a->r->need_wild;

	if (!a->r->wild_melds || !wilds(a) || (!pl->opening->down && a->r->opening_wild_pair_only))
		return;
	if (a->open_idx[HF_JOKER] >= 0) {
		if (!want && !st->wilds_all)
			return;
		n = cap - ai_pos_meld_size(&a->melds[a->open_idx[HF_JOKER]]);
	} else {
		if (!st->wild_meld || !rank_free(pl, HF_JOKER) || wilds(a) < 3)
			return;
		if (!want && !st->wilds_all && a->r->wild_bonus < 1000)
			return;
		n = cap;
	}
	put_wilds(pl, HF_JOKER, n < wilds(a) ? n : wilds(a));
}

static void
close_with_wilds(struct ai_plan *pl, const struct ai_style *st)
{
	struct ai_pos *a = &pl->after;
	int cap = a->r->canasta_size, size, need, r, best;

	(void)st;
	for (;;) {
		/* the biggest open meld first: it needs the fewest wilds */
		best = -1;
		for (r = HF_FOUR; r <= HF_ACE; r++) {
			const struct hf_meld *m;

			if (a->open_idx[r] < 0)
				continue;
			m = &a->melds[a->open_idx[r]];
			size = ai_pos_meld_size(m);
			need = cap - size;
			if (need > spare_wilds(a) || need > 2 || need <= 0 || !wilds_may_join(pl, m))
				continue;
			if (!ai_pos_wild_ok(a, r, m->naturals, m->twos + m->jokers + need))
				continue;
			if (kept_clean(a, r))
				continue;
			if (best < 0 || size > ai_pos_meld_size(&a->melds[a->open_idx[best]]))
				best = r;
		}
		if (best < 0)
			return;
		put_wilds(pl, best, cap - ai_pos_meld_size(&a->melds[a->open_idx[best]]));
	}
}

static void
pairs(struct ai_plan *pl)
{
	struct ai_pos *a = &pl->after;
	int r;

	/* high ranks first: they count more toward an opening */
	for (r = HF_ACE; r >= HF_FOUR && spare_wilds(a); r--)
		if (a->open_idx[r] < 0 && pl->group_of[r] < 0 && a->hand[r] == 2 && ai_pos_wild_ok(a, r, 2, 1)) {
			put(pl, r, r, 2);
			put_wilds(pl, r, 1);
		}
}

static void
all_wilds(struct ai_plan *pl)
{
	struct ai_pos *a = &pl->after;
	int cap = a->r->canasta_size, r, n;
	bool moved = true;

	while (spare_wilds(a) && moved) {
		moved = false;
		for (r = HF_ACE; r >= HF_FOUR && spare_wilds(a); r--) {
			const struct hf_meld *m;

			if (a->open_idx[r] < 0)
				continue;
			m = &a->melds[a->open_idx[r]];
			n = m->twos + m->jokers;
			if (ai_pos_meld_size(m) < cap && ai_pos_wild_ok(a, r, m->naturals, n + 1) &&
			    wilds_may_join(pl, m) && !kept_clean(a, r)) {
				put_wilds(pl, r, 1);
				moved = true;
			}
		}
	}
}

static bool
plan_once(struct ai_plan *pl, const struct ai_pos *p, const struct ai_style *st,
          const struct hf_group *first, int top)
{
	struct ai_pos *a = &pl->after;
	struct hf_group g;
	int i;

	memset(&pl->act, 0, sizeof pl->act);
	memset(pl->group_of, -1, sizeof pl->group_of);
	pl->value = 0;
	pl->opening = p;
	pl->pair_only = HF_NOCARD;
	*a = *p;
	pl->act.type = HF_ACT_MELD;
	if (first) {
		pl->act.type = HF_ACT_PICKUP;
		pl->act.groups[0] = *first;
		pl->act.ngroups = 1;
		pl->group_of[top] = 0;
		if (p->v->pile_frozen || p->r->pickup_need == HF_NEED_NATURAL_PAIR)
			pl->pair_only = (int8_t)top;
		/* p's hand no longer holds the shown cards: ai_pos_add takes them (and the top card) back out */
		g = *first;
		g.count[top]++;
		for (i = 0; i < HF_NCARD; i++) {
			a->hand[i] = (uint8_t)(a->hand[i] + g.count[i]);
			a->hand_n += g.count[i];
		}
		ai_pos_add(a, &g);
		pl->value += ai_pos_value(p, first->count) + p->r->value[top];
	}
	red3s_under_books(pl);
	naturals(pl);
	onto_closed(pl);
	wild_meld(pl, st);
	if (st->wilds_close)
		close_with_wilds(pl, st);
	if (st->pairs)
		pairs(pl);
	if (st->wilds_all) {
		all_wilds(pl);
		wild_meld(pl, st);
	}
	for (i = 0; i < pl->act.ngroups; i++) {
		struct hf_group *ag = &pl->act.groups[i];
		int k, nat = 0, key = HF_NOCARD;

		if (ag->count[HF_RED3] || (first && i == 0))
			continue;
		for (k = HF_BLACK3; k <= HF_ACE; k++)
			nat += ag->count[k];
		for (k = 0; k < HF_NCARD; k++)
			if (pl->group_of[k] == i)
				key = k;
		if (!nat && key != HF_JOKER)
			ag->target = (uint8_t)key;
	}
	if (!p->down && pl->value < p->v->sides[p->side].open_min)
		return false;
	return true;
}

/* What a card costs to hold back from melding: cheap cards first, never a wild or a pair-maker. */
static int
reserve_cost(const struct ai_pos *p, int c)
{
	if (!ai_pos_can_discard(p, c))
		return 100000;
	if (c == HF_BLACK3 || c == HF_RED3)
		return -100;
	if (hf_card_is_wild(c))
		return 1000 + p->r->value[c];
	if (p->hand[c] == 3)
		return 500 + p->r->value[c];
	return p->r->value[c];
}

/* The hand left holds a card the rules let this seat throw freely (throwing the last joker wastes it). */
static bool
discardable(const struct ai_pos *a)
{
	int c;

	for (c = 1; c < HF_NCARD; c++)
		if (a->hand[c] && !ai_pos_forbidden(a, c))
			return true;
	return false;
}

bool
ai_plan_melds(struct ai_plan *pl, const struct ai_pos *p, const struct ai_style *st,
              const struct hf_group *first, int top)
{
	struct ai_pos q = *p;
	uint8_t held[HF_NCARD] = {0};
	int nheld = 0, c, best, i;

	for (;;) {
		if (!plan_once(pl, &q, st, first, top))
			return false;
		if (pl->after.hand_n + nheld >= st->keep && (!st->keep || nheld || discardable(&pl->after)))
			break;
		best = -1;
		for (c = 1; c < HF_NCARD; c++)
			if (q.hand[c] && (best < 0 || reserve_cost(&q, c) < reserve_cost(&q, best)))
				best = c;
		if (best < 0)
			return false;
		q.hand[best]--;
		q.hand_n--;
		held[best]++;
		nheld++;
	}
	for (i = 0; i < HF_NCARD; i++)
		pl->after.hand[i] = (uint8_t)(pl->after.hand[i] + held[i]);
	pl->after.hand_n += nheld;
	/* the rulebook has the last word (a pickup's plan is checked by its caller, who knows the pile) */
	return first || ai_plan_legal(p, &pl->act);
}

bool
ai_plan_legal(const struct ai_pos *p, const struct hf_action *a)
{
	struct legal_pos lp;

	if (a->ngroups == 0)
		return true;
	ai_pos_legal(p, &lp);
	return legal_melds(&lp, a, 0, 0, NULL, NULL, 0) == HF_OK;
}

bool
ai_plan_all(struct ai_plan *pl, const struct ai_pos *p, int keep)
{
	struct ai_style st = { .pairs = true, .wilds_close = true, .wilds_all = true,
	                       .wild_meld = true, .keep = keep };

	return ai_plan_melds(pl, p, &st, NULL, 0);
}
