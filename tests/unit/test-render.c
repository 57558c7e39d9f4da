/* test-render.c: what a player reads: the private hand line, room lines from events, red 3s in every telling, the score sheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon.h"
#include "irc/irc.h"
#ifdef HF_WITH_MATRIX
#include "matrix/matrix.h"
#endif

static const char *const names[HF_MAX_SEATS] = { "ann", "bob", "cat", "dan" };

/* The plain encoding of what was rendered: what a console without colours shows. */
static const char *
plain(const struct rbuf *b)
{
	static struct rbuf p;

	rbuf_reset(&p);
	style_plain(&p, b->s, b->len, "!");
	return p.s;
}

/* A view of a fresh game (seat 0's), for the renderers to read. */
static struct hf_view *
view_new(const char *preset, int nseats, struct hf_game **gp)
{
	struct hf_rules r;
	struct hf_view *v = malloc(sizeof *v);
	char why[HF_ERRLEN];

	assert_non_null(v);
	assert_int_equal(hf_rules_parse(&r, preset, why, sizeof why), HF_OK);
	assert_int_equal(hf_game_new(gp, &r, nseats, 0, 7, why, sizeof why), HF_OK);
	hf_game_view(*gp, 0, v);
	return v;
}

/* Before the side is down the hand line says what opening takes; the word
 * "foot" is said once, not "Your foot ... | in your foot". */
static void
test_hand_line(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("classic", 4, &g);
	struct rbuf b = { 0 };

	(void)state;
	v->sides[v->seats[0].side].down = false;
	v->sides[v->seats[0].side].open_min = 90;
	render_hand(&b, v);
	assert_non_null(strstr(plain(&b), " | to open: 90 points"));
	assert_non_null(strstr(plain(&b), "foot: 11 cards waiting"));

	v->sides[v->seats[0].side].down = true;
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(plain(&b), "Your foot ("));
	assert_null(strstr(plain(&b), "in your foot"));
	assert_null(strstr(plain(&b), "to open"));

	/* the asker, back from the partners' answer, is told what it means */
	v->turn = 0;
	v->phase = HF_PHASE_PLAY;
	v->asked_this_turn = true;
	v->permission = true;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(plain(&b), "your partners agree: go out"));
	v->permission = false;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(plain(&b), "your partners said no"));
	v->phase = HF_PHASE_ASK;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(plain(&b), "waiting for your partners' answer"));

	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* "takes the pile (1 card, ...)", never "1 cards"; the next seat's red 3s start a new line. */
