/* test-ai.c: the computer players: never refused, see only their view, and make the obvious play in built positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "handfoot.h"

/* ------------------------------------------------------------------ helpers */

/* The hard player's budget in whole games and sweeps: enough to search, small enough for the sanitizers. */
#define GAME_BUDGET 1500

/* Plays up to max_actions of a game; returns the refusals, prints the first. */
static int
play(const char *preset, int players, const int levels[HF_MAX_SEATS], uint64_t seed, int max_actions, bool *ended)
{
	const struct hf_rules *r = hf_preset(preset);
	struct hf_game *g;
	struct hf_view *v = malloc(sizeof *v);
	struct hf_action a;
	char why[HF_ERRLEN], text[256];
	int seats[HF_MAX_SEATS], n, refused = 0, i, c;
	uint64_t rng = seed * 31 + 7;

	assert_non_null(r);
	assert_non_null(v);
	assert_int_equal(hf_game_new(&g, r, players, 0, seed, why, sizeof why), HF_OK);
	for (i = 0; i < max_actions && hf_game_phase(g) != HF_PHASE_OVER; i++) {
		n = hf_game_waiting(g, seats);
		assert_true(n > 0);
		hf_game_view(g, seats[0], v);
		hf_ai_decide(v, levels[seats[0]], GAME_BUDGET, &rng, &a);
		if (hf_apply(g, seats[0], &a, why, sizeof why) == HF_OK)
			continue;
		if (refused++ < 3) {
			hf_action_format(&a, text, sizeof text);
			print_message("%s %dp seed %llu: %s refused \"%s\": %s\n", preset, players,
			              (unsigned long long)seed, hf_ai_level_name(levels[seats[0]]), text, why);
		}
		/* go on with a normal player's move, or anything the engine takes */
		hf_ai_choose(v, HF_AI_NORMAL, &rng, &a);
		if (hf_apply(g, seats[0], &a, why, sizeof why) == HF_OK)
			continue;
		memset(&a, 0, sizeof a);
		a.type = HF_ACT_DRAW;
		if (hf_apply(g, seats[0], &a, why, sizeof why) == HF_OK)
			continue;
		a.type = HF_ACT_DISCARD;
		for (c = 1; c < HF_NCARD; c++) {
			a.card = (uint8_t)c;
			if (v->hand[c] && hf_apply(g, seats[0], &a, why, sizeof why) == HF_OK)
				break;
		}
		if (c == HF_NCARD)
			break;
	}
	if (ended)
		*ended = hf_game_phase(g) == HF_PHASE_OVER;
	hf_game_free(g);
	free(v);
	return refused;
}

static void
fill_levels(int levels[HF_MAX_SEATS], int a, int b)
{
	int i;

	for (i = 0; i < HF_MAX_SEATS; i++)
		levels[i] = i % 2 ? b : a;
}

/* ------------------------------------------------------------------ legality */

static void
test_levels_parse(void **state)
{
	(void)state;
	assert_int_equal(hf_ai_level_parse("easy"), HF_AI_EASY);
	assert_int_equal(hf_ai_level_parse("Normal"), HF_AI_NORMAL);
	assert_int_equal(hf_ai_level_parse("HARD"), HF_AI_HARD);
	assert_int_equal(hf_ai_level_parse("expert"), -1);
	assert_int_equal(hf_ai_level_parse(NULL), -1);
	assert_string_equal(hf_ai_level_name(HF_AI_NORMAL), "normal");
}

/* Easy and normal players through whole games of every preset and player count: never refused. */
static void
test_never_refused(void **state)
{
	const char *const *names = hf_preset_names();
	int levels[HF_MAX_SEATS], p, k, refused = 0, games = 0;
	uint64_t seed;
	bool ended;

	(void)state;
	for (k = 0; names[k]; k++) {
		const struct hf_rules *r = hf_preset(names[k]);

		for (p = r->players_min; p <= r->players_max; p++) {
			char why[HF_ERRLEN];
			struct hf_game *g;

			if (hf_game_new(&g, r, p, 0, 1, why, sizeof why) != HF_OK)
				continue;
			hf_game_free(g);
			for (seed = 1; seed <= 6; seed++) {
				fill_levels(levels, (int)(seed % 2), (int)((seed + 1) % 2));
				if (seed > 4)
					fill_levels(levels, HF_AI_NORMAL, HF_AI_NORMAL);
				refused += play(names[k], p, levels, seed * 1000 + (uint64_t)p, 4000, &ended);
				games++;
			}
		}
	}
	print_message("%d games, %d refusals\n", games, refused);
	assert_int_equal(refused, 0);
}

