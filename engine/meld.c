/* meld.c: starting melds, adding to them, closing canastas, red 3s under books and the checks after a meld. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

/* In red-3-book rules "K: 3h" puts each red three under a closed K book that has none. */
static enum hf_err
red3_under(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp, bool pickup,
           char *why, size_t len)
{
	struct side_state *sd = &g->sides[game_side(g, c->seat)];
	struct seat_state *ss = &g->seats[c->seat];
	int n = grp->count[HF_RED3], idx[HF_MAX_MELDS];
	enum hf_err e;

	if (n > HF_MAX_MELDS)
		return hf_fail(HF_E_MELD, why, len, "too many red 3s");
	if ((e = legal_under(&g->rules, sd->melds, sd->nmelds, grp, pickup, idx, why, len)) != HF_OK)
		return e;
	for (int i = 0; i < n; i++) {
		sd->melds[idx[i]].red3s = 1;
		struct hf_event *ev = game_event(g, HF_EV_UNDER, c->seat, HF_RED3, 1, 0);
		if (ev != NULL)
			ev->meld = (uint8_t)idx[i];
	}
	ss->hand[HF_RED3] = (uint8_t)(ss->hand[HF_RED3] - n);
	ss->hand_n = (uint16_t)(ss->hand_n - n);
	return HF_OK;
}

enum hf_err
meld_group(struct hf_game *g, struct meld_ctx *c, const struct hf_group *grp, int extra, bool pickup,
           char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	struct seat_state *ss = &g->seats[c->seat];
	struct side_state *sd = &g->sides[game_side(g, c->seat)];
	struct legal_spot spot;
	uint8_t cnt[HF_NCARD];
	int idx, n, kind;
	enum hf_err e;

	if ((e = legal_holds(ss->hand, grp, why, len)) != HF_OK)
		return e;
	if (grp->count[HF_RED3])
		return red3_under(g, c, grp, pickup, why, len);
	memcpy(cnt, grp->count, sizeof cnt);
	cnt[0] = 0;
	if (extra)
		cnt[extra]++;
	e = legal_group(r, sd->melds, sd->nmelds, cnt, grp->target,
	                (c->opening ? LEGAL_OPENING : 0) | (pickup ? LEGAL_PICKUP : 0), &spot, why, len);
	if (e != HF_OK)
		return e;

	/* valid: apply */
	kind = spot.idx >= 0 ? sd->melds[spot.idx].kind : HF_KIND_OPEN;
	n = sd->nmelds;
	idx = legal_add(r, sd->melds, &n, &spot, cnt);
	sd->nmelds = (uint8_t)n;
	c->black3_book |= spot.rank == HF_BLACK3;
	for (int k = 1; k < HF_NCARD; k++)
		ss->hand[k] = (uint8_t)(ss->hand[k] - grp->count[k]);
	ss->hand_n = (uint16_t)(ss->hand_n - cards_total(grp->count));
	c->value += cards_value(r, cnt);
	/* flag: the group started the meld (a reader tells "new" from "on the" by it) */
	struct hf_event *ev = game_event(g, HF_EV_MELD, c->seat, spot.rank, cards_total(cnt), spot.idx < 0);
	if (ev != NULL) {
		ev->meld = (uint8_t)idx;
		memcpy(ev->group.count, cnt, sizeof cnt);
		ev->group.target = grp->target;
	}
	const struct hf_meld *m = &sd->melds[idx];
	if (m->kind != kind) {
		ev = game_event(g, HF_EV_CLOSED, c->seat, m->rank, legal_size(m), m->kind);
		if (ev != NULL)
			ev->meld = (uint8_t)idx;
	}
	return HF_OK;
}

/* After the groups of one meld or pickup action: opening minimum, the foot, and going out. */
enum hf_err
meld_after(struct hf_game *g, struct meld_ctx *c, bool was_down, int closed_before, char *why,
           size_t len)
{
	const struct hf_rules *r = &g->rules;
	int seat = c->seat;
	struct seat_state *ss = &g->seats[seat];
	struct side_state *sd = &g->sides[game_side(g, seat)];
	char outwhy[HF_ERRLEN];
	bool short_out = false;
	enum hf_err e, out;

	/* the foot comes up with the side's first canasta (sevens), or when the hand is empty */
	if (r->foot_when == HF_FOOT_FIRST_CANASTA && closed_before == 0 && !ss->in_foot &&
	    legal_closed(sd->melds, sd->nmelds) > 0)
		turn_take_foot(g, seat, true);
	if (ss->hand_n == 0 && !ss->in_foot)
		turn_take_foot(g, seat, true);
	struct legal_end end = { .opening = !was_down, .value = c->value,
	                         .open_min = rules_open_min(r, g->round, sd->score), .left = ss->hand_n,
	                         .in_foot = ss->in_foot, .black3_book = c->black3_book, .stock = g->nstock };
	outwhy[0] = '\0';
	out = legal_end_asks(&end) ? out_check(g, seat, &short_out, why ? outwhy : NULL, sizeof outwhy) : HF_OK;
	if ((e = legal_end(r, &end, out, outwhy, why, len)) != HF_OK)
		return e;
	sd->down = true;
	g->melded = true;
	if (ss->hand_n == 0)
		out_go(g, seat, short_out);
	return HF_OK;
}

enum hf_err
meld_action(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	int side = game_side(g, seat);
	enum hf_err e;
	if (g->phase != HF_PHASE_PLAY)
		return hf_fail(HF_E_PHASE, why, len, "draw or take the pile first");
	if (a->ngroups == 0 || a->ngroups > HF_MAX_GROUPS)
		return hf_fail(HF_E_SYNTAX, why, len, "name the cards to meld: meld 9 9 2, K K K");
	bool was_down = g->sides[side].down;
	int closed_before = legal_closed(g->sides[side].melds, g->sides[side].nmelds);
	struct meld_ctx c = { .seat = seat, .opening = !was_down };
	for (int i = 0; i < a->ngroups; i++)
		if ((e = meld_group(g, &c, &a->groups[i], 0, false, why, len)) != HF_OK)
			return e;
	return meld_after(g, &c, was_down, closed_before, why, len);
}

/* ------------------------------------------------------------------ auto meld (pcio: after going out) */

static bool
try_group(struct hf_game *g, struct meld_ctx *c, int card, int n, int target)
{
	struct hf_group grp;
	memset(&grp, 0, sizeof grp);
	if (n <= 0)
		return false;
	grp.count[card] = (uint8_t)n;
	grp.target = (uint8_t)target;
	return meld_group(g, c, &grp, 0, false, NULL, 0) == HF_OK;
}

static int
open_size(const struct side_state *sd, int rank)
{
	int i = legal_find(sd->melds, sd->nmelds, rank, true);
	return i < 0 ? -1 : legal_size(&sd->melds[i]);
}

/* Greedy and deterministic: naturals onto open melds, new melds of 3+, then wilds where they fit. */
void
meld_auto(struct hf_game *g, int seat)
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
