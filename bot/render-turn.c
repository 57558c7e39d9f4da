/* render-turn.c: a turn told when it ends, a player's own step told to them, a round's deal. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"
#include "render-parts.h"

/* The melds of one clause, events ev[from..to] (MELDs and the CLOSEDs after
 * them): each meld once, its groups together, then what it is: "5 5 5 5
 * (new 5s) and K K (on the Ks, closing a clean canasta!)". */
static void
turn_melds(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n, size_t from, size_t to,
           bool round_over)
{
	size_t i, k;
	bool first = true;

	for (i = from; i <= to; i++) {
		const struct hf_event *e = &ev[i];
		int rank;
		bool seen = false;

		if (e->type != HF_EV_MELD)
			continue;
		for (k = from; k < i && !seen; k++)
			seen = ev[k].type == HF_EV_MELD && ev[k].side == e->side && ev[k].meld == e->meld;
		if (seen)
			continue;   /* told with the first group of its meld */
		if (!first)
			rbuf_add(b, " and ");
		first = false;
		rank = group_rank(&e->group);
		for (k = i; k <= to; k++)
			if (ev[k].type == HF_EV_MELD && ev[k].side == e->side && ev[k].meld == e->meld) {
				if (k > i)
					rbuf_add(b, " ");
				render_group(b, &ev[k].group);
			}
		rbuf_printf(b, " (%s%s", meld_fresh(v, ev, n, e, round_over), render_rank_plural(rank));
		/* the canasta it closed, said with it */
		for (k = from; k <= to; k++)
			if (ev[k].type == HF_EV_CLOSED && ev[k].side == e->side && ev[k].meld == e->meld)
				rbuf_printf(b, ", closing %s!", kind_name(ev[k].flag));
		rbuf_add(b, ")");
	}
}

/* The end of the run of MELD and CLOSED events of one seat from i. */
static size_t
meld_run(const struct hf_event *ev, size_t n, size_t i)
{
	size_t k = i;

	while (k + 1 < n && (ev[k + 1].type == HF_EV_MELD || ev[k + 1].type == HF_EV_CLOSED) &&
	       ev[k + 1].seat == ev[i].seat)
		k++;
	return k;
}

/* The clauses of a turn's events, joined by ", ", each told of its seat. */
struct turn_out {
	struct rbuf *b;
	bool first;
};

static void
turn_clause(struct turn_out *o)
{
	rbuf_add(o->b, o->first ? " " : ", ");
	o->first = false;
}

/* long: one case per event of the turn (hf_event), each a clause of one
 * sentence; split, the event list scatters. */
void
render_turn(struct rbuf *b, const struct hf_view *v, int seat, const struct hf_event *ev, size_t n,
            const char *const names[], bool round_over)
{
	struct turn_out o = { b, true };
	char whobuf[96];
	size_t i, k;

	if (seat < 0 || seat >= v->nseats)
		return;
	rbuf_add(b, render_who(names[seat], whobuf, sizeof whobuf));
	for (i = 0; i < n; i++) {
		const struct hf_event *e = &ev[i];
		const char *other = e->seat >= 0 && e->seat < v->nseats && e->seat != seat ?
		                    render_who(names[e->seat], whobuf, sizeof whobuf) : NULL;

		switch (e->type) {
		case HF_EV_RED3: {
			unsigned count = e->count;
			bool replaced = e->flag;

			while (i + 1 < n && ev[i + 1].type == HF_EV_RED3 && ev[i + 1].seat == e->seat) {
				i++;
				count += ev[i].count;
				replaced = replaced || ev[i].flag;
			}
			turn_clause(&o);
			if (other != NULL)
				rbuf_printf(b, "%s ", other);
			if (count == 1)
				rbuf_add(b, "laid out a " ST_RED "red 3" ST_END);
			else
				rbuf_printf(b, "laid out %u " ST_RED "red 3s" ST_END, count);
			if (replaced)
				rbuf_add(b, " (replaced)");
			break;
		}
		case HF_EV_DRAW:
			turn_clause(&o);
			rbuf_printf(b, "drew %u card%s", e->count, e->count == 1 ? "" : "s");
			break;
		case HF_EV_PICKUP:
			turn_clause(&o);
			rbuf_printf(b, "took the pile (%u card%s, top ", e->count, e->count == 1 ? "" : "s");
			card_add(b, e->card);
			rbuf_add(b, ")");
			break;
		case HF_EV_MELD:
			turn_clause(&o);
			if (other != NULL)
				rbuf_printf(b, "%s ", other);
			rbuf_add(b, "melded ");
			/* the groups melded together read as one clause, closes included */
			k = meld_run(ev, n, i);
			turn_melds(b, v, ev, n, i, k, round_over);
			i = k;
			break;
		case HF_EV_CLOSED:
			/* one not told with its meld (a meld of another action) */
			turn_clause(&o);
			if (e->card > 0 && e->card < HF_NCARD)
				rbuf_printf(b, "the %s closed: %s!", render_rank_plural(e->card), kind_name(e->flag));
			else
				rbuf_printf(b, "closed %s!", kind_name(e->flag));
			break;
		case HF_EV_UNDER:
			turn_clause(&o);
			rbuf_add(b, "put a " ST_RED "red 3" ST_END " under a book");
			break;
		case HF_EV_FOOT:
			turn_clause(&o);
			if (other != NULL)
				rbuf_printf(b, "%s ", other);
			rbuf_printf(b, "picked up the foot%s", e->flag && other == NULL ? " and played on" : "");
			break;
		case HF_EV_DISCARD:
			turn_clause(&o);
			rbuf_add(b, "discarded ");
			card_add(b, e->card);
			break;
		case HF_EV_ASK:
			turn_clause(&o);
			rbuf_add(b, "asked to go out");
			/* the partners' answers, with the question */
			for (k = i + 1; k < n && ev[k].type == HF_EV_ANSWER; k++) {
				rbuf_add(b, k == i + 1 ? " (" : ", ");
				rbuf_printf(b, "%s: %s", render_who(names[ev[k].seat < v->nseats ? ev[k].seat : 0], whobuf,
				                                    sizeof whobuf), ev[k].flag ? "yes" : "no");
			}
			if (k > i + 1)
				rbuf_add(b, ")");
			i = k - 1;
			break;
		case HF_EV_ANSWER:
			turn_clause(&o);
			rbuf_printf(b, "%s said %s", other != NULL ? other : "a partner", e->flag ? "yes" : "no");
			break;
		case HF_EV_OUT:
			turn_clause(&o);
			rbuf_printf(b, ST_BOLD "went out!" ST_END "%s",
			            e->flag ? " (short of the canastas needed: severe penalty)" : "");
			break;
		case HF_EV_STOCK_TURNED:
			turn_clause(&o);
			rbuf_printf(b, "the stock ran out: the pile (%u cards) is the new stock", e->count);
			break;
		case HF_EV_STOCK_OUT:
			turn_clause(&o);
			rbuf_add(b, "the stock ran out: the round ends");
			break;
		default:
			break;
		}
	}
	if (o.first)
		rbuf_add(b, " passed");   /* nothing to tell: never seen, but never a bare name */
}

