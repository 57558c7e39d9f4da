/* out.c: going out: the canastas a side needs, partners in their foot, asking and answering. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

struct tally { int clean, dirty, wild, sevens, total; };

static void tally(const struct hf_game *g, int side, struct tally *t)
{
	memset(t, 0, sizeof *t);
	const struct side_state *sd = &g->sides[side];
	for (int i = 0; i < sd->nmelds; i++) {
		switch (sd->melds[i].kind) {
		case HF_KIND_CLEAN: t->clean++; break;
		case HF_KIND_DIRTY: t->dirty++; break;
		case HF_KIND_WILD: t->wild++; break;
		case HF_KIND_SEVENS: t->sevens++; break;
		default: continue;
		}
		t->total++;
	}
}

static void add(char *a, size_t alen, char *b, size_t blen, int need, int has, const char *what)
{
	if (need <= 0)
		return;
	size_t na = strlen(a), nb = strlen(b);
	snprintf(a + na, alen - na, "%s%d %s", na ? ", " : "", need, what);
	snprintf(b + nb, blen - nb, "%s%d", nb ? ", " : "", has);
}

/* May seat go out now?  *short_out: it may, but short of canastas (severe penalty). */
enum hf_err out_check(const struct hf_game *g, int seat, bool *short_out, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	int side = game_side(g, seat), total = rules_need_total(r, g->nseats);
	struct tally t;
	tally(g, side, &t);
	*short_out = false;
	bool missing = t.clean < r->need_clean || t.dirty < r->need_dirty || t.wild < r->need_wild ||
	               t.sevens < r->need_sevens || t.total < total;
	if (missing && r->short_out_allowed) {
		*short_out = true;
	} else if (missing) {
		char need[96] = "", has[48] = "";
		add(need, sizeof need, has, sizeof has, r->need_clean, t.clean, "clean");
		add(need, sizeof need, has, sizeof has, r->need_dirty, t.dirty, "dirty");
		add(need, sizeof need, has, sizeof has, r->need_wild, t.wild, "wild");
		add(need, sizeof need, has, sizeof has, r->need_sevens, t.sevens, "sevens");
		if (total > r->need_clean + r->need_dirty + r->need_wild + r->need_sevens)
			add(need, sizeof need, has, sizeof has, total, t.total, "in all");
		return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: your side needs %s canastas (it has %s)",
		               need, has);
	}
	for (int p = 0; p < g->nseats; p++) {
		if (p == seat || game_side(g, p) != side)
			continue;
		if (r->partner_foot == HF_PARTNERS_IN_FOOT && !g->seats[p].in_foot)
			return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: every partner must be playing from the foot");
		if (r->partner_foot == HF_PARTNERS_PLAYED_FOOT && g->seats[p].foot_turns < 1)
			return hf_fail(HF_E_GO_OUT, why, len,
			               "you cannot go out: every partner must have played a turn from the foot");
	}
	if (r->ask_partner && game_has_partners(g, seat) && !g->permission)
		return hf_fail(HF_E_GO_OUT, why, len, "you cannot go out: ask your partners first (out)");
	return HF_OK;
}

void out_go(struct hf_game *g, int seat, bool short_out)
{
	game_event(g, HF_EV_OUT, seat, 0, 0, short_out);
	if (g->rules.out_melds_rest && !short_out)
		for (int p = 0; p < g->nseats; p++)
			if (p != seat && game_side(g, p) == game_side(g, seat))
				meld_auto(g, p);
	score_round(g, seat, short_out, false);
	game_after_round(g);
}

enum hf_err out_ask(struct hf_game *g, int seat, char *why, size_t len)
{
	const struct hf_rules *r = &g->rules;
	if (g->phase != HF_PHASE_PLAY)
		return hf_fail(HF_E_PHASE, why, len, "draw or take the pile first, then ask");
	if (!r->ask_partner || !game_has_partners(g, seat))
		return hf_fail(HF_E_ASK, why, len, "nobody needs to be asked: to go out, just meld or discard your last cards");
	if (g->asked)
		return hf_fail(HF_E_ASK, why, len, "you already asked this turn");
	if (r->ask_before_meld && g->melded)
		return hf_fail(HF_E_ASK, why, len, "you must ask before you meld anything this turn");
	g->nevents = 0;
	g->asked = true;
	g->phase = HF_PHASE_ASK;
	g->asker = (int8_t)seat;
	for (int p = 0; p < g->nseats; p++)
		g->seats[p].answer = -1;
	game_event(g, HF_EV_ASK, seat, 0, 0, 0);
	return HF_OK;
}

enum hf_err out_answer(struct hf_game *g, int seat, bool yes, char *why, size_t len)
{
	if (g->phase != HF_PHASE_ASK)
		return hf_fail(HF_E_ASK, why, len, "nobody is asking to go out");
	int asker = g->turn;
	if (seat == asker || game_side(g, seat) != game_side(g, asker))
		return hf_fail(HF_E_ASK, why, len, "only seat %d's partners answer", asker + 1);
	if (g->seats[seat].answer >= 0)
		return hf_fail(HF_E_ASK, why, len, "you already answered");
	g->nevents = 0;
	g->seats[seat].answer = yes;
	game_event(g, HF_EV_ANSWER, seat, 0, 0, yes);
	bool all = true, ok = true;
	for (int p = 0; p < g->nseats; p++) {
		if (p == asker || game_side(g, p) != game_side(g, asker))
			continue;
		all &= g->seats[p].answer >= 0;
		ok &= g->seats[p].answer == 1;
	}
	if (all) {
		g->permission = ok;
		g->phase = HF_PHASE_PLAY;
		g->asker = -1;
	}
	return HF_OK;
}
