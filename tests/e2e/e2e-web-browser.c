/* e2e-web-browser.c: a real browser (headless chromium over DevTools): alice plays a whole turn by clicking on her page, and one by keyboard alone, while bob plays from IRC (ngircd) at the same table; screenshots for the docs. */
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
	return webtable_setup(&wt, "prefix = !\nai_delay = 400\nturn_reminder = 0\nai_budget = 300\n");
}

static int
teardown(void **state)
{
	(void)state;
	webtable_teardown(&wt);
	return 0;
}

static char *
eval_text(const char *expr)
{
	json_t *v = cdp_eval(&wt.browser, expr);
	char *s = json_is_string(v) ? strdup(json_string_value(v)) : NULL;

	json_decref(v);
	return s;
}

/* Marks the first natural card of the hand for a click. */
static void
mark_natural(void)
{
	assert_true(webtable_eval_true(&wt, "(() => { const b = [...document.querySelectorAll('#hand .pick')].find(e =>"
	                      " !/two|joker|three/.test(e.getAttribute('aria-label')));"
	                      " if (!b) return false; b.id = 'pick-me'; return true; })()"));
}

/* One Tab from where the focus is: what it reached, kept in window.__walk by its data-key (a view that comes
 * meanwhile draws the buttons anew); a control shown focused without
 * a visible mark (outline or shadow) goes to window.__unmarked. True once the focus has left the page. */
static const char tab_step_js[] =
	"(() => { const e = document.activeElement; if (!e || e === document.body) return true;"
	" const w = window.__walk, s = getComputedStyle(e), k = e.dataset.key || e.id || e.className;"
	" if (w.length && w[w.length - 1] === k) window.__stuck = true;"
	" if (w.includes(k)) return true; w.push(k);"
	" if (!e.matches(':focus-visible') || (s.outlineStyle === 'none' || !parseFloat(s.outlineWidth)) &&"
	"  s.boxShadow === 'none') window.__unmarked.push(e.id || e.className || e.nodeName);"
	" return false; })()";

/* Tabs from the top of the page (the first control, the colours' box) to its end: the focus moves on each
 * press, every card of the hand, every action and every meld button is reached, each shown focused. */
static void
tab_walk(void)
{
	json_t *melds;
	char *left;
	int i;

	assert_true(webtable_eval_true(&wt, "(() => { window.__walk = []; window.__unmarked = []; window.__stuck = false;"
	                      " document.getElementById('four').focus(); return true; })()"));
	for (i = 0; i < 120; i++) {
		cdp_key(&wt.browser, "Tab");
		if (webtable_eval_true(&wt, tab_step_js))
			break;
	}
	assert_true(i < 120);
	assert_false(webtable_eval_true(&wt, "window.__stuck"));
	left = eval_text("[...document.querySelectorAll('#hand .pick, #actions .act, button.meld')]"
	                 ".filter(e => !window.__walk.includes(e.dataset.key)).map(e => e.dataset.key).join(', ')");
	assert_non_null(left);
	if (left[0] != '\0')
		fail_msg("not reached by Tab: %s", left);
	free(left);
	left = eval_text("window.__unmarked.join(', ')");
	assert_non_null(left);
	if (left[0] != '\0')
		fail_msg("focused without a visible mark: %s", left);
	free(left);
	melds = cdp_eval(&wt.browser, "window.__walk.filter(k => k.startsWith('meld-')).length");
	print_message("Tab reached %d controls, %d of them melds\n", i, (int)json_integer_value(melds));
	json_decref(melds);
}

/* Tabs from the top of the page to the first element matching sel (a CSS selector), and presses key on it. */
static void
tab_press(const char *sel, const char *key)
{
	char is[256];
	int i;

	snprintf(is, sizeof is, "document.activeElement.matches('%s')", sel);
	assert_true(webtable_eval_true(&wt, "(() => { document.getElementById('four').focus(); return true; })()"));
	for (i = 0; i < 120 && !webtable_eval_true(&wt, is); i++)
		cdp_key(&wt.browser, "Tab");
	if (i == 120)
		fail_msg("Tab does not reach %s", sel);
	cdp_key(&wt.browser, key);
}

/* alice's turn by keyboard alone: Tab to each control, Enter and Space to select and act; the focus stays
 * in her cards when the page is drawn again. */
