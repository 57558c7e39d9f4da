/* meld.c: starting melds, adding to them, closing canastas, red 3s under books and the checks after a meld. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

bool meld_ok_wilds(const struct hf_rules *r, int nat, int wild)
{
	switch (r->wild_limit) {
	case HF_WILDS_HALF: return nat >= 2 * wild;
	case HF_WILDS_EQUAL: return nat >= wild;
	default: return nat > wild;
	}
}

static const char *limit_text(const struct hf_rules *r)
{
	switch (r->wild_limit) {
	case HF_WILDS_HALF: return "a meld needs twice as many naturals as wilds";
	case HF_WILDS_EQUAL: return "a meld needs at least as many naturals as wilds";
	default: return "a meld needs more naturals than wilds";
	}
}

static int find_meld(const struct side_state *sd, int rank, bool open)
{
	int found = -1;
	for (int i = 0; i < sd->nmelds; i++)
		if (sd->melds[i].rank == rank && (sd->melds[i].kind == HF_KIND_OPEN) == open) {
			found = i;
			if (open)
				break;
		}
	return found;
}

int meld_closed_count(const struct hf_game *g, int side)
{
	int n = 0;
	for (int i = 0; i < g->sides[side].nmelds; i++)
		n += g->sides[side].melds[i].kind != HF_KIND_OPEN;
	return n;
}

static int kind_of(const struct hf_rules *r, const struct hf_meld *m)
{
	if (m->naturals == 0)
		return HF_KIND_WILD;
	if (m->twos + m->jokers > 0)
		return HF_KIND_DIRTY;
	return m->rank == HF_SEVEN && r->sevens_bonus > 0 ? HF_KIND_SEVENS : HF_KIND_CLEAN;
}

static enum hf_err check_size(const struct hf_rules *r, int rank, int nat, int wild, char *why, size_t len)
{
	int total = nat + wild;
	if (rank == HF_JOKER) {
		if (total > r->canasta_size)
			return hf_fail(HF_E_MELD, why, len, "a wild canasta closes at %d cards: this would make %d",
			               r->canasta_size, total);
		return HF_OK;
	}
	if (!meld_ok_wilds(r, nat, wild))
		return hf_fail(HF_E_MELD, why, len, "%s (this one would have %d natural%s and %d wild%s)", limit_text(r),
		               nat, nat == 1 ? "" : "s", wild, wild == 1 ? "" : "s");
	if (total > r->canasta_size) {
		if (!r->add_after_close)
			return hf_fail(HF_E_MELD, why, len, "a canasta closes at %d cards: this would make %d",
			               r->canasta_size, total);
		if (!meld_ok_wilds(r, r->canasta_size - wild, wild))
			return hf_fail(HF_E_MELD, why, len, "wild cards cannot be added to a closed canasta");
	}
	return HF_OK;
}

static void close_if_full(struct hf_game *g, int seat, int side, int idx)
{
	struct hf_meld *m = &g->sides[side].melds[idx];
	if (m->kind == HF_KIND_OPEN && m->naturals + m->twos + m->jokers >= g->rules.canasta_size) {
		m->kind = (uint8_t)kind_of(&g->rules, m);
		struct hf_event *e = game_event(g, HF_EV_CLOSED, seat, m->rank, m->naturals + m->twos + m->jokers,
		                                m->kind);
		if (e != NULL)
			e->meld = (uint8_t)idx;
	}
}

/* In red-3-book rules "K: 3h" puts each red three under a closed K book that has none. */
static enum hf_err red3_under(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp, bool pickup,
                              char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	int side = game_side(g, c->seat), n = grp->count[HF_RED3];
	struct side_state *sd = &g->sides[side];
	struct seat_state *ss = &g->seats[c->seat];
	if (r->red3_mode != HF_RED3_BOOK)
		return hf_fail(HF_E_MELD, why, len, r->red3_mode == HF_RED3_BONUS ?
		               "red 3s are laid out by themselves, never melded" : "threes cannot be melded");
	if (pickup || !hf_card_is_natural(grp->target) || cards_total(grp->count) != n)
		return hf_fail(HF_E_MELD, why, len, "a red 3 goes alone under a closed book: write K: 3h");
	int idx[HF_NCARD * 4], k = 0;
	for (int i = 0; i < sd->nmelds && k < n; i++)
		if (sd->melds[i].rank == grp->target && sd->melds[i].kind != HF_KIND_OPEN && sd->melds[i].red3s == 0)
			idx[k++] = i;
	if (k < n)
		return k == 0 ? hf_fail(HF_E_MELD, why, len, "a red 3 goes under a closed book: your side has no "
		                        "closed book of %s without one", card_plural(grp->target))
		              : hf_fail(HF_E_MELD, why, len, "one red 3 per closed book: your side has %d book%s of "
		                        "%s free for %d", k, k == 1 ? "" : "s", card_plural(grp->target), n);
	for (int i = 0; i < n; i++) {
		sd->melds[idx[i]].red3s = 1;
		struct hf_event *e = game_event(g, HF_EV_UNDER, c->seat, HF_RED3, 1, 0);
		if (e != NULL)
			e->meld = (uint8_t)idx[i];
	}
	ss->hand[HF_RED3] = (uint8_t)(ss->hand[HF_RED3] - n);
	ss->hand_n = (uint16_t)(ss->hand_n - n);
	return HF_OK;
}

