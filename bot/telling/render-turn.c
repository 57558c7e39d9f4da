/* render-turn.c: a turn told when it ends, a player's own step told to them, a round's deal: the
 * tellings about one seat or one deal, in the events' wordings (render-wording.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

/* The clauses of a telling about one seat (t->seat), joined by ", " after its subject: "ann
 * drew 2 cards, discarded 7"; false if it told nothing. */
static bool
tell_seat(struct rbuf *b, const struct telling *t, unsigned telling, const char *who, const struct hf_event *ev,
          size_t n)
{
	bool first = true;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct wording *w = wording_of(&ev[i], telling);

		if (w == NULL || (telling == TELL_STEP && ev[i].seat != t->seat))
			continue;
		if (first)
			rbuf_printf(b, "%s ", who);
		else
			rbuf_add(b, ", ");
		first = false;
		i = word_event(b, t, w, ev, n, i);
	}
	return !first;
}

void
render_turn(struct rbuf *b, const struct hf_view *v, int seat, const struct hf_event *ev, size_t n,
            const char *const names[], bool round_over)
{
	struct telling t = { .v = v, .names = names, .seat = seat, .past = true, .merge = true,
	                     .round_over = round_over };
	char whobuf[96];
	const char *who;

	if (seat < 0 || seat >= v->nseats)
		return;
	who = render_who(names[seat], whobuf, sizeof whobuf);
	if (!tell_seat(b, &t, TELL_STORY, who, ev, n))
		rbuf_printf(b, "%s passed", who);   /* nothing to tell: never seen, but never a bare name */
}

void
render_step(struct rbuf *b, const struct hf_view *before, const struct hf_view *v, const struct hf_event *ev,
            size_t n)
{
	struct telling t = { .v = v, .seat = v->seat, .past = true, .merge = true, .you = "You", .before = before };

	tell_seat(b, &t, TELL_STEP, t.you, ev, n);
}

void
render_deal(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n, const char *const names[])
{
	struct telling t = { .v = v, .names = names, .seat = -1 };
	size_t i;
	bool first = true;

	for (i = 0; i < n; i++) {
		const struct wording *w = wording_of(&ev[i], TELL_DEAL);

		if (w == NULL)
			continue;
		if (!first)
			rbuf_add(b, "; ");
		first = false;
		i = word_event(b, &t, w, ev, n, i);
	}
	rbuf_add(b, ".");
}
