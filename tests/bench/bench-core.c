/* bench-core.c: the core's cost per command (p50, p99, SQLite commit included), memory for 10,000 games, restore time; exits 1 when one misses its target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchtime.h"
#include "fake.h"
#include "figures.h"

/* Samples of every command, and apart: looks (!hand, !pile) and moves (committed). */
struct samples {
	double v[100000];
	size_t n;
};
static struct samples all, looks, moves;

static void
sample_add(struct samples *s, double us)
{
	if (s->n < sizeof s->v / sizeof s->v[0])
		s->v[s->n++] = us;
}

static double
sample_p99(const struct samples *s)
{
	return bench_pct(s->v, s->n, 990);
}

static void
sample_print(const char *what, struct samples *s)
{
	if (s->n == 0)
		return;
	bench_sort(s->v, s->n);
	printf("  %-8s %5zu commands, p50 %6.1f us, p99 %6.1f us, p999 %7.1f us, max %7.1f us\n", what, s->n,
	       bench_pct(s->v, s->n, 500), bench_pct(s->v, s->n, 990), bench_pct(s->v, s->n, 999), s->v[s->n - 1]);
}

/* One chat command, timed from the event in to its replies handed to the adapter. */
static void
timed(struct fake *f, const char *room, const char *user, const char *text, bool move)
{
	double t = bench_now_us(), us;

	fake_say(f, room, user, text);
	us = bench_now_us() - t;
	sample_add(&all, us);
	sample_add(move ? &moves : &looks, us);
}

/* Commands of a human in duel games: look, draw, discard the cheapest card. */
static bool
bench_commands(const char *db)
{
	struct fake *f = fake_new(db, "flood_burst = 1000\nai_delay = 0");
	struct hf_view *v = malloc(sizeof *v);
	char room[32], user[32], cmd[64];
	int game, step, seat, c, best;

	for (game = 0; game < 20; game++) {
		snprintf(room, sizeof room, "#b%d", game);
		/* a player a game: the flood allowance is one per user, whatever the room */
		snprintf(user, sizeof user, "alice%d", game);
		fake_say(f, room, user, "!play 2 duel");
		for (step = 0; step < 400; step++) {
			struct session *s = fake_session(f, room);
			if (s == NULL)
				break;
			seat = session_seat_of(s, user);
			if (hf_game_turn(s->g) != seat || hf_game_phase(s->g) == HF_PHASE_ASK) {
				fake_advance(f, 1);
				continue;
			}
			timed(f, room, user, step % 2 ? "!pile" : "!hand", false);
			if (hf_game_phase(s->g) == HF_PHASE_DRAW) {
				timed(f, room, user, "!draw", true);
				continue;
			}
			hf_game_view(s->g, seat, v);
			best = -1;
			for (c = 1; c < HF_NCARD; c++)
				if (v->hand[c] && (best < 0 || v->rules->value[c] < v->rules->value[best]))
					best = c;
			snprintf(cmd, sizeof cmd, "!discard %s", hf_card_name(best));
			timed(f, room, user, cmd, true);
			fake_clear(f);
		}
	}
	fake_free(f);
	free(v);
	printf("core per command (SQLite commit of each move included):\n");
	sample_print("all", &all);
	sample_print("looks", &looks);
	sample_print("moves", &moves);
	return figure_add("bench-core", "core per command, p99 (a move's SQLite commit included)", sample_p99(&all),
	                  "us", FIGURE_AT_MOST, 50);
}

static bool
bench_games(const char *db)
{
	bool ok;
	struct fake *f;
	long before = bench_rss_kb(), after;
	char room[32], user[32];
	double t;
	int i;

	f = fake_new(db, "flood_burst = 1000\nai_delay = 60000\ntable_expiry = 0\nmax_tables = 0\nmax_tables_per_user = 0");
	/* a player each: the flood allowance is one per user, whatever the room */
	for (i = 0; i < 10000; i++) {
		snprintf(room, sizeof room, "#r%d", i);
		snprintf(user, sizeof user, "p%d", i);
		fake_say(f, room, user, "!play 4 classic");
		fake_say(f, room, user, "!draw");
		fake_clear(f);
	}
	after = bench_rss_kb();
	ok = figure_add("bench-core", "memory: 10000 games in progress, RSS growth", (after - before) / 1024.0, "MB",
	                FIGURE_AT_MOST, 256);
	fake_free(f);
	t = bench_now_us();
	f = fake_new(db, "ai_delay = 60000");
	t = bench_now_us() - t;
	printf("restore: %zu games\n", f->bot->sessions.count);
	ok &= figure_add("bench-core", "restore: 10000 games at start", t / 1e6, "s", FIGURE_AT_MOST, 2);
	ok &= figure_add("bench-core", "restore: games back", (double)f->bot->sessions.count, "", FIGURE_AT_LEAST, 10000);
	fake_free(f);
	return ok;
}

/* "bench-core commands" runs only the per-command part (for perf record). */
int
main(int argc, char **argv)
{
	char db[] = "/tmp/hf-bench-XXXXXX", path[64];
	int fd = mkstemp(db);
	bool ok;

	close(fd);
	unlink(db);
	ok = bench_commands(db);
	unlink(db);
	if (argc < 2 || strcmp(argv[1], "commands") != 0)
		ok &= bench_games(db);
	unlink(db);
	snprintf(path, sizeof path, "%s-wal", db);
	unlink(path);
	snprintf(path, sizeof path, "%s-shm", db);
	unlink(path);
	return ok ? 0 : 1;
}
