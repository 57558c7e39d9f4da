/* handfoot-sim.c: plays computer-only games of Hand and Foot and prints speed, round endings, scores and win rates. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "handfoot.h"

#define SIM_MAX_ACTIONS 60000   /* a game this long is stalled */
#ifndef SIM_MAX_REPORTS
#define SIM_MAX_REPORTS 8       /* refusals printed in full */
#endif

struct sim_opts {
	struct hf_rules rules;
	char   rules_text[256];
	int    players, sides, games;
	uint64_t seed;
	int    levels[HF_MAX_SEATS], nlevels;
	bool   check;
	bool   house_random;            /* each game: a random preset with random house rules */
	uint32_t budget;                /* the hard player's thinking budget per decision */
	int    want_level;              /* --want LEVEL=PCT: the win rate that level should reach */
	double want_win, want_out;      /* targets printed beside the figures (percent; 0 = none) */
	double want_p99;                /* the hard player's p99 time per decision should stay under (ms; 0 = none) */
};

/* Each decision's time, for the percentiles (microseconds). */
struct sim_times {
	float  *us;
	long   n, cap;
};

struct sim_stats {
	long   games, actions, turns, rounds, outs, stock_outs;
	long   refusals, fallbacks_failed, stalls, check_fails, reports;
	double score[HF_MAX_SIDES];
	long   level_games[3], level_wins[3], ties;
	struct sim_times times[3];      /* per level */
	long   combos_out[2];           /* --house random: games whose rules let a round end by going out, all */
};

static void
usage(void)
{
	fprintf(stderr,
	        "usage: handfoot-sim [--rules PRESET [key=value ...]] [--players N] [--sides K]\n"
	        "                    [--games G] [--seed S] [--ai LEVEL[,LEVEL...]] [--check]\n"
	        "                    [--house random] [--budget N] [--want LEVEL=PCT] [--want-out PCT]\n"
	        "                    [--want-p99 MS]\n"
	        "  levels: easy normal hard, one per seat, cycled (and rotated one seat each game)\n"
	        "  --house random: every game a random preset, random house rules and player count\n"
	        "  --budget: the hard player's thinking budget per decision, in simulated actions\n"
	        "  --want, --want-out, --want-p99: targets printed beside the win rate, the going-out\n"
	        "  share and hard's 99th-percentile time per decision\n");
	exit(2);
}

static int
parse_levels(struct sim_opts *o, const char *s)
{
	char buf[128], *tok, *save = NULL;
	int l;

	snprintf(buf, sizeof buf, "%s", s);
	o->nlevels = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		l = hf_ai_level_parse(tok);
		if (l < 0 || o->nlevels >= HF_MAX_SEATS) {
			fprintf(stderr, "handfoot-sim: unknown level \"%s\" (easy, normal, hard)\n", tok);
			return -1;
		}
		o->levels[o->nlevels++] = l;
	}
	return o->nlevels ? 0 : -1;
}

static void
parse_args(struct sim_opts *o, int argc, char **argv)
{
	char why[HF_ERRLEN];
	size_t len;
	int i;

	memset(o, 0, sizeof *o);
	snprintf(o->rules_text, sizeof o->rules_text, "classic");
	o->players = 4;
	o->games = 100;
	o->seed = 1;
	o->levels[0] = HF_AI_NORMAL;
	o->nlevels = 1;
	o->budget = HF_AI_BUDGET_DEFAULT;
	o->want_level = -1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
			snprintf(o->rules_text, sizeof o->rules_text, "%s", argv[++i]);
			/* house rules follow the preset until the next option */
			while (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
				len = strlen(o->rules_text);
				snprintf(o->rules_text + len, sizeof o->rules_text - len, " %s", argv[++i]);
			}
		} else if (!strcmp(argv[i], "--players") && i + 1 < argc) {
			o->players = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--sides") && i + 1 < argc) {
			o->sides = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
			o->games = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			o->seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--ai") && i + 1 < argc) {
			if (parse_levels(o, argv[++i]) < 0)
				usage();
		} else if (!strcmp(argv[i], "--check")) {
			o->check = true;
		} else if (!strcmp(argv[i], "--house") && i + 1 < argc && !strcmp(argv[i + 1], "random")) {
			o->house_random = true;
			i++;
		} else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
			o->budget = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--want") && i + 1 < argc) {
			char lvl[16];

			if (sscanf(argv[++i], "%15[a-z]=%lf", lvl, &o->want_win) != 2 ||
			    (o->want_level = hf_ai_level_parse(lvl)) < 0)
				usage();
		} else if (!strcmp(argv[i], "--want-out") && i + 1 < argc) {
			o->want_out = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--want-p99") && i + 1 < argc) {
			o->want_p99 = atof(argv[++i]);
		} else {
			usage();
		}
	}
	if (hf_rules_parse(&o->rules, o->rules_text, why, sizeof why) != HF_OK) {
		fprintf(stderr, "handfoot-sim: %s\n", why);
		exit(2);
	}
	if (o->games < 1 || o->players < 1 || o->players > HF_MAX_SEATS)
		usage();
}

