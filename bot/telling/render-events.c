/* render-events.c: the play-by-play: the room line(s) for the events of one accepted action, each
 * event a sentence in the present in its wording (render-wording.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "telling.h"
#include "render-parts.h"

void
render_events(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
              const char *const names[])
{
	struct telling t = { .v = v, .names = names, .seat = -1, .capital = true, .stop = "." };
	bool line_started = false;
	/* after a discard, the next seat's turn (red 3s laid out, a foot taken) starts a line of its own */
	int disc_seat = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (ev[i].type == HF_EV_ROUND_END || ev[i].type == HF_EV_DEAL)
			t.round_over = true;
	for (i = 0; i < n; i++) {
		const struct hf_event *e = &ev[i];
		const struct wording *w = wording_of(e, TELL_PLAY);

		if (w == NULL)
			continue;
		if (w->form & WORD_LINE_BEFORE) {
			if (line_started)
				rbuf_add(b, "\n");
		} else {
			if (line_started)
				rbuf_add(b, disc_seat >= 0 && e->seat != disc_seat ? "\n" : " ");
			disc_seat = -1;
		}
		line_started = true;
		i = word_event(b, &t, w, ev, n, i);
		if ((w->form & WORD_TURN_ENDS) && !t.round_over) {
			rbuf_add(b, " ");   /* the pile a discard leaves, while the round goes on */
			render_pile(b, v);
		}
		if (w->form & WORD_TURN_ENDS)
			disc_seat = e->seat;
		if (w->form & WORD_LINE_AFTER) {
			rbuf_add(b, "\n");
			line_started = false;
		}
	}
}
