/* render-events.c: the play-by-play: the room line(s) for the events of one accepted action. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"
#include "render-parts.h"

/* long: one case per event of the engine's list (hf_event), each a clause of
 * the play-by-play, sharing the line's state; split, the list scatters. */
void
render_events(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
              const char *const names[])
{
	bool round_over = false, in_meld = false, line_started = false;
	size_t i;
	int side;

	for (i = 0; i < n; i++)
		if (ev[i].type == HF_EV_ROUND_END || ev[i].type == HF_EV_DEAL)
			round_over = true;
	/* The next seat's turn (red 3s laid out, a foot taken) starts a line of its own after a discard. */
	int disc_seat = -1;
#define SEP() do { if (line_started) rbuf_add(b, disc_seat >= 0 && e->seat != disc_seat ? "\n" : " "); \
		line_started = true; disc_seat = -1; } while (0)
#define NL() do { if (line_started) rbuf_add(b, "\n"); line_started = false; } while (0)
	for (i = 0; i < n; i++) {
		const struct hf_event *e = &ev[i];
		char whobuf[96];
		const char *who = e->seat >= 0 && e->seat < v->nseats ? render_who(names[e->seat], whobuf, sizeof whobuf)
		                                                       : "?";

		if (in_meld && e->type != HF_EV_MELD) {
			rbuf_add(b, ".");
			in_meld = false;
		}
		switch (e->type) {
		case HF_EV_DEAL:
			NL();
			rbuf_printf(b, ST_BOLD "Round %u" ST_END ": %s deals, %u + %u cards each.", v->round, who,
			            v->rules->hand_size, v->rules->foot_size);
			line_started = true;
			break;
		case HF_EV_DEAL_BONUS:
			SEP();
			rbuf_printf(b, "%s earns the deal bonus.", who);
			break;
		case HF_EV_FIRST_DISCARD:
			SEP();
			rbuf_add(b, "The pile starts with ");
			card_add(b, e->card);
			if (e->count > 1)
				rbuf_printf(b, " (%u cards turned)", e->count);
			rbuf_add(b, ".");
			break;
		case HF_EV_TURN:
			break;   /* the caller pings the player whose turn it is */
		case HF_EV_RED3: {
			/* Red threes drawn in a row by one seat read as one clause: "lays out 2 red 3s". */
			unsigned count = e->count;
			bool replaced = e->flag;
			while (i + 1 < n && ev[i + 1].type == HF_EV_RED3 && ev[i + 1].seat == e->seat) {
				i++;
				count += ev[i].count;
				replaced = replaced || ev[i].flag;
			}
			SEP();
			if (count == 1)
				rbuf_printf(b, "%s lays out a " ST_RED "red 3" ST_END "%s.", who, replaced ? " (replaced)" : "");
			else
				rbuf_printf(b, "%s lays out %u " ST_RED "red 3s" ST_END "%s.", who, count,
				            replaced ? " (replaced)" : "");
			break;
		}
		case HF_EV_DRAW:
			SEP();
			rbuf_printf(b, "%s draws %u card%s.", who, e->count, e->count == 1 ? "" : "s");
			break;
		case HF_EV_PICKUP:
			SEP();
			rbuf_printf(b, "%s takes the pile (%u card%s, top ", who, e->count, e->count == 1 ? "" : "s");
			card_add(b, e->card);
			rbuf_add(b, ").");
			break;
		case HF_EV_MELD: {
			int rank = group_rank(&e->group);
			if (!in_meld) {
				SEP();
				rbuf_printf(b, "%s melds ", who);
				in_meld = true;
			} else
				rbuf_add(b, " and ");
			render_group(b, &e->group);
			rbuf_printf(b, " (%s%s)", meld_fresh(v, ev, n, e, round_over), render_rank_plural(rank));
			break;
		}
		case HF_EV_CLOSED:
			/* The engine (meld.c) puts the book's rank in card and its kind in flag. */
			SEP();
			if (e->card > 0 && e->card < HF_NCARD)
				rbuf_printf(b, "The %s close: %s!", render_rank_plural(e->card), kind_name(e->flag));
			else
				rbuf_printf(b, "%s closes %s!", who, kind_name(e->flag));
			break;
		case HF_EV_UNDER:
			SEP();
			rbuf_printf(b, "%s puts a " ST_RED "red 3" ST_END " under a book.", who);
			break;
		case HF_EV_FOOT:
			SEP();
			rbuf_printf(b, "%s picks up the foot%s.", who, e->flag ? " and plays on" : "");
			break;
		case HF_EV_DISCARD:
			SEP();
			rbuf_printf(b, "%s discards ", who);
			card_add(b, e->card);
			rbuf_add(b, ".");
			if (!round_over) {
				rbuf_add(b, " ");
				render_pile(b, v);
			}
			disc_seat = e->seat;
			break;
		case HF_EV_ASK:
			SEP();
			rbuf_printf(b, "%s asks: may I go out? (partners: " CMD("yes") " or " CMD("no") ")", who);
			break;
		case HF_EV_ANSWER:
			SEP();
			rbuf_printf(b, "%s says %s.", who, e->flag ? "yes" : "no");
			break;
		case HF_EV_OUT:
			SEP();
			rbuf_printf(b, ST_BOLD "%s goes out!" ST_END "%s", who,
			            e->flag ? " (short of the canastas needed: severe penalty)" : "");
			break;
		case HF_EV_STOCK_TURNED:
			SEP();
			rbuf_printf(b, "The stock is gone: the pile (%u cards) is turned over as the new stock.", e->count);
			break;
		case HF_EV_STOCK_OUT:
			SEP();
			rbuf_add(b, "The stock has run out: the round ends.");
			break;
		case HF_EV_ROUND_END: {
			int r = v->nrounds_scored - 1;
			NL();
			rbuf_printf(b, ST_BOLD "Round %d scored" ST_END ":", r + 1);
			for (side = 0; side < v->nsides; side++) {
				rbuf_add(b, side ? "; " : " ");
				render_side_name(b, v, side, names);
				rbuf_printf(b, " %+d (total %d)", r >= 0 && r < HF_MAX_ROUNDS ? v->round_totals[r][side] : 0,
				            v->sides[side].score);
			}
			rbuf_add(b, ".");
			line_started = true;
			/* Then each side's score sheet, one line each, itemised as on paper. */
			for (side = 0; side < v->nsides; side++) {
				NL();
				render_sheet(b, v, side, names);
				line_started = true;
			}
			NL();
			break;
		}
		case HF_EV_GAME_END:
			NL();
			if (e->side < 0)
				rbuf_add(b, ST_BOLD "Game over: a tie!" ST_END);
			else {
				rbuf_add(b, ST_BOLD "Game over: ");
				render_side_name(b, v, e->side, names);
				int k, members = 0;
				for (k = 0; k < v->nseats; k++)
					members += v->seats[k].side == e->side;
				/* "ann wins", "ann & cat win" */
				rbuf_printf(b, " win%s with %d!" ST_END, members == 1 ? "s" : "",
				            v->sides[e->side < v->nsides ? e->side : 0].score);
			}
			line_started = true;
			break;
		default:
			break;
		}
	}
	if (in_meld)
		rbuf_add(b, ".");
#undef SEP
#undef NL
}
