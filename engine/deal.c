/* deal.c: one round's shuffle, deal, deal bonus, first discard and first player, all from the game's seed. */
#include <string.h>

#include "game-internal.h"

/* Each round's shuffle comes from the game seed and the round number, so a game replays. */
uint64_t
deal_round_seed(uint64_t seed, int round)
{
	uint64_t s = seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(round + 1));
	return hf_rng_next(&s);
}

static void
fill_shoe(struct hf_game *g)
{
	int decks = g->rules.decks[g->nseats], n = 0;
	for (int d = 0; d < decks; d++) {
		for (int k = HF_FOUR; k <= HF_ACE; k++)
			for (int i = 0; i < 4; i++)
				g->stock[n++] = (uint8_t)k;
		for (int i = 0; i < 4; i++)
			g->stock[n++] = HF_TWO;
		for (int i = 0; i < 2; i++) {
			g->stock[n++] = HF_RED3;
			g->stock[n++] = HF_BLACK3;
			g->stock[n++] = HF_JOKER;
		}
	}
	g->nstock = (uint16_t)n;
	/* Fisher-Yates with an unbiased bound */
	for (int i = n - 1; i > 0; i--) {
		int j = (int)hf_rng_below(&g->rng, (uint32_t)i + 1);
		uint8_t t = g->stock[i];
		g->stock[i] = g->stock[j];
		g->stock[j] = t;
	}
}

static int
pop(struct hf_game *g)
{
	return g->nstock ? g->stock[--g->nstock] : HF_NOCARD;
}

static void
push_pile(struct hf_game *g, int c)
{
	g->pile[g->npile++] = (uint8_t)c;
	g->pile_freeze += legal_freezes(&g->rules, c);
}

/* A physical exact cut is a feat of touch: emulated as a cut uniform in target-4..target+4. */
static bool
exact_cut(struct hf_game *g, int target)
{
	int cut = target - 4 + (int)hf_rng_below(&g->rng, 9);
	return cut == target;
}

static void
deal_bonus(struct hf_game *g)
{
	const struct hf_rules *r = &g->rules;
	int per = r->hand_size + r->foot_size;
	if (r->deal_bonus == HF_BONUS_DEALER_SIDE) {
		if (exact_cut(g, g->nseats * per + 1)) {
			g->sides[game_side(g, g->dealer)].deal_bonus += r->deal_bonus_points;
			game_event(g, HF_EV_DEAL_BONUS, g->dealer, 0, r->deal_bonus_points, 0);
		}
	} else if (r->deal_bonus == HF_BONUS_EACH_PLAYER) {
		for (int i = 1; i <= g->nseats; i++) {
			int s = (g->dealer + i) % g->nseats;
			if (exact_cut(g, per)) {
				g->sides[game_side(g, s)].deal_bonus += r->deal_bonus_points;
				game_event(g, HF_EV_DEAL_BONUS, s, 0, r->deal_bonus_points, 0);
			}
		}
	}
}

static void
first_discard(struct hf_game *g)
{
	int turned = 0, c = pop(g);
	if (c == HF_NOCARD)
		return;
	turned++;
	if (g->rules.first_discard == HF_FIRST_UNTIL_NATURAL) {
		while (!hf_card_is_natural(c) && g->nstock > 0) {
			push_pile(g, c);
			c = pop(g);
			turned++;
		}
	} else if (g->rules.first_discard == HF_FIRST_RESHUFFLE_SPECIAL) {
		/* a red 3 or a wild goes back into the stock at a random place; bounded */
		for (int tries = 0; (c == HF_RED3 || hf_card_is_wild(c)) && tries < 200; tries++) {
			int at = (int)hf_rng_below(&g->rng, (uint32_t)g->nstock + 1);
			memmove(&g->stock[at + 1], &g->stock[at], (size_t)(g->nstock - at));
			g->stock[at] = (uint8_t)c;
			g->nstock++;
			c = pop(g);
			turned++;
		}
	}
	push_pile(g, c);
	game_event(g, HF_EV_FIRST_DISCARD, -1, c, turned, 0);
}

