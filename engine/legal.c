/* legal.c: the rulebook: every rule a move must keep, as functions of the rules and a seat's position. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

/* ------------------------------------------------------------------ melds */

int
legal_size(const struct hf_meld *m)
{
	return m->naturals + m->twos + m->jokers;
}

int
legal_find(const struct hf_meld *melds, int nmelds, int rank, bool open)
{
	int found = -1;

	for (int i = 0; i < nmelds; i++)
		if (melds[i].rank == rank && (melds[i].kind == HF_KIND_OPEN) == open) {
			found = i;
			if (open)
				break;
		}
	return found;
}

int
legal_closed(const struct hf_meld *melds, int nmelds)
{
	int n = 0;

	for (int i = 0; i < nmelds; i++)
		n += melds[i].kind != HF_KIND_OPEN;
	return n;
}

bool
legal_sevens(const struct hf_rules *r, int rank)
{
	return rank == HF_SEVEN && (r->sevens_bonus > 0 || r->need_sevens > 0);
}

int
legal_kind(const struct hf_rules *r, const struct hf_meld *m)
{
	if (m->naturals == 0)
		return HF_KIND_WILD;
	if (m->twos + m->jokers > 0)
		return HF_KIND_DIRTY;
	return legal_sevens(r, m->rank) ? HF_KIND_SEVENS : HF_KIND_CLEAN;
}

bool
legal_wilds(const struct hf_rules *r, int nat, int wild)
{
	switch (r->wild_limit) {
	case HF_WILDS_HALF: return nat >= 2 * wild;
	case HF_WILDS_EQUAL: return nat >= wild;
	case HF_WILDS_ANY: return nat >= 1;
	default: return nat > wild;
	}
}

/* Two naturals and a wild start a meld; where wilds stand for any card of a meld, one natural names it. */
int
legal_start(const struct hf_rules *r)
{
	return r->wild_limit == HF_WILDS_ANY ? 1 : 2;
}

static const char *
limit_text(const struct hf_rules *r)
{
	switch (r->wild_limit) {
	case HF_WILDS_HALF: return "a meld needs twice as many naturals as wilds";
	case HF_WILDS_EQUAL: return "a meld needs at least as many naturals as wilds";
	case HF_WILDS_ANY: return "a meld needs a natural card";
	default: return "a meld needs more naturals than wilds";
	}
}

enum hf_err
legal_holds(const uint8_t hand[HF_NCARD], const struct hf_group *grp, char *why, size_t len)
{
	for (int k = 1; k < HF_NCARD; k++)
		if (grp->count[k] > hand[k])
			return hand[k] == 0
			       ? hf_fail(HF_E_NO_CARDS, why, len, "you hold no %s", card_plural(k))
			       : hf_fail(HF_E_NO_CARDS, why, len, "you hold only %d %s, and this names %d", hand[k],
			                 hand[k] == 1 ? hf_card_name(k) : card_plural(k), grp->count[k]);
	return HF_OK;
}

static enum hf_err
check_size(const struct hf_rules *r, int rank, int nat, int wild, char *why, size_t len)
{
	int total = nat + wild;

	if (rank == HF_JOKER) {
		if (total > r->canasta_size)
			return hf_fail(HF_E_MELD, why, len, "a wild canasta closes at %d cards: this would make %d",
			               r->canasta_size, total);
		return HF_OK;
	}
	if (!legal_wilds(r, nat, wild))
		return hf_fail(HF_E_MELD, why, len, "%s (this one would have %d natural%s and %d wild%s)", limit_text(r),
		               nat, nat == 1 ? "" : "s", wild, wild == 1 ? "" : "s");
	if (total > r->canasta_size) {
		if (!r->add_after_close)
			return hf_fail(HF_E_MELD, why, len, "a canasta closes at %d cards: this would make %d",
			               r->canasta_size, total);
		if (!legal_wilds(r, r->canasta_size - wild, wild))
			return hf_fail(HF_E_MELD, why, len, "wild cards cannot be added to a closed canasta");
	}
	return HF_OK;
}