/* The hard player through whole games of each preset, against normal players. */
static void
test_hard_never_refused(void **state)
{
	static const struct { const char *preset; int players; } t[] = {
		{ "classic", 4 }, { "sevens", 4 }, { "family", 3 }, { "pcio", 4 }, { "duel", 2 },
	};
	int levels[HF_MAX_SEATS], i, refused = 0;

	(void)state;
	fill_levels(levels, HF_AI_HARD, HF_AI_NORMAL);
	for (i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
		refused += play(t[i].preset, t[i].players, levels, 77 + (uint64_t)i, 4000, NULL);
	assert_int_equal(refused, 0);
}

/* ------------------------------------------------------------------ the view only */

static bool
same_action(const struct hf_action *a, const struct hf_action *b)
{
	char x[256], y[256];

	hf_action_format(a, x, sizeof x);
	hf_action_format(b, y, sizeof y);
	return !strcmp(x, y);
}

/*
 * A world resampled from a seat's view (other hands, feet, stock order all
 * dealt anew) gives that seat the same view, so the same decision: for the
 * hard player too, whose search deals its own worlds from the view and the
 * rng alone.  The hidden cards must differ for this to say anything, and the
 * search must have overruled its policy somewhere, or only the policy was
 * tested.
 */
static void
test_view_only(void **state)
{
	static const char *const presets[] = { "classic", "duel", "family", "pcio", "sevens" };
	static const int players[] = { 4, 2, 3, 4, 4 };
	struct hf_view *v = malloc(sizeof *v), *w = malloc(sizeof *w), *x = malloc(sizeof *x), *y = malloc(sizeof *y);
	struct hf_action a, b, step, policy;
	struct hf_game *g, *s;
	char why[HF_ERRLEN];
	int seats[HF_MAX_SEATS], k, i, lvl, checked = 0, overruled = 0, hidden_differ = 0, o;
	uint64_t rng, r1, r2;

	(void)state;
	assert_non_null(v);
	assert_non_null(w);
	assert_non_null(x);
	assert_non_null(y);
	for (k = 0; k < 5; k++) {
		assert_int_equal(hf_game_new(&g, hf_preset(presets[k]), players[k], 0, 5 + (uint64_t)k, why, sizeof why), HF_OK);
		rng = 99;
		for (i = 0; i < 400 && hf_game_phase(g) != HF_PHASE_OVER; i++) {
			hf_game_waiting(g, seats);
			hf_game_view(g, seats[0], v);
			if (i % 13 == 0) {
				s = hf_game_sample(v, 1234 + (uint64_t)i);
				assert_non_null(s);
				hf_game_view(s, seats[0], w);
				/* the next seat's hand, real and resampled */
				o = (seats[0] + 1) % players[k];
				hf_game_view(g, o, x);
				hf_game_view(s, o, y);
				hidden_differ += memcmp(x->hand, y->hand, sizeof x->hand) != 0;
				for (lvl = HF_AI_EASY; lvl <= HF_AI_HARD; lvl++) {
					r1 = r2 = 555 + (uint64_t)i;
					hf_ai_decide(v, lvl, 4000, &r1, &a);
					hf_ai_decide(w, lvl, 4000, &r2, &b);
					assert_true(same_action(&a, &b));
					assert_true(r1 == r2);
					checked++;
				}
				r1 = 555 + (uint64_t)i;
				hf_ai_decide(v, HF_AI_HARD, 0, &r1, &policy);
				overruled += !same_action(&a, &policy);
				hf_game_free(s);
			}
			hf_ai_decide(v, HF_AI_NORMAL, 0, &rng, &step);
			if (hf_apply(g, seats[0], &step, why, sizeof why) != HF_OK)
				break;
		}
		hf_game_free(g);
	}
	print_message("%d decisions checked, hard overruled its policy in %d, hidden cards differed in %d\n", checked / 3,
	              overruled, hidden_differ);
	assert_true(checked > 60);
	assert_true(overruled > 0);
	assert_true(hidden_differ > checked / 6);
	free(v);
	free(w);
	free(x);
	free(y);
}

/* ------------------------------------------------------------------ built positions */

static struct hf_view *
base_view(const char *preset, int nseats)
{
	struct hf_view *v = calloc(1, sizeof *v);
	int s, c, total = 0;

	assert_non_null(v);
	v->rules = hf_preset(preset);
	assert_non_null(v->rules);
	v->seat = 0;
	v->nseats = (uint8_t)nseats;
	v->nsides = (uint8_t)(nseats > 3 ? 2 : nseats);
	v->round = 1;
	v->turn = 0;
	v->phase = HF_PHASE_PLAY;
	v->stock = 80;
	v->asker = -1;
	v->winner = -2;
	for (s = 0; s < nseats; s++) {
		v->seats[s].side = (uint8_t)(s % v->nsides);
		v->seats[s].hand_count = 11;
		v->seats[s].foot_count = 11;
		v->seats[s].answer = -1;
	}
	for (s = 0; s < v->nsides; s++)
		v->sides[s].open_min = v->rules->open_min[0];
	for (c = HF_FOUR; c <= HF_ACE; c++)
		v->unseen[c] = 20;
	v->unseen[HF_TWO] = 20;
	v->unseen[HF_JOKER] = 10;
	v->unseen[HF_BLACK3] = 10;
	for (c = 0; c < HF_NCARD; c++)
		total += v->unseen[c];
	(void)total;
	return v;
}

static void
hand(struct hf_view *v, const char *cards)
{
	char buf[128], *tok, *save = NULL;
	int c;

	memset(v->hand, 0, sizeof v->hand);
	v->hand_count = 0;
	snprintf(buf, sizeof buf, "%s", cards);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		c = hf_card_parse(tok, strlen(tok));
		assert_int_not_equal(c, HF_NOCARD);
		v->hand[c]++;
		v->hand_count++;
	}
	v->seats[v->seat].hand_count = v->hand_count;
}

