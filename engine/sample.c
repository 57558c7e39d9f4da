/* sample.c: a full game consistent with a view, the unseen cards dealt at random (for look-ahead). */
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"

static void
copy_public(struct hf_game *g, const struct hf_view *v)
{
	g->nseats = v->nseats;
	g->nsides = v->nsides;
	g->round = v->round;
	g->dealer = v->dealer;
	g->turn = v->turn;
	g->phase = v->phase;
	g->first = v->first_player;
	g->asker = v->asker;
	g->winner = v->winner;
	g->last_discard_seat = v->last_discard_seat;
	g->melded = v->melded_this_turn;
	g->asked = v->asked_this_turn;
	g->permission = v->seat == v->turn && v->permission;
	g->stock_turned = v->stock_turned;
	for (int s = 0; s < v->nseats; s++) {
		g->seats[s].in_foot = v->seats[s].in_foot;
		g->seats[s].foot_at_start = v->seats[s].in_foot;
		g->seats[s].foot_turns = v->seats[s].foot_turns;
		g->seats[s].answer = v->seats[s].answer;
	}
	for (int s = 0; s < v->nsides; s++) {
		struct side_state *sd = &g->sides[s];
		sd->nmelds = v->sides[s].nmelds;
		memcpy(sd->melds, v->sides[s].melds, sizeof sd->melds[0] * sd->nmelds);
		sd->red3s = v->sides[s].red3s;
		sd->down = v->sides[s].down;
		sd->score = v->sides[s].score;
		sd->deal_bonus = v->deal_bonus[s];
	}
	g->nrounds_scored = v->nrounds_scored;
	memcpy(g->round_totals, v->round_totals, sizeof g->round_totals[0] * (size_t)v->nrounds_scored);
	memcpy(g->last_sheet, v->last_sheet, sizeof g->last_sheet);
}

static int
take(const uint8_t *pool, int npool, int *at)
{
	return *at < npool ? pool[(*at)++] : HF_NOCARD;
}

static void
swap(uint8_t *a, uint8_t *b)
{
	uint8_t t = *a;
	*a = *b;
	*b = t;
}

/* Under a wild on top, the first card that is not wild is public (view.pile_plain): put it right under
 * the top, or, where every card is wild, only wilds in the pile (from the cards not yet dealt). */
static void
under_wild(struct hf_game *g, int plain, bool frozen, uint8_t *pool, int npool, int at)
{
	uint8_t *under = &g->pile[g->npile - 1];
	if (plain == HF_NOCARD) {
		for (int i = 0; i < g->npile; i++)
			for (int j = at; !hf_card_is_wild(g->pile[i]) && j < npool; j++)
				if (hf_card_is_wild(pool[j]) && (frozen || !legal_freezes(&g->rules, pool[j])))
					swap(&g->pile[i], &pool[j]);
		return;
	}
	for (int j = at; *under != plain && j < npool; j++)
		if (pool[j] == plain)
			swap(under, &pool[j]);
	for (int i = 0; *under != plain && i + 1 < g->npile; i++)
		if (g->pile[i] == plain)
			swap(under, &g->pile[i]);
}

struct hf_game *
hf_game_sample(const struct hf_view *v, uint64_t seed)
{
	struct hf_game *g = calloc(1, sizeof *g);
	uint8_t pool[HF_SHOE_MAX];
	int npool = 0, at = 0;
	if (g == NULL)
		return NULL;
	g->rules = *v->rules;
	g->seed = seed;
	g->rng = deal_round_seed(seed, v->round);
	copy_public(g, v);
	for (int k = 1; k < HF_NCARD; k++)
		for (int i = 0; i < v->unseen[k] && npool < HF_SHOE_MAX; i++)
			pool[npool++] = (uint8_t)k;
	for (int i = npool - 1; i > 0; i--) {
		int j = (int)hf_rng_below(&g->rng, (uint32_t)i + 1);
		uint8_t t = pool[i];
		pool[i] = pool[j];
		pool[j] = t;
	}
	/* a frozen pile holds a card that freezes it: put one below the top */
	if (v->pile_frozen && v->pile_size > 1 && !legal_freezes(v->rules, v->pile_top))
		for (int i = 0; i < npool; i++)
			if (legal_freezes(v->rules, pool[i])) {
				uint8_t t = pool[0];
				pool[0] = pool[i];
				pool[i] = t;
				break;
			}
	for (int i = 0; i + 1 < v->pile_size; i++) {
		/* a pile that is not frozen holds no card that would freeze it */
		for (int j = at; !v->pile_frozen && j < npool; j++)
			if (!legal_freezes(v->rules, pool[j])) {
				uint8_t t = pool[at];
				pool[at] = pool[j];
				pool[j] = t;
				break;
			}
		int c = take(pool, npool, &at);
		g->pile[g->npile++] = (uint8_t)c;
	}
	if (g->npile > 0 && hf_card_is_wild(v->pile_top))
		under_wild(g, v->pile_plain, v->pile_frozen, pool, npool, at);
	if (v->pile_size > 0)
		g->pile[g->npile++] = v->pile_top;
	for (int i = 0; i < g->npile; i++)
		g->pile_freeze += legal_freezes(&g->rules, g->pile[i]);
	for (int s = 0; s < v->nseats; s++) {
		struct seat_state *ss = &g->seats[s];
		if (s == v->seat) {
			memcpy(ss->hand, v->hand, sizeof ss->hand);
			ss->hand_n = v->hand_count;
		} else {
			for (int i = 0; i < v->seats[s].hand_count; i++)
				ss->hand[take(pool, npool, &at)]++;
			ss->hand_n = v->seats[s].hand_count;
		}
		for (int i = 0; i < v->seats[s].foot_count; i++)
			ss->foot[take(pool, npool, &at)]++;
		ss->foot_n = v->seats[s].foot_count;
		ss->hand[0] = ss->foot[0] = 0;
	}
	for (int i = 0; i < v->stock; i++)
		g->stock[g->nstock++] = (uint8_t)take(pool, npool, &at);
	return g;
}
