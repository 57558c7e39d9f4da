/* bench-discord.c: how fast a command's interaction is answered through the real daemon and the fake Discord (Discord allows 3 s). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#include "dcplay.h"
#include "figures.h"
#include "gwsim.h"

#define STEADY     300    /* commands at a steady pace */
#define STEADY_MS  40     /* one every this many ms: 25 a second */
#define BURST      100    /* then commands back to back, as fast as the fake takes them */
#define DEADLINE   3000.0 /* receiving-and-responding.mdx: the initial response within 3 s */

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
pct(const double *v, size_t n, double p)
{
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);

	return v[i < n ? i : n - 1];
}

/* Sends n commands, one every gap_ms, and reads back how long each took to be answered. */
static int
run(struct dcplay *p, const char *what, int n, int gap_ms, double *ms)
{
	char figure[96];
	bool ok;
	char (*ids)[32] = calloc((size_t)n, sizeof *ids);
	int got = 0;

	for (int i = 0; i < n; i++) {
		/* a private answer (a hand, from each player in turn) and a public one, in turn.  The core
		 * says an unchanged answer once a minute (a repeated /pile would get nothing: its
		 * interaction deferred, then deleted), so the public one is a line it always says: the
		 * table's owner switching how the room hears the game, which the store keeps */
		const char *id = i % 2 ? dcplay_command(p, 0, "tell", i % 4 == 1 ? "{\"how\":\"moves\"}" :
		                                         "{\"how\":\"turns\"}") :
		                         dcplay_command(p, (i / 2) % p->nusers, "hand", NULL);

		if (id == NULL) {
			free(ids);
			return -1;
		}
		snprintf(ids[i], sizeof ids[i], "%s", id);
		if (gap_ms > 0)
			e2e_sleep_ms(gap_ms);
	}
	for (int i = 0; i < n; i++) {
		double v = dcplay_acked(p, ids[i], 10000);
		json_t *m = dcplay_reply(p, ids[i], i % 2 ? "hears" : "Your hand", 0);

		/* answered: with the words asked for, not a defer ("thinking...") */
		if (v < 0 || m == NULL) {
			fprintf(stderr, "bench-discord: interaction %s never answered\n", ids[i]);
			json_decref(m);
			continue;
		}
		json_decref(m);
		ms[got++] = v;
	}
	free(ids);
	qsort(ms, (size_t)got, sizeof *ms, cmp);
	printf("%-34s %4d/%d answered  p50 %6.1f ms  p90 %6.1f ms  p99 %6.1f ms  max %6.1f ms\n", what, got, n,
	       pct(ms, (size_t)got, 0.5), pct(ms, (size_t)got, 0.9), pct(ms, (size_t)got, 0.99),
	       got > 0 ? ms[got - 1] : -1.0);
	snprintf(figure, sizeof figure, "%s interactions answered", what);
	ok = figure_add("bench-discord", figure, got, "", FIGURE_AT_LEAST, n);
	/* Discord's own limit: no answer within 3 s and the interaction is lost */
	snprintf(figure, sizeof figure, "%s answer p99", what);
	ok &= figure_add("bench-discord", figure, got > 0 ? pct(ms, (size_t)got, 0.99) : -1.0, "ms", FIGURE_AT_MOST,
	                 DEADLINE);
	return ok ? 0 : -1;
}

/* gateway.mdx: 1000 Identifys a day, then Discord resets the token. What an
 * hour of outage costs, on the state machine's own clock (seeds averaged). */
static void
outage_figures(void)
{
	static const char *const what[] = { "op 9 d:false to every Identify", "READY withheld, heartbeats ACKed",
	                                    "closed after every Identify" };
	struct gwsim_result r;

	printf("Identifys per hour in a simulated Gateway outage (budget 1000 a day; none may pass it):\n");
	for (int k = GWSIM_INVALID; k <= GWSIM_REFUSED; k++) {
		int sum = 0, worst = 0, past = 0;

		for (uint32_t seed = 1; seed <= 50; seed++) {
			gwsim_run((enum gwsim_outage)k, 3600000, 1000, seed * 2654435761u, &r);
			sum += r.identifies;
			worst = r.identifies > worst ? r.identifies : worst;
			past += r.past_budget;
		}
		printf("  %-34s %5.1f Identifys/hour (worst %d), %d past the budget\n", what[k], sum / 50.0, worst, past);
	}
}

int
main(void)
{
	struct dcplay p;
	double ms[STEADY > BURST ? STEADY : BURST];
	json_t *turn;
	int who, rc = 0;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	outage_figures();
	if (dcplay_setup(&p, "bench-discord", 4, "flood_burst = 1000\nflood_refill = 1\nlog_level = warning\n", NULL) < 0 ||
	    dcplay_start(&p) < 0 || (turn = dcplay_deal(&p, "classic", &who)) == NULL) {
		fprintf(stderr, "bench-discord: no game to measure\n");
		dcplay_teardown(&p);
		return 1;
	}
	json_decref(turn);
	printf("a command's interaction answered, through the real daemon and the fake Discord (the fake's clock: "
	       "from INTERACTION_CREATE sent to the answer received):\n");
	if (run(&p, "steady, 25 commands a second:", STEADY, STEADY_MS, ms) < 0)
		rc = 1;
	if (run(&p, "back to back, no pause:", BURST, 0, ms) < 0)
		rc = 1;
	if (fakedc_violations(&p.f, true) != 0 || dcplay_audit(&p) != 0)
		rc = 1;
	dcplay_stop(&p);
	dcplay_teardown(&p);
	return rc;
}