static void
test_event_lines(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("classic", 4, &g);
	struct hf_event ev[4];
	struct rbuf b = { 0 };

	(void)state;
	memset(ev, 0, sizeof ev);
	ev[0].type = HF_EV_PICKUP;
	ev[0].seat = 1;
	ev[0].count = 1;
	ev[0].card = HF_NINE;
	ev[1].type = HF_EV_DISCARD;
	ev[1].seat = 1;
	ev[1].card = HF_FIVE;
	ev[2].type = HF_EV_RED3;
	ev[2].seat = 2;
	ev[2].count = 1;
	ev[2].flag = 1;
	render_events(&b, v, ev, 3, names);
	assert_non_null(strstr(plain(&b), "bob takes the pile (1 card, top 9)."));
	assert_null(strstr(plain(&b), "1 cards"));
	assert_non_null(strstr(plain(&b), "\ncat lays out a "));

	/* the same seat's going out stays on its discard's line */
	memset(ev, 0, sizeof ev);
	ev[0].type = HF_EV_DISCARD;
	ev[0].seat = 1;
	ev[0].card = HF_FIVE;
	ev[1].type = HF_EV_OUT;
	ev[1].seat = 1;
	rbuf_reset(&b);
	render_events(&b, v, ev, 2, names);
	assert_null(strchr(b.s, '\n'));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* Red 3s are one wording in every telling: a player told their own step
 * hears the count ("a red 3" was said of two), a deal groups a seat's. */
static void
test_red3_counted_in_every_telling(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("classic", 4, &g);
	struct hf_event ev[3];
	struct rbuf b = { 0 };

	(void)state;
	memset(ev, 0, sizeof ev);
	ev[0].type = HF_EV_RED3;
	ev[0].seat = 0;
	ev[0].count = 2;
	ev[0].flag = 1;
	render_step(&b, v, v, ev, 1);
	assert_string_equal(plain(&b), "You laid out 2 red 3s (replaced)");
	ev[0].type = HF_EV_DEAL;
	ev[0].count = 2;
	ev[1].type = ev[2].type = HF_EV_RED3;
	ev[1].seat = ev[2].seat = 2;
	ev[1].count = ev[2].count = 1;
	rbuf_reset(&b);
	render_deal(&b, v, ev, 3, names);
	assert_non_null(strstr(plain(&b), "; cat lays out 2 red 3s."));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* The score sheet names its items in words a player knows; !score shows it. */
static void
test_sheet_words(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("classic", 4, &g);
	struct rbuf b = { 0 };

	(void)state;
	v->nrounds_scored = 2;
	v->round_totals[0][0] = 3405;
	v->round_totals[1][0] = 1200;
	v->sides[0].score = 4605;
	v->last_sheet[0] = (struct hf_sheet){ .going_out = 100, .red3_count = 1, .red3s = 100, .clean_count = 2,
	                                      .clean = 1000, .dirty_count = 1, .dirty = 300, .laid_out = 805,
	                                      .caught = -140, .total = 2165 };
	render_scores(&b, v, names);
	assert_non_null(strstr(b.s, ST_PLAYER "ann" ST_END " & " ST_PLAYER "cat" ST_END " " ST_BOLD "4605" ST_END
	                            " (rounds: +3405, +1200)"));
	rbuf_reset(&b);
	render_last_sheets(&b, v, names);
	assert_non_null(strstr(plain(&b), "\nRound 2, ann & cat: going out +100, 1 red 3 +100, 2 clean canastas +1000, "
	                            "1 dirty canasta +300, cards melded +805, cards left in hand -140, total "));
	assert_null(strstr(plain(&b), "caught"));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* In red-3-book rules (family) the bonus under books and the red 3s caught are two items. */
static void
test_sheet_red3_book(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("family", 2, &g);
	struct rbuf b = { 0 };

	(void)state;
	v->nrounds_scored = 1;
	v->round_totals[0][0] = 805;
	/* 5 under closed books (+500) and 1 caught (-500): +0 in all */
	v->last_sheet[0] = (struct hf_sheet){ .red3_count = 5, .red3_caught_count = 1, .red3s = 0,
	                                      .laid_out = 805, .total = 805 };
	render_last_sheets(&b, v, names);
	assert_non_null(strstr(plain(&b), " 5 red 3s under books +500, 1 red 3 caught -500, cards melded +805,"));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* The pile line says when the top card blocks it, or it is too small to take, before anyone tries. */
static void
test_pile_line(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("family", 4, &g);
	struct rbuf b = { 0 };

	(void)state;
	v->pile_size = 2;
	v->pile_top = HF_RED3;
	render_pile(&b, v);
	assert_non_null(strstr(plain(&b), "2 cards, blocked. Stock"));
	rbuf_reset(&b);
	v->pile_top = HF_NINE;
	render_pile(&b, v);
	assert_null(strstr(plain(&b), "blocked"));
	hf_game_free(g);
	free(v);

	v = view_new("duel", 2, &g);
	v->pile_size = 3;
	v->pile_top = HF_TWO;
	rbuf_reset(&b);
	render_pile(&b, v);
	assert_non_null(strstr(plain(&b), ", blocked"));
	v->pile_top = HF_NINE;
	rbuf_reset(&b);
	render_pile(&b, v);
	assert_non_null(strstr(plain(&b), ", too small to take (7 needed)"));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* One player wins, a team win. */
static void
test_game_over_grammar(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_new("duel", 2, &g);
	struct hf_event ev = { .type = HF_EV_GAME_END, .seat = 0, .side = 1 };
	struct rbuf b = { 0 };

	(void)state;
	render_events(&b, v, &ev, 1, names);
	assert_non_null(strstr(plain(&b), "Game over: bob wins with "));
	hf_game_free(g);
	free(v);
	v = view_new("classic", 4, &g);
	rbuf_reset(&b);
	render_events(&b, v, &ev, 1, names);
	assert_non_null(strstr(plain(&b), "Game over: bob & dan win with "));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* A view with a clean and a dirty canasta down for ann & cat, and a red 3 in ann's hand. */
static struct hf_view *
view_with_books(struct hf_game **g)
{
	struct hf_view *v = view_new("classic", 4, g);
	struct hf_side_view *sv = &v->sides[v->seats[0].side];

	sv->down = true;
	sv->nmelds = 2;
	sv->melds[0] = (struct hf_meld){ .rank = HF_KING, .naturals = 7, .kind = HF_KIND_CLEAN };
	sv->melds[1] = (struct hf_meld){ .rank = HF_NINE, .naturals = 5, .twos = 2, .kind = HF_KIND_DIRTY };
	sv->red3s = 1;
	memset(v->hand, 0, sizeof v->hand);
	v->hand[HF_RED3] = 1;
	v->hand[HF_ACE] = 2;
	v->hand_count = 3;
	return v;
}

/* What the renderers write is styled text with its roles: cards, players,
 * canastas by kind, red threes; never a service's codes. */
static void
test_markup(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_with_books(&g);
	struct rbuf b = { 0 };

	(void)state;
	render_hand(&b, v);
	assert_true(style_valid(b.s, b.len, NULL));
	assert_non_null(strstr(b.s, ST_CARD "A" ST_END "×2 " ST_CARD ST_RED "3♥" ST_END ST_END));
	rbuf_reset(&b);
	render_table(&b, v, names);
	assert_true(style_valid(b.s, b.len, NULL));
	assert_non_null(strstr(b.s, ST_BOLD ST_PLAYER "ann" ST_END " & " ST_PLAYER "cat" ST_END ST_END " ("));
	assert_non_null(strstr(b.s, ST_CLEAN "[" ST_CARD "K" ST_END "×7 clean]" ST_END));
	/* a count follows a rank, wilds are named one by one: "2×2" beside "9×5" would read as a rank */
	assert_non_null(strstr(b.s, ST_DIRTY "[" ST_CARD "9" ST_END "×5 +" ST_CARD "2" ST_END " " ST_CARD "2" ST_END
	                            " dirty]" ST_END));
	assert_non_null(strstr(b.s, "red 3s: " ST_RED "1" ST_END));
	assert_null(strchr(b.s, '\x1b'));   /* no ANSI escape, no service's codes */
	assert_string_equal(plain(&b), "ann & cat (score 0): [K×7 clean], [9×5 +2 2 dirty]; red 3s: 1; ann 11+foot cat "
	                               "11+foot\nbob & dan (score 0): not down (needs 60); bob 11+foot dan 11+foot");
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* The same rendered table through each adapter's encoder. */
static void
test_encoders(void **state)
{
	struct hf_game *g;
	struct hf_view *v = view_with_books(&g);
	struct rbuf b = { 0 }, out = { 0 };

	(void)state;
	render_table(&b, v, names);
	/* IRC: mIRC bold names, red (04) clean and grey (14) dirty books; the line break stays for the adapter to cut */
	irc_format(&out, b.s, b.len, "!", true);
	assert_non_null(strstr(out.s, "\x02" "ann & cat\x0f (score 0): \x03" "04[K×7 clean]\x0f, \x03" "14[9×5 +2 2 dirty]\x0f"));
	rbuf_reset(&out);
	irc_format(&out, b.s, b.len, "!", false);
	assert_null(strpbrk(out.s, "\x02\x03\x0f"));
#ifdef HF_WITH_MATRIX
	/* Matrix: HTML beside the plain body */
	rbuf_reset(&out);
	matrix_html(&out, b.s, b.len, "!");
	assert_non_null(strstr(out.s, "<b>ann &amp; cat</b> (score 0): <span data-mx-color=\"#cc0000\">[K×7 clean]</span>, "
	                              "<span data-mx-color=\"#555555\">[9×5 +2 2 dirty]</span>"));
	assert_non_null(strstr(out.s, "<br><b>bob &amp; dan</b>"));
#endif
	rbuf_free(&out);
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_line),
		cmocka_unit_test(test_event_lines),
		cmocka_unit_test(test_red3_counted_in_every_telling),
		cmocka_unit_test(test_sheet_words),
		cmocka_unit_test(test_sheet_red3_book),
		cmocka_unit_test(test_pile_line),
		cmocka_unit_test(test_game_over_grammar),
		cmocka_unit_test(test_markup),
		cmocka_unit_test(test_encoders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