static void
meld(struct hf_view *v, int side, int rank, int naturals, int twos, int kind)
{
	struct hf_side_view *sv = &v->sides[side];
	struct hf_meld *m = &sv->melds[sv->nmelds++];

	m->rank = (uint8_t)rank;
	m->naturals = (uint8_t)naturals;
	m->twos = (uint8_t)twos;
	m->kind = (uint8_t)kind;
	sv->down = true;
}

/* Makes the counts add up (the stock takes the slack) so a world can be dealt from the view. */
static void
settle(struct hf_view *v)
{
	int s, c, unseen = 0, held = 0;

	for (c = 0; c < HF_NCARD; c++)
		unseen += v->unseen[c];
	for (s = 0; s < v->nseats; s++) {
		held += v->seats[s].foot_count;
		if (s != v->seat)
			held += v->seats[s].hand_count;
	}
	if (v->pile_size)
		held += v->pile_size - 1;
	v->stock = (uint16_t)(unseen - held);
}

static int
choose(struct hf_view *v, int level, struct hf_action *a)
{
	uint64_t rng = 42;
	char text[256];

	settle(v);
	hf_ai_choose(v, level, &rng, a);
	hf_action_format(a, text, sizeof text);
	print_message("%s: %s\n", hf_ai_level_name(level), text);
	return a->type;
}

/* The engine takes a as seat 0's move in a world dealt from v (seed). */
static void
assert_engine_takes(const struct hf_view *v, uint64_t seed, const struct hf_action *a)
{
	struct hf_game *g = hf_game_sample(v, seed);
	char why[HF_ERRLEN];

	assert_non_null(g);
	assert_int_equal(hf_apply(g, 0, a, why, sizeof why), HF_OK);
	hf_game_free(g);
}

