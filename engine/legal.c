/* legal.c: the rulebook on melds and going out, as functions of the rules and a seat's position (the pile: legal-pile.c; discards: legal-discard.c). */
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
