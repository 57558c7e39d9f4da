/* e2e-web-replay.c: a whole game on IRC (ngircd), then its table's link as its replay in headless chromium: every step by the arrow keys and the buttons, each showing exactly the public cards the engine says the room saw then (never a hand or a foot); the room's page lists it (never an aborted game) and its link opens the replay; past replay_days the link answers that the replay is gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>
#include <sqlite3.h>

#include "cdp.h"
#include "e2e.h"
#include "handfoot.h"
#include "ircclient.h"
#include "webtable.h"
#include "wsclient.h"

static struct webtable wt;

static int
setup(void **state)
{
	(void)state;
	return webtable_setup(&wt, "prefix = !\nai_delay = 0\nturn_reminder = 0\nai_budget = 300\nai_level = easy\n");
}

static int
teardown(void **state)
{
	(void)state;
	webtable_teardown(&wt);
	return 0;
}

/* ------------------------------------------------------------------ the daemon's own record */

struct game_rec {
	int64_t id;
	char rules[256];
	int nseats, nsides;
	uint64_t seed;
	char (*moves)[128];
	int *seats;
	int nmoves;
};

static sqlite3 *
db_open(void)
{
	sqlite3 *h;

	assert_int_equal(sqlite3_open_v2(wt.fx.db, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(h, 5000);
	return h;
}

/* The newest game played to its end, with its moves, as the store keeps them. */
static void
game_read(struct game_rec *g)
{
	sqlite3 *h = db_open();
	sqlite3_stmt *q;

	memset(g, 0, sizeof *g);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT id, rules, nplayers, nsides, seed FROM games WHERE state='over'"
	                                    " ORDER BY id DESC LIMIT 1", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	g->id = sqlite3_column_int64(q, 0);
	snprintf(g->rules, sizeof g->rules, "%s", (const char *)sqlite3_column_text(q, 1));
	g->nseats = sqlite3_column_int(q, 2);
	g->nsides = sqlite3_column_int(q, 3);
	g->seed = (uint64_t)sqlite3_column_int64(q, 4);
	sqlite3_finalize(q);
	assert_int_equal(sqlite3_prepare_v2(h, "SELECT seat, text FROM actions WHERE game=? ORDER BY seq", -1, &q, NULL),
	                 SQLITE_OK);
	sqlite3_bind_int64(q, 1, g->id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		g->moves = realloc(g->moves, (size_t)(g->nmoves + 1) * sizeof *g->moves);
		g->seats = realloc(g->seats, (size_t)(g->nmoves + 1) * sizeof *g->seats);
		g->seats[g->nmoves] = sqlite3_column_int(q, 0);
		snprintf(g->moves[g->nmoves], sizeof g->moves[0], "%s", (const char *)sqlite3_column_text(q, 1));
		g->nmoves++;
	}
	sqlite3_finalize(q);
	sqlite3_close(h);
}

/* ------------------------------------------------------------------ what a page may show */

/* A card's name from its text alternative ("king", "two, wild", "face-down card"). */
static const char *
card_of_label(const char *label)
{
	static const struct { const char *label, *name; } names[] = {
		{ "ace", "A" }, { "king", "K" }, { "queen", "Q" }, { "jack", "J" }, { "ten", "10" }, { "nine", "9" },
		{ "eight", "8" }, { "seven", "7" }, { "six", "6" }, { "five", "5" }, { "four", "4" },
		{ "red three", "3h" }, { "black three", "3c" }, { "two", "2" }, { "joker", "JK" },
		{ "face-down card", "back" },
	};
	size_t i, n = strcspn(label, ",");

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i].label) == n && strncmp(label, names[i].label, n) == 0)
			return names[i].name;
	fail_msg("a card the test does not know: \"%s\"", label);
	return NULL;
}

/* The cards a page draws for the room's view v, by name: each open meld's cards, a closed canasta as
 * one card, the red 3s laid out, the pile's top, the stock face down. */
