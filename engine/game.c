/* game.c: a game's life: creation, copies, the action dispatcher, accessors and invariants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-internal.h"

enum hf_err
hf_game_new(struct hf_game **out, const struct hf_rules *r, int nplayers, int nsides,
            uint64_t seed, char *why, size_t len)
{
	*out = NULL;
	enum hf_err e = hf_rules_check_table(r, nplayers, nsides, why, len);
	if (e != HF_OK)
		return e;
	/* calloc: padding is zero, so hf_game_equal can be a memcmp */
	struct hf_game *g = calloc(1, sizeof *g);
	if (g == NULL)
		return hf_fail(HF_E_RULES, why, len, "out of memory");
	g->rules = *r;
	g->seed = seed;
	g->nseats = (uint8_t)nplayers;
	g->nsides = (uint8_t)(nsides ? nsides : r->sides_default[nplayers]);
	g->round = 1;
	g->dealer = (uint8_t)(nplayers - 1);
	g->winner = -2;
	g->asker = -1;
	deal_round(g);
	*out = g;
	return HF_OK;
}

void
hf_game_free(struct hf_game *g)
{
	free(g);
}

struct hf_game *
hf_game_clone(const struct hf_game *g)
{
	struct hf_game *c = malloc(sizeof *c);
	if (c != NULL)
		memcpy(c, g, sizeof *c);
	return c;
}

void
hf_game_copy(struct hf_game *dst, const struct hf_game *src)
{
	memcpy(dst, src, sizeof *dst);
}

