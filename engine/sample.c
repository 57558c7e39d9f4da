/* sample.c: a full game consistent with a view: what the table saw where it is, the other hidden cards dealt as players keep them (for look-ahead). */
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


/* Percent chances that shape a dealt hand (see deal_hand). */
#define SHAPE_OPEN_SKIP  85
#define SHAPE_WILD_SKIP  50
#define SHAPE_PAIR       45
#define SHAPE_TRIPLE_SKIP 60
#define SHAPE_GUESS_SKIP 85

/*
 * A hand as players keep it, not a uniform deal: measured over self-play,
 * the hands of the normal player hold about twice the natural pairs of a
 * uniform deal from the same unseen cards, half the wilds, hardly a card of
 * a rank their side has open (it would have been melded) and, once down,
 * few threes of a kind.  A
 * look-ahead that dealt hands uniformly saw too few pairs to take the pile
 * where the pile needs a pair, and threw what a real hand would take.
 * Where red 3s are laid out as they come, no hand holds one (those of the
 * deal go at the first turn: a seat yet to play may hold some, a case too
 * short-lived to matter).  Cards turned away stay in the pool for the stock.
 * The cards the table saw the seat take from the pile are in it first, and
 * what its plays gave away (track.c) is mostly held to.
 */
static void
deal_hand(struct hf_game *g, const struct hf_view *v, int s, uint8_t *pool, int npool, int *at)
{
	struct seat_state *ss = &g->seats[s];
	const struct hf_side_view *sd = &v->sides[v->seats[s].side];
	bool open[HF_NCARD] = { false }, bonus = v->rules->red3_mode == HF_RED3_BONUS;
	for (int i = 0; i < sd->nmelds; i++)
		if (sd->melds[i].kind == HF_KIND_OPEN && sd->melds[i].rank < HF_NCARD)
			open[sd->melds[i].rank] = true;
	int known = 0;
	for (int k = 1; k < HF_NCARD; k++) {
		ss->hand[k] = ss->known[k];
		known += ss->known[k];
	}
	for (int n = known; n < v->seats[s].hand_count && *at < npool; n++) {
		for (int tries = 0; tries < 16; tries++) {
			int c = pool[*at], left = npool - *at;
			bool skip = (bonus && c == HF_RED3) ||
			            (tries < 8 && open[c] && hf_rng_below(&g->rng, 100) < SHAPE_OPEN_SKIP) ||
			            (tries < 8 && hf_card_is_wild(c) && hf_rng_below(&g->rng, 100) < SHAPE_WILD_SKIP) ||
			            (tries < 8 && sd->down && hf_card_is_natural(c) && ss->hand[c] >= 2 &&
			             hf_rng_below(&g->rng, 100) < SHAPE_TRIPLE_SKIP) ||
			            (tries < 8 && v->seats[s].guessed[c] && ss->hand[c] - ss->known[c] + 1 >= v->seats[s].guessed[c] &&
			             hf_rng_below(&g->rng, 100) < SHAPE_GUESS_SKIP);
			if (!skip && hf_card_is_natural(c) && !ss->hand[c] && hf_rng_below(&g->rng, 100) < SHAPE_PAIR) {
				/* keep a pair: the next card that matches a single in the hand */
				for (int j = *at + 1; j < npool; j++)
					if (hf_card_is_natural(pool[j]) && ss->hand[pool[j]] == 1 && !open[pool[j]] &&
					    (!v->seats[s].guessed[pool[j]] || v->seats[s].guessed[pool[j]] > 2)) {
						swap(&pool[*at], &pool[j]);
						break;
					}
			}
			if (!skip || left < 2)
				break;
			swap(&pool[*at], &pool[*at + 1 + (int)hf_rng_below(&g->rng, (uint32_t)left - 1)]);
		}
		ss->hand[take(pool, npool, at)]++;
	}
	ss->hand_n = v->seats[s].hand_count;
}

/* The cards g's viewer has not seen, shuffled into pool; how many. The
 * pile's slots to deal at random are marked 1 in g->pile, and what each
 * other seat is known to hold is in g. */
