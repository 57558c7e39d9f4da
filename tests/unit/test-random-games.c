/* test-random-games.c: thousands of random complete games with invariants checked after every action. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

#define MAX_LOG 20000
/* The plain build plays 10,000 games; the sanitizer build (10x slower) fewer, unless HF_RANDOM_GAMES says. */
#if defined(__SANITIZE_ADDRESS__)
#define DEFAULT_GAMES 1000
#else
#define DEFAULT_GAMES 10000
#endif
#define LINE 192

struct table { const char *rules; int players, sides; };

/* Every preset at every player count it allows; target games get a lower target so they end. */
static const struct table tables[] = {
	{ "classic", 4, 0 }, { "classic", 6, 0 },
	{ "sevens target=6000", 2, 0 }, { "sevens target=6000", 3, 0 }, { "sevens target=6000", 4, 0 },
	{ "sevens target=6000", 4, 4 }, { "sevens target=6000", 6, 0 }, { "sevens target=6000", 6, 3 },
	{ "family", 2, 0 }, { "family", 3, 0 }, { "family", 4, 0 }, { "family", 4, 4 }, { "family", 5, 0 },
	{ "family", 6, 0 }, { "family", 6, 6 },
	{ "pcio", 4, 0 },
	{ "duel rounds=3", 2, 0 },
	{ "duel hand_cap=40 rounds=2", 2, 0 },
	{ "classic rounds=1", 4, 0 }, { "pcio rounds=1", 4, 0 }, { "family rounds=1", 4, 0 },
	/* easy going out, so the going-out paths (asking, auto melds, scoring) run often */
	{ "classic need_clean=0 need_dirty=0 need_total=1 rounds=2", 4, 0 },
	{ "classic need_clean=0 need_dirty=0 need_total=0 rounds=2", 6, 0 },
	{ "sevens need_clean=0 need_dirty=0 need_wild=0 need_sevens=0 need_total=1 rounds=2", 4, 0 },
	{ "sevens need_clean=0 need_dirty=0 need_wild=0 need_sevens=0 need_total=0 rounds=2", 3, 0 },
	{ "family need_total=1 need_plus_players=no rounds=2", 3, 0 },
	{ "family need_total=0 need_plus_players=no rounds=2", 6, 0 },
	{ "pcio need_clean=0 need_dirty=0 need_wild=0 need_total=1 rounds=2", 4, 0 },
	{ "pcio need_clean=0 need_dirty=0 need_wild=0 need_total=0 rounds=2", 4, 0 },
	{ "duel need_clean=0 need_dirty=0 rounds=2", 2, 0 },
};

struct run {
	char (*log)[LINE];
	int nlog;
	struct hf_game *before, *swap, *again;
	long actions, refused, views, outs, stockouts, rounds, closed;
};

/* The view of seat a must not change when b's hidden cards are swapped with the stock. */
static void check_hidden(struct run *r, const struct hf_game *g, uint64_t *rng)
{
	int n = g->nseats, a = (int)hf_rng_below(rng, (uint32_t)n), b = (int)hf_rng_below(rng, (uint32_t)n);
	static struct hf_view v1, v2;   /* test-only scratch, large */
	if (a == b || g->nstock == 0 || g->seats[b].hand_n == 0)
		return;
	hf_game_copy(r->swap, g);
	struct seat_state *sb = &r->swap->seats[b];
	int k = 1;
	for (int want = (int)hf_rng_below(rng, sb->hand_n); k < HF_NCARD; k++) {
		if (want < sb->hand[k])
			break;
		want -= sb->hand[k];
	}
	int at = (int)hf_rng_below(rng, r->swap->nstock), c = r->swap->stock[at];
	r->swap->stock[at] = (uint8_t)k;
	sb->hand[k]--;
	sb->hand[c]++;
	hf_game_view(g, a, &v1);
	hf_game_view(r->swap, a, &v2);
	v1.rules = v2.rules = NULL;
	assert_memory_equal(&v1, &v2, sizeof v1);
	r->views++;
}

static void check_sample(const struct hf_game *g, uint64_t *rng)
{
	static struct hf_view v;
	int seat = (int)hf_rng_below(rng, g->nseats);
	hf_game_view(g, seat, &v);
	struct hf_game *s = hf_game_sample(&v, hf_rng_next(rng));
	assert_non_null(s);
	t_check(s);
	static struct hf_view w;
	hf_game_view(s, seat, &w);
	assert_memory_equal(v.hand, w.hand, sizeof v.hand);
	assert_memory_equal(v.unseen, w.unseen, sizeof v.unseen);
	assert_int_equal(v.phase, w.phase);
	assert_int_equal(v.pile_frozen, w.pile_frozen);
	assert_int_equal(v.pile_plain, w.pile_plain);
	assert_int_equal(v.may_pickup, w.may_pickup);
	if (s->phase == HF_PHASE_DRAW) {
		struct hf_action a = { .type = HF_ACT_DRAW };
		char why[HF_ERRLEN];
		assert_int_equal(hf_apply(s, s->turn, &a, why, sizeof why), HF_OK);
		t_check(s);
	}
	hf_game_free(s);
}

