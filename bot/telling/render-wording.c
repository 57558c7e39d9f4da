/* render-wording.c: the wording of each engine event, once: a table of entries, one per event kind,
 * each told in the present ("ann draws 2 cards") or the past ("ann drew 2 cards") as the telling asks
 * (struct telling, render-parts.h); the tellings (render-events.c, render-turn.c) only join the clauses. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

/* The present or the past of a verb or phrase, as the telling is told. */
static const char *
tense(const struct telling *t, const char *present, const char *past)
{
	return t->past ? past : present;
}

/* Whether e's clause names its seat: a telling about one seat names only the others. */
static bool
named(const struct telling *t, const struct hf_event *e)
{
	return t->seat < 0 || (e->seat >= 0 && e->seat < t->v->nseats && e->seat != t->seat);
}

/* "ann " before the verb where the clause names its seat ("?" for a seat out of range). */
static void
subject(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	char whobuf[96];

	if (!named(t, e))
		return;
	rbuf_add(b, e->seat >= 0 && e->seat < t->v->nseats ? render_who(t->names[e->seat], whobuf, sizeof whobuf)
	                                                     : "?");
	rbuf_add(b, " ");
}

/* The end of a sentence, in a telling told sentence by sentence (the play-by-play). */
static void
stop(struct rbuf *b, const struct telling *t)
{
	if (t->stop != NULL)
		rbuf_add(b, t->stop);
}

static void
word_deal(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	rbuf_printf(b, ST_BOLD "Round %u" ST_END ": ", e->count);
	subject(b, t, e);
	rbuf_printf(b, "%s, %u + %u cards each", tense(t, "deals", "dealt"), t->v->rules->hand_size,
	            t->v->rules->foot_size);
}

static void
word_first_discard(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	rbuf_add(b, tense(t, "the pile starts with ", "the pile started with "));
	card_add(b, e->card);
	if (e->count > 1)
		rbuf_printf(b, " (%u cards turned)", e->count);
}

/* Red threes laid out in a row by one seat read as one clause: "lays out 2 red 3s". */
static size_t
word_red3(struct rbuf *b, const struct telling *t, const struct hf_event *ev, size_t n, size_t i)
{
	const struct hf_event *e = &ev[i];
	unsigned count = e->count;
	bool replaced = e->flag;

	while (i + 1 < n && ev[i + 1].type == HF_EV_RED3 && ev[i + 1].seat == e->seat) {
		i++;
		count += ev[i].count;
		replaced = replaced || ev[i].flag;
	}
	rbuf_add(b, tense(t, "lays out ", "laid out "));
	if (count == 1)
		rbuf_add(b, "a " ST_RED "red 3" ST_END);
	else
		rbuf_printf(b, "%u " ST_RED "red 3s" ST_END, count);
	if (replaced)
		rbuf_add(b, " (replaced)");
	return i;
}

/* A draw; told to the drawer (t->before), the cards it brought. */
static void
word_draw(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	bool first = true;
	size_t k;

	rbuf_add(b, tense(t, "draws ", "drew "));
	if (t->before == NULL)
		rbuf_printf(b, "%u card%s", e->count, e->count == 1 ? "" : "s");
	else if (e->count == 0)
		rbuf_add(b, "nothing (the stock is empty)");
	else
		for (k = 0; k < sizeof hand_order / sizeof hand_order[0]; k++) {
			int c = hand_order[k];

			if (t->v->hand[c] > t->before->hand[c])
				card_run(b, c, t->v->hand[c] - t->before->hand[c], &first);
		}
}

static void
word_pickup(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	rbuf_printf(b, "%s (%u card%s, top ", tense(t, "takes the pile", "took the pile"), e->count,
	            e->count == 1 ? "" : "s");
	card_add(b, e->card);
	rbuf_add(b, ")");
}

/* The run of one seat's melds from i (and, told with them, the books they closed). */
static size_t
meld_run(const struct hf_event *ev, size_t n, size_t i, bool closes)
{
	size_t k = i;

	while (k + 1 < n && ev[k + 1].seat == ev[i].seat &&
	       (ev[k + 1].type == HF_EV_MELD || (closes && ev[k + 1].type == HF_EV_CLOSED)))
		k++;
	return k;
}

/* Whether ev[k] is a group of the meld of e. */
static bool
same_meld(const struct hf_event *a, const struct hf_event *e)
{
	return a->type == HF_EV_MELD && a->side == e->side && a->meld == e->meld;
}