/* "highest card": 4..A by rank, jokers above aces, 2 and 3s lowest */
static int
draw_rank(int c)
{
	return c == HF_JOKER ? 20 : hf_card_is_natural(c) ? c : c == HF_TWO ? 1 : 2;
}

static int
first_red3(struct hf_game *g, const int held[HF_MAX_SEATS])
{
	int cand[HF_MAX_SEATS], n = 0;
	for (int i = 1; i <= g->nseats; i++) {
		int s = (g->dealer + i) % g->nseats;
		if (held[s] > 0)
			cand[n++] = s;
	}
	if (n == 0)
		return (g->dealer + 1) % g->nseats;
	/* several holders each draw a card (put back): highest wins, ties draw again */
	for (int tries = 0; n > 1 && tries < 20 && g->nstock > 0; tries++) {
		int best = -1, rank[HF_MAX_SEATS], m = 0;
		for (int i = 0; i < n; i++) {
			rank[i] = draw_rank(g->stock[hf_rng_below(&g->rng, g->nstock)]);
			if (rank[i] > best)
				best = rank[i];
		}
		for (int i = 0; i < n; i++)
			if (rank[i] == best)
				cand[m++] = cand[i];
		n = m;
	}
	return cand[0];
}

static int
first_behind(struct hf_game *g)
{
	int32_t low = g->sides[0].score;
	int cand[HF_MAX_SEATS], n = 0;
	for (int s = 1; s < g->nsides; s++)
		if (g->sides[s].score < low)
			low = g->sides[s].score;
	for (int s = 0; s < g->nseats; s++)
		if (g->sides[game_side(g, s)].score == low)
			cand[n++] = s;
	return cand[hf_rng_below(&g->rng, (uint32_t)n)];
}

static int
first_player(struct hf_game *g, const int held[HF_MAX_SEATS])
{
	switch (g->rules.first_player) {
	case HF_START_DEALER:
		return g->dealer;
	case HF_START_RED3_HOLDER:
		if (g->round > 1)
			return (g->first + 1) % g->nseats;
		return first_red3(g, held);
	case HF_START_BEHIND:
		return first_behind(g);
	default:
		return (g->dealer + 1) % g->nseats;
	}
}

static void
reset_round(struct hf_game *g)
{
	for (int s = 0; s < HF_MAX_SEATS; s++) {
		memset(&g->seats[s], 0, sizeof g->seats[s]);
		g->seats[s].answer = -1;
	}
	for (int s = 0; s < HF_MAX_SIDES; s++) {
		struct side_state *sd = &g->sides[s];
		int32_t score = sd->score;
		memset(sd, 0, sizeof *sd);
		sd->score = score;
	}
	g->nstock = g->npile = g->pile_freeze = 0;
	memset(g->stock, 0, sizeof g->stock);
	memset(g->pile, 0, sizeof g->pile);
	g->stock_turned = g->melded = g->asked = g->permission = false;
	g->asker = -1;
	g->last_discard_seat = 0;
}

void
deal_round(struct hf_game *g)
{
	const struct hf_rules *r = &g->rules;
	int held[HF_MAX_SEATS] = { 0 };

	reset_round(g);
	g->rng = deal_round_seed(g->seed, g->round);
	fill_shoe(g);
	game_event(g, HF_EV_DEAL, g->dealer, 0, g->round, 0);
	deal_bonus(g);
	for (int i = 1; i <= g->nseats; i++) {
		struct seat_state *ss = &g->seats[(g->dealer + i) % g->nseats];
		for (int k = 0; k < r->hand_size; k++)
			ss->hand[pop(g)]++;
		for (int k = 0; k < r->foot_size; k++)
			ss->foot[pop(g)]++;
		ss->hand_n = r->hand_size;
		ss->foot_n = r->foot_size;
	}
	first_discard(g);
	if (r->red3_mode == HF_RED3_BONUS && !r->red3_at_first_turn) {
		for (int i = 1; i <= g->nseats; i++) {
			int s = (g->dealer + i) % g->nseats;
			int before = g->sides[game_side(g, s)].red3s;
			turn_red3s(g, s, r->red3_replace_deal);
			held[s] = g->sides[game_side(g, s)].red3s - before;
		}
	}
	g->first = (uint8_t)first_player(g, held);
	turn_start(g, g->first);
}
