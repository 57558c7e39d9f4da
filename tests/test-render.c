/* test-render.c: what a player reads: the private hand line, room lines from events, the score sheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bot.h"

static const char *const names[HF_MAX_SEATS] = { "ann", "bob", "cat", "dan" };

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
	assert_non_null(strstr(b.s, " | to open: 90 points"));
	assert_non_null(strstr(b.s, "foot: 11 cards waiting"));

	v->sides[v->seats[0].side].down = true;
	v->seats[0].in_foot = true;
	v->seats[0].foot_count = 0;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(b.s, "Your foot ("));
	assert_null(strstr(b.s, "in your foot"));
	assert_null(strstr(b.s, "to open"));

	/* the asker, back from the partners' answer, is told what it means */
	v->turn = 0;
	v->phase = HF_PHASE_PLAY;
	v->asked_this_turn = true;
	v->permission = true;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(b.s, "your partners agree: go out"));
	v->permission = false;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(b.s, "your partners said no"));
	v->phase = HF_PHASE_ASK;
	rbuf_reset(&b);
	render_hand(&b, v);
	assert_non_null(strstr(b.s, "waiting for your partners' answer"));

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
	assert_non_null(strstr(b.s, "bob takes the pile (1 card, top 9)."));
	assert_null(strstr(b.s, "1 cards"));
	assert_non_null(strstr(b.s, "\ncat lays out a "));

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
	assert_non_null(strstr(b.s, "ann & cat " MK_BOLD "4605" MK_END " (rounds: +3405, +1200)"));
	rbuf_reset(&b);
	render_last_sheets(&b, v, names);
	assert_non_null(strstr(b.s, "\nRound 2, ann & cat: going out +100, 1 red 3 +100, 2 clean canastas +1000, "
	                            "1 dirty canasta +300, cards melded +805, cards left in hand -140, total "));
	assert_null(strstr(b.s, "caught"));
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
	assert_non_null(strstr(b.s, " 5 red 3s under books +500, 1 red 3 caught -500, cards melded +805,"));
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
	assert_non_null(strstr(b.s, "2 cards, blocked. Stock"));
	rbuf_reset(&b);
	v->pile_top = HF_NINE;
	render_pile(&b, v);
	assert_null(strstr(b.s, "blocked"));
	hf_game_free(g);
	free(v);

	v = view_new("duel", 2, &g);
	v->pile_size = 3;
	v->pile_top = HF_TWO;
	rbuf_reset(&b);
	render_pile(&b, v);
	assert_non_null(strstr(b.s, ", blocked"));
	v->pile_top = HF_NINE;
	rbuf_reset(&b);
	render_pile(&b, v);
	assert_non_null(strstr(b.s, ", too small to take (7 needed)"));
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
	assert_non_null(strstr(b.s, "Game over: bob wins with "));
	hf_game_free(g);
	free(v);
	v = view_new("classic", 4, &g);
	rbuf_reset(&b);
	render_events(&b, v, &ev, 1, names);
	assert_non_null(strstr(b.s, "Game over: bob & dan win with "));
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
		cmocka_unit_test(test_sheet_words),
		cmocka_unit_test(test_sheet_red3_book),
		cmocka_unit_test(test_pile_line),
		cmocka_unit_test(test_game_over_grammar),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