/* The melds of one clause, ev[from..to]: "5 5 5 5 (new 5s) and K K (on the Ks)"; merged
 * (t->merge), each meld once with all its groups and the canasta it closed: "K K (on the
 * Ks, closing a clean canasta!)". */
static size_t
word_meld(struct rbuf *b, const struct telling *t, const struct hf_event *ev, size_t n, size_t from)
{
	size_t i, k, to = meld_run(ev, n, from, t->merge);
	bool first = true;

	rbuf_add(b, tense(t, "melds ", "melded "));
	for (i = from; i <= to; i++) {
		const struct hf_event *e = &ev[i];
		bool seen = false;

		for (k = from; k < i && t->merge && !seen; k++)
			seen = same_meld(&ev[k], e);
		if (e->type != HF_EV_MELD || seen)
			continue;   /* a close, or told with the first group of its meld */
		if (!first)
			rbuf_add(b, " and ");
		first = false;
		render_group(b, &e->group);
		for (k = i + 1; k <= to && t->merge; k++)
			if (same_meld(&ev[k], e)) {
				rbuf_add(b, " ");
				render_group(b, &ev[k].group);
			}
		rbuf_printf(b, " (%s%s", meld_fresh(t->v, ev, n, e, t->round_over), render_rank_plural(group_rank(&e->group)));
		for (k = from; k <= to; k++)
			if (ev[k].type == HF_EV_CLOSED && ev[k].side == e->side && ev[k].meld == e->meld)
				rbuf_printf(b, ", closing %s!", kind_name(ev[k].flag));
		rbuf_add(b, ")");
	}
	return to;
}

/* A book closed, not told with its meld; the engine (meld.c) puts its rank in card, its kind in flag. */
static void
word_closed(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	if (e->card > 0 && e->card < HF_NCARD)
		rbuf_printf(b, "the %s %s: %s!", render_rank_plural(e->card), tense(t, "close", "closed"),
		            kind_name(e->flag));
	else {
		subject(b, t, e);
		rbuf_printf(b, "%s %s!", tense(t, "closes", "closed"), kind_name(e->flag));
	}
}

/* The foot taken up; "and plays on" said of the seat whose turn it is, not to the player (t->you). */
static void
word_foot(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	if (t->you != NULL)
		rbuf_add(b, "picked up your foot");
	else
		rbuf_printf(b, "%s%s", tense(t, "picks up the foot", "picked up the foot"),
		            e->flag && (t->seat < 0 || !named(t, e)) ? tense(t, " and plays on", " and played on") : "");
}

static void
word_discard(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	rbuf_add(b, tense(t, "discards ", "discarded "));
	card_add(b, e->card);
}

/* The question to go out; merged (t->merge), with the partners' answers after it. */
static size_t
word_ask(struct rbuf *b, const struct telling *t, const struct hf_event *ev, size_t n, size_t i)
{
	char whobuf[96];
	size_t k;

	if (!t->merge) {
		rbuf_add(b, tense(t, "asks: may I go out? (partners: " CMD("yes") " or " CMD("no") ")", "asked to go out"));
		return i;
	}
	rbuf_add(b, tense(t, "asks to go out", "asked to go out"));
	for (k = i + 1; k < n && ev[k].type == HF_EV_ANSWER; k++) {
		rbuf_add(b, k == i + 1 ? " (" : ", ");
		rbuf_printf(b, "%s: %s", render_who(t->names[ev[k].seat < t->v->nseats ? ev[k].seat : 0], whobuf,
		                                    sizeof whobuf), ev[k].flag ? "yes" : "no");
	}
	if (k > i + 1)
		rbuf_add(b, ")");
	return k - 1;
}

static void
word_answer(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	if (named(t, e))
		subject(b, t, e);
	else
		rbuf_add(b, "a partner ");
	rbuf_printf(b, "%s %s", tense(t, "says", "said"), e->flag ? "yes" : "no");
}

static void
word_out(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	rbuf_add(b, ST_BOLD);
	subject(b, t, e);
	rbuf_printf(b, "%s" ST_END "%s", tense(t, "goes out!", "went out!"),
	            e->flag ? " (short of the canastas needed: severe penalty)" : "");
}