/* ------------------------------------------------------------------ random house rules */

/*
 * Where a key's allowed range is far wider than tables set it (a 30-card
 * hand, 20 clean canastas to go out, a 100-round game), the sweep draws
 * from the range people play; every other key draws from all its values.
 */
static const struct { const char *key; long lo, hi; } play_range[] = {
	{ "hand", 5, 20 }, { "foot", 5, 20 }, { "hand_cap", 0, 60 }, { "deal_bonus_points", 0, 500 },
	{ "joker", 0, 100 }, { "two", 0, 100 }, { "ace", 0, 50 }, { "high", 0, 50 }, { "low", 0, 50 },
	{ "black3", 0, 200 }, { "red3_value", 0, 200 }, { "red3_bonus", 0, 500 }, { "red3_caught", 0, 1000 },
	{ "pickup", 1, 12 }, { "pickup_min", 0, 10 }, { "open", 0, 200 }, { "open_at", 0, 20000 },
	{ "min1", 0, 200 }, { "min2", 0, 200 }, { "min3", 0, 200 }, { "min4", 0, 200 },
	{ "need_clean", 0, 3 }, { "need_dirty", 0, 3 }, { "need_wild", 0, 1 }, { "need_sevens", 0, 1 },
	{ "need_total", 0, 6 }, { "short_penalty", 0, 2000 }, { "clean", 0, 5000 }, { "dirty", 0, 3000 },
	{ "wild", 0, 5000 }, { "sevens", 0, 5000 }, { "out_bonus", 0, 1000 }, { "rounds", 1, 4 },
	{ "target", 2000, 20000 },
};

static long
rnd_between(uint64_t *rng, long lo, long hi)
{
	return hi <= lo ? lo : lo + (long)hf_rng_below(rng, (uint32_t)(hi - lo + 1));
}

/* A random value of one alternative of a key's value text: "yes", "0-500", "deal,draw,foot", "N[,N,N,N]". */
static void
random_alt(const char *key, const char *alt, size_t n, uint64_t *rng, char *out, size_t len)
{
	long lo, hi, x, prev;
	size_t i, k, at;
	int pos;
	char word[64];

	snprintf(word, sizeof word, "%.*s", (int)n, alt);
	for (i = 0; i < sizeof play_range / sizeof play_range[0]; i++)
		if (!strcmp(play_range[i].key, key))
			break;
	if (!strcmp(word, "N[,N,N,N]")) {
		/* opening minimums rise with the round or score; so do the score steps */
		prev = 0;
		at = 0;
		for (k = 0; k < 4; k++) {
			x = rnd_between(rng, prev, i < sizeof play_range / sizeof play_range[0] ? play_range[i].hi : 200);
			at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s%ld", k ? "," : "", x);
			prev = x;
		}
		return;
	}
	if (sscanf(word, "%ld-%ld%n", &lo, &hi, &pos) == 2 && word[pos] == '\0') {
		if (i < sizeof play_range / sizeof play_range[0]) {
			lo = lo > play_range[i].lo ? lo : play_range[i].lo;
			hi = hi < play_range[i].hi ? hi : play_range[i].hi;
		}
		snprintf(out, len, "%ld", rnd_between(rng, lo, hi));
		return;
	}
	if (strchr(word, ',')) {
		/* a comma list: a random nonempty subset */
		const char *t;

		at = 0;
		while (!at)
			for (t = word; *t; t += *t == ',') {
				k = strcspn(t, ",");
				if (hf_rng_below(rng, 2))
					at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s%.*s", at ? "," : "",
					                       (int)k, t);
				t += k;
			}
		return;
	}
	snprintf(out, len, "%s", word);
}