static void replay(struct run *r, const struct table *t, uint64_t seed, const struct hf_game *end)
{
	struct hf_game *g = t_game(t->rules, t->players, seed);
	if (t->sides) {
		hf_game_free(g);
		struct hf_rules rules;
		char why[HF_ERRLEN];
		assert_int_equal(hf_rules_parse(&rules, t->rules, why, sizeof why), HF_OK);
		assert_int_equal(hf_game_new(&g, &rules, t->players, t->sides, seed, why, sizeof why), HF_OK);
	}
	for (int i = 0; i < r->nlog; i++) {
		char *line = r->log[i], why[HF_ERRLEN];
		int seat = line[0] - '0';
		struct hf_action a;
		assert_int_equal(hf_action_parse(&a, line + 2, why, sizeof why), HF_OK);
		if (hf_apply(g, seat, &a, why, sizeof why) != HF_OK)
			fail_msg("replay of \"%s\" refused: %s", line, why);
	}
	assert_true(hf_game_equal(g, end));
	hf_game_free(g);
}

static void one_game(struct run *r, const struct table *t, uint64_t seed, bool heavy)
{
	struct hf_rules rules;
	struct hf_game *g = NULL;
	char why[HF_ERRLEN];
	uint64_t rng = seed * 7919 + 1;
	assert_int_equal(hf_rules_parse(&rules, t->rules, why, sizeof why), HF_OK);
	if (hf_game_new(&g, &rules, t->players, t->sides, seed, why, sizeof why) != HF_OK)
		fail_msg("%s/%d: %s", t->rules, t->players, why);
	r->nlog = 0;
	int attempt = 0;
	while (hf_game_phase(g) != HF_PHASE_OVER) {
		int seats[HF_MAX_SEATS], n = hf_game_waiting(g, seats);
		int seat = seats[hf_rng_below(&rng, (uint32_t)n)];
		static struct hf_view v;
		struct hf_action a;
		if (hf_rng_below(&rng, 50) == 0)
			seat = (int)hf_rng_below(&rng, g->nseats); /* out of turn, mostly refused */
		hf_game_view(g, seat, &v);
		rp_propose(&v, &rng, attempt, &a);
		hf_game_copy(r->before, g);
		enum hf_err e = hf_apply(g, seat, &a, why, sizeof why);
		if (e != HF_OK) {
			if (!hf_game_equal(g, r->before))
				fail_msg("a refused move changed the game: %s", why);
			assert_true(why[0] != '\0');
			r->refused++;
			if (++attempt > 400)
				fail_msg("stuck: %s seat %d phase %d: %s", t->rules, seat, g->phase, why);
			continue;
		}
		attempt = 0;
		r->actions++;
		if (r->nlog >= MAX_LOG)
			fail_msg("game too long");
		snprintf(r->log[r->nlog], LINE, "%d ", seat);
		hf_action_format(&a, r->log[r->nlog] + 2, LINE - 2);
		r->nlog++;
		if (!hf_game_check(g, why, sizeof why))
			fail_msg("%s after \"%s\": %s", t->rules, r->log[r->nlog - 1], why);
		size_t nev;
		const struct hf_event *ev = hf_game_events(g, &nev);
		assert_true(nev > 0 && nev <= HF_MAX_EVENTS);
		for (size_t i = 0; i < nev; i++) {
			r->outs += ev[i].type == HF_EV_OUT;
			r->stockouts += ev[i].type == HF_EV_STOCK_OUT;
			r->rounds += ev[i].type == HF_EV_ROUND_END;
			r->closed += ev[i].type == HF_EV_CLOSED;
			/* a draw or a foot never shows its cards */
			if (ev[i].type == HF_EV_DRAW || ev[i].type == HF_EV_FOOT || ev[i].type == HF_EV_TURN)
				assert_int_equal(ev[i].card, 0);
		}
		if (g->phase != HF_PHASE_OVER)
			check_hidden(r, g, &rng);
		if (heavy && g->phase != HF_PHASE_OVER && hf_rng_below(&rng, 20) == 0)
			check_sample(g, &rng);
	}
	assert_true(hf_game_winner(g) >= -1);
	replay(r, t, seed, g);
	hf_game_free(g);
}

static void random_games(void **state)
{
	(void)state;
	const char *env = getenv("HF_RANDOM_GAMES");
	long games = env ? atol(env) : DEFAULT_GAMES;
	struct run r = { 0 };
	r.log = calloc(MAX_LOG, LINE);
	r.before = t_game("classic", 4, 1);
	r.swap = hf_game_clone(r.before);
	size_t nt = sizeof tables / sizeof tables[0];
	for (long i = 0; i < games; i++)
		one_game(&r, &tables[i % nt], 1000 + (uint64_t)i, i % 10 == 0);
	printf("random games: %ld games, %ld rounds (%ld gone out, %ld stock out), %ld canastas, %ld actions "
	       "accepted, %ld refused, %ld hidden-card checks\n", games, r.rounds, r.outs, r.stockouts, r.closed,
	       r.actions, r.refused, r.views);
	free(r.log);
	hf_game_free(r.before);
	hf_game_free(r.swap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_games),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