static void
public_cards(const struct hf_view *v, json_t *want)
{
	int i, k;

#define ADD(name, n) json_object_set_new(want, name, json_integer(json_integer_value(json_object_get(want, name)) + (n)))
	ADD("back", 1);
	if (v->pile_top != HF_NOCARD)
		ADD(hf_card_name(v->pile_top), 1);
	for (i = 0; i < v->nsides; i++) {
		const struct hf_side_view *sd = &v->sides[i];

		if (sd->red3s > 0)
			ADD("3h", sd->red3s);
		for (k = 0; k < sd->nmelds; k++) {
			const struct hf_meld *m = &sd->melds[k];

			if (m->kind != HF_KIND_OPEN) {
				ADD(m->kind == HF_KIND_WILD ? "JK" : hf_card_name(m->rank), 1);
				continue;
			}
			if (m->naturals > 0)
				ADD(hf_card_name(m->rank), m->naturals);
			if (m->twos > 0)
				ADD("2", m->twos);
			if (m->jokers > 0)
				ADD("JK", m->jokers);
		}
	}
#undef ADD
}

/* The cards the page draws now, by name. */
static json_t *
page_cards(void)
{
	json_t *labels = cdp_eval(&wt.browser, "[...document.querySelectorAll('main [role=img]')]"
	                                       ".map(e => e.getAttribute('aria-label'))");
	json_t *got = json_object();
	size_t i;

	assert_true(json_is_array(labels));
	for (i = 0; i < json_array_size(labels); i++) {
		const char *name = card_of_label(json_string_value(json_array_get(labels, i)));

		json_object_set_new(got, name, json_integer(json_integer_value(json_object_get(got, name)) + 1));
	}
	json_decref(labels);
	return got;
}

/* Step k of the game (after its k-th move) on the page: exactly the room's cards of that moment as the
 * engine has them, not one card of a hand or a foot more.  *hidden gets how many cards the seats held
 * then, out of sight. */
static void
check_step(const struct hf_game *g, int k, int nmoves, long *hidden)
{
	struct hf_view pub, seat;
	json_t *want = json_object(), *got;
	char expr[160], *w, *gs;
	int s, c;

	if (k == 0)
		snprintf(expr, sizeof expr, "document.getElementById('where').textContent.startsWith('The deal')");
	else
		snprintf(expr, sizeof expr, "document.getElementById('where').textContent === 'Move %d of %d'", k, nmoves);
	if (cdp_until(&wt.browser, expr, 5000) != 0)
		fail_msg("the page did not come to step %d", k);
	hf_game_view(g, -1, &pub);
	public_cards(&pub, want);
	got = page_cards();
	if (!json_equal(want, got)) {
		w = json_dumps(want, JSON_SORT_KEYS | JSON_COMPACT);
		gs = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
		fail_msg("step %d: the page shows %s, the room saw %s", k, gs, w);
	}
	json_decref(want);
	json_decref(got);
	/* what the seats held then, in hand and foot, was not on the page: the counts above hold nothing else */
	for (s = 0; s < hf_game_nseats(g); s++) {
		hf_game_view(g, s, &seat);
		for (c = 0; c < HF_NCARD; c++)
			*hidden += seat.hand[c];
		*hidden += seat.seats[s].in_foot ? 0 : seat.seats[s].foot_count;
	}
	/* the step's line: what the room was told of it */
	assert_true(webtable_eval_true(&wt, "document.getElementById('line').textContent.trim().length > 0"));
}

/* ------------------------------------------------------------------ the test */