/* A random value from a key's value text: its alternatives are separated by '|' (or " or "). */
static void
random_value(const struct hf_rule_key *k, uint64_t *rng, char *out, size_t len)
{
	const char *alts[8], *s = k->values;
	size_t lens[8], n = 0, pick;
	long a, b;

	if (!strcmp(k->key, "players")) {
		a = rnd_between(rng, 2, HF_MAX_SEATS);
		b = rnd_between(rng, a, HF_MAX_SEATS);
		snprintf(out, len, "%ld-%ld", a, b);
		return;
	}
	while (*s && n < 8) {
		alts[n] = s;
		lens[n] = strcspn(s, "|");
		s += lens[n];
		n++;
		if (*s == '|')
			s++;
	}
	pick = hf_rng_below(rng, (uint32_t)n);
	random_alt(k->key, alts[pick], lens[pick], rng, out, len);
}

/*
 * A table where going out is possible, as at any real table: each side can
 * meet the canasta requirement with the cards dealt to it (a wild canasta
 * needs all-wild melds allowed, a sevens canasta pure 7s where the rules pay
 * for one: with sevens=0 they are clean), and the deal leaves a stock at
 * least as big as the cards dealt (the engine asks only for 8 cards more
 * than the deal: six players on three decks have a stock of 29, gone before
 * anyone could play a hand and a foot through).  Every preset passes with
 * room to spare; tables that fail end their rounds by the stock whatever
 * anyone plays, so they are no test of the players.
 */
static bool
out_possible(const struct hf_rules *r, int players)
{
	int decks = r->decks[players], size = r->canasta_size, dealt = players * (r->hand_size + r->foot_size);
	int need = r->need_total + (r->need_total_plus_players ? players : 0);
	int kinds = r->need_clean + r->need_dirty + r->need_wild + r->need_sevens;
	int sides = r->sides_default[players] ? r->sides_default[players] : players;

	if ((r->need_wild && !r->wild_melds) || (r->need_sevens && !r->sevens_bonus))
		return false;
	if (r->need_wild * size > decks * 6 || r->need_sevens * size > decks * 4)
		return false;
	if (decks * 54 - dealt < dealt)
		return false;
	return (need > kinds ? need : kinds) * size <= dealt / sides;
}

/* A random table: preset, house rules (each key changed with chance 1/4), player count; valid for the engine. */
static void
house_random(struct hf_rules *r, int *players, uint64_t seed, char *text, size_t len)
{
	const char *const *presets = hf_preset_names();
	const struct hf_rule_key *keys;
	uint64_t rng = seed * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL;
	char why[HF_ERRLEN], kv[128], val[96];
	size_t nkeys, i, np;
	int tries, p, ok[HF_MAX_SEATS + 1], nok;

	keys = hf_rule_keys(&nkeys);
	for (np = 0; presets[np]; np++)
		;
	for (tries = 0;; tries++) {
		*r = *hf_preset(presets[hf_rng_below(&rng, (uint32_t)np)]);
		for (i = 0; i < nkeys; i++) {
			if (hf_rng_below(&rng, 4))
				continue;
			random_value(&keys[i], &rng, val, sizeof val);
			snprintf(kv, sizeof kv, "%s=%s", keys[i].key, val);
			if (hf_rules_set(r, kv, why, sizeof why) != HF_OK) {
				fprintf(stderr, "handfoot-sim: the random house rule %s was refused: %s\n", kv, why);
				exit(2);
			}
		}
		nok = 0;
		for (p = 2; p <= HF_MAX_SEATS; p++)
			if (hf_rules_check_table(r, p, 0, why, sizeof why) == HF_OK && out_possible(r, p))
				ok[nok++] = p;
		if (nok)
			break;
		if (tries > 1000) {
			fprintf(stderr, "handfoot-sim: no valid random table in 1000 tries\n");
			exit(2);
		}
	}
	*players = ok[hf_rng_below(&rng, (uint32_t)nok)];
	hf_rules_format(r, text, len);
}

static int
level_of(const struct sim_opts *o, int seat, int game)
{
	return o->levels[(seat + game) % o->nlevels];
}

static bool
check_game(const struct hf_game *g, struct sim_stats *st, long game)
{
	uint32_t census[HF_NCARD], shoe[HF_NCARD];
	char why[HF_ERRLEN];

	if (!hf_game_check(g, why, sizeof why)) {
		if (st->check_fails++ < SIM_MAX_REPORTS)
			printf("check failed in game %ld: %s\n", game, why);
		return false;
	}
	hf_game_census(g, census);
	hf_game_shoe(g, shoe);
	if (memcmp(census, shoe, sizeof census)) {
		if (st->check_fails++ < SIM_MAX_REPORTS)
			printf("check failed in game %ld: the cards in play differ from the shoe\n", game);
		return false;
	}
	return true;
}