/* The cards gained between two hands, as "9 K 3♣". */
static void
step_gained(struct rbuf *b, const uint8_t before[HF_NCARD], const uint8_t after[HF_NCARD])
{
	bool first = true;
	size_t i;

	for (i = 0; i < sizeof hand_order / sizeof hand_order[0]; i++) {
		int c = hand_order[i];

		if (after[c] > before[c])
			card_run(b, c, after[c] - before[c], &first);
	}
}

void
render_step(struct rbuf *b, const struct hf_view *before, const struct hf_view *v, const struct hf_event *ev,
            size_t n)
{
	bool first = true;
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct hf_event *e = &ev[i];

		if (e->seat != v->seat && e->type != HF_EV_CLOSED)
			continue;
		switch (e->type) {
		case HF_EV_DRAW:
			rbuf_add(b, first ? "You drew " : ", drew ");
			if (e->count == 0)
				rbuf_add(b, "nothing (the stock is empty)");
			else
				step_gained(b, before->hand, v->hand);
			first = false;
			break;
		case HF_EV_RED3:
			rbuf_printf(b, "%slaid out a " ST_RED "red 3" ST_END "%s", first ? "You " : ", ",
			            e->flag ? " (replaced)" : "");
			first = false;
			break;
		case HF_EV_PICKUP:
			rbuf_printf(b, "%stook the pile (%u card%s, top ", first ? "You " : ", ", e->count,
			            e->count == 1 ? "" : "s");
			card_add(b, e->card);
			rbuf_add(b, ")");
			first = false;
			break;
		case HF_EV_MELD:
			rbuf_add(b, first ? "You melded " : ", melded ");
			k = meld_run(ev, n, i);
			turn_melds(b, v, ev, n, i, k, false);
			i = k;
			first = false;
			break;
		case HF_EV_UNDER:
			rbuf_printf(b, "%sput a " ST_RED "red 3" ST_END " under a book", first ? "You " : ", ");
			first = false;
			break;
		case HF_EV_FOOT:
			rbuf_printf(b, "%spicked up your foot", first ? "You " : ", ");
			first = false;
			break;
		default:
			break;
		}
	}
}

void
render_deal(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n, const char *const names[])
{
	char whobuf[96];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct hf_event *e = &ev[i];
		const char *who = e->seat >= 0 && e->seat < v->nseats ? render_who(names[e->seat], whobuf, sizeof whobuf)
		                                                       : "?";

		switch (e->type) {
		case HF_EV_DEAL:
			rbuf_printf(b, ST_BOLD "Round %u" ST_END ": %s deals, %u + %u cards each", e->count, who,
			            v->rules->hand_size, v->rules->foot_size);
			break;
		case HF_EV_DEAL_BONUS:
			rbuf_printf(b, "; %s earns the deal bonus", who);
			break;
		case HF_EV_FIRST_DISCARD:
			rbuf_add(b, "; the pile starts with ");
			card_add(b, e->card);
			if (e->count > 1)
				rbuf_printf(b, " (%u cards turned)", e->count);
			break;
		case HF_EV_RED3:
			rbuf_printf(b, "; %s lays out %u " ST_RED "red 3%s" ST_END, who, e->count, e->count == 1 ? "" : "s");
			break;
		default:
			break;
		}
	}
	rbuf_add(b, ".");
}