/* A duel in the foot, its canastas made, nothing left in the foot: open 9s, pile 5 (3 cards), hand 9 9 4. */
static struct hf_view *
duel_near_out(void)
{
	struct hf_view *v = base_view("duel", 2);

	meld(v, 0, HF_KING, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_QUEEN, 5, 2, HF_KIND_DIRTY);
	meld(v, 0, HF_NINE, 4, 0, HF_KIND_OPEN);
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	v->pile_top = HF_FIVE;
	v->pile_size = 3;
	hand(v, "9 9 4");
	return v;
}

/* The pile's top card closes our open canasta: take it. */
static void
test_takes_pile_completing_canasta(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int lvl;

	(void)state;
	v->phase = HF_PHASE_DRAW;
	meld(v, 0, HF_KING, 5, 1, HF_KIND_OPEN);
	v->pile_top = HF_KING;
	v->pile_size = 5;
	v->may_pickup = true;
	hand(v, "5 7 9 J Q A 3c 4 6 8");
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++)
		assert_int_equal(choose(v, lvl, &a), HF_ACT_PICKUP);
	free(v);
}

/* Down, in the foot, the canastas made, nothing to ask: meld out, then throw the last card. */
static void
test_goes_out(void **state)
{
	struct hf_view *v = duel_near_out();
	struct hf_action a;
	int lvl;

	(void)state;
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++) {
		assert_int_equal(choose(v, lvl, &a), HF_ACT_MELD);
		assert_int_equal(a.ngroups, 1);
		assert_int_equal(a.groups[0].count[HF_NINE], 2);
	}
	hand(v, "4");
	v->melded_this_turn = true;
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++) {
		assert_int_equal(choose(v, lvl, &a), HF_ACT_DISCARD);
		assert_int_equal(a.card, HF_FOUR);
	}
	free(v);
}

/* Where partners must agree, a seat that can go out asks first, then goes out once allowed. */
static void
test_asks_then_goes_out(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int s;

	(void)state;
	meld(v, 0, HF_KING, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_ACE, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_QUEEN, 5, 2, HF_KIND_DIRTY);
	meld(v, 0, HF_JACK, 5, 2, HF_KIND_DIRTY);
	meld(v, 0, HF_TEN, 6, 0, HF_KIND_OPEN);
	for (s = 0; s < 4; s += 2) {
		v->seats[s].in_foot = true;
		v->seats[s].foot_count = 0;
		v->seats[s].foot_turns = 2;
	}
	hand(v, "2 6");
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_OUT);
	v->asked_this_turn = true;
	v->permission = true;
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_MELD);
	/* without permission it keeps playing: never empties its hand */
	v->permission = false;
	assert_int_not_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_OUT);
	if (a.type == HF_ACT_MELD)
		assert_true(a.groups[0].count[HF_TWO] + a.groups[0].count[HF_SIX] < 2);
	free(v);
}

/* A partner asked: a small hand says yes. */
static void
test_answers_ask(void **state)
{
	struct hf_view *v = base_view("pcio", 4);
	struct hf_action a;

	(void)state;
	v->phase = HF_PHASE_ASK;
	v->seat = 2;
	v->asker = 0;
	v->turn = 0;
	v->seats[0].answer = -1;
	v->seats[2].answer = -1;
	hand(v, "4");
	v->seats[2].hand_count = 1;
	v->seats[2].foot_count = 0;
	v->seats[2].in_foot = true;
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_YES);
	free(v);
}

/* The next seat has open 8s: with a big pile, throw anything but an 8. */
static void
test_safe_discard(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int lvl;

	(void)state;
	meld(v, 1, HF_EIGHT, 4, 0, HF_KIND_OPEN);
	meld(v, 0, HF_KING, 3, 0, HF_KIND_OPEN);
	v->pile_top = HF_SIX;
	v->pile_size = 20;
	v->melded_this_turn = true;
	hand(v, "8 Q 9 5");
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++) {
		assert_int_equal(choose(v, lvl, &a), HF_ACT_DISCARD);
		assert_int_not_equal(a.card, HF_EIGHT);
	}
	/* in a duel any natural lets the next player take seven: a black 3 blocks */
	free(v);
	v = base_view("duel", 2);
	v->sides[1].down = true;
	v->pile_top = HF_SIX;
	v->pile_size = 12;
	hand(v, "8 Q 9 3c");
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++) {
		assert_int_equal(choose(v, lvl, &a), HF_ACT_DISCARD);
		assert_int_equal(a.card, HF_BLACK3);
	}
	free(v);
}