static void
keyboard_turn(struct ircclient *bob)
{
	tab_walk();
	tab_press(".act-draw", "Enter");
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-discard') !== null", 10000), 0);
	/* the buttons were drawn again: the focus is not lost to the page's top */
	assert_true(webtable_eval_true(&wt, "document.activeElement.closest('#mine') !== null"));
	tab_walk();
	/* one card is no meld: the engine's sentence is shown */
	assert_true(webtable_eval_true(&wt, "(() => { document.getElementById('answer').textContent = ''; return true; })()"));
	mark_natural();
	tab_press("#pick-me", " ");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('pick-me').getAttribute('aria-pressed') === 'true'",
	                           5000), 0);
	tab_press(".act-meld", " ");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('answer').textContent.length > 0", 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.activeElement.closest('#mine') !== null"));
	/* then discard a natural, by Enter on the card and Space on the action */
	mark_natural();
	tab_press("#pick-me", "Enter");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('pick-me').getAttribute('aria-pressed') === 'true'",
	                           5000), 0);
	tab_press(".act-discard", " ");
	assert_int_equal(ircclient_wait(bob, 10000, NULL, 0, "PRIVMSG #cards :", "alice", "discarded", NULL), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-draw') === null", 10000), 0);
}

/* Each meld is named first by what its first card shows, as the hand's cards are (a voice says what it sees). */
static void
melds_named_as_shown(void)
{
	char *bad = eval_text("[...document.querySelectorAll('.meld')].filter(m => { const c = m.querySelector('.cardbox');"
	                      " const seen = c ? c.textContent.replace(/\\s+/g, '') : '';"
	                      " return !seen || !(m.getAttribute('aria-label') || '').startsWith(seen); })"
	                      ".map(m => '\"' + m.getAttribute('aria-label') + '\" shows ' + m.textContent).join('; ')");

	assert_non_null(bad);
	if (bad[0] != '\0')
		fail_msg("melds not named as shown: %s", bad);
	free(bad);
}