/* The one natural rank a group holds (0: none), and how many. */
static enum hf_err
natural_rank(const struct hf_rules *r, const uint8_t cnt[HF_NCARD], int *rank, int *nnat, char *why, size_t len)
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

/* Where a group of a rank goes: the open meld, a closed one (naturals added after closing) or a new meld. */
static enum hf_err
place(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, int target, int rank, int nnat, int nwild,
      bool pickup, int *idx, char *why, size_t len)
{
	int total = nnat + nwild, closed;

	*idx = legal_find(melds, nmelds, rank, true);
	if (*idx >= 0) {
		const struct hf_meld *m = &melds[*idx];
		return check_size(r, rank, m->naturals + nnat, m->twos + m->jokers + nwild, why, len);
	}
	closed = legal_find(melds, nmelds, rank, false);
	if (closed >= 0 && rank != HF_JOKER && (target || total < 3)) {
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
	if (target && nnat == 0 && rank != HF_JOKER)
		return hf_fail(HF_E_MELD, why, len, "your side has no open meld of %s", card_plural(rank));
	if (nmelds >= HF_MAX_MELDS)
		return hf_fail(HF_E_MELD, why, len, "your side's table is full");
	if (rank == HF_JOKER && total < 3)
		return hf_fail(HF_E_MELD, why, len, "a wild meld needs at least 3 wild cards");
	if (rank != HF_JOKER && (total < 3 || nnat < legal_start(r)))
		return hf_fail(pickup ? HF_E_PILE : HF_E_MELD, why, len,
		               "a new meld needs 3 cards with at least %d natural %s", legal_start(r),
		               legal_start(r) == 1 ? hf_card_name(rank) : card_plural(rank));
	*idx = -1;
	return check_size(r, rank, nnat, nwild, why, len);
}

static enum hf_err
black3_book(const struct hf_rules *r, int nmelds, int nnat, int nwild, bool pickup, char *why, size_t len)
{
	if (pickup || nwild)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s holds black 3s only");
	if (nnat < r->canasta_size)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s needs %d or more of them", r->canasta_size);
	if (nmelds >= HF_MAX_MELDS)
		return hf_fail(HF_E_MELD, why, len, "your side's table is full");
	return HF_OK;
}

enum hf_err
legal_group(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, const uint8_t cnt[HF_NCARD],
            int target, unsigned flags, struct legal_spot *spot, char *why, size_t len)
{
	bool pickup = (flags & LEGAL_PICKUP) != 0;
	int rank, nnat, nwild = cnt[HF_TWO] + cnt[HF_JOKER];
	enum hf_err e;

	if ((e = natural_rank(r, cnt, &rank, &nnat, why, len)) != HF_OK)
		return e;
	if (rank == 0 && nwild == 0 && cnt[HF_RED3] == 0)
		return hf_fail(HF_E_SYNTAX, why, len, "name the cards to meld");
	if (target) {
		if (!hf_card_is_natural(target) && target != HF_JOKER)
			return hf_fail(HF_E_MELD, why, len, "wilds go onto a meld of 4s to aces, or a wild meld");
		if (rank && rank != target)
			return hf_fail(HF_E_MELD, why, len, "%s do not go on %s", card_plural(rank), card_plural(target));
		rank = target;
	} else if (rank == 0) {
		rank = HF_JOKER;
	}
	if (rank == HF_JOKER && !r->wild_melds)
		return hf_fail(HF_E_MELD, why, len, "melds of wild cards alone are not allowed: %s", limit_text(r));
	spot->rank = rank;
	spot->naturals = rank == HF_JOKER ? 0 : nnat;
	if (rank == HF_BLACK3) {
		spot->idx = -1;
		e = black3_book(r, nmelds, nnat, nwild, pickup, why, len);
	} else {
		e = place(r, melds, nmelds, target, rank, nnat, nwild, pickup, &spot->idx, why, len);
	}
	if (e != HF_OK)
		return e;
	/* duel: a dirty book starts as a pair with one wild, and at the opening that is the only place for wilds */
	if ((flags & LEGAL_OPENING) && r->opening_wild_pair_only && nwild > 0 &&
	    (spot->idx >= 0 || nnat != 2 || nwild != 1))
		return hf_fail(HF_E_MELD, why, len, "in the opening meld, a wild card only goes with a pair starting a new "
		               "meld, one to a pair");
	return HF_OK;
}

int
legal_add(const struct hf_rules *r, struct hf_meld *melds, int *nmelds, const struct legal_spot *spot,
          const uint8_t cnt[HF_NCARD])
{
	struct hf_meld *m;
	int idx = spot->idx;

	if (idx < 0) {
		idx = (*nmelds)++;
		memset(&melds[idx], 0, sizeof melds[idx]);
		melds[idx].rank = (uint8_t)spot->rank;
		melds[idx].kind = HF_KIND_OPEN;
	}
	m = &melds[idx];
	m->naturals = (uint8_t)(m->naturals + spot->naturals);
	m->twos = (uint8_t)(m->twos + cnt[HF_TWO]);
	m->jokers = (uint8_t)(m->jokers + cnt[HF_JOKER]);
	if (m->kind == HF_KIND_OPEN && legal_size(m) >= r->canasta_size)
		m->kind = (uint8_t)legal_kind(r, m);
	return idx;
}

enum hf_err
legal_under(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, const struct hf_group *grp,
            bool pickup, int idx[], char *why, size_t len)
{
	int n = grp->count[HF_RED3], k = 0;

	if (r->red3_mode != HF_RED3_BOOK)
		return hf_fail(HF_E_MELD, why, len, r->red3_mode == HF_RED3_BONUS ?
		               "red 3s are laid out by themselves, never melded" : "threes cannot be melded");
	if (pickup || !hf_card_is_natural(grp->target) || cards_total(grp->count) != n)
		return hf_fail(HF_E_MELD, why, len, "a red 3 goes alone under a closed book: write K: 3h");
	for (int i = 0; i < nmelds && k < n; i++)
		if (melds[i].rank == grp->target && melds[i].kind != HF_KIND_OPEN && melds[i].red3s == 0)
			idx[k++] = i;
	if (k < n)
		return k == 0 ? hf_fail(HF_E_MELD, why, len, "a red 3 goes under a closed book: your side has no "
		                        "closed book of %s without one", card_plural(grp->target))
		              : hf_fail(HF_E_MELD, why, len, "one red 3 per closed book: your side has %d book%s of "
		                        "%s free for %d", k, k == 1 ? "" : "s", card_plural(grp->target), n);
	return HF_OK;
}

/* ------------------------------------------------------------------ going out */

int
legal_need_total(const struct hf_rules *r, int nseats)
{
	return r->need_total + (r->need_total_plus_players ? nseats : 0);
}

struct lists { int n; int need[5], has[5]; const char *what[5]; };

static void
add(struct lists *l, int need, int has, const char *what)
{
	if (need <= 0)
		return;
	l->need[l->n] = need;
	l->has[l->n] = has;
	l->what[l->n++] = what;
}

/* "2 clean and 3 dirty" / "1 and 2": commas, then "and" before the last. */
static void
join(const struct lists *l, bool needs, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < l->n && n < len; i++) {
		const char *sep = i == 0 ? "" : i == l->n - 1 ? " and " : ", ";
		if (needs)
			n += (size_t)snprintf(buf + n, len - n, "%s%d %s", sep, l->need[i], l->what[i]);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%d", sep, l->has[i]);
	}
}

