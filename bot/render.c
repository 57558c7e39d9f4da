/* render.c: what players see, from seat views only, in styled text (lib/style.h): never a wire format. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

/* Hand order: naturals high to low, then threes, deuces, jokers. */
static const int hand_order[] = {
	HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN, HF_SIX, HF_FIVE, HF_FOUR,
	HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER
};

const char *
render_card(int card)
{
	switch (card) {
	case HF_RED3: return "3♥";
	case HF_BLACK3: return "3♣";
	case HF_JOKER: return "JK";
	default: return hf_card_name(card);
	}
}

const char *
render_rank_plural(int rank)
{
	static const char *const names[HF_NCARD] = {
		"?", "red 3s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Js", "Qs", "Ks", "As", "wilds"
	};
	return rank >= 0 && rank < HF_NCARD ? names[rank] : "?";
}

/* One card in styled text: a card span, red for a red 3. */
static void
card_add(struct rbuf *b, int card)
{
	if (card == HF_RED3)
		rbuf_printf(b, ST_CARD ST_RED "%s" ST_END ST_END, render_card(card));
	else
		rbuf_printf(b, ST_CARD "%s" ST_END, render_card(card));
}

static void
card_run(struct rbuf *b, int card, int n, bool *first)
{
	if (n <= 0)
		return;
	if (!*first)
		rbuf_add(b, " ");
	*first = false;
	card_add(b, card);
	if (n > 1)
		rbuf_printf(b, "×%d", n);
}

/* A player's name as a player span. */
static void
name_add(struct rbuf *b, const char *name)
{
	rbuf_printf(b, ST_PLAYER "%s" ST_END, name);
}

void
render_hand(struct rbuf *b, const struct hf_view *v)
{
	const struct hf_seat_view *me = &v->seats[v->seat];
	bool first = true;
	size_t i;

	rbuf_printf(b, "Your %s (%u): ", me->in_foot ? "foot" : "hand", v->hand_count);
	for (i = 0; i < sizeof hand_order / sizeof hand_order[0]; i++)
		card_run(b, hand_order[i], v->hand[hand_order[i]], &first);
	if (first)
		rbuf_add(b, "(empty)");
	/* "Your foot" already says where the cards come from; a hand says what waits. */
	if (!me->in_foot)
		rbuf_printf(b, " | foot: %u card%s waiting", me->foot_count, me->foot_count == 1 ? "" : "s");
	if (v->phase != HF_PHASE_OVER && me->side < v->nsides && !v->sides[me->side].down)
		rbuf_printf(b, " | to open: %d points", v->sides[me->side].open_min);
	if (v->phase != HF_PHASE_OVER && v->turn == v->seat) {
		if (v->phase == HF_PHASE_DRAW)
			rbuf_add(b, " | your turn: " CMD("draw") " or " CMD("pickup"));
		else if (v->phase == HF_PHASE_ASK)
			rbuf_add(b, " | waiting for your partners' answer");
		else if (v->phase == HF_PHASE_PLAY && v->permission)
			rbuf_add(b, " | your partners agree: go out (meld or discard your last cards)");
		else if (v->phase == HF_PHASE_PLAY && v->asked_this_turn)
			rbuf_add(b, " | your partners said no: meld, then discard");
		else if (v->phase == HF_PHASE_PLAY)
			rbuf_add(b, " | " CMD("meld") ", then " CMD("discard"));
	}
}

