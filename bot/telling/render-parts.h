/* render-parts.h: what the render*.c files share: small helpers, inlined in each, and the score sheet. */
#ifndef HF_RENDER_PARTS_H
#define HF_RENDER_PARTS_H

#include <stdio.h>

#include "telling.h"

/* One side's score sheet for the last round (render-scores.c). */
void render_sheet(struct rbuf *b, const struct hf_view *v, int side, const char *const names[]);

/* How a telling words the engine's events (render-wording.c): what the play-by-play, a
 * turn's story, a player's own step and a round's deal say differently, as parameters of
 * the one wording of each event. */
enum { TELL_PLAY = 1, TELL_STORY = 2, TELL_STEP = 4, TELL_DEAL = 8 };

struct telling {
	const struct hf_view *v;
	const char *const *names;
	int seat;                      /* the seat told about (its clauses name no one), or -1: each names its seat */
	bool past;                     /* "drew" (a story, a step) or "draws" */
	bool merge;                    /* a meld once with its closes, a question with its answers (a story, a step) */
	bool capital;                  /* each clause a sentence, with a capital (the play-by-play) */
	bool round_over;               /* the melds are gone from v */
	const char *stop;              /* what ends a sentence ("." in the play-by-play), or NULL */
	const char *you;               /* told to the player: "You" (a step) */
	const struct hf_view *before;  /* a step: the player's view before it, so a draw names its cards */
};

/* The form of an event's clause: its seat named before it, the telling's stop after it; in the
 * play-by-play, a line of its own (before, after) or the end of a seat's turn. */
enum { WORD_NAMED = 1, WORD_STOPS = 2, WORD_LINE_BEFORE = 4, WORD_LINE_AFTER = 8, WORD_TURN_ENDS = 16 };

struct wording {
	int type;        /* HF_EV_* */
	unsigned tells;  /* the tellings (TELL_*) that tell it */
	unsigned form;   /* WORD_* */
	const char *phrase[2];   /* the wording, in the present and the past; or, */
	/* of the event alone, or of ev[i] and those told with it (returns the last) */
	void (*one)(struct rbuf *b, const struct telling *t, const struct hf_event *e);
	size_t (*run)(struct rbuf *b, const struct telling *t, const struct hf_event *ev, size_t n, size_t i);
};

/* The wording of e's kind if the telling (TELL_*) tells it, else NULL. */
const struct wording *wording_of(const struct hf_event *e, unsigned telling);
/* Words ev[i] by w as t tells it; the last event told. */
size_t word_event(struct rbuf *b, const struct telling *t, const struct wording *w, const struct hf_event *ev,
                  size_t n, size_t i);

/* Hand order: naturals high to low, then threes, deuces, jokers. */
static const int hand_order[] = {
	HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN, HF_SIX, HF_FIVE, HF_FOUR,
	HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER
};

/* One card in styled text: a card span, red for a red 3. */
static inline void
card_add(struct rbuf *b, int card)
{
	if (card == HF_RED3)
		rbuf_printf(b, ST_CARD ST_RED "%s" ST_END ST_END, render_card(card));
	else
		rbuf_printf(b, ST_CARD "%s" ST_END, render_card(card));
}

static inline void
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

static inline int
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
static inline const char *
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

static inline const char *
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

/* A seat's name as a player span; a name that reads as a pronoun ("you
 * draws 2") is quoted, to read as a name. */
static inline const char *
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

#endif