static enum hf_err natural_rank(const struct hf_rules *r, const uint8_t cnt[HF_NCARD], int *rank, int *nnat,
                                char *why, size_t len)
{
	*rank = 0;
	*nnat = 0;
	for (int k = HF_TWO + 1; k < HF_JOKER; k++) {
		if (cnt[k] == 0)
			continue;
		if (*rank)
			return hf_fail(HF_E_MELD, why, len, "a meld holds one rank: %s and %s do not go together",
			               card_plural(*rank), card_plural(k));
		*rank = k;
		*nnat = cnt[k];
	}
	if (*rank == HF_BLACK3 && !r->black3_book)
		return hf_fail(HF_E_MELD, why, len, "threes cannot be melded: black 3s are only discarded");
	return HF_OK;
}

/* Where a group goes: open meld index, closed meld index (add after close) or a new meld (-1). */
static enum hf_err place(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp, int rank, int nnat,
                         int nwild, bool pickup, int *idx, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	struct side_state *sd = &g->sides[game_side(g, c->seat)];
	int total = nnat + nwild;
	*idx = find_meld(sd, rank, true);
	if (*idx >= 0) {
		const struct hf_meld *m = &sd->melds[*idx];
		return check_size(r, rank, m->naturals + nnat, m->twos + m->jokers + nwild, why, len);
	}
	int closed = find_meld(sd, rank, false);
	if (closed >= 0 && rank != HF_JOKER && (grp->target || total < 3)) {
		if (pickup)
			return hf_fail(HF_E_PILE, why, len, "you cannot take the pile to add to a closed canasta");
		if (!r->add_after_close)
			return hf_fail(HF_E_MELD, why, len, "your %s canasta is closed: nothing more goes on it",
			               card_plural(rank));
		if (nwild)
			return hf_fail(HF_E_MELD, why, len, "wild cards cannot be added to a closed canasta");
		*idx = closed;
		return HF_OK;
	}
	if (grp->target && grp->target != rank)
		return hf_fail(HF_E_MELD, why, len, "no open meld of %s", card_plural(grp->target));
	if (grp->target && nnat == 0 && rank != HF_JOKER)
		return hf_fail(HF_E_MELD, why, len, "your side has no open meld of %s", card_plural(rank));
	if (sd->nmelds >= HF_MAX_MELDS)
		return hf_fail(HF_E_MELD, why, len, "your side's table is full");
	if (rank == HF_JOKER && total < 3)
		return hf_fail(HF_E_MELD, why, len, "a wild meld needs at least 3 wild cards");
	if (rank != HF_JOKER && (total < 3 || nnat < 2))
		return hf_fail(pickup ? HF_E_PILE : HF_E_MELD, why, len,
		               "a new meld needs 3 cards with at least 2 natural %s", card_plural(rank));
	*idx = -1;
	return check_size(r, rank, nnat, nwild, why, len);
}

static enum hf_err black3_book(struct hf_game *g, struct meld_ctx *c, int nnat, int nwild, bool pickup,
                               char *why, size_t len)
{
	if (pickup || nwild)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s holds black 3s only");
	if (nnat < g->rules.canasta_size)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s needs %d or more of them", g->rules.canasta_size);
	if (g->sides[game_side(g, c->seat)].nmelds >= HF_MAX_MELDS)
		return hf_fail(HF_E_MELD, why, len, "your side's table is full");
	c->black3_book = true;
	return HF_OK;
}