static void
test_a_turn_by_clicks_and_one_from_irc(void **state)
{
	struct ircclient alice, bob;
	char pub[128], apage[128], bpage[128], *text;
	size_t mark;

	(void)state;
	mark = webtable_duel(&wt, &alice, &bob);
	webtable_find_link(&wt, &alice, mark, "PRIVMSG #cards :", "Watch: ", pub, sizeof pub);
	webtable_find_link(&wt, &alice, mark, "NOTICE alice :", "play from", apage, sizeof apage);
	webtable_find_link(&wt, &bob, 0, "NOTICE bob :", "play from", bpage, sizeof bpage);
	ircclient_drain(&bob, 300);

	/* alice's page, on a phone */
	assert_int_equal(cdp_size(&wt.browser, 390, 844, true), 0);
	assert_int_equal(cdp_goto(&wt.browser, apage), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('#hand .pick').length > 0", 10000), 0);
	/* every card has a text alternative; the hand is sorted as the game reads it */
	assert_true(webtable_eval_true(&wt, "[...document.querySelectorAll('#hand .pick')].every(b => b.getAttribute('aria-label'))"));
	assert_true(webtable_eval_true(&wt, "[...document.querySelectorAll('.cardbox')].every(b => b.getAttribute('aria-label'))"));
	/* no cookie, ever */
	assert_true(webtable_eval_true(&wt, "document.cookie === ''"));

	if (webtable_eval_true(&wt, "document.querySelector('.act-draw') === null")) {
		/* bob is first: he plays from IRC, alice's page shows it */
		webtable_irc_turn(&bob, "bob");
	}
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-draw') !== null", 10000), 0);
	webtable_shot(&wt, "web-hand-phone.png", 390, 844, true);

	/* the keyboard selects a card too */
	mark_natural();
	assert_true(webtable_eval_true(&wt, "(() => { document.getElementById('pick-me').focus(); return true; })()"));
	cdp_key(&wt.browser, " ");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('pick-me').getAttribute('aria-pressed') === 'true'",
	                           5000), 0);
	cdp_key(&wt.browser, " ");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('pick-me').getAttribute('aria-pressed') === 'false'",
	                           5000), 0);

	/* the turn, by clicks: draw */
	mark = alice.nlines;
	assert_int_equal(cdp_click(&wt.browser, "'.act-draw'"), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-discard') !== null", 10000), 0);
	/* a refused action shows the engine's sentence: one card is no meld */
	mark_natural();
	assert_int_equal(cdp_click(&wt.browser, "'#pick-me'"), 0);
	assert_int_equal(cdp_click(&wt.browser, "'.act-meld'"), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('answer').textContent.length > 0", 10000), 0);
	text = eval_text("document.getElementById('answer').textContent");
	assert_non_null(text);
	print_message("refused: %s\n", text);
	assert_null(strstr(text, "Select"));
	free(text);
	/* then discard a natural */
	mark_natural();
	assert_int_equal(cdp_click(&wt.browser, "'#pick-me'"), 0);
	assert_int_equal(cdp_click(&wt.browser, "'.act-discard'"), 0);
	/* the room heard alice's turn as usual */
	assert_int_equal(ircclient_wait(&bob, 10000, NULL, 0, "PRIVMSG #cards :", "alice", "discarded", NULL), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-draw') === null", 10000), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('turn').textContent.includes('bob')", 10000), 0);

	/* bob plays from IRC: alice's page shows his turn, and hers again */
	webtable_irc_turn(&bob, "bob");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('turn').textContent.includes('your turn')", 10000),
	                 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-draw') !== null", 10000), 0);
	/* the picture shows the page from its top (clicking her cards scrolled it on the phone's size) */
	assert_true(webtable_eval_true(&wt, "(() => { window.scrollTo(0, 0); return true; })()"));
	webtable_shot(&wt, "web-hand-desktop.png", 1280, 800, false);

	/* her next turn by keyboard alone; then bob's from IRC */
	keyboard_turn(&bob);
	webtable_irc_turn(&bob, "bob");
	assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-draw') !== null", 10000), 0);

	/* bob's page shows the same table from his seat */
	assert_int_equal(cdp_goto(&wt.browser, bpage), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('turn').textContent.includes('alice')", 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.querySelector('.act-draw') === null"));

	/* the table's page for anyone: no hand, no action */
	assert_int_equal(cdp_goto(&wt.browser, pub), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('seats').textContent.includes('bob')", 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.getElementById('mine').hidden"));
	assert_true(webtable_eval_true(&wt, "document.querySelectorAll('#hand .pick').length === 0"));

	/* the computer plays both seats on: the pictures of a table in play, melds and canastas on it */
	ircclient_send(&alice, "PRIVMSG #cards :!auto");
	ircclient_send(&bob, "PRIVMSG #cards :!auto");
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('.meld').length >= 6 &&"
	                           " document.querySelectorAll('.meld.clean, .meld.dirty').length >= 1", 120000), 0);
	melds_named_as_shown();
	webtable_shot(&wt, "web-table-desktop.png", 1280, 800, false);
	webtable_shot(&wt, "web-table-phone.png", 390, 844, true);
	/* alice is back (she types): her own page, with what the computer melded for her side */
	ircclient_send(&alice, "PRIVMSG HandFoot :!hand");
	assert_int_equal(cdp_goto(&wt.browser, apage), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('#hand .pick').length > 0 &&"
	                           " !document.getElementById('seats').textContent.includes('alice (away)')", 30000), 0);
	melds_named_as_shown();
	tab_walk();
	/* her side's melds are buttons once she has drawn: Tab reaches them too, each marked */
	if (cdp_until(&wt.browser, "document.querySelector('.act-draw') !== null", 30000) == 0) {
		tab_press(".act-draw", "Enter");
		assert_int_equal(cdp_until(&wt.browser, "document.querySelector('.act-discard') !== null", 10000), 0);
		tab_walk();
	} else
		print_message("alice may not draw: the meld buttons are not walked\n");
	webtable_shot(&wt, "web-hand-play-desktop.png", 1280, 800, false);
	webtable_shot(&wt, "web-hand-play-phone.png", 390, 844, true);

	/* the four-colour option */
	assert_int_equal(cdp_click(&wt.browser, "'#four'"), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.body.classList.contains('four')", 5000), 0);

	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(proc_stop(&wt.daemon), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_turn_by_clicks_and_one_from_irc, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
