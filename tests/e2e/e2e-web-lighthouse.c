/* e2e-web-lighthouse.c: Lighthouse (from npm: tools/setup-lighthouse) on the table's page and a player's page, a game in progress, on a phone and a desktop: performance, accessibility and best practices at least 95, layout shift at most 0.1, no console error. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "e2e.h"
#include "ircclient.h"
#include "webtable.h"

/* Lighthouse's performance score moves with the machine's load (the suite runs programs side by
 * side): a page is run up to this many times and its best run kept; the first run that passes ends it. */
#define RUNS 3
#define MIN_SCORE 95
#define MAX_CLS 0.1

static struct webtable wt;
static char cli[600];         /* Lighthouse's command line script */
static char missing[700];     /* why Lighthouse cannot run here, or "" */

/* One run's figures, and what failed, for a developer to fix. */
struct run {
	int perf, a11y, bp;   /* 0-100, -1 when Lighthouse gave none */
	double cls;
	int console_errors;
	char why[6000];
};

static void
add(struct run *r, const char *fmt, ...)
{
	size_t n = strlen(r->why);
	va_list ap;

	if (n + 1 >= sizeof r->why)
		return;
	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof r->why - n, fmt, ap);
	va_end(ap);
}

static const char *
str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* A category's score as Lighthouse shows it (0-100), or -1. */
static int
category(json_t *lhr, const char *id)
{
	json_t *s = json_object_get(json_object_get(json_object_get(lhr, "categories"), id), "score");

	return json_is_number(s) ? (int)lround(json_number_value(s) * 100) : -1;
}

/* Every audit of the category that counts and did not pass: its id, title, value and first items. */
static void
explain(json_t *lhr, const char *id, struct run *r)
{
	json_t *refs = json_object_get(json_object_get(json_object_get(lhr, "categories"), id), "auditRefs");
	json_t *audits = json_object_get(lhr, "audits"), *ref;
	size_t i;

	json_array_foreach(refs, i, ref) {
		json_t *a = json_object_get(audits, str(ref, "id")), *s = json_object_get(a, "score");
		json_t *items = json_object_get(json_object_get(a, "details"), "items"), *item;
		size_t k;

		if (!json_is_number(s) || json_number_value(s) >= 0.9 ||
		    (strcmp(id, "performance") == 0 && json_number_value(json_object_get(ref, "weight")) == 0))
			continue;
		add(r, "\n    %s: %s (score %.2f) %s", str(a, "id"), str(a, "title"), json_number_value(s),
		    str(a, "displayValue"));
		json_array_foreach(items, k, item) {
			char *t = json_dumps(item, JSON_COMPACT);

			if (k == 3) {
				add(r, "\n      ... %zu items in all", json_array_size(items));
				break;
			}
			add(r, "\n      %.400s", t != NULL ? t : "?");
			free(t);
		}
	}
}

/* Reads Lighthouse's JSON report at path into r; -1 if there is none or Lighthouse failed. */
static int
read_report(const char *path, struct run *r)
{
	json_error_t err;
	json_t *lhr = json_load_file(path, 0, &err), *audits, *ce;

	memset(r, 0, sizeof *r);
	r->perf = r->a11y = r->bp = -1;
	r->cls = 1e9;
	if (lhr == NULL) {
		add(r, "no report at %s: %s", path, err.text);
		return -1;
	}
	if (json_is_object(json_object_get(lhr, "runtimeError")))
		add(r, "\n    Lighthouse's runtime error: %s", str(json_object_get(lhr, "runtimeError"), "message"));
	audits = json_object_get(lhr, "audits");
	r->perf = category(lhr, "performance");
	r->a11y = category(lhr, "accessibility");
	r->bp = category(lhr, "best-practices");
	if (json_is_number(json_object_get(json_object_get(audits, "cumulative-layout-shift"), "numericValue")))
		r->cls = json_number_value(json_object_get(json_object_get(audits, "cumulative-layout-shift"),
		                                           "numericValue"));
	ce = json_object_get(audits, "errors-in-console");
	r->console_errors = (int)json_array_size(json_object_get(json_object_get(ce, "details"), "items"));
	if (!json_is_number(json_object_get(ce, "score")))
		r->console_errors = 1;
	if (r->perf < MIN_SCORE)
		explain(lhr, "performance", r);
	if (r->a11y < MIN_SCORE)
		explain(lhr, "accessibility", r);
	if (r->bp < MIN_SCORE || r->console_errors > 0)
		explain(lhr, "best-practices", r);
	if (r->cls > MAX_CLS)
		add(r, "\n    cumulative-layout-shift %.3f > %.1f: see layout-shifts in the report", r->cls, MAX_CLS);
	json_decref(lhr);
	return 0;
}

/* How many of the five checks the run misses: 0 when it passes. */
static int
misses(const struct run *r)
{
	return (r->perf < MIN_SCORE) + (r->a11y < MIN_SCORE) + (r->bp < MIN_SCORE) + (r->cls > MAX_CLS) +
	       (r->console_errors > 0);
}