/* The side's closed canastas, by kind (n[HF_KIND_OPEN] stays 0); returns them all. */
static int
count_closed(const struct hf_meld *melds, int nmelds, int n[HF_KIND_SEVENS + 1])
{
	int all = 0;

	for (int i = 0; i < nmelds; i++)
		if (melds[i].kind != HF_KIND_OPEN && melds[i].kind <= HF_KIND_SEVENS) {
			n[melds[i].kind]++;
			all++;
		}
	return all;
}

int
legal_missing(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, int nseats, char *buf, size_t len)
{
	static const char *const what[HF_KIND_SEVENS + 1] = { "", "clean", "dirty", "wild", "sevens" };
	const int need[HF_KIND_SEVENS + 1] = { 0, r->need_clean, r->need_dirty, r->need_wild, r->need_sevens };
	int n[HF_KIND_SEVENS + 1] = { 0 }, all = count_closed(melds, nmelds, n), sum = 0, more;
	struct lists l = { 0 };

	for (int k = HF_KIND_CLEAN; k <= HF_KIND_SEVENS; k++)
		if (need[k] > n[k]) {
			add(&l, need[k] - n[k], 0, what[k]);
			sum += need[k] - n[k];
		}
	/* the total counts every closed canasta, those over a kind's need too */
	more = legal_need_total(r, nseats) - all - sum;
	if (more > 0) {
		add(&l, more, 0, "more");
		sum += more;
	}
	if (len > 0)
		join(&l, true, buf, len);
	return sum;
}

