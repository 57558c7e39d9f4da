/* ai-pos.c: a seat's position as the computer players see it, copied from the view, and the rulebook's answers about it. */
#include <string.h>

#include "ai.h"

void
ai_pos_init(struct ai_pos *p, const struct hf_view *v)
{
	const struct hf_side_view *sv;
	int i;

	p->v = v;
	p->r = v->rules;
	p->me = v->seat;
	p->sharp = false;
	p->permission = v->permission;
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

/* A sevens canasta must be pure 7s where the rules pay for one or ask for one. */
bool
ai_pos_sevens_rank(const struct ai_pos *p, int rank)
{
	return legal_sevens(p->r, rank);
}

/* The rules' wild limit, and two choices of the players': wilds never spoil sevens, nor go with threes. */
bool
ai_pos_wild_ok(const struct ai_pos *p, int rank, int naturals, int wilds)
{
	if (rank == HF_JOKER)
		return naturals == 0;
	if (wilds == 0)
		return true;
	if (ai_pos_sevens_rank(p, rank) || rank == HF_BLACK3)
		return false;
	return legal_wilds(p->r, naturals, wilds);
}

int
ai_pos_meld_size(const struct hf_meld *m)
{
	return legal_size(m);
}

void
ai_pos_legal(const struct ai_pos *p, struct legal_pos *lp)
{
	const struct hf_view *v = p->v;
	int s;

	lp->r = p->r;
	lp->nseats = v->nseats;
	lp->hand = p->hand;
	lp->hand_n = p->hand_n;
	lp->melds = p->melds;
	lp->nmelds = p->nmelds;
	lp->down = p->down;
	lp->open_min = v->sides[p->side].open_min;
	lp->in_foot = p->me >= 0 && v->seats[p->me].in_foot;
	lp->foot_n = p->me >= 0 && !lp->in_foot ? v->seats[p->me].foot_count : 0;
	lp->stock = v->stock;
	lp->pile_top = v->pile_top;
	lp->pile_n = v->pile_size;
	lp->pile_plain = v->pile_plain;
	lp->frozen = v->pile_frozen;
	lp->go = LEGAL_GO_OK;
	for (s = 0; s < v->nseats && lp->go == LEGAL_GO_OK; s++)
		if (s != p->me && v->seats[s].side == p->side)
			lp->go = (uint8_t)legal_partner(p->r, v->seats[s].in_foot, v->seats[s].foot_turns);
	if (lp->go == LEGAL_GO_OK && p->r->ask_partner && ai_pos_has_partners(p) && !p->permission)
		lp->go = LEGAL_GO_ASK;
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
	if (legal_size(m) >= p->r->canasta_size) {
		m->kind = (uint8_t)legal_kind(p->r, m);
		p->open_idx[rank] = -1;
	}
	p->down = true;
}

bool
ai_pos_melds_ready(const struct ai_pos *p)
{
	bool short_out;

	return legal_canastas(p->r, p->melds, p->nmelds, p->v->nseats, &short_out, NULL, 0) == HF_OK && !short_out;
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
	int s;

	for (s = 0; s < p->v->nseats; s++)
		if (s != p->me && p->v->seats[s].side == p->side &&
		    legal_partner(p->r, p->v->seats[s].in_foot, p->v->seats[s].foot_turns) != LEGAL_GO_OK)
			return false;
	return true;
}

bool
ai_pos_forbidden(const struct ai_pos *p, int card)
{
	return legal_forbidden(p->r, card);
}

bool
ai_pos_can_discard(const struct ai_pos *p, int card)
{
	struct legal_pos lp;

	if (card <= HF_NOCARD || card >= HF_NCARD || !p->hand[card])
		return false;
	if (legal_discard_plain(p->r, card, p->hand_n, p->me >= 0 && p->v->seats[p->me].in_foot))
		return true;
	ai_pos_legal(p, &lp);
	return legal_discard(&lp, card, NULL, 0) == HF_OK;
}

bool
ai_pos_forced(const struct ai_pos *p, struct hf_action *out)
{
	struct legal_pos lp;

	ai_pos_legal(p, &lp);
	return !legal_stuck(&lp, out);
}

int
ai_pos_value(const struct ai_pos *p, const uint8_t count[HF_NCARD])
{
	int i, v = 0;

	for (i = 0; i < HF_NCARD; i++)
		v += count[i] * p->r->value[i];
	return v;
}