/* When the computer player is refused: any simple action the engine accepts, so the game goes on. */
static bool
fallback(struct hf_game *g, int seat, const struct hf_view *v, uint64_t *rng)
{
	struct hf_action a;
	char why[HF_ERRLEN];
	int c, lvl;

	for (lvl = HF_AI_NORMAL; lvl >= HF_AI_EASY; lvl--) {
		hf_ai_choose(v, lvl, rng, &a);
		if (hf_apply(g, seat, &a, why, sizeof why) == HF_OK)
			return true;
	}
	memset(&a, 0, sizeof a);
	a.type = HF_ACT_DRAW;
	if (hf_apply(g, seat, &a, why, sizeof why) == HF_OK)
		return true;
	a.type = HF_ACT_YES;
	if (hf_apply(g, seat, &a, why, sizeof why) == HF_OK)
		return true;
	a.type = HF_ACT_DISCARD;
	for (c = 1; c < HF_NCARD; c++) {
		if (!v->hand[c])
			continue;
		a.card = (uint8_t)c;
		if (hf_apply(g, seat, &a, why, sizeof why) == HF_OK)
			return true;
	}
	return false;
}

static void
tally_events(const struct hf_game *g, struct sim_stats *st)
{
	const struct hf_event *ev;
	size_t n, i;

	ev = hf_game_events(g, &n);
	for (i = 0; i < n; i++)
		switch (ev[i].type) {
		case HF_EV_TURN:      st->turns++; break;
		case HF_EV_ROUND_END: st->rounds++; break;
		case HF_EV_OUT:       st->outs++; break;
		case HF_EV_STOCK_OUT: st->stock_outs++; break;
		default: break;
		}
}

/* The refused seat's position: what a test needs to rebuild it. */
static void
print_view(const struct hf_view *v)
{
	const struct hf_side_view *sv = &v->sides[v->seats[v->seat].side];
	int c, k, i;

	printf("  phase %d, in foot %d, foot %d, stock %d, pile %d (top %s%s), melded %d, hand:", v->phase,
	       v->seats[v->seat].in_foot, v->seats[v->seat].foot_count, v->stock, v->pile_size,
	       hf_card_name(v->pile_top), v->pile_frozen ? ", frozen" : "", v->melded_this_turn);
	for (c = 1; c < HF_NCARD; c++)
		for (k = 0; k < v->hand[c]; k++)
			printf(" %s", hf_card_name(c));
	printf("\n  side table:");
	for (i = 0; i < sv->nmelds; i++)
		printf(" %s x%d+%d+%d%s", hf_card_name(sv->melds[i].rank), sv->melds[i].naturals, sv->melds[i].twos,
		       sv->melds[i].jokers, sv->melds[i].kind == HF_KIND_OPEN ? "" : "(closed)");
	printf("\n");
}

static void
time_add(struct sim_times *t, double us)
{
	float *grown;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		grown = realloc(t->us, (size_t)t->cap * sizeof *grown);
		if (!grown) {
			fprintf(stderr, "handfoot-sim: out of memory\n");
			exit(2);
		}
		t->us = grown;
	}
	t->us[t->n++] = (float)us;
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A finished game's scores, ties, and wins by computer level into st. */
static void
tally_game(const struct sim_opts *o, long game, struct sim_stats *st, const struct hf_game *g)
{
	int seat, side, winner, nsides, lvl;
	bool seen[3] = {false};

	nsides = hf_game_nsides(g);
	for (side = 0; side < nsides; side++)
		st->score[side] += hf_game_score(g, side);
	winner = hf_game_winner(g);
	if (winner < 0)
		st->ties++;
	for (seat = 0; seat < hf_game_nseats(g); seat++) {
		lvl = level_of(o, seat, (int)game);
		if (!seen[lvl]) {
			seen[lvl] = true;
			st->level_games[lvl]++;
		}
	}
	if (winner >= 0) {
		bool won[3] = {false};

		for (seat = 0; seat < hf_game_nseats(g); seat++)
			if (hf_game_side_of(g, seat) == winner)
				won[level_of(o, seat, (int)game)] = true;
		for (lvl = 0; lvl < 3; lvl++)
			st->level_wins[lvl] += won[lvl];
	}
}

