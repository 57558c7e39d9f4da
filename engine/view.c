/* view.c: exactly what one seat may know of a game. */
#include <stddef.h>
#include <string.h>

#include "game-internal.h"

static void
unseen(const struct hf_game *g, int seat, struct hf_view *v)
{
	uint32_t c[HF_NCARD];
	hf_game_shoe(g, c);
	if (seat >= 0)
		for (int k = 1; k < HF_NCARD; k++)
			c[k] -= g->seats[seat].hand[k];
	for (int s = 0; s < g->nsides; s++) {
		const struct side_state *sd = &g->sides[s];
		c[HF_RED3] -= sd->red3s;
		for (int i = 0; i < sd->nmelds; i++) {
			const struct hf_meld *m = &sd->melds[i];
			if (m->rank != HF_JOKER)
				c[m->rank] -= m->naturals;
			c[HF_TWO] -= m->twos;
			c[HF_JOKER] -= m->jokers;
			c[HF_RED3] -= m->red3s;
		}
	}
	if (g->npile > 0)
		c[g->pile[g->npile - 1]]--;
	for (int k = 1; k < HF_NCARD; k++)
		v->unseen[k] = (uint8_t)c[k];
}

/*
 * Zeroes the view but the long tails no reader goes past (melds beyond
 * nmelds, rounds beyond nrounds_scored, pile beyond pile_size): a view is
 * made for every move the computer players simulate, and those tails are
 * most of its size.
 */
static void
clear(struct hf_view *v)
{
	memset(v, 0, offsetof(struct hf_view, sides));
	for (int s = 0; s < HF_MAX_SIDES; s++) {
		struct hf_side_view *sv = &v->sides[s];
		sv->nmelds = sv->red3s = 0;
		sv->down = false;
		sv->score = sv->open_min = 0;
	}
	memset(&v->unseen, 0, offsetof(struct hf_view, round_totals) - offsetof(struct hf_view, unseen));
	memset(&v->last_sheet, 0, offsetof(struct hf_view, pile) - offsetof(struct hf_view, last_sheet));
}

void
hf_game_view(const struct hf_game *g, int seat, struct hf_view *v)
{
	clear(v);
	if (seat < -1 || seat >= g->nseats)
		seat = -1;
	v->rules = &g->rules;
	v->seat = (int8_t)seat;
	v->nseats = g->nseats;
	v->nsides = g->nsides;
	v->round = g->round;
	v->dealer = g->dealer;
	v->turn = g->turn;
	v->phase = g->phase;
	if (seat >= 0) {
		memcpy(v->hand, g->seats[seat].hand, sizeof v->hand);
		v->hand_count = g->seats[seat].hand_n;
		v->may_pickup = pickup_may(g, seat);
		v->permission = seat == g->turn && g->permission;
	}
	v->stock = g->nstock;
	v->pile_size = g->npile;
	v->pile_top = g->npile ? g->pile[g->npile - 1] : HF_NOCARD;
	v->pile_plain = (uint8_t)game_pile_plain(g);
	v->pile_frozen = pickup_frozen(g);
	v->stock_turned = g->stock_turned;
	v->melded_this_turn = g->melded;
	v->asked_this_turn = g->asked;
	v->asker = (int8_t)(g->phase == HF_PHASE_ASK ? g->turn : -1);
	for (int s = 0; s < g->nseats; s++) {
		const struct seat_state *ss = &g->seats[s];
		v->seats[s].side = (uint8_t)game_side(g, s);
		v->seats[s].hand_count = ss->hand_n;
		v->seats[s].foot_count = ss->foot_n;
		v->seats[s].in_foot = ss->in_foot;
		v->seats[s].foot_turns = ss->foot_turns;
		v->seats[s].answer = ss->answer;
		memcpy(v->seats[s].known, ss->known, sizeof v->seats[s].known);
		memcpy(v->seats[s].guessed, ss->guessed, sizeof v->seats[s].guessed);
	}
	memcpy(v->pile, g->pile, g->npile);
	for (int s = 0; s < g->nsides; s++) {
		const struct side_state *sd = &g->sides[s];
		struct hf_side_view *sv = &v->sides[s];
		sv->nmelds = sd->nmelds;
		memcpy(sv->melds, sd->melds, sizeof sd->melds[0] * sd->nmelds);
		sv->red3s = sd->red3s;
		sv->down = sd->down;
		sv->score = sd->score;
		sv->open_min = rules_open_min(&g->rules, g->round, sd->score);
		v->deal_bonus[s] = sd->deal_bonus;
	}
	unseen(g, seat, v);
	v->nrounds_scored = g->nrounds_scored;
	memcpy(v->round_totals, g->round_totals, sizeof g->round_totals[0] * (size_t)g->nrounds_scored);
	memcpy(v->last_sheet, g->last_sheet, sizeof v->last_sheet);
	v->winner = (int8_t)(g->phase == HF_PHASE_OVER ? g->winner : -2);
	v->last_discard_seat = g->last_discard_seat;
	v->first_player = g->first;
}