enum hf_err meld_group(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp, int extra, bool pickup,
                       char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	struct seat_state *ss = &g->seats[c->seat];
	int side = game_side(g, c->seat);
	struct side_state *sd = &g->sides[side];
	uint8_t cnt[HF_NCARD];
	int rank, nnat, idx;
	enum hf_err e;

	for (int k = 1; k < HF_NCARD; k++)
		if (grp->count[k] > ss->hand[k])
			return ss->hand[k] == 0
			       ? hf_fail(HF_E_NO_CARDS, why, len, "you hold no %s", card_plural(k))
			       : hf_fail(HF_E_NO_CARDS, why, len, "you hold only %d %s, and this names %d", ss->hand[k],
			                 ss->hand[k] == 1 ? hf_card_name(k) : card_plural(k), grp->count[k]);
	if (grp->count[HF_RED3])
		return red3_under(g, c, grp, pickup, why, len);
	memcpy(cnt, grp->count, sizeof cnt);
	cnt[0] = 0;
	if (extra)
		cnt[extra]++;
	if (cards_total(cnt) == 0)
		return hf_fail(HF_E_SYNTAX, why, len, "name the cards to meld");
	int nwild = cnt[HF_TWO] + cnt[HF_JOKER];
	if ((e = natural_rank(r, cnt, &rank, &nnat, why, len)) != HF_OK)
		return e;
	if (grp->target) {
		if (!hf_card_is_natural(grp->target) && grp->target != HF_JOKER)
			return hf_fail(HF_E_MELD, why, len, "wilds go onto a meld of 4s to aces, or a wild meld");
		if (rank && rank != grp->target)
			return hf_fail(HF_E_MELD, why, len, "%s do not go on %s", card_plural(rank),
			               card_plural(grp->target));
		rank = grp->target;
	} else if (rank == 0) {
		rank = HF_JOKER;
	}
	if (rank == HF_JOKER && !r->wild_melds)
		return hf_fail(HF_E_MELD, why, len, "melds of wild cards alone are not allowed: %s", limit_text(r));
	if (rank == HF_BLACK3) {
		if ((e = black3_book(g, c, nnat, nwild, pickup, why, len)) != HF_OK)
			return e;
		idx = -1;
	} else if ((e = place(g, c, grp, rank, nnat, nwild, pickup, &idx, why, len)) != HF_OK) {
		return e;
	}
	if (c->opening && r->opening_wild_pair_only && nwild > 0 && (idx >= 0 || nnat != 2))
		return hf_fail(HF_E_MELD, why, len, "in the opening meld, wild cards only go with a pair starting a new meld");

	/* valid: apply */
	if (idx < 0) {
		idx = sd->nmelds++;
		memset(&sd->melds[idx], 0, sizeof sd->melds[idx]);
		sd->melds[idx].rank = (uint8_t)rank;
		sd->melds[idx].kind = HF_KIND_OPEN;
	}
	struct hf_meld *m = &sd->melds[idx];
	m->naturals = (uint8_t)(m->naturals + (rank == HF_JOKER ? 0 : nnat));
	m->twos = (uint8_t)(m->twos + cnt[HF_TWO]);
	m->jokers = (uint8_t)(m->jokers + cnt[HF_JOKER]);
	for (int k = 1; k < HF_NCARD; k++)
		ss->hand[k] = (uint8_t)(ss->hand[k] - grp->count[k]);
	ss->hand_n = (uint16_t)(ss->hand_n - cards_total(grp->count));
	c->value += cards_value(r, cnt);
	struct hf_event *ev = game_event(g, HF_EV_MELD, c->seat, rank, cards_total(cnt), 0);
	if (ev != NULL) {
		ev->meld = (uint8_t)idx;
		memcpy(ev->group.count, cnt, sizeof cnt);
		ev->group.target = grp->target;
	}
	close_if_full(g, c->seat, side, idx);
	return HF_OK;
}

