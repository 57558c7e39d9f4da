/* out.c: going out: the check, the going-out side melding the rest, asking the partners and answering. */
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

/* May seat go out now?  *short_out: it may, but short of canastas (severe penalty). */
enum hf_err
out_check(const struct hf_game *g, int seat, bool *short_out, char *why, size_t len)
{
	struct legal_pos p;

	game_pos(g, seat, &p);
	return legal_out(&p, p.melds, p.nmelds, short_out, why, len);
}

bool
hf_game_out_ready(const struct hf_game *g, int seat, char *why, size_t len)
{
	struct legal_pos p;
	bool short_out;
	char missing[96];
	int n;

	if (seat < 0 || seat >= g->nseats) {
		hf_fail(HF_E_NOT_TURN, why, len, "there is no seat %d at this table", seat + 1);
		return false;
	}
	game_pos(g, seat, &p);
	if (legal_canastas(p.r, p.melds, p.nmelds, p.nseats, &short_out, NULL, 0) != HF_OK) {
		n = legal_missing(p.r, p.melds, p.nmelds, p.nseats, missing, sizeof missing);
		hf_fail(HF_E_GO_OUT, why, len, "your side still needs %s canasta%s to go out", missing, n == 1 ? "" : "s");
		return false;
	}
	if (p.go == LEGAL_GO_PARTNER_FOOT) {
		hf_fail(HF_E_GO_OUT, why, len, "every partner must be playing from the foot before you go out");
		return false;
	}
	if (p.go == LEGAL_GO_PARTNER_TURN) {
		hf_fail(HF_E_GO_OUT, why, len, "every partner must have played a turn from the foot before you go out");
		return false;
	}
	return true;
}

void
out_go(struct hf_game *g, int seat, bool short_out)
{
	game_event(g, HF_EV_OUT, seat, 0, 0, short_out);
	if (g->rules.out_melds_rest && !short_out)
		for (int p = 0; p < g->nseats; p++)
			if (p != seat && game_side(g, p) == game_side(g, seat))
				meld_auto(g, p);
	score_round(g, seat, short_out, false);
	game_after_round(g);
}

enum hf_err
out_ask(struct hf_game *g, int seat, char *why, size_t len)
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

enum hf_err
out_answer(struct hf_game *g, int seat, bool yes, char *why, size_t len)
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