/* Lighthouse on url (what: "table" or "hand"), its mobile preset or the desktop one, up to RUNS
 * times; its reports stay in the log folder.  1 if the best run fails, its reasons printed. */
static int
lighthouse(const char *what, const char *url, bool desktop, struct ircclient *keep[2])
{
	struct run best, r;
	const char *form = desktop ? "desktop" : "phone";
	char base[600], json[640], out[8192];
	int i, rc;

	best.perf = -2;
	best.cls = 1e9;
	best.why[0] = '\0';
	for (i = 1; i <= RUNS; i++) {
		snprintf(base, sizeof base, "%s/lighthouse-%s-%s-%d", e2e_logdir(), what, form, i);
		snprintf(json, sizeof json, "%s.report.json", base);
		unlink(json);
		/* Debian's chromium, headless; root's needs --no-sandbox.  Lighthouse's own throttling
		 * (simulated: a slow 4G and a 4x slower CPU on the phone) stays as it ships.  A run that
		 * hangs is stopped after 4 minutes (it waits 45 s for a load at most). */
		rc = e2e_sh(out, sizeof out, "CHROME_PATH=/usr/bin/chromium timeout 240 node '%s' '%s' --quiet %s"
		            " --only-categories=performance,accessibility,best-practices --output=json --output=html"
		            " --output-path='%s' --chrome-flags='--headless=new --no-sandbox --disable-gpu'",
		            cli, url, desktop ? "--preset=desktop" : "", base);
		for (int k = 0; k < 2; k++)
			ircclient_drain(keep[k], 10);   /* the IRC server's pings answered */
		if (read_report(json, &r) < 0)
			add(&r, "\n    lighthouse exited %d: %.2000s", rc, out);
		print_message("%s page, %s, run %d: performance %d, accessibility %d, best practices %d,"
		              " layout shift %.3f, console errors %d\n", what, form, i, r.perf, r.a11y, r.bp, r.cls,
		              r.console_errors);
		if (misses(&r) == 0)
			return 0;
		/* the best: the fewest checks missed, then the highest performance */
		if (best.perf == -2 || misses(&r) < misses(&best) || (misses(&r) == misses(&best) && r.perf > best.perf))
			best = r;
	}
	print_message("%s page, %s: best of %d runs fails (performance, accessibility and best practices"
	              " at least %d, layout shift at most %.1f, no console error; reports in %s/lighthouse-%s-%s-N"
	              ".report.html):%s\n", what, form, RUNS, MIN_SCORE, MAX_CLS, e2e_logdir(), what, form, best.why);
	return 1;
}

static int
setup(void **state)
{
	char out[256];

	(void)state;
	snprintf(cli, sizeof cli, "%s/lighthouse/node_modules/lighthouse/cli/index.js", e2e_build());
	missing[0] = '\0';
	if (access(cli, R_OK) != 0)
		snprintf(missing, sizeof missing, "Lighthouse is not installed in %s/lighthouse (tools/setup-lighthouse"
		         " %s installs it, or says why not: it needs Node.js 18.16 or newer and npm)", e2e_build(),
		         e2e_build());
	else if (e2e_sh(out, sizeof out, "node '%s' --version", cli) != 0)
		snprintf(missing, sizeof missing, "Lighthouse in %s/lighthouse does not run on this node: %.200s",
		         e2e_build(), out);
	if (missing[0] != '\0')
		return 0;
	return webtable_server(&wt, "prefix = !\nai_delay = 1500\nturn_reminder = 0\n");
}

static int
teardown(void **state)
{
	(void)state;
	if (missing[0] == '\0')
		webtable_teardown(&wt);
	return 0;
}

static void
test_both_pages_score_95(void **state)
{
	struct ircclient alice, bob, *keep[2] = { &alice, &bob };
	char pub[128], apage[128];
	size_t mark;
	int bad = 0;

	(void)state;
	if (missing[0] != '\0') {
		print_message("skipped: %s\n", missing);
		skip();
	}
	mark = webtable_duel(&wt, &alice, &bob);
	webtable_find_link(&wt, &alice, mark, "PRIVMSG #cards :", "Watch: ", pub, sizeof pub);
	webtable_find_link(&wt, &alice, mark, "NOTICE alice :", "play from", apage, sizeof apage);

	ircclient_send(&alice, "PRIVMSG #cards :!auto");
	ircclient_send(&bob, "PRIVMSG #cards :!auto");
	bad += lighthouse("table", pub, false, keep);
	bad += lighthouse("hand", apage, false, keep);
	bad += lighthouse("table", pub, true, keep);
	bad += lighthouse("hand", apage, true, keep);
	assert_int_equal(bad, 0);

	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(proc_stop(&wt.daemon), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_both_pages_score_95, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