/*
 * Classic forbids discarding jokers, but a hand of jokers only may throw one
 * when none of them can be melded (so a turn can end): the players once sent
 * "discard ?" here.  Found by handfoot-sim --check (classic 4p, seed 100, game 6798).
 */
static void
test_discards_joker_when_only_jokers(void **state)
{
	static const char *const hands[] = { "JK JK", "JK" };
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int lvl, h;

	(void)state;
	meld(v, 0, HF_ACE, 4, 1, HF_KIND_OPEN);
	meld(v, 0, HF_SEVEN, 5, 1, HF_KIND_DIRTY);
	v->sides[0].melds[1].jokers = 1;
	meld(v, 0, HF_QUEEN, 6, 0, HF_KIND_OPEN);
	v->pile_top = HF_TEN;
	v->pile_size = 6;
	v->pile_frozen = true;
	v->melded_this_turn = true;
	for (h = 0; h < 2; h++) {
		hand(v, hands[h]);
		v->seats[0].in_foot = h == 0;
		v->seats[0].foot_count = h == 0 ? 0 : 11;
		for (lvl = HF_AI_EASY; lvl <= HF_AI_HARD; lvl++) {
			/* a meld that empties the hand into the foot is fine too: the engine must take it */
			if (choose(v, lvl, &a) == HF_ACT_DISCARD)
				assert_int_equal(a.card, HF_JOKER);
			else
				assert_int_equal(a.type, HF_ACT_MELD);
			assert_engine_takes(v, 9, &a);
		}
	}
	free(v);
}

/*
 * Classic: a joker may not be discarded while one can be melded (here onto
 * the open 8s, which takes up the foot).  Every level melds it, and the
 * engine takes the move.
 */
static void
test_melds_joker_it_may_not_throw(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int lvl;

	(void)state;
	meld(v, 0, HF_EIGHT, 3, 0, HF_KIND_OPEN);
	v->pile_top = HF_TEN;
	v->pile_size = 6;
	v->melded_this_turn = true;
	hand(v, "JK");
	for (lvl = HF_AI_EASY; lvl <= HF_AI_HARD; lvl++) {
		assert_int_equal(choose(v, lvl, &a), HF_ACT_MELD);
		assert_engine_takes(v, 9, &a);
	}
	free(v);
}

/*
 * In the foot with one card, a two-card pile whose ace plays onto our open
 * aces: the card under it may be a red 3, laid out as the pile is taken,
 * which would leave one card where two must stay.  Draw instead.  Found by
 * handfoot-sim --check (classic 6p, seed 100, game 6601).
 */
static void
test_pile_may_hide_red3(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;
	int lvl;

	(void)state;
	v->phase = HF_PHASE_DRAW;
	meld(v, 0, HF_EIGHT, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_ACE, 4, 0, HF_KIND_OPEN);
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	v->pile_top = HF_ACE;
	v->pile_size = 2;
	v->may_pickup = true;
	v->unseen[HF_RED3] = 4;
	hand(v, "Q");
	for (lvl = HF_AI_NORMAL; lvl <= HF_AI_HARD; lvl++)
		assert_int_equal(choose(v, lvl, &a), HF_ACT_DRAW);
	free(v);
}

/* A view of a preset with house rules (the rules live as long as the test). */
static struct hf_view *
house_view(struct hf_rules *r, const char *text, int nseats)
{
	struct hf_view *v = base_view("classic", nseats);
	char why[HF_ERRLEN];

	assert_int_equal(hf_rules_parse(r, text, why, sizeof why), HF_OK);
	v->rules = r;
	v->sides[0].open_min = v->sides[1].open_min = r->open_min[0];
	return v;
}