enum hf_err
legal_canastas(const struct hf_rules *r, const struct hf_meld *melds, int nmelds, int nseats, bool *short_out,
               char *why, size_t len)
{
	int n[HF_KIND_SEVENS + 1] = { 0 }, all = count_closed(melds, nmelds, n), total = legal_need_total(r, nseats);
	bool missing;

	*short_out = false;
	missing = n[HF_KIND_CLEAN] < r->need_clean || n[HF_KIND_DIRTY] < r->need_dirty ||
	          n[HF_KIND_WILD] < r->need_wild || n[HF_KIND_SEVENS] < r->need_sevens || all < total;
	if (!missing)
		return HF_OK;
	if (r->short_out_allowed) {
		*short_out = true;
		return HF_OK;
	}
	char need[96], has[48];
	struct lists l = { 0 };
	add(&l, r->need_clean, n[HF_KIND_CLEAN], "clean");
	add(&l, r->need_dirty, n[HF_KIND_DIRTY], "dirty");
	add(&l, r->need_wild, n[HF_KIND_WILD], "wild");
	add(&l, r->need_sevens, n[HF_KIND_SEVENS], "sevens");
	if (total > r->need_clean + r->need_dirty + r->need_wild + r->need_sevens)
		add(&l, total, all, l.n ? "in all" : "closed");
	join(&l, true, need, sizeof need);
	join(&l, false, has, sizeof has);
	return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: your side needs %s canastas (it has %s)", need, has);
}

enum legal_go
legal_partner(const struct hf_rules *r, bool in_foot, int foot_turns)
{
	if (r->partner_foot == HF_PARTNERS_IN_FOOT && !in_foot)
		return LEGAL_GO_PARTNER_FOOT;
	if (r->partner_foot == HF_PARTNERS_PLAYED_FOOT && (!in_foot || foot_turns < 1))
		return LEGAL_GO_PARTNER_TURN;
	return LEGAL_GO_OK;
}

enum hf_err
legal_out(const struct legal_pos *p, const struct hf_meld *melds, int nmelds, bool *short_out, char *why, size_t len)
{
	enum hf_err e = legal_canastas(p->r, melds, nmelds, p->nseats, short_out, why, len);

	if (e != HF_OK)
		return e;
	switch (p->go) {
	case LEGAL_GO_PARTNER_FOOT:
		return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: every partner must be playing from the foot");
	case LEGAL_GO_PARTNER_TURN:
		return hf_fail(HF_E_GO_OUT, why, len,
		               "you cannot go out: every partner must have played a turn from the foot");
	case LEGAL_GO_ASK:
		return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: ask your partners first (out)");
	default:
		return HF_OK;
	}
}

bool
legal_end_asks(const struct legal_end *e)
{
	return e->left == 0 || (e->in_foot && e->left == 1 && e->stock > 0);
}

enum hf_err
legal_end(const struct hf_rules *r, const struct legal_end *e, enum hf_err out, const char *outwhy, char *why,
          size_t len)
{
	if (e->opening && e->value < e->open_min)
		return hf_fail(HF_E_OPENING, why, len, "your opening meld must reach %d points: this one makes %d",
		               (int)e->open_min, e->value);
	if (e->left == 0) {
		if (r->final_discard_required)
			return hf_fail(HF_E_GO_OUT, why, len, "you must keep one card for the final discard");
		if (out != HF_OK)
			return hf_fail(out, why, len, "%s", outwhy);
		return HF_OK;
	}
	if (e->black3_book)
		return hf_fail(HF_E_MELD, why, len, "a book of black 3s must be your very last play before going out");
	/* one card left in the foot could only go out: keep two unless this seat may go out */
	if (e->in_foot && e->left == 1 && e->stock > 0 && out != HF_OK)
		return hf_fail(out, why, len, "keep two cards: %s", outwhy);
	return HF_OK;
}