static void
play_game(const struct sim_opts *o, long game, struct sim_stats *st, struct hf_view *v)
{
	struct hf_game *g;
	struct hf_action a;
	struct hf_rules house;
	const struct hf_rules *rules = &o->rules;
	char why[HF_ERRLEN], text[512], rules_text[1024];
	int seats[HF_MAX_SEATS], seat, n, lvl, players = o->players, sides = o->sides;
	uint64_t rng = o->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)game * 0xbf58476d1ce4e5b9ULL + 1;
	long actions = 0, outs = st->outs;
	double t0;

	snprintf(rules_text, sizeof rules_text, "%s", o->rules_text);
	if (o->house_random) {
		house_random(&house, &players, o->seed + (uint64_t)game, rules_text, sizeof rules_text);
		rules = &house;
		sides = 0;
	}
	if (hf_game_new(&g, rules, players, sides, o->seed + (uint64_t)game, why, sizeof why) != HF_OK) {
		fprintf(stderr, "handfoot-sim: %s (%s, %d players)\n", why, rules_text, players);
		exit(2);
	}
	tally_events(g, st);
	while (hf_game_phase(g) != HF_PHASE_OVER) {
		if (++actions > SIM_MAX_ACTIONS) {
			st->stalls++;
			printf("stall: game %ld (seed %" PRIu64 ") passed %d actions, round %d (%s, %d players)\n", game,
			       o->seed + (uint64_t)game, SIM_MAX_ACTIONS, hf_game_round(g), rules_text, players);
			break;
		}
		n = hf_game_waiting(g, seats);
		if (n <= 0) {
			st->stalls++;
			printf("stall: game %ld has nobody to act\n", game);
			break;
		}
		seat = seats[0];
		hf_game_view(g, seat, v);
		lvl = level_of(o, seat, (int)game);
		t0 = now_us();
		hf_ai_decide(v, lvl, o->budget, &rng, &a);
		time_add(&st->times[lvl], now_us() - t0);
		if (hf_apply(g, seat, &a, why, sizeof why) != HF_OK) {
			st->refusals++;
			if (st->reports++ < SIM_MAX_REPORTS) {
				hf_action_format(&a, text, sizeof text);
				printf("refused: game %ld round %d seat %d (%s): \"%s\": %s\n", game, v->round, seat,
				       hf_ai_level_name(lvl), text, why);
				if (o->house_random)
					printf("  rules %s, %d players\n", rules_text, players);
				print_view(v);
			}
			if (!fallback(g, seat, v, &rng)) {
				st->fallbacks_failed++;
				st->stalls++;
				printf("stall: game %ld: no action accepted from seat %d\n", game, seat);
				break;
			}
		}
		tally_events(g, st);
		if (o->check && !check_game(g, st, game))
			break;
	}
	st->actions += actions;
	st->games++;
	st->combos_out[0] += st->outs > outs;
	st->combos_out[1]++;
	tally_game(o, game, st, g);
	hf_game_free(g);
}

/* The Wilson score interval at 95% for k successes in n trials, in percent. */
static void
wilson(long k, long n, double *lo, double *hi)
{
	double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n, c, h;

	if (!n) {
		*lo = *hi = 0;
		return;
	}
	c = (p + z * z / (2.0 * n)) / d;
	h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
	*lo = 100 * (c - h);
	*hi = 100 * (c + h);
}

static int
cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static void
report_times(const struct sim_opts *o, struct sim_stats *st)
{
	struct sim_times *t;
	int l;

	for (l = 0; l < 3; l++) {
		t = &st->times[l];
		if (!t->n)
			continue;
		qsort(t->us, (size_t)t->n, sizeof t->us[0], cmp_float);
		printf("time per decision, %s: p50 %.3f ms, p99 %.3f ms, max %.3f ms (%ld decisions)", hf_ai_level_name(l),
		       t->us[t->n / 2] / 1e3, t->us[(long)(t->n * 0.99)] / 1e3, t->us[t->n - 1] / 1e3, t->n);
		if (l == HF_AI_HARD)
			printf(", budget %" PRIu32 " simulated actions%s", o->budget,
			       o->budget == HF_AI_BUDGET_DEFAULT ? " (the default)" : "");
		printf("\n");
		if (l == HF_AI_HARD && o->want_p99 > 0)
			printf("target: hard p99 per decision <= %.0f ms: %.1f ms: %s\n", o->want_p99,
			       t->us[(long)(t->n * 0.99)] / 1e3, t->us[(long)(t->n * 0.99)] / 1e3 <= o->want_p99 ? "met" : "NOT MET");
	}
}