static void
render_meld(struct rbuf *b, const struct hf_meld *m)
{
	const char *kind = NULL, *mark = NULL;
	bool first = true;

	switch (m->kind) {
	case HF_KIND_CLEAN: kind = "clean"; mark = ST_CLEAN; break;
	case HF_KIND_DIRTY: kind = "dirty"; mark = ST_DIRTY; break;
	case HF_KIND_WILD: kind = "wild"; mark = ST_BOLD; break;
	case HF_KIND_SEVENS: kind = "sevens"; mark = ST_RED; break;
	default: break;
	}
	/* a closed book reads in its kind's colour, the cards in it as cards;
	 * a count follows a rank ("A×3"), and the wilds are named one by one
	 * after a "+" ("A×5 +2 2 JK"): "2×3" beside "A×3" would read as a rank */
	if (mark != NULL)
		rbuf_printf(b, "%s[", mark);
	card_run(b, m->rank == HF_JOKER ? HF_NOCARD : m->rank, m->rank == HF_JOKER ? 0 : m->naturals, &first);
	for (int k = 0; k < m->twos + m->jokers; k++) {
		rbuf_add(b, first ? "" : k == 0 ? " +" : " ");
		first = false;
		card_add(b, k < m->twos ? HF_TWO : HF_JOKER);
	}
	if (m->red3s > 0) {
		rbuf_add(b, " +");
		card_add(b, HF_RED3);
		rbuf_printf(b, "×%u", m->red3s);
	}
	if (mark != NULL)
		rbuf_printf(b, " %s]" ST_END, kind);
}

void
render_side_name(struct rbuf *b, const struct hf_view *v, int side, const char *const names[])
{
	bool first = true;
	int i;

	for (i = 0; i < v->nseats; i++)
		if (v->seats[i].side == side) {
			if (!first)
				rbuf_add(b, " & ");
			name_add(b, names[i]);
			first = false;
		}
}

void
render_table(struct rbuf *b, const struct hf_view *v, const char *const names[])
{
	const struct hf_side_view *sv;
	int side, i;

	for (side = 0; side < v->nsides; side++) {
		sv = &v->sides[side];
		if (side > 0)
			rbuf_add(b, "\n");
		rbuf_add(b, ST_BOLD);
		render_side_name(b, v, side, names);
		rbuf_printf(b, ST_END " (score %d): ", sv->score);
		if (!sv->down)
			rbuf_printf(b, "not down (needs %d)", sv->open_min);
		for (i = 0; i < sv->nmelds; i++) {
			if (i > 0)
				rbuf_add(b, ", ");
			render_meld(b, &sv->melds[i]);
		}
		if (sv->red3s > 0)
			rbuf_printf(b, "; red 3s: " ST_RED "%u" ST_END, sv->red3s);
		rbuf_add(b, ";");
		for (i = 0; i < v->nseats; i++)
			if (v->seats[i].side == side) {
				rbuf_add(b, " ");
				name_add(b, names[i]);
				rbuf_printf(b, " %u%s", v->seats[i].hand_count, v->seats[i].in_foot ? " (in foot)" : "+foot");
			}
	}
}

void
render_pile(struct rbuf *b, const struct hf_view *v)
{
	if (v->pile_size == 0) {
		rbuf_add(b, "Pile: empty");
	} else {
		rbuf_add(b, "Pile: ");
		card_add(b, v->pile_top);
		rbuf_printf(b, ", %u card%s%s", v->pile_size, v->pile_size == 1 ? "" : "s",
		            v->pile_frozen ? ", frozen" : "");
	}
	if (v->pile_size > 0 && v->rules != NULL) {
		unsigned blk = v->rules->pickup_blocked_by;
		int top = v->pile_top;
		/* what stops the next player taking it, said before they try */
		if ((top == HF_BLACK3 && (blk & HF_BLOCK_BLACK3)) || (top == HF_RED3 && (blk & HF_BLOCK_RED3)) ||
		    (hf_card_is_wild(top) && (blk & HF_BLOCK_WILD)))
			rbuf_add(b, ", blocked");
		else if (v->pile_size < v->rules->pickup_min_pile)
			rbuf_printf(b, ", too small to take (%u needed)", v->rules->pickup_min_pile);
	}
	rbuf_printf(b, ". Stock: %u.", v->stock);
}

static void render_sheet(struct rbuf *b, const struct hf_view *v, int side, const char *const names[]);

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