static int
unseen_pool(struct hf_game *g, const struct hf_view *v, uint8_t pool[HF_SHOE_MAX])
{
	int npool = 0, left[HF_NCARD];

	/* the unseen cards but those the table saw: the pile (every card went there face up) and what
	 * each seat took from it and still holds; a view built without them (pile entries 0) deals all */
	for (int k = 0; k < HF_NCARD; k++)
		left[k] = v->unseen[k];
	for (int i = 0; i + 1 < v->pile_size; i++)
		if (v->pile[i] > HF_NOCARD && v->pile[i] < HF_NCARD && left[v->pile[i]] > 0)
			left[v->pile[i]]--;
		else
			g->pile[i] = 1;                 /* a slot dealt at random below */
	for (int s = 0; s < v->nseats; s++)
		for (int k = 1; k < HF_NCARD && s != v->seat; k++) {
			int n = v->seats[s].known[k] < left[k] ? v->seats[s].known[k] : left[k];
			g->seats[s].known[k] = (uint8_t)n;
			g->seats[s].guessed[k] = v->seats[s].guessed[k];
			left[k] -= n;
		}
	for (int k = 1; k < HF_NCARD; k++)
		for (int i = 0; i < left[k] && npool < HF_SHOE_MAX; i++)
			pool[npool++] = (uint8_t)k;
	for (int i = npool - 1; i > 0; i--) {
		int j = (int)hf_rng_below(&g->rng, (uint32_t)i + 1);
		uint8_t t = pool[i];
		pool[i] = pool[j];
		pool[j] = t;
	}
	return npool;
}

struct hf_game *
hf_game_sample(const struct hf_view *v, uint64_t seed)
{
	struct hf_game *g = calloc(1, sizeof *g);
	uint8_t pool[HF_SHOE_MAX];
	int npool, at = 0;
	if (g == NULL)
		return NULL;
	g->rules = *v->rules;
	g->seed = seed;
	g->rng = deal_round_seed(seed, v->round);
	copy_public(g, v);
	npool = unseen_pool(g, v, pool);
	bool random_pile = false;
	for (int i = 0; i + 1 < v->pile_size; i++)
		random_pile |= g->pile[i] == 1;
	/* a frozen pile holds a card that freezes it: put one below the top */
	if (random_pile && v->pile_frozen && v->pile_size > 1 && !legal_freezes(v->rules, v->pile_top))
		for (int i = 0; i < npool; i++)
			if (legal_freezes(v->rules, pool[i])) {
				uint8_t t = pool[0];
				pool[0] = pool[i];
				pool[i] = t;
				break;
			}
	for (int i = 0; i + 1 < v->pile_size; i++) {
		int c = v->pile[i];
		if (g->pile[i] == 1) {
			/* a pile that is not frozen holds no card that would freeze it */
			for (int j = at; !v->pile_frozen && j < npool; j++)
				if (!legal_freezes(v->rules, pool[j])) {
					uint8_t t = pool[at];
					pool[at] = pool[j];
					pool[j] = t;
					break;
				}
			c = take(pool, npool, &at);
		}
		g->pile[g->npile++] = (uint8_t)c;
	}
	if (random_pile && g->npile > 0 && hf_card_is_wild(v->pile_top))
		under_wild(g, v->pile_plain, v->pile_frozen, pool, npool, at);
	if (v->pile_size > 0)
		g->pile[g->npile++] = v->pile_top;
	for (int i = 0; i < g->npile; i++)
		g->pile_freeze += legal_freezes(&g->rules, g->pile[i]);
	/* the feet were dealt at random and never seen: first; then the hands, shaped as players keep them */
	for (int s = 0; s < v->nseats; s++) {
		struct seat_state *ss = &g->seats[s];
		for (int i = 0; i < v->seats[s].foot_count; i++)
			ss->foot[take(pool, npool, &at)]++;
		ss->foot_n = v->seats[s].foot_count;
	}
	for (int s = 0; s < v->nseats; s++) {
		struct seat_state *ss = &g->seats[s];
		if (s == v->seat) {
			memcpy(ss->hand, v->hand, sizeof ss->hand);
			memcpy(ss->known, v->seats[s].known, sizeof ss->known);
			memcpy(ss->guessed, v->seats[s].guessed, sizeof ss->guessed);
			ss->hand_n = v->hand_count;
		} else {
			deal_hand(g, v, s, pool, npool, &at);
		}
		ss->hand[0] = ss->foot[0] = 0;
	}
	for (int i = 0; i < v->stock; i++)
		g->stock[g->nstock++] = (uint8_t)take(pool, npool, &at);
	return g;
}
