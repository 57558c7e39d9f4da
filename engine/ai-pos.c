/* ai-pos.c: a seat's position as the computer players see it, copied from the view, and the rule checks they share. */
#include <string.h>

#include "ai.h"

static int
kind_of(const struct ai_pos *p, const struct hf_meld *m)
{
	int w = m->twos + m->jokers;

	if (m->rank == HF_JOKER)
		return HF_KIND_WILD;
	if (w == 0)
		return ai_pos_sevens_rank(p, m->rank) ? HF_KIND_SEVENS : HF_KIND_CLEAN;
	return HF_KIND_DIRTY;
}

void
ai_pos_init(struct ai_pos *p, const struct hf_view *v)
{
	const struct hf_side_view *sv;
	int i;

	p->v = v;
	p->r = v->rules;
	p->me = v->seat;
	p->sharp = false;
	p->side = v->seat >= 0 ? v->seats[v->seat].side : 0;
	memcpy(p->hand, v->hand, sizeof p->hand);
	p->hand_n = 0;
	for (i = 0; i < HF_NCARD; i++)
		p->hand_n += p->hand[i];
	sv = &v->sides[p->side];
	p->down = sv->down;
	p->nmelds = sv->nmelds;
	memcpy(p->melds, sv->melds, sizeof p->melds[0] * (size_t)sv->nmelds);
	memset(p->open_idx, -1, sizeof p->open_idx);
	for (i = 0; i < p->nmelds; i++) {
		p->closed_before[i] = p->melds[i].kind != HF_KIND_OPEN;
		if (!p->closed_before[i] && p->melds[i].rank < HF_NCARD)
			p->open_idx[p->melds[i].rank] = (int8_t)i;
	}
}

/* A sevens canasta must be pure 7s where the rules pay for one. */
bool
ai_pos_sevens_rank(const struct ai_pos *p, int rank)
{
	return rank == HF_SEVEN && (p->r->need_sevens > 0 || p->r->sevens_bonus > 0);
}

bool
ai_pos_wild_ok(const struct ai_pos *p, int rank, int naturals, int wilds)
{
	if (rank == HF_JOKER)
		return naturals == 0;
	if (wilds == 0)
		return true;
	if (ai_pos_sevens_rank(p, rank) || rank == HF_BLACK3)
		return false;
	switch (p->r->wild_limit) {
	case HF_WILDS_HALF:  return naturals >= 2 * wilds;
	case HF_WILDS_EQUAL: return naturals >= wilds;
	default:             return naturals > wilds;
	}
}

int
ai_pos_meld_size(const struct hf_meld *m)
{
	return m->naturals + m->twos + m->jokers;
}

void
ai_pos_add(struct ai_pos *p, const struct hf_group *g)
{
	struct hf_meld *m;
	int rank = g->target, i, n = 0;

	if (g->count[HF_RED3] && rank) {
		/* a red three under a closed book */
		for (i = 0; i < p->nmelds; i++)
			if (p->melds[i].rank == rank && p->melds[i].kind != HF_KIND_OPEN && !p->melds[i].red3s) {
				p->melds[i].red3s = 1;
				break;
			}
		p->hand[HF_RED3]--;
		p->hand_n--;
		return;
	}
	if (!rank) {
		rank = HF_JOKER;
		for (i = HF_BLACK3; i <= HF_ACE; i++)
			if (g->count[i])
				rank = i;
	}
	if (p->open_idx[rank] >= 0) {
		m = &p->melds[p->open_idx[rank]];
	} else {
		if (p->nmelds >= HF_MAX_MELDS)
			return;
		m = &p->melds[p->nmelds];
		memset(m, 0, sizeof *m);
		m->rank = (uint8_t)rank;
		m->kind = HF_KIND_OPEN;
		p->closed_before[p->nmelds] = false;
		p->open_idx[rank] = (int8_t)p->nmelds++;
	}
	if (rank != HF_JOKER)
		m->naturals = (uint8_t)(m->naturals + g->count[rank]);
	m->twos = (uint8_t)(m->twos + g->count[HF_TWO]);
	m->jokers = (uint8_t)(m->jokers + g->count[HF_JOKER]);
	for (i = 0; i < HF_NCARD; i++) {
		p->hand[i] = (uint8_t)(p->hand[i] - g->count[i]);
		n += g->count[i];
	}
	p->hand_n -= n;
	if (ai_pos_meld_size(m) >= p->r->canasta_size) {
		m->kind = (uint8_t)kind_of(p, m);
		p->open_idx[rank] = -1;
	}
	p->down = true;
}

bool
ai_pos_melds_ready(const struct ai_pos *p)
{
	const struct hf_rules *r = p->r;
	int n[5] = {0}, total = 0, need, i;

	for (i = 0; i < p->nmelds; i++)
		if (p->melds[i].kind != HF_KIND_OPEN) {
			n[p->melds[i].kind]++;
			total++;
		}
	need = r->need_total + (r->need_total_plus_players ? p->v->nseats : 0);
	return n[HF_KIND_CLEAN] >= r->need_clean && n[HF_KIND_DIRTY] >= r->need_dirty &&
	       n[HF_KIND_WILD] >= r->need_wild && n[HF_KIND_SEVENS] >= r->need_sevens && total >= need;
}

bool
ai_pos_has_partners(const struct ai_pos *p)
{
	int s;

	for (s = 0; s < p->v->nseats; s++)
		if (s != p->me && p->v->seats[s].side == p->side)
			return true;
	return false;
}

bool
ai_pos_partners_ready(const struct ai_pos *p)
{
	const struct hf_seat_view *sv;
	int s;

	for (s = 0; s < p->v->nseats; s++) {
		if (s == p->me || p->v->seats[s].side != p->side)
			continue;
		sv = &p->v->seats[s];
		if (p->r->partner_foot == HF_PARTNERS_IN_FOOT && !sv->in_foot)
			return false;
		if (p->r->partner_foot == HF_PARTNERS_PLAYED_FOOT && (!sv->in_foot || sv->foot_turns < 1))
			return false;
	}
	return true;
}

bool
ai_pos_forbidden(const struct ai_pos *p, int card)
{
	return (card == HF_JOKER && !p->r->discard_joker_ok) || (card == HF_RED3 && !p->r->discard_red3_ok);
}

bool
ai_pos_can_discard(const struct ai_pos *p, int card)
{
	if (card <= HF_NOCARD || card >= HF_NCARD || !p->hand[card])
		return false;
	if (!ai_pos_forbidden(p, card))
		return true;
	/* as the engine: a hand of forbidden cards only (classic: all jokers) may throw one, so a turn can end */
	return p->hand[HF_JOKER] * ai_pos_forbidden(p, HF_JOKER) + p->hand[HF_RED3] * ai_pos_forbidden(p, HF_RED3) == p->hand_n;
}

int
ai_pos_value(const struct ai_pos *p, const uint8_t count[HF_NCARD])
{
	int i, v = 0;

	for (i = 0; i < HF_NCARD; i++)
		v += count[i] * p->r->value[i];
	return v;
}