void
render_group(struct rbuf *b, const struct hf_group *g)
{
	bool first = true;
	size_t i;

	for (i = 0; i < sizeof hand_order / sizeof hand_order[0]; i++) {
		int c = hand_order[i], k;
		for (k = 0; k < g->count[c]; k++) {
			if (!first)
				rbuf_add(b, " ");
			card_add(b, c);
			first = false;
		}
	}
}

static int
group_rank(const struct hf_group *g)
{
	int c;

	if (g->target != HF_NOCARD)
		return g->target;
	for (c = HF_FOUR; c <= HF_ACE; c++)
		if (g->count[c] > 0)
			return c;
	if (g->count[HF_BLACK3] > 0)
		return HF_BLACK3;
	return HF_JOKER;
}

/* How the meld e's cards read after them: "new " when e started it (the
 * engine's flag) and no group of this turn before e went onto it, "on the "
 * when they joined an open one (a meld started earlier in the same turn
 * included); the flag holds when the meld is gone (the round ended). */
static const char *
meld_fresh(const struct hf_view *v, const struct hf_event *ev, size_t n, const struct hf_event *e, bool round_over)
{
	size_t j;

	(void)v;
	(void)n;
	(void)round_over;
	for (j = 0; &ev[j] < e; j++)
		if (ev[j].type == HF_EV_MELD && ev[j].side == e->side && ev[j].meld == e->meld)
			return "on the ";
	return e->flag ? "new " : "on the ";
}

static const char *
kind_name(int kind)
{
	switch (kind) {
	case HF_KIND_CLEAN: return ST_CLEAN "a clean canasta" ST_END;
	case HF_KIND_DIRTY: return ST_DIRTY "a dirty canasta" ST_END;
	case HF_KIND_WILD: return ST_BOLD "a wild canasta" ST_END;
	case HF_KIND_SEVENS: return ST_RED "a sevens canasta" ST_END;
	default: return "a canasta";
	}
}

static void
sheet_item(struct rbuf *b, int count, const char *one, const char *many, int32_t points)
{
	if (count)
		rbuf_printf(b, " %d %s %+d,", count, count == 1 ? one : many, points);
}

/* One side's score sheet for the last round, itemised as on paper: only the lines that are not zero. */
static void
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

/* A seat's name as a player span; a name that reads as a pronoun ("you
 * draws 2") is quoted, to read as a name. */
static const char *
render_who(const char *name, char *buf, size_t len)
{
	static const char *const pronouns[] = { "you", "i", "me", "we", "they", "he", "she", "it", "everyone" };
	size_t k;

	for (k = 0; k < sizeof pronouns / sizeof pronouns[0]; k++)
		if (strcasecmp(name, pronouns[k]) == 0) {
			snprintf(buf, len, ST_PLAYER "\"%s\"" ST_END, name);
			return buf;
		}
	snprintf(buf, len, ST_PLAYER "%s" ST_END, name);
	return buf;
}

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

/* ------------------------------------------------------------------ a turn told when it ends */

void
render_pile_short(struct rbuf *b, const struct hf_view *v)
{
	if (v->pile_size == 0) {
		rbuf_add(b, "pile empty");
	} else {
		rbuf_add(b, "pile ");
		card_add(b, v->pile_top);
		rbuf_printf(b, ", %u card%s%s", v->pile_size, v->pile_size == 1 ? "" : "s", v->pile_frozen ? ", frozen" : "");
		if (v->rules != NULL) {
			unsigned blk = v->rules->pickup_blocked_by;
			int top = v->pile_top;

			if ((top == HF_BLACK3 && (blk & HF_BLOCK_BLACK3)) || (top == HF_RED3 && (blk & HF_BLOCK_RED3)) ||
			    (hf_card_is_wild(top) && (blk & HF_BLOCK_WILD)))
				rbuf_add(b, ", blocked");
		}
	}
	rbuf_printf(b, " · stock %u", v->stock);
}

void
render_counts(struct rbuf *b, const struct hf_rules *r)
{
	char counts[64];

	hf_rules_counts(r, counts, sizeof counts);
	rbuf_add(b, counts);
}

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