bool
hf_game_equal(const struct hf_game *a, const struct hf_game *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

size_t
hf_game_size(void)
{
	return sizeof(struct hf_game);
}

/* ------------------------------------------------------------------ events */

struct hf_event *
game_event(struct hf_game *g, int type, int seat, int card, int count, int flag)
{
	if (g->nevents >= HF_MAX_EVENTS)
		return NULL;
	struct hf_event *e = &g->events[g->nevents++];
	memset(e, 0, sizeof *e);
	e->type = (uint8_t)type;
	e->seat = (int8_t)seat;
	e->side = (int8_t)(seat >= 0 ? game_side(g, seat) : -1);
	e->card = (uint8_t)card;
	e->count = (uint16_t)count;
	e->flag = (uint8_t)flag;
	return e;
}

const struct hf_event *
hf_game_events(const struct hf_game *g, size_t *n)
{
	*n = g->nevents;
	return g->events;
}

int
game_side(const struct hf_game *g, int seat)
{
	return hf_seat_side(seat, g->nsides);
}

bool
game_has_partners(const struct hf_game *g, int seat)
{
	(void)seat;
	return g->nseats > g->nsides;
}

/* The pile's top card not counting wilds thrown on it: public, every discard was seen. */
int
game_pile_plain(const struct hf_game *g)
{
	for (int i = g->npile - 1; i >= 0; i--)
		if (!hf_card_is_wild(g->pile[i]))
			return g->pile[i];
	return HF_NOCARD;
}

/* Only what the seat may know goes in: a computer player builds the same position from its view. */
void
game_pos(const struct hf_game *g, int seat, struct legal_pos *p)
{
	const struct seat_state *ss = &g->seats[seat];
	const struct side_state *sd = &g->sides[game_side(g, seat)];

	p->r = &g->rules;
	p->nseats = g->nseats;
	p->hand = ss->hand;
	p->hand_n = ss->hand_n;
	p->melds = sd->melds;
	p->nmelds = sd->nmelds;
	p->down = sd->down;
	p->open_min = rules_open_min(&g->rules, g->round, sd->score);
	p->in_foot = ss->in_foot;
	p->foot_n = ss->in_foot ? 0 : ss->foot_n;
	p->stock = g->nstock;
	p->pile_n = g->npile;
	p->pile_top = g->npile ? g->pile[g->npile - 1] : HF_NOCARD;
	p->pile_plain = game_pile_plain(g);
	p->frozen = pickup_frozen(g);
	p->go = LEGAL_GO_OK;
	for (int s = 0; s < g->nseats && p->go == LEGAL_GO_OK; s++)
		if (s != seat && game_side(g, s) == game_side(g, seat))
			p->go = (uint8_t)legal_partner(&g->rules, g->seats[s].in_foot, g->seats[s].foot_turns);
	if (p->go == LEGAL_GO_OK && g->rules.ask_partner && game_has_partners(g, seat) && !g->permission)
		p->go = LEGAL_GO_ASK;
}

/* ------------------------------------------------------------------ apply */

static enum hf_err
check_turn(const struct hf_game *g, int seat, char *why, size_t len)
{
	if (g->phase == HF_PHASE_OVER)
		return hf_fail(HF_E_OVER, why, len, "the game is over");
	if (seat < 0 || seat >= g->nseats)
		return hf_fail(HF_E_NOT_TURN, why, len, "there is no seat %d at this table", seat);
	if (g->phase == HF_PHASE_ASK) {
		if (seat == g->turn)
			return hf_fail(HF_E_PHASE, why, len, "wait for your partners to answer");
		return HF_OK;
	}
	if (seat != g->turn)
		return hf_fail(HF_E_NOT_TURN, why, len, "it is not your turn: seat %d plays", g->turn + 1);
	return HF_OK;
}

/* Meld and pickup run on a scratch copy: a refusal anywhere leaves the game untouched. */
static enum hf_err
apply_on_copy(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	struct hf_game tmp;
	memcpy(&tmp, g, sizeof tmp);
	tmp.nevents = 0;
	enum hf_err e = a->type == HF_ACT_MELD ? meld_action(&tmp, seat, a, why, len)
	                                        : pickup_action(&tmp, seat, a, why, len);
	if (e == HF_OK)
		memcpy(g, &tmp, sizeof tmp);
	return e;
}

static enum hf_err
apply(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	switch (a->type) {
	case HF_ACT_DRAW:
		return turn_draw(g, seat, why, len);
	case HF_ACT_DISCARD:
		return turn_discard(g, seat, a->card, why, len);
	case HF_ACT_MELD:
	case HF_ACT_PICKUP:
		return apply_on_copy(g, seat, a, why, len);
	case HF_ACT_OUT:
		return out_ask(g, seat, why, len);
	case HF_ACT_YES:
	case HF_ACT_NO:
		return out_answer(g, seat, a->type == HF_ACT_YES, why, len);
	default:
		return hf_fail(HF_E_SYNTAX, why, len, "that is not a move");
	}
}

enum hf_err
hf_apply(struct hf_game *g, int seat, const struct hf_action *a, char *why, size_t len)
{
	uint8_t taken[HF_NCARD] = { 0 };
	enum hf_err e = check_turn(g, seat, why, len);
	if (e != HF_OK)
		return e;
	if (g->phase == HF_PHASE_ASK && a->type != HF_ACT_YES && a->type != HF_ACT_NO)
		return hf_fail(HF_E_PHASE, why, len, "seat %d is waiting for an answer: yes or no", g->turn + 1);
	int declined = a->type == HF_ACT_DRAW ? track_declined(g, seat) : HF_NOCARD;
	if (a->type == HF_ACT_PICKUP)
		track_taken(g, taken);
	e = apply(g, seat, a, why, len);
	if (e == HF_OK)
		track_action(g, seat, a, taken, declined);
	return e;
}

/* ------------------------------------------------------------------ rounds */

static bool
game_over(const struct hf_game *g)
{
	const struct hf_rules *r = &g->rules;
	if (g->nrounds_scored >= HF_MAX_ROUNDS)
		return true;
	if (r->rounds && g->nrounds_scored >= r->rounds)
		return true;
	if (r->target)
		for (int s = 0; s < g->nsides; s++)
			if (g->sides[s].score >= r->target)
				return true;
	return false;
}

static int
leader(const struct hf_game *g)
{
	int best = 0, tie = 0;
	for (int s = 1; s < g->nsides; s++) {
		if (g->sides[s].score > g->sides[best].score) {
			best = s;
			tie = 0;
		} else if (g->sides[s].score == g->sides[best].score) {
			tie = 1;
		}
	}
	return tie ? -1 : best;
}

/* Called once the round's sheets are in last_sheet. */
void
game_after_round(struct hf_game *g)
{
	int k = g->nrounds_scored;
	for (int s = 0; s < g->nsides; s++) {
		g->round_totals[k][s] = g->last_sheet[s].total;
		g->sides[s].score += g->last_sheet[s].total;
	}
	g->nrounds_scored = k + 1;
	game_event(g, HF_EV_ROUND_END, -1, 0, g->round, 0);
	if (game_over(g)) {
		g->phase = HF_PHASE_OVER;
		g->winner = (int8_t)leader(g);
		g->asker = -1;
		struct hf_event *e = game_event(g, HF_EV_GAME_END, -1, 0, 0, 0);
		if (e != NULL)
			e->side = g->winner;
		return;
	}
	g->round++;
	g->dealer = (uint8_t)((g->dealer + 1) % g->nseats);
	deal_round(g);
}

/* ------------------------------------------------------------------ accessors */

const struct hf_rules *
hf_game_rules(const struct hf_game *g)
{
	return &g->rules;
}

int
hf_game_nseats(const struct hf_game *g)
{
	return g->nseats;
}

int
hf_game_nsides(const struct hf_game *g)
{
	return g->nsides;
}

int
hf_game_side_of(const struct hf_game *g, int seat)
{
	return game_side(g, seat);
}

enum hf_phase
hf_game_phase(const struct hf_game *g)
{
	return (enum hf_phase)g->phase;
}

int
hf_game_turn(const struct hf_game *g)
{
	return g->turn;
}

int
hf_game_round(const struct hf_game *g)
{
	return g->round;
}

uint64_t
hf_game_seed(const struct hf_game *g)
{
	return g->seed;
}

int
hf_game_winner(const struct hf_game *g)
{
	return g->phase == HF_PHASE_OVER ? g->winner : -2;
}

int32_t
hf_game_score(const struct hf_game *g, int side)
{
	return side >= 0 && side < g->nsides ? g->sides[side].score : 0;
}

int
hf_game_waiting(const struct hf_game *g, int seats[HF_MAX_SEATS])
{
	int n = 0;
	if (g->phase == HF_PHASE_OVER)
		return 0;
	if (g->phase != HF_PHASE_ASK) {
		seats[n++] = g->turn;
		return n;
	}
	for (int s = 0; s < g->nseats; s++)
		if (s != g->turn && game_side(g, s) == game_side(g, g->turn) && g->seats[s].answer < 0)
			seats[n++] = s;
	return n;
}

/* ------------------------------------------------------------------ census */

void
hf_game_census(const struct hf_game *g, uint32_t c[HF_NCARD])
{
	memset(c, 0, sizeof(uint32_t) * HF_NCARD);
	for (int i = 0; i < g->nstock; i++)
		c[g->stock[i]]++;
	for (int i = 0; i < g->npile; i++)
		c[g->pile[i]]++;
	for (int s = 0; s < g->nseats; s++)
		for (int k = 0; k < HF_NCARD; k++)
			c[k] += g->seats[s].hand[k] + g->seats[s].foot[k];
	for (int s = 0; s < g->nsides; s++) {
		const struct side_state *sd = &g->sides[s];
		c[HF_RED3] += sd->red3s;
		for (int m = 0; m < sd->nmelds; m++) {
			const struct hf_meld *ml = &sd->melds[m];
			if (ml->rank != HF_JOKER)
				c[ml->rank] += ml->naturals;
			c[HF_TWO] += ml->twos;
			c[HF_JOKER] += ml->jokers;
			c[HF_RED3] += ml->red3s;
		}
	}
}

void
hf_game_shoe(const struct hf_game *g, uint32_t c[HF_NCARD])
{
	uint32_t d = g->rules.decks[g->nseats];
	memset(c, 0, sizeof(uint32_t) * HF_NCARD);
	for (int k = HF_FOUR; k <= HF_ACE; k++)
		c[k] = 4 * d;
	c[HF_TWO] = 4 * d;
	c[HF_RED3] = 2 * d;
	c[HF_BLACK3] = 2 * d;
	c[HF_JOKER] = 2 * d;
}

bool
hf_game_check(const struct hf_game *g, char *why, size_t len)
{
	uint32_t a[HF_NCARD], b[HF_NCARD];
	hf_game_census(g, a);
	hf_game_shoe(g, b);
	for (int k = 1; k < HF_NCARD; k++)
		if (a[k] != b[k]) {
			hf_fail(HF_E_RULES, why, len, "%u %s in play but the shoe has %u", a[k], card_plural(k), b[k]);
			return false;
		}
	int freeze = 0;
	for (int i = 0; i < g->npile; i++)
		freeze += legal_freezes(&g->rules, g->pile[i]);
	if (freeze != g->pile_freeze) {
		hf_fail(HF_E_RULES, why, len, "the pile holds %d freezing cards, counted %d", freeze, g->pile_freeze);
		return false;
	}
	for (int s = 0; s < g->nseats; s++) {
		if (cards_total(g->seats[s].hand) != g->seats[s].hand_n ||
		    cards_total(g->seats[s].foot) != g->seats[s].foot_n) {
			hf_fail(HF_E_RULES, why, len, "seat %d's card counts are off", s + 1);
			return false;
		}
		for (int k = 1; k < HF_NCARD; k++)
			if (g->seats[s].known[k] > g->seats[s].hand[k]) {
				hf_fail(HF_E_RULES, why, len, "seat %d is known to hold %d %s but holds %d", s + 1,
				        g->seats[s].known[k], card_plural(k), g->seats[s].hand[k]);
				return false;
			}
	}
	for (int s = 0; s < g->nsides; s++)
		for (int m = 0; m < g->sides[s].nmelds; m++) {
			const struct hf_meld *ml = &g->sides[s].melds[m];
			int n = ml->naturals + ml->twos + ml->jokers;
			if ((ml->kind == HF_KIND_OPEN) != (n < g->rules.canasta_size)) {
				hf_fail(HF_E_RULES, why, len, "side %d meld %d has %d cards and kind %d", s, m, n, ml->kind);
				return false;
			}
		}
	return true;
}
