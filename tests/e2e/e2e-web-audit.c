/* e2e-web-audit.c: the table's page and a player's page audited at phone size in headless chromium: no layout shift as the first view arrives, no console error, card names that start with what is shown, 24 px tap targets, a favicon, a meta description; and axe-core's WCAG A and AA rules where tools/setup-lighthouse installed it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cdp.h"
#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "webtable.h"
#include "world.h"
#include "proc.h"

static struct webtable wt;

/* Console errors, uncaught exceptions and failed requests, as the DevTools events tell them. */
struct errors {
	int n;
	char first[512];
};
static struct errors errs;

/* Installed before any script of the page: sums the layout shifts (as Lighthouse's CLS) and keeps their sources. */
static const char shift_probe[] =
	"window.__cls = 0; window.__shifts = []; window.__views = 0;"
	"document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => window.__views++)"
	".observe(document.getElementById('turn'), {childList: true, characterData: true, subtree: true}));"
	"new PerformanceObserver(l => { for (const e of l.getEntries()) { if (e.hadRecentInput) continue;"
	" window.__cls += e.value; window.__shifts.push(e.value.toFixed(3) + ' ' + e.sources.map(s =>"
	" (s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?') + ' y ' + s.previousRect.y +"
	" '->' + s.currentRect.y).join(', ')); } }).observe({type: 'layout-shift', buffered: true});";

/* What the page shows, audited: a list of problems, empty when all is well. */
static const char audit_js[] =
	"(async () => { const bad = [];"
	/* the layout shifts are told after the frame: two frames on, they are in */
	" await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));"
	" if (window.__cls > 0.1) bad.push('layout shift ' + window.__cls.toFixed(3) + ': ' + window.__shifts.join(' | '));"
	" for (const b of document.querySelectorAll('#hand .pick')) {"
	"  const seen = b.textContent.replace(/\\s+/g, ' ').trim(), name = b.getAttribute('aria-label') || '';"
	"  if (!seen || !name.startsWith(seen)) { bad.push('card named \"' + name + '\" shows \"' + seen + '\"'); break; } }"
	" for (const e of document.querySelectorAll('button, input, select, a[href], summary, [tabindex]')) {"
	"  const r = e.getBoundingClientRect(); if (!r.width && !r.height) continue;"
	"  let w = r.width; const n = e.nextElementSibling;"
	"  if (e.matches('.pick') && n && n.matches('.pick')) w = n.getBoundingClientRect().left - r.left;"
	"  if (w < 24 || r.height < 24) bad.push('target ' + (e.id || e.className || e.nodeName) + ' is ' +"
	"   w.toFixed(1) + 'x' + r.height.toFixed(1) + ' px');"
	"  if (e.tabIndex < 0 || e.disabled) bad.push((e.id || e.className) + ' is out of the Tab order'); }"
	" bad.splice(0, bad.length, ...new Set(bad.map(t => t.replace(/ is [0-9.]+x/, ' is Nx'))));"
	" for (const b of document.querySelectorAll('.pick'))"
	"  if (!['true', 'false'].includes(b.getAttribute('aria-pressed'))) { bad.push('a card without aria-pressed'); break; }"
	" if (document.getElementById('turn').getAttribute('aria-live') !== 'polite') bad.push('#turn is no polite live region');"
	" const d = document.querySelector('meta[name=description]');"
	" if (!d || d.content.length < 20) bad.push('no meta description');"
	" const i = document.querySelector('link[rel~=icon]');"
	" if (!i) bad.push('no favicon link (a browser asks for /favicon.ico: 404)'); else {"
	"  const r = await fetch(i.href); const t = r.status + ' ' + r.headers.get('content-type');"
	"  if (t !== '200 image/svg+xml') bad.push('favicon ' + i.href + ': ' + t); }"
	" return bad; })()";

/* axe-core's script, where tools/setup-lighthouse installed it (NULL: its audit is left out, said once). */
static char *axe;

/* axe-core's WCAG 2.2 A and AA rules and its best practices on the page as it is: a line per rule broken. */
static const char axe_run[] =
	"axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa',"
	" 'best-practice']}, resultTypes: ['violations']}).then(r => r.violations.map(v => 'axe-core ' + v.id +"
	" ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' +"
	" n.failureSummary.replace(/\\s+/g, ' ')).join('; ')))";