static const char *
met(bool ok)
{
	return ok ? "met" : "NOT MET";
}

static void
report(const struct sim_opts *o, struct sim_stats *st, double secs, int nsides)
{
	long ends = st->outs + st->stock_outs;
	char levels[64] = "";
	double lo, hi, out = ends ? 100.0 * st->outs / ends : 0.0, win;
	size_t len;
	int i;

	for (i = 0; i < o->nlevels; i++) {
		len = strlen(levels);
		snprintf(levels + len, sizeof levels - len, "%s%s", i ? "," : "", hf_ai_level_name(o->levels[i]));
	}
	printf("rules %s, %d players, %d sides, %ld games, seed %" PRIu64 ", ai %s%s\n",
	       o->house_random ? "random (preset, house rules and players)" : o->rules_text,
	       o->house_random ? 0 : o->players, o->house_random ? 0 : nsides, st->games, o->seed, levels,
	       o->check ? ", checked" : "");
	printf("time: %.0f games per second (%.2f s)\n", secs > 0 ? st->games / secs : 0.0, secs);
	printf("per game: %.1f actions, %.1f turns, %.2f rounds\n", (double)st->actions / st->games,
	       (double)st->turns / st->games, (double)st->rounds / st->games);
	printf("rounds ended: %.1f%% by going out, %.1f%% by the stock running out\n", out,
	       ends ? 100.0 * st->stock_outs / ends : 0.0);
	if (o->house_random)
		printf("games with a round ended by going out: %ld of %ld\n", st->combos_out[0], st->combos_out[1]);
	if (!o->house_random) {
		printf("average score:");
		for (i = 0; i < nsides; i++)
			printf(" side %d %.0f%s", i, st->score[i] / st->games, i + 1 < nsides ? "," : "\n");
	}
	printf("wins by level:");
	for (i = 0; i < 3; i++)
		if (st->level_games[i]) {
			wilson(st->level_wins[i], st->level_games[i], &lo, &hi);
			printf(" %s %.1f%% [95%%: %.1f-%.1f] (%ld of %ld),", hf_ai_level_name(i),
			       100.0 * st->level_wins[i] / st->level_games[i], lo, hi, st->level_wins[i], st->level_games[i]);
		}
	printf(" ties %ld\n", st->ties);
	report_times(o, st);
	printf("errors: %ld refused actions, %ld stalled games, %ld check failures\n", st->refusals, st->stalls,
	       st->check_fails);
	if (o->want_level >= 0 && st->level_games[o->want_level]) {
		win = 100.0 * st->level_wins[o->want_level] / st->level_games[o->want_level];
		wilson(st->level_wins[o->want_level], st->level_games[o->want_level], &lo, &hi);
		printf("target: %s wins >= %.0f%%: %.1f%% [95%%: %.1f-%.1f]: %s\n", hf_ai_level_name(o->want_level),
		       o->want_win, win, lo, hi, met(win >= o->want_win));
	}
	if (o->want_out > 0)
		printf("target: rounds ended by going out >= %.0f%%: %.1f%%: %s\n", o->want_out, out,
		       met(out >= o->want_out));
	if (o->check)
		printf("target: 0 refused actions, 0 stalled games, 0 check failures: %s\n",
		       met(!st->refusals && !st->stalls && !st->check_fails));
}

int
main(int argc, char **argv)
{
	struct sim_opts o;
	struct sim_stats st;
	struct hf_view *v;
	struct hf_game *probe;
	struct timespec t0, t1;
	char why[HF_ERRLEN];
	int nsides;
	long i;

	parse_args(&o, argc, argv);
	nsides = 0;
	if (!o.house_random) {
		if (hf_game_new(&probe, &o.rules, o.players, o.sides, o.seed, why, sizeof why) != HF_OK) {
			fprintf(stderr, "handfoot-sim: %s\n", why);
			return 2;
		}
		nsides = hf_game_nsides(probe);
		hf_game_free(probe);
	}
	v = malloc(sizeof *v);
	if (!v)
		return 2;
	memset(&st, 0, sizeof st);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < o.games; i++)
		play_game(&o, i, &st, v);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(v);
	report(&o, &st, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, nsides);
	for (i = 0; i < 3; i++)
		free(st.times[i].us);
	return st.refusals || st.stalls || st.check_fails ? 1 : 0;
}