enum hf_err
legal_melds(const struct legal_pos *p, const struct hf_action *a, int top, int gained, bool *goes_out, char *why,
            size_t len)
{
	const struct hf_rules *r = p->r;
	struct hf_meld t[HF_MAX_MELDS];
	struct hf_group none;
	struct legal_spot spot;
	uint8_t hand[HF_NCARD], cnt[HF_NCARD];
	char outwhy[HF_ERRLEN];
	int n = p->nmelds, left = p->hand_n, value = 0, closed = legal_closed(p->melds, p->nmelds);
	int ngroups = a->ngroups, idx[HF_NCARD * 8];
	bool black3 = false, in_foot = p->in_foot, short_out;
	enum hf_err e, out;

	if (goes_out != NULL)
		*goes_out = false;
	if (ngroups > HF_MAX_GROUPS)
		return hf_fail(HF_E_SYNTAX, why, len, "too many melds in one move");
	memcpy(t, p->melds, sizeof t[0] * (size_t)n);
	memcpy(hand, p->hand, sizeof hand);
	memset(&none, 0, sizeof none);
	if (top && ngroups == 0)
		ngroups = 1;
	for (int i = 0; i < ngroups; i++) {
		const struct hf_group *grp = i < a->ngroups ? &a->groups[i] : &none;
		bool with_top = top && i == 0;
		int taken = 0;

		for (int k = 1; k < HF_NCARD; k++) {
			if (grp->count[k] > hand[k])
				return legal_holds(hand, grp, why, len);
			taken += grp->count[k];
		}
		if (grp->count[HF_RED3]) {
			if (grp->count[HF_RED3] > (int)(sizeof idx / sizeof idx[0]))
				return hf_fail(HF_E_MELD, why, len, "too many red 3s");
			if ((e = legal_under(r, t, n, grp, with_top, idx, why, len)) != HF_OK)
				return e;
			for (int k = 0; k < grp->count[HF_RED3]; k++)
				t[idx[k]].red3s = 1;
		} else {
			memcpy(cnt, grp->count, sizeof cnt);
			cnt[0] = 0;
			if (with_top)
				cnt[top]++;
			e = legal_group(r, t, n, cnt, grp->target, (p->down ? 0 : LEGAL_OPENING) | (with_top ? LEGAL_PICKUP : 0),
			                &spot, why, len);
			if (e != HF_OK)
				return e;
			legal_add(r, t, &n, &spot, cnt);
			black3 |= spot.rank == HF_BLACK3;
			value += cards_value(r, cnt);
		}
		for (int k = 1; k < HF_NCARD; k++)
			hand[k] = (uint8_t)(hand[k] - grp->count[k]);
		left -= taken;
	}
	left += gained;
	/* the foot comes up with the side's first canasta (sevens), or when the hand is empty */
	if (r->foot_when == HF_FOOT_FIRST_CANASTA && closed == 0 && !in_foot && legal_closed(t, n) > 0) {
		in_foot = true;
		left += p->foot_n;
	}
	if (left == 0 && !in_foot) {
		in_foot = true;
		left += p->foot_n;
	}
	struct legal_end end = { .opening = !p->down, .value = value, .open_min = p->open_min, .left = left,
	                         .in_foot = in_foot, .black3_book = black3, .stock = p->stock };
	outwhy[0] = '\0';
	out = legal_end_asks(&end) ? legal_out(p, t, n, &short_out, why ? outwhy : NULL, sizeof outwhy) : HF_OK;
	if ((e = legal_end(r, &end, out, outwhy, why, len)) != HF_OK)
		return e;
	if (goes_out != NULL)
		*goes_out = left == 0;
	return HF_OK;
}

/* ------------------------------------------------------------------ the pile */

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

/* ------------------------------------------------------------------ discards */

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