/*
 * A duel with frozen=yes: a wild in the pile freezes it even where the pile
 * needs nothing shown, so a natural pair is needed.  The players took it with
 * nothing shown and were refused (handfoot-sim --house random).
 */
static void
test_frozen_pile_needs_pair(void **state)
{
	struct hf_rules r;
	struct hf_view *v = house_view(&r, "duel frozen=yes", 2);
	struct hf_action a;
	int lvl;

	(void)state;
	v->phase = HF_PHASE_DRAW;
	meld(v, 0, HF_KING, 4, 0, HF_KIND_OPEN);
	v->pile_top = HF_NINE;
	v->pile_size = 9;
	v->pile_frozen = true;
	v->may_pickup = true;
	hand(v, "9 5 6 8 J");
	for (lvl = HF_AI_EASY; lvl <= HF_AI_HARD; lvl++) {
		choose(v, lvl, &a);
		assert_engine_takes(v, 3, &a);
	}
	/* with the pair, normal takes it */
	hand(v, "9 9 5 6 8 J");
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_PICKUP);
	assert_int_equal(a.groups[0].count[HF_NINE], 2);
	free(v);
}

/* A hand cap: a pickup that would pass it is not made (the players were refused). */
static void
test_pickup_within_hand_cap(void **state)
{
	struct hf_rules r;
	struct hf_view *v = house_view(&r, "sevens hand_cap=12", 4);
	struct hf_action a;
	int lvl;

	(void)state;
	v->phase = HF_PHASE_DRAW;
	meld(v, 0, HF_KING, 4, 0, HF_KIND_OPEN);
	v->pile_top = HF_NINE;
	v->pile_size = 10;
	v->may_pickup = true;
	hand(v, "9 9 5 6 8 J");
	for (lvl = HF_AI_EASY; lvl <= HF_AI_HARD; lvl++)
		assert_int_equal(choose(v, lvl, &a), HF_ACT_DRAW);
	/* 6 - 2 shown + 9 taken - the top melded = 12: within the cap */
	v->pile_size = 9;
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_PICKUP);
	free(v);
}

/* The wilds of a play, summed over its groups. */
static int
wilds_on(const struct hf_action *a, int rank)
{
	int i, n = 0;

	for (i = 0; i < a->ngroups; i++)
		if (a->groups[i].target == rank || a->groups[i].count[rank])
			n += a->groups[i].count[HF_TWO] + a->groups[i].count[HF_JOKER];
	return n;
}

/*
 * pcio needs a wild canasta: while the side has none, its wilds wait for the
 * wild meld instead of starting dirty melds from pairs.  Normal spent them as
 * they came and a quarter of pcio rounds ended with the stock, every player
 * holding a card or two and no wild canasta on the table.
 */
static void
test_wilds_kept_for_wild_canasta(void **state)
{
	struct hf_view *v = base_view("pcio", 4);
	struct hf_action a;

	(void)state;
	meld(v, 0, HF_KING, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_QUEEN, 4, 0, HF_KIND_OPEN);
	v->pile_top = HF_FIVE;
	v->pile_size = 3;
	hand(v, "2 2 9 9 8 8 5 6 J");
	choose(v, HF_AI_NORMAL, &a);
	assert_true(a.type != HF_ACT_MELD || (wilds_on(&a, HF_NINE) == 0 && wilds_on(&a, HF_EIGHT) == 0));
	/* with three wilds it starts the wild meld */
	hand(v, "2 2 JK 9 9 8 5 6 J");
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_MELD);
	assert_int_equal(a.ngroups, 1);
	assert_int_equal(a.groups[0].count[HF_TWO] + a.groups[0].count[HF_JOKER], 3);
	free(v);
}

/*
 * A duel needs a clean canasta: in the foot, normal put its last wilds on
 * everything open, the one clean meld too, and went round after round
 * holding a card with every canasta dirty.
 */
