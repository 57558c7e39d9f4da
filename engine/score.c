/* score.c: a round's score sheet per side, item by item as on the classic score sheet. */
#include <string.h>

#include "game-internal.h"

static void
table_items(const struct hf_game *g, int s, struct hf_sheet *sh, int *under)
{
	const struct hf_rules *r = &g->rules;
	const struct side_state *sd = &g->sides[s];
	*under = 0;
	for (int i = 0; i < sd->nmelds; i++) {
		const struct hf_meld *m = &sd->melds[i];
		sh->laid_out += m->naturals * card_value(r, m->rank == HF_JOKER ? 0 : m->rank) +
		                m->twos * r->value[HF_TWO] + m->jokers * r->value[HF_JOKER];
		*under += m->red3s;
		switch (m->kind) {
		case HF_KIND_CLEAN: sh->clean_count++; break;
		case HF_KIND_DIRTY: sh->dirty_count++; break;
		case HF_KIND_WILD: sh->wild_count++; break;
		case HF_KIND_SEVENS: sh->sevens_count++; break;
		default: break;
		}
	}
	sh->clean = sh->clean_count * r->clean_bonus;
	sh->dirty = sh->dirty_count * r->dirty_bonus;
	sh->wild = sh->wild_count * r->wild_bonus;
	sh->sevens = sh->sevens_count * r->sevens_bonus;
}

/* Cards left in hands (and untaken feet where caught_foot) count against; in book mode a red 3 left in a
 * hand or an untaken foot when a player went out counts red3_caught, otherwise it is a three like any card. */
static void
caught(const struct hf_game *g, int s, int goer, int *points, int *red3s)
{
	const struct hf_rules *r = &g->rules;
	*points = 0;
	*red3s = 0;
	for (int p = 0; p < g->nseats; p++) {
		if (game_side(g, p) != s || p == goer)
			continue;
		if (goer >= 0 && r->partners_dismissed && game_side(g, goer) == s)
			continue;
		const struct seat_state *ss = &g->seats[p];
		for (int k = 1; k < HF_NCARD; k++) {
			int foot = ss->in_foot ? 0 : ss->foot[k];
			/* family: "RED 3 = -500 points if left in your hand/foot when a player goes out" */
			if (k == HF_RED3 && r->red3_mode == HF_RED3_BOOK && goer >= 0)
				*red3s += ss->hand[k] + foot;
			else
				*points -= (ss->hand[k] + (r->caught_counts_foot ? foot : 0)) * r->value[k];
		}
	}
}

static void
total(struct hf_sheet *sh)
{
	sh->total = sh->deal_bonus + sh->going_out + sh->red3s + sh->clean + sh->dirty + sh->wild + sh->sevens +
	            sh->laid_out + sh->caught + sh->penalty;
}

void
score_round(struct hf_game *g, int goer, bool short_out, bool tie)
{
	const struct hf_rules *r = &g->rules;
	int gside = goer >= 0 ? game_side(g, goer) : -1;
	memset(g->last_sheet, 0, sizeof g->last_sheet);
	if (tie)
		return;
	for (int s = 0; s < g->nsides; s++) {
		struct hf_sheet *sh = &g->last_sheet[s];
		int under, pts, r3;
		sh->deal_bonus = g->sides[s].deal_bonus;
		table_items(g, s, sh, &under);
		caught(g, s, goer, &pts, &r3);
		if (r->red3_mode == HF_RED3_BOOK) {
			sh->red3_count = under;
			sh->red3_caught_count = r3;
			sh->red3s = under * r->red3_bonus - r3 * r->red3_caught;
		} else if (r->red3_mode == HF_RED3_BONUS) {
			sh->red3_count = g->sides[s].red3s;
			sh->red3s = sh->red3_count * r->red3_bonus;
		}
		sh->caught = pts;
		if (s == gside && !short_out)
			sh->going_out = r->out_bonus;
		if (short_out && s == gside) {
			/* the severe penalty: all meld points lost, -penalty instead */
			sh->red3s = sh->clean = sh->dirty = sh->wild = sh->sevens = sh->laid_out = sh->caught = 0;
			sh->penalty = -r->short_out_penalty;
		} else if (short_out) {
			sh->caught = 0;
			if (r->red3_mode == HF_RED3_BOOK) {
				sh->red3s = under * r->red3_bonus;
				sh->red3_caught_count = 0;
			}
		}
		total(sh);
	}
}