/* A game of alice against the computer, played by the computer to its end; the table's link. */
static void
play_to_the_end(struct ircclient *alice, char *pub, size_t publen, char *mine, size_t minelen)
{
	size_t deal = alice->nlines;
	struct wsc live;

	ircclient_send(alice, "PRIVMSG #cards :!play 2 duel rounds=1");
	webtable_find_link(&wt, alice, deal, "PRIVMSG #cards :", "Watch: ", pub, publen);
	webtable_find_link(&wt, alice, deal, "NOTICE alice :", "play from", mine, minelen);
	/* a spectator's page open at the end is told where the replay is */
	if (wsc_open(&live, wt.port, pub + strlen(wt.base), wt.base, "handfoot-1") != 0)
		fail_msg("no socket on the table's link (HTTP %d)", live.status);
	ircclient_send(alice, "PRIVMSG #cards :!auto");
	if (ircclient_wait(alice, 120000, NULL, 0, "PRIVMSG #cards :", "Game over", NULL) != 0)
		fail_msg("the game did not end");
	ircclient_drain(alice, 300);
	while (wsc_read(&live, 5000) > 0)
		;
	assert_true(live.closed);
	assert_int_equal(live.close_code, 1000);
	assert_string_equal(live.close_reason, "the game is over: reload the page for its replay");
	wsc_close(&live);
}

/* The replay's message on its socket: its frames, one per move after the deal, none with a hand. */
static void
check_socket(const char *pub, int nmoves)
{
	struct wsc c;
	const char *m;
	json_t *o, *frames, *fr;
	size_t i;

	if (wsc_open(&c, wt.port, pub + strlen(wt.base), wt.base, "handfoot-1") != 0)
		fail_msg("no socket on the replay's link (HTTP %d)", c.status);
	m = wsc_wait(&c, "\"type\":\"replay\"", 20000);
	assert_non_null(m);
	o = json_loads(m, 0, NULL);
	assert_non_null(o);
	frames = json_object_get(json_object_get(o, "replay"), "frames");
	assert_int_equal(json_array_size(frames), (size_t)nmoves + 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "replay"), "moves")), nmoves);
	for (i = 0; i < json_array_size(frames); i++) {
		fr = json_array_get(frames, i);
		assert_int_equal(json_integer_value(json_object_get(fr, "seat")), -1);
		if (json_object_get(fr, "hand") != NULL || json_object_get(fr, "foot_waiting") != NULL ||
		    json_object_get(fr, "may") != NULL)
			fail_msg("frame %zu holds a seat's cards or choices", i);
	}
	print_message("the replay: %zu frames, %zu bytes on its socket\n", json_array_size(frames), strlen(m));
	json_decref(o);
	/* a replay's page cannot act: its socket is closed if it tries */
	wsc_send(&c, "{\"v\":1,\"type\":\"act\",\"cmd\":\"draw\"}");
	while (wsc_read(&c, 5000) > 0)
		;
	assert_true(c.closed);
	assert_int_equal(c.close_code, 1008);
	wsc_close(&c);
}

/* Every step of the replay, forward by the arrow key and the button in turn, each checked. */
static void
step_through(const struct game_rec *g)
{
	struct hf_rules rules;
	struct hf_game *game;
	struct hf_action a;
	char why[HF_ERRLEN];
	long hidden = 0;
	int k;

	assert_int_equal(hf_rules_parse(&rules, g->rules, why, sizeof why), HF_OK);
	assert_int_equal(hf_game_new(&game, &rules, g->nseats, g->nsides, g->seed, why, sizeof why), HF_OK);
	assert_int_equal(cdp_click(&wt.browser, "'#first'"), 0);
	check_step(game, 0, g->nmoves, &hidden);
	for (k = 1; k <= g->nmoves; k++) {
		assert_int_equal(hf_action_parse(&a, g->moves[k - 1], why, sizeof why), HF_OK);
		assert_int_equal(hf_apply(game, g->seats[k - 1], &a, why, sizeof why), HF_OK);
		if (k % 2 == 1)
			cdp_key(&wt.browser, "ArrowRight");
		else
			assert_int_equal(cdp_click(&wt.browser, "'#fwd'"), 0);
		check_step(game, k, g->nmoves, &hidden);
		if (k == g->nmoves / 2)
			webtable_shot(&wt, "replay-phone.png", 390, 844, true);
	}
	assert_int_equal(hf_game_phase(game), HF_PHASE_OVER);
	/* the last step: forward goes no further */
	assert_true(webtable_eval_true(&wt, "document.getElementById('fwd').disabled"));
	cdp_key(&wt.browser, "ArrowRight");
	check_step(game, g->nmoves, g->nmoves, &hidden);
	print_message("%d steps checked; the seats held %ld cards out of sight over them, none shown\n", g->nmoves + 1,
	              hidden);
	assert_true(hidden > 0);
	hf_game_free(game);
}