static void
test_clean_meld_kept_clean(void **state)
{
	struct hf_view *v = base_view("duel", 2);
	struct hf_action a;

	(void)state;
	meld(v, 0, HF_KING, 6, 1, HF_KIND_DIRTY);
	meld(v, 0, HF_NINE, 5, 0, HF_KIND_OPEN);
	meld(v, 0, HF_SIX, 3, 1, HF_KIND_OPEN);
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	v->pile_top = HF_FIVE;
	v->pile_size = 3;
	hand(v, "2 2 5 8 J");
	choose(v, HF_AI_NORMAL, &a);
	assert_true(a.type != HF_ACT_MELD || wilds_on(&a, HF_NINE) == 0);
	free(v);
}

/* Where naturals may join a closed canasta (duel), hard puts an odd king on its closed kings; normal keeps it. */
static void
test_hard_adds_to_closed(void **state)
{
	struct hf_view *v = base_view("duel", 2);
	struct hf_action a;
	int i, kings = 0;

	(void)state;
	meld(v, 0, HF_KING, 7, 0, HF_KIND_CLEAN);
	meld(v, 0, HF_NINE, 3, 0, HF_KIND_OPEN);
	v->pile_top = HF_FIVE;
	v->pile_size = 3;
	hand(v, "K 5 6 8 J");
	assert_int_equal(choose(v, HF_AI_HARD, &a), HF_ACT_MELD);
	for (i = 0; i < a.ngroups; i++)
		kings += a.groups[i].count[HF_KING];
	assert_int_equal(kings, 1);
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_DISCARD);
	free(v);
}

/*
 * A duel, in the foot: hard's policy leaves the pile alone there (seven more
 * cards mostly delay going out), but this pile's top seven, seen going down,
 * close its nines and its kings.  The search plays both out in worlds dealt
 * from the view and takes the pile; with no budget hard is its policy.  With
 * six black 3s on top instead, it leaves the pile.
 */
static void
test_hard_search_overrules_policy(void **state)
{
	static const int pile[] = { HF_FOUR, HF_FIVE, HF_EIGHT, HF_TEN, HF_FOUR, HF_QUEEN, HF_FIVE,
	                            HF_NINE, HF_NINE, HF_KING, HF_KING, HF_JOKER, HF_KING, HF_NINE };
	struct hf_view *v = base_view("duel", 2);
	struct hf_action a;
	uint64_t rng = 42;
	size_t i;

	(void)state;
	meld(v, 0, HF_NINE, 4, 0, HF_KIND_OPEN);
	meld(v, 0, HF_KING, 4, 0, HF_KIND_OPEN);
	meld(v, 0, HF_ACE, 6, 1, HF_KIND_DIRTY);
	meld(v, 1, HF_SIX, 4, 0, HF_KIND_OPEN);
	v->phase = HF_PHASE_DRAW;
	v->may_pickup = true;
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	v->pile_size = (uint16_t)(sizeof pile / sizeof pile[0]);
	for (i = 0; i + 1 < v->pile_size; i++)
		v->pile[i] = (uint8_t)pile[i];
	v->pile_top = (uint8_t)pile[v->pile_size - 1];
	hand(v, "Q J 5 7");
	assert_int_equal(choose(v, HF_AI_HARD, &a), HF_ACT_PICKUP);
	hf_ai_decide(v, HF_AI_HARD, 0, &rng, &a);
	assert_int_equal(a.type, HF_ACT_DRAW);
	/* the same pile with its nines and kings deeper down, under six black 3s: draw */
	for (i = 0; i < 7; i++) {
		v->pile[i] = v->pile[i + 7];
		v->pile[i + 7] = HF_BLACK3;
	}
	v->pile[6] = HF_NINE;
	v->pile_top = HF_FIVE;
	assert_int_equal(choose(v, HF_AI_HARD, &a), HF_ACT_DRAW);
	free(v);
}

