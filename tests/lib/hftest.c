/* hftest.c: test-only helpers to stack a game's cards and play text moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

struct hf_game *t_game(const char *rules, int nplayers, uint64_t seed)
{
	struct hf_rules r;
	struct hf_game *g = NULL;
	char why[HF_ERRLEN];
	if (hf_rules_parse(&r, rules, why, sizeof why) != HF_OK)
		fail_msg("rules %s: %s", rules, why);
	if (hf_game_new(&g, &r, nplayers, 0, seed, why, sizeof why) != HF_OK)
		fail_msg("game: %s", why);
	return g;
}

void t_counts(const char *cards, uint8_t out[HF_NCARD])
{
	struct hf_action a;
	char text[256], why[HF_ERRLEN];
	memset(out, 0, HF_NCARD);
	if (cards == NULL || cards[0] == '\0')
		return;
	snprintf(text, sizeof text, "meld %s", cards);
	if (hf_action_parse(&a, text, why, sizeof why) != HF_OK)
		fail_msg("cards %s: %s", cards, why);
	for (int i = 0; i < a.ngroups; i++)
		for (int k = 0; k < HF_NCARD; k++)
			out[k] = (uint8_t)(out[k] + a.groups[i].count[k]);
}

static void to_stock(struct hf_game *g, uint8_t *counts, uint16_t *n)
{
	for (int k = 1; k < HF_NCARD; k++)
		while (counts[k] > 0) {
			/* bottom of the stock, so the top stays as stacked */
			memmove(&g->stock[1], &g->stock[0], g->nstock);
			g->stock[0] = (uint8_t)k;
			g->nstock++;
			counts[k]--;
			(*n)--;
		}
}

static void from_stock(struct hf_game *g, int card)
{
	for (int i = g->nstock - 1; i >= 0; i--)
		if (g->stock[i] == card) {
			memmove(&g->stock[i], &g->stock[i + 1], (size_t)(g->nstock - i - 1));
			g->nstock--;
			g->stock[g->nstock] = 0;
			return;
		}
	/* not in the stock: take it from the pile bottom or someone's foot */
	for (int i = 0; i + 1 < g->npile; i++)
		if (g->pile[i] == card) {
			memmove(&g->pile[i], &g->pile[i + 1], (size_t)(g->npile - i - 1));
			g->npile--;
			g->pile[g->npile] = 0;
			g->pile_freeze -= legal_freezes(&g->rules, card);
			return;
		}
	for (int s = 0; s < g->nseats; s++)
		if (g->seats[s].foot[card] > 0) {
			g->seats[s].foot[card]--;
			g->seats[s].foot_n--;
			return;
		}
	fail_msg("no %s left to stack", hf_card_name(card));
}

static void fill(struct hf_game *g, uint8_t *dst, uint16_t *n, const char *cards)
{
	uint8_t want[HF_NCARD];
	to_stock(g, dst, n);
	t_counts(cards, want);
	for (int k = 1; k < HF_NCARD; k++)
		for (int i = 0; i < want[k]; i++) {
			from_stock(g, k);
			dst[k]++;
			(*n)++;
		}
}

void t_hand(struct hf_game *g, int seat, const char *cards)
{
	fill(g, g->seats[seat].hand, &g->seats[seat].hand_n, cards);
}

void t_foot(struct hf_game *g, int seat, const char *cards)
{
	fill(g, g->seats[seat].foot, &g->seats[seat].foot_n, cards);
}

void t_pile(struct hf_game *g, const char *cards)
{
	uint8_t back[HF_NCARD] = { 0 };
	uint16_t n = g->npile;
	struct hf_action a;
	char text[256], why[HF_ERRLEN];
	for (int i = 0; i < g->npile; i++)
		back[g->pile[i]]++;
	g->npile = 0;
	g->pile_freeze = 0;
	memset(g->pile, 0, sizeof g->pile);
	to_stock(g, back, &n);
	/* in order: each token one card */
	snprintf(text, sizeof text, "%s", cards);
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
		int c = hf_card_parse(tok, strlen(tok));
		if (c == HF_NOCARD)
			fail_msg("bad card %s", tok);
		from_stock(g, c);
		g->pile[g->npile++] = (uint8_t)c;
		g->pile_freeze += legal_freezes(&g->rules, c);
	}
	(void)a;
	(void)why;
}

void t_stock_top(struct hf_game *g, const char *cards)
{
	char text[256];
	int list[64], n = 0;
	snprintf(text, sizeof text, "%s", cards);
	for (char *tok = strtok(text, " "); tok && n < 64; tok = strtok(NULL, " "))
		list[n++] = hf_card_parse(tok, strlen(tok));
	/* take them all out first, then stack: the first named is drawn first */
	for (int i = 0; i < n; i++)
		from_stock(g, list[i]);
	for (int i = n - 1; i >= 0; i--)
		g->stock[g->nstock++] = (uint8_t)list[i];
}