/* After the groups of one meld or pickup action: opening minimum, the foot, and going out. */
enum hf_err meld_after(struct hf_game *g, struct meld_ctx *c, bool was_down, int closed_before, char *why,
                       size_t len)
{
	const struct hf_rules *r = &g->rules;
	int seat = c->seat, side = game_side(g, seat);
	struct seat_state *ss = &g->seats[seat];
	struct side_state *sd = &g->sides[side];
	bool short_out = false;
	enum hf_err e;

	if (!was_down) {
		int32_t min = rules_open_min(r, g->round, sd->score);
		if (c->value < min)
			return hf_fail(HF_E_OPENING, why, len, "your opening meld must reach %d points: this one makes %d",
			               min, c->value);
		sd->down = true;
	}
	g->melded = true;
	if (r->foot_when == HF_FOOT_FIRST_CANASTA && closed_before == 0 && !ss->in_foot &&
	    meld_closed_count(g, side) > 0)
		turn_take_foot(g, seat, true);
	if (ss->hand_n == 0 && !ss->in_foot)
		turn_take_foot(g, seat, true);
	if (ss->hand_n == 0) {
		if (r->final_discard_required)
			return hf_fail(HF_E_GO_OUT, why, len, "you must keep one card for the final discard");
		if ((e = out_check(g, seat, &short_out, why, len)) != HF_OK)
			return e;
		out_go(g, seat, short_out);
		return HF_OK;
	}
	if (c->black3_book)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s must be your very last play before going out");
	if (ss->in_foot && ss->hand_n == 1 && g->nstock > 0) {
		char tmp[HF_ERRLEN];
		if ((e = out_check(g, seat, &short_out, tmp, sizeof tmp)) != HF_OK)
			return hf_fail(e, why, len, "keep two cards: %s", tmp);
	}
	return HF_OK;
}

enum hf_err meld_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	int side = game_side(g, seat);
	enum hf_err e;
	if (g->phase != HF_PHASE_PLAY)
		return hf_fail(HF_E_PHASE, why, len, "draw or take the pile first");
	if (a->ngroups == 0 || a->ngroups > HF_MAX_GROUPS)
		return hf_fail(HF_E_SYNTAX, why, len, "name the cards to meld: meld 9 9 2, K K K");
	bool was_down = g->sides[side].down;
	int closed_before = meld_closed_count(g, side);
	struct meld_ctx c = { .seat = seat, .opening = !was_down };
	for (int i = 0; i < a->ngroups; i++)
		if ((e = meld_group(g, &c, &a->groups[i], 0, false, why, len)) != HF_OK)
			return e;
	return meld_after(g, &c, was_down, closed_before, why, len);
}

/* ------------------------------------------------------------------ auto meld (pcio: after going out) */

static bool try_group(struct hf_game *g, struct meld_ctx *c, int card, int n, int target)
{
	struct hf_group grp;
	memset(&grp, 0, sizeof grp);
	if (n <= 0)
		return false;
	grp.count[card] = (uint8_t)n;
	grp.target = (uint8_t)target;
	return meld_group(g, c, &grp, 0, false, NULL, 0) == HF_OK;
}

static int open_size(const struct side_state *sd, int rank)
{
	int i = find_meld(sd, rank, true);
	return i < 0 ? -1 : sd->melds[i].naturals + sd->melds[i].twos + sd->melds[i].jokers;
}

/* Greedy and deterministic: naturals onto open melds, new melds of 3+, then wilds where they fit. */
void meld_auto(struct hf_game *g, int seat)
{
	const struct hf_rules *r = &g->rules;
	struct seat_state *ss = &g->seats[seat];
	struct side_state *sd = &g->sides[game_side(g, seat)];
	struct meld_ctx c = { .seat = seat };
	bool progress = true;
	for (int pass = 0; progress && pass < 64; pass++) {
		progress = false;
		for (int k = HF_FOUR; k <= HF_ACE; k++) {
			int n = ss->hand[k], size = open_size(sd, k);
			if (n == 0)
				continue;
			int room = size < 0 ? r->canasta_size : r->canasta_size - size;
			if (!r->add_after_close && n > room)
				n = room;
			progress |= try_group(g, &c, k, n, 0);
		}
		for (int i = 0; i < sd->nmelds; i++) {
			if (sd->melds[i].kind != HF_KIND_OPEN)
				continue;
			int t = sd->melds[i].rank;
			if (ss->hand[HF_TWO] && try_group(g, &c, HF_TWO, 1, t))
				progress = true;
			else if (ss->hand[HF_JOKER] && try_group(g, &c, HF_JOKER, 1, t))
				progress = true;
		}
		int w = ss->hand[HF_TWO] + ss->hand[HF_JOKER];
		if (r->wild_melds && w >= 3 && open_size(sd, HF_JOKER) < 0) {
			struct hf_group grp;
			memset(&grp, 0, sizeof grp);
			int take = w < r->canasta_size ? w : r->canasta_size;
			grp.count[HF_TWO] = (uint8_t)(ss->hand[HF_TWO] < take ? ss->hand[HF_TWO] : take);
			grp.count[HF_JOKER] = (uint8_t)(take - grp.count[HF_TWO]);
			progress |= meld_group(g, &c, &grp, 0, false, NULL, 0) == HF_OK;
		}
	}
}
