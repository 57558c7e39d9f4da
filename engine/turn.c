/* turn.c: the start of a turn, drawing, discarding, taking up the foot, red threes and the stock running out. */
#include <string.h>

#include "game-internal.h"

int
turn_draw_cards(struct hf_game *g, int seat, int n)
{
	struct seat_state *ss = &g->seats[seat];
	int k = 0;
	for (; k < n && g->nstock > 0; k++) {
		int c = g->stock[--g->nstock];
		g->stock[g->nstock] = 0;
		ss->hand[c]++;
		ss->hand_n++;
	}
	return k;
}

/* Bonus-mode red threes in the hand are laid out; replacements that are red 3s again follow the draw rule. */
void
turn_red3s(struct hf_game *g, int seat, bool replace)
{
	struct seat_state *ss = &g->seats[seat];
	if (g->rules.red3_mode != HF_RED3_BONUS)
		return;
	while (ss->hand[HF_RED3] > 0) {
		int k = ss->hand[HF_RED3];
		ss->hand[HF_RED3] = 0;
		ss->hand_n = (uint16_t)(ss->hand_n - k);
		g->sides[game_side(g, seat)].red3s = (uint8_t)(g->sides[game_side(g, seat)].red3s + k);
		int got = replace ? turn_draw_cards(g, seat, k) : 0;
		game_event(g, HF_EV_RED3, seat, HF_RED3, k, got > 0);
		if (!replace)
			break;
		replace = g->rules.red3_replace_draw;
	}
}

void
turn_take_foot(struct hf_game *g, int seat, bool play_now)
{
	struct seat_state *ss = &g->seats[seat];
	for (int k = 0; k < HF_NCARD; k++) {
		ss->hand[k] = (uint8_t)(ss->hand[k] + ss->foot[k]);
		ss->foot[k] = 0;
	}
	ss->hand_n = (uint16_t)(ss->hand_n + ss->foot_n);
	ss->foot_n = 0;
	ss->in_foot = true;
	game_event(g, HF_EV_FOOT, seat, 0, 0, play_now);
	/* where red 3s wait for the player's turn (classic, pcio), a foot taken by discarding keeps them
	 * until the first turn it is played: turn_start lays them out */
	if (play_now || !g->rules.red3_at_first_turn)
		turn_red3s(g, seat, g->rules.red3_replace_foot);
}

void
turn_start(struct hf_game *g, int seat)
{
	struct seat_state *ss = &g->seats[seat];
	g->turn = (uint8_t)seat;
	g->phase = HF_PHASE_DRAW;
	g->melded = g->asked = g->permission = false;
	g->asker = -1;
	for (int s = 0; s < g->nseats; s++)
		g->seats[s].answer = -1;
	game_event(g, HF_EV_TURN, seat, 0, 0, 0);
	/* sevens: partners take up the foot at the start of their turn once the side closed a canasta */
	if (g->rules.foot_when == HF_FOOT_FIRST_CANASTA && !ss->in_foot &&
	    legal_closed(g->sides[game_side(g, seat)].melds, g->sides[game_side(g, seat)].nmelds) > 0)
		turn_take_foot(g, seat, true);
	/* dealt red threes, and a foot's taken up by discarding, kept until this turn (classic, pcio) */
	if (g->rules.red3_mode == HF_RED3_BONUS && ss->hand[HF_RED3] > 0)
		turn_red3s(g, seat, ss->in_foot ? g->rules.red3_replace_foot : g->rules.red3_replace_deal);
	ss->foot_at_start = ss->in_foot;
}

enum hf_err
turn_draw(struct hf_game *g, int seat, char *why, size_t len)
{
	if (g->phase != HF_PHASE_DRAW)
		return hf_fail(HF_E_PHASE, why, len, "you have already drawn this turn");
	g->nevents = 0;
	int n = turn_draw_cards(g, seat, 2);
	game_event(g, HF_EV_DRAW, seat, 0, n, 0);
	turn_red3s(g, seat, g->rules.red3_replace_draw);
	/* red 3s laid out and not replaced may leave nothing to play: draw again */
	while (g->seats[seat].hand_n == 0 && g->nstock > 0) {
		n = turn_draw_cards(g, seat, 2);
		game_event(g, HF_EV_DRAW, seat, 0, n, 0);
		turn_red3s(g, seat, g->rules.red3_replace_draw);
	}
	g->phase = HF_PHASE_PLAY;
	return HF_OK;
}

/*
 * The stock is empty at the end of a turn: the round ends, or (duel) the
 * pile but its top card is turned over as the new stock, each time, while
 * two cards lie under the top (one would be drawn and thrown for ever).
 * Each turn then uses up a card at least, so the round ends.
 */
static bool
stock_out(struct hf_game *g)
{
	if (g->rules.stock_out == HF_STOCK_OUT_TURN_PILE && g->npile > 2) {
		int n = g->npile - 1;
		uint8_t top = g->pile[n];
		for (int i = 0; i < n; i++)
			g->stock[i] = g->pile[n - 1 - i];
		g->nstock = (uint16_t)n;
		memset(g->pile, 0, sizeof g->pile);
		g->pile[0] = top;
		g->npile = 1;
		g->pile_freeze = legal_freezes(&g->rules, top);
		g->stock_turned = true;
		game_event(g, HF_EV_STOCK_TURNED, -1, 0, n, 0);
		return true;
	}
	game_event(g, HF_EV_STOCK_OUT, -1, 0, 0, 0);
	/* the playable cards are used up: a tie round, nothing scores */
	score_round(g, -1, false, g->rules.stock_out == HF_STOCK_OUT_TURN_PILE);
	game_after_round(g);
	return false;
}

enum hf_err
turn_discard(struct hf_game *g, int seat, int card, char *why, size_t len)
{
	struct seat_state *ss = &g->seats[seat];
	bool last = ss->hand_n == 1, going = false, short_out = false;
	struct legal_pos p;
	enum hf_err e;

	if (g->phase != HF_PHASE_PLAY)
		return hf_fail(HF_E_PHASE, why, len, "draw or take the pile first");
	game_pos(g, seat, &p);
	if ((e = legal_discard(&p, card, why, len)) != HF_OK)
		return e;
	/* the last card from the foot goes out where the side may (legal_discard says when it may go without) */
	if (last && ss->in_foot)
		going = out_check(g, seat, &short_out, NULL, 0) == HF_OK;
	g->nevents = 0;
	ss->hand[card]--;
	ss->hand_n--;
	g->pile[g->npile++] = (uint8_t)card;
	g->pile_freeze += legal_freezes(&g->rules, card);
	g->last_discard_seat = (uint8_t)seat;
	game_event(g, HF_EV_DISCARD, seat, card, 1, 0);
	if (going) {
		out_go(g, seat, short_out);
		return HF_OK;
	}
	if (last && !ss->in_foot)
		turn_take_foot(g, seat, false);
	if (ss->foot_at_start)
		ss->foot_turns++;
	if (g->nstock == 0 && !stock_out(g))
		return HF_OK;
	turn_start(g, (seat + 1) % g->nseats);
	return HF_OK;
}