/* A hint spells the turn out in one line: the melds, then the way out, the same line for the same seed. */
static void
test_hint_whole_turn(void **state)
{
	struct hf_view *v = duel_near_out();
	char line[256], again[256];

	(void)state;
	settle(v);
	hf_ai_hint(v, 2000, 7, line, sizeof line);
	print_message("%s\n", line);
	assert_string_equal(line, "hint: meld 9 9, discard 4 to go out");
	hf_ai_hint(v, 2000, 7, again, sizeof again);
	assert_string_equal(line, again);
	/* at the draw: the pile or the stock, and no further (their cards are unknown) */
	v->phase = HF_PHASE_DRAW;
	v->melded_this_turn = false;
	hf_ai_hint(v, 2000, 7, line, sizeof line);
	print_message("%s\n", line);
	assert_true(!strcmp(line, "hint: draw (then ask again)") || !strncmp(line, "hint: take the pile", 19));
	assert_non_null(strstr(line, "(then ask again)"));
	/* another seat's turn */
	v->turn = 1;
	hf_ai_hint(v, 2000, 7, line, sizeof line);
	assert_string_equal(line, "hint: nothing to do now: wait for your turn");
	free(v);
}

/* Melds then a discard, in the hand; the line is cut to the buffer and still says how long it is. */
static void
test_hint_melds_and_discard(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	char line[256], small[12];
	size_t n;

	(void)state;
	meld(v, 0, HF_KING, 4, 0, HF_KIND_OPEN);
	v->pile_top = HF_SIX;
	v->pile_size = 4;
	hand(v, "K 9 9 9 3c 5 8 Q");
	settle(v);
	n = hf_ai_hint(v, 2000, 3, line, sizeof line);
	print_message("%s\n", line);
	assert_int_equal(n, strlen(line));
	assert_int_equal(strncmp(line, "hint: meld ", 11), 0);
	assert_non_null(strstr(line, ", discard "));
	assert_null(strchr(line, '\n'));
	assert_int_equal(hf_ai_hint(v, 2000, 3, small, sizeof small), n);
	assert_int_equal(strlen(small), sizeof small - 1);
	free(v);
}

/* hints=no: the table said no hints. */
static void
test_hint_off(void **state)
{
	struct hf_rules r;
	struct hf_view *v = house_view(&r, "classic hints=no", 4);
	char line[256], text[256];

	(void)state;
	hand(v, "K 9 9 9 3c 5 8 Q");
	settle(v);
	hf_ai_hint(v, 2000, 3, line, sizeof line);
	assert_string_equal(line, "hints are off at this table (house rule hints=no)");
	hf_rules_format(&r, text, sizeof text);
	assert_string_equal(text, "classic hints=no");
	free(v);
}

/* Not down, with naturals enough for the minimum: open. */
static void
test_opens(void **state)
{
	struct hf_view *v = base_view("classic", 4);
	struct hf_action a;

	(void)state;
	hand(v, "K K K A A A 5 6 9");
	assert_int_equal(choose(v, HF_AI_NORMAL, &a), HF_ACT_MELD);
	assert_int_equal(a.ngroups, 2);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_parse),
		cmocka_unit_test(test_takes_pile_completing_canasta),
		cmocka_unit_test(test_goes_out),
		cmocka_unit_test(test_asks_then_goes_out),
		cmocka_unit_test(test_answers_ask),
		cmocka_unit_test(test_safe_discard),
		cmocka_unit_test(test_opens),
		cmocka_unit_test(test_discards_joker_when_only_jokers),
		cmocka_unit_test(test_melds_joker_it_may_not_throw),
		cmocka_unit_test(test_pile_may_hide_red3),
		cmocka_unit_test(test_hard_adds_to_closed),
		cmocka_unit_test(test_frozen_pile_needs_pair),
		cmocka_unit_test(test_pickup_within_hand_cap),
		cmocka_unit_test(test_wilds_kept_for_wild_canasta),
		cmocka_unit_test(test_clean_meld_kept_clean),
		cmocka_unit_test(test_hard_search_overrules_policy),
		cmocka_unit_test(test_hint_whole_turn),
		cmocka_unit_test(test_hint_melds_and_discard),
		cmocka_unit_test(test_hint_off),
		cmocka_unit_test(test_view_only),
		cmocka_unit_test(test_never_refused),
		cmocka_unit_test(test_hard_never_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