static void
test_a_finished_games_link_is_its_replay(void **state)
{
	struct ircclient alice;
	const char *argv[] = { "-c", wt.fx.conf, NULL };
	char pub[128], mine[128], body[4096], room_url[256], expr[512], line[1024];
	struct game_rec g;
	json_t *v;
	size_t mark;
	int n;

	(void)state;
	alice.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, wt.fx.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	assert_int_equal(proc_start(&wt.daemon, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	play_to_the_end(&alice, pub, sizeof pub, mine, sizeof mine);
	/* the daemon holds its database while it runs: its record is read between two runs, and the
	 * replay is still there after the restart */
	assert_int_equal(proc_stop(&wt.daemon), 0);
	game_read(&g);
	assert_int_equal(proc_start(&wt.daemon, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	print_message("game %lld (%s): %d moves\n", (long long)g.id, g.rules, g.nmoves);
	assert_true(g.nmoves > 10);

	/* the table's link opens the replay; alice's own link opens nothing now */
	assert_int_equal(wsc_http_get(wt.port, pub + strlen(wt.base), NULL, body, sizeof body), 200);
	assert_non_null(strstr(body, "replay.js"));
	assert_int_equal(wsc_http_get(wt.port, mine + strlen(wt.base), NULL, body, sizeof body), 404);
	check_socket(pub, g.nmoves);

	/* in the browser, at phone size: every step, each checked against the engine */
	assert_int_equal(cdp_size(&wt.browser, 390, 844, true), 0);
	assert_int_equal(cdp_goto(&wt.browser, pub), 0);
	snprintf(expr, sizeof expr, "document.body.getAttribute('data-frames') === '%d'", g.nmoves + 1);
	if (cdp_until(&wt.browser, expr, 20000) != 0) {
		v = cdp_eval(&wt.browser, "document.getElementById('status').textContent + ' / ' + document.body.getAttribute('data-frames')");
		fail_msg("the replay's page did not load its frames: %s", json_string_value(v));
	}
	step_through(&g);
	/* back by the key and the buttons, to the first and the last */
	cdp_key(&wt.browser, "ArrowLeft");
	snprintf(expr, sizeof expr, "document.getElementById('where').textContent === 'Move %d of %d'", g.nmoves - 1,
	         g.nmoves);
	assert_int_equal(cdp_until(&wt.browser, expr, 5000), 0);
	assert_int_equal(cdp_click(&wt.browser, "'#back'"), 0);
	snprintf(expr, sizeof expr, "document.getElementById('where').textContent === 'Move %d of %d'", g.nmoves - 2,
	         g.nmoves);
	assert_int_equal(cdp_until(&wt.browser, expr, 5000), 0);
	cdp_key(&wt.browser, "Home");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('where').textContent.startsWith('The deal')",
	                           5000), 0);
	assert_true(webtable_eval_true(&wt, "document.getElementById('back').disabled"));
	assert_int_equal(cdp_click(&wt.browser, "'#last'"), 0);
	snprintf(expr, sizeof expr, "document.getElementById('where').textContent === 'Move %d of %d'", g.nmoves,
	         g.nmoves);
	assert_int_equal(cdp_until(&wt.browser, expr, 5000), 0);
	assert_true(webtable_eval_true(&wt, "document.getElementById('turn').textContent.startsWith('Game over')"));
	webtable_shot(&wt, "replay-end-phone.png", 390, 844, true);
	/* the step's story: the round so far, up to this step */
	assert_true(webtable_eval_true(&wt, "document.querySelectorAll('#story-lines li').length > 10"));
	cdp_key(&wt.browser, "End");
	assert_int_equal(cdp_click(&wt.browser, "'#first'"), 0);
	for (n = 0; n < 12; n++)
		cdp_key(&wt.browser, "ArrowRight");
	assert_int_equal(cdp_until(&wt.browser, "document.getElementById('where').textContent.startsWith('Move 12 of')",
	                           5000), 0);
	webtable_shot(&wt, "replay-desktop.png", 1280, 800, false);

	/* !watch with no game in play: the room's page, the same link the replay's page names */
	mark = alice.nlines;
	ircclient_send(&alice, "PRIVMSG #cards :!watch");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "PRIVMSG #cards :", "recent games", NULL), 0);
	webtable_find_link(&wt, &alice, mark, "PRIVMSG #cards :", "recent games", room_url, sizeof room_url);
	v = cdp_eval(&wt.browser, "document.getElementById('room').href");
	assert_string_equal(json_string_value(v), room_url);
	json_decref(v);
	/* an aborted game is never listed */
	ircclient_send(&alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "PRIVMSG #cards :", "Watch: ", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!abort");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "PRIVMSG #cards :", "ended by alice", NULL), 0);
	ircclient_drain(&alice, 300);

	/* the room's page: the one game, its players, scores and winner, its replay's link, which opens it */
	assert_int_equal(cdp_size(&wt.browser, 390, 844, true), 0);
	assert_int_equal(cdp_click(&wt.browser, "'#room'"), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('#games li').length > 0", 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.querySelectorAll('#games li').length === 1"));
	assert_true(webtable_eval_true(&wt, "document.querySelector('#games li').textContent.includes('alice')"));
	assert_true(webtable_eval_true(&wt, "document.querySelector('#games li').textContent.includes('duel rounds=1')"));
	assert_true(webtable_eval_true(&wt, "/ won|a tie/.test(document.querySelector('#games li').textContent)"));
	snprintf(expr, sizeof expr, "document.querySelector('#games li a').href === '%s'", pub);
	assert_true(webtable_eval_true(&wt, expr));
	webtable_shot(&wt, "room-phone.png", 390, 844, true);
	webtable_shot(&wt, "room-desktop.png", 1280, 800, false);
	assert_int_equal(cdp_click(&wt.browser, "'#games li a'"), 0);
	snprintf(expr, sizeof expr, "location.href === '%s' && document.body.getAttribute('data-frames') === '%d'", pub,
	         g.nmoves + 1);
	assert_int_equal(cdp_until(&wt.browser, expr, 10000), 0);

	/* replay_days (30) later: the link answers that the replay is gone, and the room's page has no link for
	 * it.  Time is injected: the daemon stopped, its record of when the game ended moved 31 days back */
	assert_int_equal(proc_stop(&wt.daemon), 0);
	{
		sqlite3 *h = db_open();
		char sql[256];

		snprintf(sql, sizeof sql, "UPDATE adapter_state SET value = substr(value, 1, 33) || "
		         "(CAST(substr(value, 34) AS INTEGER) - 31 * 86400) WHERE key = 'replay %lld'", (long long)g.id);
		assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_changes(h), 1);
		sqlite3_close(h);
	}
	assert_int_equal(proc_start(&wt.daemon, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	assert_int_equal(wsc_http_get(wt.port, pub + strlen(wt.base), NULL, body, sizeof body), 410);
	assert_non_null(strstr(body, "This replay is gone"));
	assert_null(strstr(body, "<script"));
	assert_int_equal(cdp_goto(&wt.browser, room_url), 0);
	assert_int_equal(cdp_until(&wt.browser, "document.querySelectorAll('#games li').length === 1", 10000), 0);
	assert_true(webtable_eval_true(&wt, "document.querySelector('#games li a') === null"));
	assert_true(webtable_eval_true(&wt, "document.querySelector('#games li').textContent.includes('no replay kept')"));

	free(g.moves);
	free(g.seats);
	ircclient_close(&alice);
	assert_int_equal(proc_stop(&wt.daemon), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_finished_games_link_is_its_replay, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