static void
word_stock_turned(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	if (t->past)
		rbuf_printf(b, "the stock ran out: the pile (%u cards) is the new stock", e->count);
	else
		rbuf_printf(b, "the stock is gone: the pile (%u cards) is turned over as the new stock", e->count);
}

static void
word_round_end(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	(void)e;
	render_round_end(b, t->v, t->names);
}

static void
word_game_end(struct rbuf *b, const struct telling *t, const struct hf_event *e)
{
	render_game_end(b, t->v, e->side, t->names);
}

/* One entry per event kind: which tellings tell it, its form (named: its seat before it; a
 * sentence: the telling's stop after it; its lines in the play-by-play), its wording: a
 * phrase in the present and the past, or a function of the event (or of a run of events). */
#define PLAY TELL_PLAY
#define TOLD (TELL_PLAY | TELL_STORY)
#define OWN (TELL_PLAY | TELL_STORY | TELL_STEP)
#define CLAUSE (WORD_NAMED | WORD_STOPS)
static const struct wording wordings[] = {
	{ HF_EV_DEAL, PLAY | TELL_DEAL, WORD_STOPS | WORD_LINE_BEFORE, .one = word_deal },
	{ HF_EV_DEAL_BONUS, PLAY | TELL_DEAL, CLAUSE, .phrase = { "earns the deal bonus", "earned the deal bonus" } },
	{ HF_EV_FIRST_DISCARD, PLAY | TELL_DEAL, WORD_STOPS, .one = word_first_discard },
	{ HF_EV_RED3, OWN | TELL_DEAL, CLAUSE, .run = word_red3 },
	{ HF_EV_DRAW, OWN, CLAUSE, .one = word_draw },
	{ HF_EV_PICKUP, OWN, CLAUSE, .one = word_pickup },
	{ HF_EV_MELD, OWN, CLAUSE, .run = word_meld },
	{ HF_EV_CLOSED, TOLD, 0, .one = word_closed },
	{ HF_EV_UNDER, OWN, CLAUSE, .phrase = { "puts a " ST_RED "red 3" ST_END " under a book",
	                                        "put a " ST_RED "red 3" ST_END " under a book" } },
	{ HF_EV_FOOT, OWN, CLAUSE, .one = word_foot },
	{ HF_EV_DISCARD, TOLD, CLAUSE | WORD_TURN_ENDS, .one = word_discard },
	{ HF_EV_ASK, TOLD, WORD_NAMED, .run = word_ask },
	{ HF_EV_ANSWER, TOLD, WORD_STOPS, .one = word_answer },
	{ HF_EV_OUT, TOLD, 0, .one = word_out },
	{ HF_EV_STOCK_TURNED, TOLD, WORD_STOPS, .one = word_stock_turned },
	{ HF_EV_STOCK_OUT, TOLD, WORD_STOPS, .phrase = { "the stock has run out: the round ends",
	                                                 "the stock ran out: the round ends" } },
	{ HF_EV_ROUND_END, PLAY, WORD_LINE_BEFORE | WORD_LINE_AFTER, .one = word_round_end },
	{ HF_EV_GAME_END, PLAY, WORD_LINE_BEFORE, .one = word_game_end },
};
#undef PLAY
#undef TOLD
#undef OWN
#undef CLAUSE

const struct wording *
wording_of(const struct hf_event *e, unsigned telling)
{
	size_t k;

	for (k = 0; k < sizeof wordings / sizeof wordings[0]; k++)
		if (wordings[k].type == e->type)
			return wordings[k].tells & telling ? &wordings[k] : NULL;
	return NULL;   /* HF_EV_TURN: the caller pings whose turn it is */
}

size_t
word_event(struct rbuf *b, const struct telling *t, const struct wording *w, const struct hf_event *ev, size_t n,
           size_t i)
{
	size_t at = b->len;

	if (w->form & WORD_NAMED)
		subject(b, t, &ev[i]);
	if (w->one != NULL)
		w->one(b, t, &ev[i]);
	else if (w->run != NULL)
		i = w->run(b, t, ev, n, i);
	else
		rbuf_add(b, tense(t, w->phrase[0], w->phrase[1]));
	if (w->form & WORD_STOPS)
		stop(b, t);
	/* a sentence starts with a capital: "The pile starts with 9." */
	if (t->capital && b->len > at && islower((unsigned char)b->s[at]))
		b->s[at] = (char)toupper((unsigned char)b->s[at]);
	return i;
}
