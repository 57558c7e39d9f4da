/* e2e-web-story.c: the round's story beside the table (headless chromium, ngircd): a spectator who opens the table's page mid-round finds the lines the room was told since the deal, in order, then a new one live; after a restart the story is still there. */
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

static int
setup(void **state)
{
	(void)state;
	return webtable_setup(&wt, "prefix = !\nai_delay = 0\nturn_reminder = 0\nai_budget = 300\n");
}

static int
teardown(void **state)
{
	(void)state;
	webtable_teardown(&wt);
	return 0;
}

/* Whose turn it is, from the room's lines since from: "NAME: your turn". */
static struct ircclient *
whose(struct ircclient *a, struct ircclient *b, size_t from)
{
	size_t k;
	struct ircclient *w = NULL;

	for (k = from; k < a->nlines; k++)
		if (strstr(a->lines[k], "PRIVMSG #cards :") && strstr(a->lines[k], "your turn"))
			w = strstr(a->lines[k], "alice: your turn") ? a : b;
	return w;
}

/* The story on the page, one line each, in order, all found in the room's lines since from in
 * the same order: what the page shows is what the room was told.  Returns how many. */
static int
story_matches_room(struct ircclient *c, size_t from)
{
	json_t *v = cdp_eval(&wt.browser, "[...document.querySelectorAll('#story-lines li')].map(e => e.textContent)");
	size_t i, k = from;
	int n = 0;

	assert_true(json_is_array(v));
	for (i = 0; i < json_array_size(v); i++) {
		const char *line = json_string_value(json_array_get(v, i));

		assert_non_null(line);
		for (; k < c->nlines; k++)
			if (strstr(c->lines[k], "PRIVMSG #cards :") && strstr(c->lines[k], line))
				break;
		if (k == c->nlines)
			fail_msg("story line %zu \"%s\" is not a room line (in order)", i, line);
		n++;
	}
	json_decref(v);
	return n;
}

static void
test_a_late_spectator_reads_the_round(void **state)
{
	struct ircclient alice, bob, *w;
	const char *argv[] = { "-c", wt.fx.conf, NULL };
	char pub[128], expr[256];
	size_t deal;
	int i, n, told;

	(void)state;
	deal = webtable_duel(&wt, &alice, &bob);
	webtable_find_link(&wt, &alice, deal, "PRIVMSG #cards :", "Watch: ", pub, sizeof pub);
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "PRIVMSG #cards :", "your turn", NULL), 0);

	/* four turns told to the room before anyone opens the page */
	for (i = 0; i < 4; i++) {
		w = whose(&alice, &bob, deal);
		assert_non_null(w);
		webtable_irc_turn(w, w == &alice ? "alice" : "bob");
		ircclient_drain(&alice, 200);
	}

	/* the late spectator: the deal and the four turns, as the room read them */
	assert_int_equal(cdp_size(&wt.browser, 390, 844, true), 0);
	assert_int_equal(cdp_goto(&wt.browser, pub), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('#story-lines li').length >= 5", 10000), 0);
	told = story_matches_room(&alice, deal);
	print_message("the story so far: %d lines\n", told);
	assert_true(webtable_eval_true(&wt, "document.querySelector('#story-lines li').textContent.startsWith('Dealing')"));
	assert_true(webtable_eval_true(&wt, "document.getElementById('story-lines').textContent.split('discarded').length - 1 === 4"));
	/* the history came in quietly; the list speaks again for what comes next */
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('story-lines').getAttribute('aria-live') === "
	                           "'polite'", 5000), 0);
	webtable_shot(&wt, "story-phone.png", 390, 844, true);

	/* a new line, live */
	w = whose(&alice, &bob, deal);
	webtable_irc_turn(w, w == &alice ? "alice" : "bob");
	snprintf(expr, sizeof expr, "document.querySelectorAll('#story-lines li').length > %d", told);
	assert_int_equal(cdp_until(&wt.browser, expr, 10000), 0);
	ircclient_drain(&alice, 300);
	n = story_matches_room(&alice, deal);
	assert_true(n > told);
	assert_true(webtable_eval_true(&wt, "document.getElementById('story-lines').lastElementChild.textContent.includes('discarded')"));
	webtable_shot(&wt, "story-desktop.png", 1280, 800, false);

	/* twenty more turns while the page stays open: past 16 lines each view
	 * brings only the newest (adapters/web/tail.c), and none is missed */
	for (i = 0; i < 20; i++) {
		w = whose(&alice, &bob, deal);
		assert_non_null(w);
		webtable_irc_turn(w, w == &alice ? "alice" : "bob");
		ircclient_drain(&alice, 100);
	}
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('story-lines').textContent.split('discarded')"
	                           ".length - 1 === 25", 10000), 0);
	n = story_matches_room(&alice, deal);
	print_message("the story after 25 turns: %d lines\n", n);
	assert_true(n >= 26);

	/* a restart: the story is kept with the game */
	assert_int_equal(proc_stop(&wt.daemon), 0);
	assert_int_equal(proc_start(&wt.daemon, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	assert_int_equal(cdp_goto(&wt.browser, pub), 0);
	snprintf(expr, sizeof expr, "document.querySelectorAll('#story-lines li').length >= %d", n);
	assert_int_equal(cdp_until(&wt.browser, expr, 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.querySelector('#story-lines li').textContent.startsWith('Dealing')"));

	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(proc_stop(&wt.daemon), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_late_spectator_reads_the_round, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
