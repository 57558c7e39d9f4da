/* render-scores.c: the scores: the running totals, each side's score sheet, a round's and the game's end. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

void
render_scores(struct rbuf *b, const struct hf_view *v, const char *const names[])
{
	int side, r;

	if (v->nrounds_scored == 0)
		rbuf_printf(b, "Round %u, no round scored yet. ", v->round);
	else
		rbuf_printf(b, "After %d round%s: ", v->nrounds_scored, v->nrounds_scored == 1 ? "" : "s");
	for (side = 0; side < v->nsides; side++) {
		if (side > 0)
			rbuf_add(b, "; ");
		render_side_name(b, v, side, names);
		rbuf_printf(b, " " ST_BOLD "%d" ST_END, v->sides[side].score);
		if (v->nrounds_scored > 1) {
			rbuf_add(b, " (rounds:");
			for (r = 0; r < v->nrounds_scored && r < HF_MAX_ROUNDS; r++)
				rbuf_printf(b, "%s %+d", r ? "," : "", v->round_totals[r][side]);
			rbuf_add(b, ")");
		}
	}
	rbuf_add(b, ".");
}

void
render_last_sheets(struct rbuf *b, const struct hf_view *v, const char *const names[])
{
	int side;

	if (v->nrounds_scored == 0)
		return;
	for (side = 0; side < v->nsides; side++) {
		rbuf_printf(b, "\nRound %d, ", v->nrounds_scored);
		render_sheet(b, v, side, names);
	}
}

static void
sheet_item(struct rbuf *b, int count, const char *one, const char *many, int32_t points)
{
	if (count)
		rbuf_printf(b, " %d %s %+d,", count, count == 1 ? one : many, points);
}

/* One side's score sheet for the last round, itemised as on paper: only the lines that are not zero. */
void
render_sheet(struct rbuf *b, const struct hf_view *v, int side, const char *const names[])
{
	const struct hf_sheet *h = &v->last_sheet[side];

	render_side_name(b, v, side, names);
	rbuf_add(b, ":");
	if (h->deal_bonus)
		rbuf_printf(b, " deal bonus %+d,", h->deal_bonus);
	if (h->going_out)
		rbuf_printf(b, " going out %+d,", h->going_out);
	if (v->rules->red3_mode == HF_RED3_BOOK) {
		/* two items on paper: the bonus under books, the penalty for those caught */
		int32_t lost = h->red3_caught_count * v->rules->red3_caught;

		if (h->red3_count)
			rbuf_printf(b, " %d red 3%s under books %+d,", h->red3_count, h->red3_count == 1 ? "" : "s",
			            h->red3s + lost);
		if (h->red3_caught_count)
			rbuf_printf(b, " %d red 3%s caught %+d,", h->red3_caught_count,
			            h->red3_caught_count == 1 ? "" : "s", -lost);
	} else if (h->red3_count || h->red3s) {
		rbuf_printf(b, " %d red 3%s %+d,", h->red3_count, h->red3_count == 1 ? "" : "s", h->red3s);
	}
	sheet_item(b, h->clean_count, "clean canasta", "clean canastas", h->clean);
	sheet_item(b, h->dirty_count, "dirty canasta", "dirty canastas", h->dirty);
	sheet_item(b, h->wild_count, "wild canasta", "wild canastas", h->wild);
	sheet_item(b, h->sevens_count, "sevens canasta", "sevens canastas", h->sevens);
	rbuf_printf(b, " cards melded %+d,", h->laid_out);
	if (h->caught)
		rbuf_printf(b, " cards left in hand %+d,", h->caught);
	if (h->penalty)
		rbuf_printf(b, " penalty %+d,", h->penalty);
	rbuf_printf(b, " total " ST_BOLD "%+d" ST_END ".", h->total);
}

void
render_round_end(struct rbuf *b, const struct hf_view *v, const char *const names[])
{
	int r = v->nrounds_scored - 1, side;

	rbuf_printf(b, ST_BOLD "Round %d scored" ST_END ":", r + 1);
	for (side = 0; side < v->nsides; side++) {
		rbuf_add(b, side ? "; " : " ");
		render_side_name(b, v, side, names);
		rbuf_printf(b, " %+d (total %d)", r >= 0 && r < HF_MAX_ROUNDS ? v->round_totals[r][side] : 0,
		            v->sides[side].score);
	}
	rbuf_add(b, ".");
	for (side = 0; side < v->nsides; side++) {
		rbuf_add(b, "\n");
		render_sheet(b, v, side, names);
	}
}

void
render_game_end(struct rbuf *b, const struct hf_view *v, int winner, const char *const names[])
{
	int k, members = 0;

	if (winner < 0 || winner >= v->nsides) {
		rbuf_add(b, ST_BOLD "Game over: a tie!" ST_END);
		return;
	}
	for (k = 0; k < v->nseats; k++)
		members += v->seats[k].side == winner;
	rbuf_add(b, ST_BOLD "Game over: ");
	render_side_name(b, v, winner, names);
	/* "ann wins", "ann & cat win" */
	rbuf_printf(b, " win%s with %d!" ST_END, members == 1 ? "s" : "", v->sides[winner].score);
}