/* A string member's text, or dflt. */
static const char *
or_(json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

static void
on_event(void *arg, json_t *msg)
{
	struct errors *e = arg;
	const char *m = json_string_value(json_object_get(msg, "method"));
	json_t *p = json_object_get(msg, "params");
	char what[512] = "";

	if (strcmp(m, "Runtime.consoleAPICalled") == 0 &&
	    strcmp(or_(json_object_get(p, "type"), ""), "error") == 0)
		snprintf(what, sizeof what, "console.error");
	else if (strcmp(m, "Runtime.exceptionThrown") == 0)
		snprintf(what, sizeof what, "exception: %s", or_(json_object_get(json_object_get(p,
		         "exceptionDetails"), "text"), "?"));
	else if (strcmp(m, "Log.entryAdded") == 0 &&
	         strcmp(or_(json_object_get(json_object_get(p, "entry"), "level"), ""), "error") == 0)
		snprintf(what, sizeof what, "log: %s", or_(json_object_get(json_object_get(p, "entry"),
		         "text"), "?"));
	else if (strcmp(m, "Network.loadingFailed") == 0)
		snprintf(what, sizeof what, "request failed: %s", or_(json_object_get(p, "errorText"), "?"));
	else if (strcmp(m, "Network.responseReceived") == 0 &&
	         json_integer_value(json_object_get(json_object_get(p, "response"), "status")) >= 400)
		snprintf(what, sizeof what, "%d %s",
		         (int)json_integer_value(json_object_get(json_object_get(p, "response"), "status")),
		         or_(json_object_get(json_object_get(p, "response"), "url"), "?"));
	if (what[0] == '\0')
		return;
	if (e->n++ == 0)
		snprintf(e->first, sizeof e->first, "%s", what);
}

static int
setup(void **state)
{
	char path[600];

	(void)state;
	if (webtable_setup(&wt, "prefix = !\nai_delay = 400\nturn_reminder = 0\nai_budget = 300\n") != 0)
		return -1;
	/* its screenshots stay in the build folder, never among the docs' */
	snprintf(wt.shots, sizeof wt.shots, "%s/screens", e2e_build());
	mkdir(wt.shots, 0755);
	wt.browser.on_event = on_event;
	wt.browser.event_arg = &errs;
	snprintf(path, sizeof path, "%s/lighthouse/node_modules/axe-core/axe.min.js", e2e_build());
	if ((axe = e2e_read_file(path)) == NULL)
		print_message("no axe-core at %s (tools/setup-lighthouse installs it where Node.js 18.16+ and npm are):"
		              " the page's own audits run without it\n", path);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	webtable_teardown(&wt);
	free(axe);
	axe = NULL;
	return 0;
}

/* Opens url on a phone, waits for the first view (ready), audits it; the number of problems, each printed. */
static int
audit(const char *what, const char *url, const char *ready)
{
	json_t *bad;
	size_t i;
	int n;
	char name[64];

	assert_int_equal(cdp_size(&wt.browser, 390, 844, true), 0);
	errs.n = 0;
	assert_int_equal(cdp_goto(&wt.browser, url), 0);
	assert_int_equal(cdp_until(&wt.browser, ready, 10000), 0);
	bad = cdp_eval(&wt.browser, audit_js);
	assert_true(json_is_array(bad));
	if (axe != NULL) {
		json_t *more;

		/* evaluated over the DevTools protocol, which the page's CSP does not govern */
		json_decref(cdp_eval(&wt.browser, axe));
		more = cdp_eval(&wt.browser, axe_run);
		assert_true(json_is_array(more));
		json_array_extend(bad, more);
		json_decref(more);
	}
	for (i = 0; i < json_array_size(bad); i++)
		print_message("%s page: %s\n", what, json_string_value(json_array_get(bad, i)));
	n = (int)json_array_size(bad);
	json_decref(bad);
	if (errs.n > 0)
		print_message("%s page: %d console errors or failed requests, the first: %s\n", what, errs.n, errs.first);
	n += errs.n;
	snprintf(name, sizeof name, "audit-%s-phone.png", what);
	webtable_shot(&wt, name, 390, 844, true);
	snprintf(name, sizeof name, "audit-%s-desktop.png", what);
	webtable_shot(&wt, name, 1280, 800, false);
	return n;
}

static void
test_both_pages_on_a_phone(void **state)
{
	struct ircclient alice, bob;
	char pub[128], apage[128];
	size_t mark;
	int n;

	(void)state;
	mark = webtable_duel(&wt, &alice, &bob);
	webtable_find_link(&wt, &alice, mark, "PRIVMSG #cards :", "Watch: ", pub, sizeof pub);
	webtable_find_link(&wt, &alice, mark, "NOTICE alice :", "play from", apage, sizeof apage);

	json_decref(cdp_call(&wt.browser, "Runtime.enable", NULL));
	json_decref(cdp_call(&wt.browser, "Log.enable", NULL));
	json_decref(cdp_call(&wt.browser, "Network.enable", NULL));
	json_decref(cdp_call(&wt.browser, "Page.enable", NULL));
	json_decref(cdp_call(&wt.browser, "Page.addScriptToEvaluateOnNewDocument", json_pack("{s:s}", "source", shift_probe)));

	/* the computer plays both seats: the pages are audited as views of a game in play arrive */
	ircclient_send(&alice, "PRIVMSG #cards :!auto");
	ircclient_send(&bob, "PRIVMSG #cards :!auto");
	n = audit("table", pub, "window.__views >= 6 && document.getElementById('seats').textContent.includes('bob')");
	n += audit("hand", apage, "window.__views >= 6 && document.querySelectorAll('#hand .pick').length > 0");
	assert_int_equal(n, 0);

	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(proc_stop(&wt.daemon), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_both_pages_on_a_phone, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