void t_stock_keep(struct hf_game *g, int n)
{
	/* surplus cards go under the pile's top card */
	while (g->nstock > n) {
		uint8_t c = g->stock[0];
		memmove(&g->stock[0], &g->stock[1], (size_t)(g->nstock - 1));
		g->nstock--;
		g->stock[g->nstock] = 0;
		int top = g->npile ? g->pile[g->npile - 1] : -1;
		if (top >= 0) {
			g->pile[g->npile - 1] = c;
			g->pile[g->npile++] = (uint8_t)top;
		} else {
			g->pile[g->npile++] = c;
		}
		g->pile_freeze += legal_freezes(&g->rules, c);
	}
}

int t_meld(struct hf_game *g, int side, int rank, int naturals, int twos, int jokers)
{
	struct side_state *sd = &g->sides[side];
	struct hf_meld *m = &sd->melds[sd->nmelds];
	memset(m, 0, sizeof *m);
	m->rank = (uint8_t)rank;
	for (int i = 0; i < naturals; i++)
		from_stock(g, rank);
	for (int i = 0; i < twos; i++)
		from_stock(g, HF_TWO);
	for (int i = 0; i < jokers; i++)
		from_stock(g, HF_JOKER);
	m->naturals = (uint8_t)(rank == HF_JOKER ? 0 : naturals);
	m->twos = (uint8_t)twos;
	m->jokers = (uint8_t)jokers;
	int n = naturals + twos + jokers;
	if (n >= g->rules.canasta_size) {
		if (rank == HF_JOKER)
			m->kind = HF_KIND_WILD;
		else if (twos + jokers)
			m->kind = HF_KIND_DIRTY;
		else
			m->kind = rank == HF_SEVEN && g->rules.sevens_bonus ? HF_KIND_SEVENS : HF_KIND_CLEAN;
	}
	sd->down = true;
	return sd->nmelds++;
}

enum hf_err t_play(struct hf_game *g, int seat, const char *text, char *why, size_t len)
{
	struct hf_action a;
	enum hf_err e = hf_action_parse(&a, text, why, len);
	if (e != HF_OK)
		return e;
	return hf_apply(g, seat, &a, why, len);
}

void t_check(const struct hf_game *g)
{
	char why[HF_ERRLEN];
	if (!hf_game_check(g, why, sizeof why))
		fail_msg("invariant: %s", why);
}

void t_ok(struct hf_game *g, int seat, const char *text)
{
	char why[HF_ERRLEN] = "";
	enum hf_err e = t_play(g, seat, text, why, sizeof why);
	if (e != HF_OK)
		fail_msg("seat %d \"%s\" refused: %s", seat, text, why);
	t_check(g);
}

void t_refused(struct hf_game *g, int seat, const char *text, enum hf_err err, const char *needle)
{
	char why[HF_ERRLEN] = "";
	struct hf_game *copy = hf_game_clone(g);
	enum hf_err e = t_play(g, seat, text, why, sizeof why);
	if (e == HF_OK)
		fail_msg("seat %d \"%s\" was accepted", seat, text);
	if (e != err)
		fail_msg("seat %d \"%s\": error %d (%s), expected %d", seat, text, e, why, err);
	if (needle != NULL && strstr(why, needle) == NULL)
		fail_msg("seat %d \"%s\": \"%s\" does not say \"%s\"", seat, text, why, needle);
	if (!hf_game_equal(g, copy))
		fail_msg("seat %d \"%s\": a refusal changed the game", seat, text);
	hf_game_free(copy);
}

void t_turn(struct hf_game *g, int seat)
{
	g->nevents = 0;
	turn_start(g, seat);
}

void t_quiet(struct hf_game *g)
{
	for (int s = 0; s < g->nsides; s++) {
		for (int i = 0; i < g->sides[s].red3s; i++) {
			memmove(&g->stock[1], &g->stock[0], g->nstock);
			g->stock[0] = HF_RED3;
			g->nstock++;
		}
		g->sides[s].red3s = 0;
		g->sides[s].deal_bonus = 0;
	}
}

struct hf_game *t_table(const char *rules, int nplayers, uint64_t seed)
{
	struct hf_game *g = t_game(rules, nplayers, seed);
	t_quiet(g);
	for (int s = 0; s < nplayers; s++)
		t_hand(g, s, "4 5 6");
	t_turn(g, 0);
	return g;
}

const struct hf_event *t_event(const struct hf_game *g, int type)
{
	size_t n;
	const struct hf_event *e = hf_game_events(g, &n);
	for (size_t i = 0; i < n; i++)
		if (e[i].type == type)
			return &e[i];
	return NULL;
}
