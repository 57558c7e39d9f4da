/* handfoot-sim.c: plays computer-only games of Hand and Foot and prints speed, round endings, scores and win rates. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "handfoot.h"

#define SIM_MAX_ACTIONS 60000   /* a game this long is stalled */
#define SIM_MAX_REPORTS 8       /* refusals printed in full */

struct sim_opts {
	struct hf_rules rules;
	char   rules_text[256];
	int    players, sides, games;
	uint64_t seed;
	int    levels[HF_MAX_SEATS], nlevels;
	bool   check;
};

struct sim_stats {
	long   games, actions, turns, rounds, outs, stock_outs;
	long   refusals, fallbacks_failed, stalls, check_fails, reports;
	double score[HF_MAX_SIDES];
	long   level_games[3], level_wins[3], ties;
};

static void
usage(void)
{
	fprintf(stderr,
	        "usage: handfoot-sim [--rules PRESET [key=value ...]] [--players N] [--sides K]\n"
	        "                    [--games G] [--seed S] [--ai LEVEL[,LEVEL...]] [--check]\n"
	        "  levels: easy normal hard, one per seat, cycled (and rotated one seat each game)\n");
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
play_game(const struct sim_opts *o, long game, struct sim_stats *st, struct hf_view *v)
{
	struct hf_game *g;
	struct hf_action a;
	char why[HF_ERRLEN], text[512];
	int seats[HF_MAX_SEATS], seat, n, side, winner, nsides, lvl;
	bool seen[3] = {false};
	uint64_t rng = o->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)game * 0xbf58476d1ce4e5b9ULL + 1;
	long actions = 0;

	if (hf_game_new(&g, &o->rules, o->players, o->sides, o->seed + (uint64_t)game, why, sizeof why) != HF_OK) {
		fprintf(stderr, "handfoot-sim: %s\n", why);
		exit(2);
	}
	tally_events(g, st);
	while (hf_game_phase(g) != HF_PHASE_OVER) {
		if (++actions > SIM_MAX_ACTIONS) {
			st->stalls++;
			printf("stall: game %ld (seed %" PRIu64 ") passed %d actions, round %d\n", game,
			       o->seed + (uint64_t)game, SIM_MAX_ACTIONS, hf_game_round(g));
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
		hf_ai_choose(v, level_of(o, seat, (int)game), &rng, &a);
		if (hf_apply(g, seat, &a, why, sizeof why) != HF_OK) {
			st->refusals++;
			if (st->reports++ < SIM_MAX_REPORTS) {
				hf_action_format(&a, text, sizeof text);
				printf("refused: game %ld round %d seat %d (%s): \"%s\": %s\n", game, v->round, seat,
				       hf_ai_level_name(level_of(o, seat, (int)game)), text, why);
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
	hf_game_free(g);
}

static void
report(const struct sim_opts *o, const struct sim_stats *st, double secs, int nsides)
{
	long ends = st->outs + st->stock_outs;
	char levels[64] = "";
	size_t len;
	int i;

	for (i = 0; i < o->nlevels; i++) {
		len = strlen(levels);
		snprintf(levels + len, sizeof levels - len, "%s%s", i ? "," : "", hf_ai_level_name(o->levels[i]));
	}
	printf("rules %s, %d players, %d sides, %ld games, seed %" PRIu64 ", ai %s%s\n", o->rules_text, o->players,
	       nsides, st->games, o->seed, levels, o->check ? ", checked" : "");
	printf("time: %.0f games per second (%.2f s)\n", secs > 0 ? st->games / secs : 0.0, secs);
	printf("per game: %.1f actions, %.1f turns, %.2f rounds\n", (double)st->actions / st->games,
	       (double)st->turns / st->games, (double)st->rounds / st->games);
	printf("rounds ended: %.1f%% by going out, %.1f%% by the stock running out\n",
	       ends ? 100.0 * st->outs / ends : 0.0, ends ? 100.0 * st->stock_outs / ends : 0.0);
	printf("average score:");
	for (i = 0; i < nsides; i++)
		printf(" side %d %.0f%s", i, st->score[i] / st->games, i + 1 < nsides ? "," : "\n");
	printf("wins by level:");
	for (i = 0; i < 3; i++)
		if (st->level_games[i])
			printf(" %s %.1f%% (%ld of %ld),", hf_ai_level_name(i), 100.0 * st->level_wins[i] / st->level_games[i],
			       st->level_wins[i], st->level_games[i]);
	printf(" ties %ld\n", st->ties);
	printf("errors: %ld refused actions, %ld stalled games, %ld check failures\n", st->refusals, st->stalls,
	       st->check_fails);
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
	if (hf_game_new(&probe, &o.rules, o.players, o.sides, o.seed, why, sizeof why) != HF_OK) {
		fprintf(stderr, "handfoot-sim: %s\n", why);
		return 2;
	}
	nsides = hf_game_nsides(probe);
	hf_game_free(probe);
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
	return st.refusals || st.stalls || st.check_fails ? 1 : 0;
}
