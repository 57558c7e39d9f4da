/* viewers.c: the adapters that draw tables: views handed to them, and their links (a page's actions come in through adapter.c). */
#include <string.h>

#include "telling.h"
#include "loop.h"
#include "style.h"

static bool
viewers_any(const struct bot *b)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++)
		if (b->adapters[i]->ad.ops->view != NULL)
			return true;
	return false;
}

/* Hands one view (seat -1: the public one) to every adapter that draws. */
static void
viewers_hand(struct bot *b, struct session *s, int seat, bool over)
{
	bool finished = over && hf_game_phase(s->g) == HF_PHASE_OVER;
	struct adapter_view av;
	struct rbuf json = { 0 };
	size_t i;

	view_json(&json, s, seat);
	memset(&av, 0, sizeof av);
	av.table = s->id;
	av.adapter_id = s->ad->id;
	av.room = s->room;
	av.seat = seat;
	av.json = json.s;
	av.len = json.len;
	av.over = over;
	/* played to its end (never an aborted game): its public link may become its replay */
	av.finished = finished;
	av.ended = finished ? bot_wall_ms(b) / 1000 : 0;
	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->view != NULL)
			a->ops->view(a, &av);
	}
	rbuf_free(&json);
}

static void
viewers_table(struct bot *b, struct session *s)
{
	int i;

	s->view_dirty = false;
	if (s->g == NULL)
		return;
	viewers_hand(b, s, -1, false);
	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0)
			viewers_hand(b, s, i, false);
}

void
view_flush(struct bot *b)
{
	struct session *s;

	if (!viewers_any(b))
		return;
	for (s = b->sessions.all; s != NULL; s = s->all_next)
		if (s->view_dirty)
			viewers_table(b, s);
}

void
view_end(struct bot *b, struct session *s)
{
	int i;

	if (s->g == NULL || !viewers_any(b))
		return;
	/* each seat's last view first: the final hands are the players' own */
	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0)
			viewers_hand(b, s, i, false);
	viewers_hand(b, s, -1, true);
}

/* The first adapter that draws tables and can make this link. */
static int
view_link_of(struct bot *b, struct session *s, int seat, bool renew, char *url, size_t len)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		int r;

		if (a->ops->link != NULL && (r = a->ops->link(a, s->id, seat, renew, url, len)) >= 0)
			return r;
	}
	return -1;
}

int
view_link(struct bot *b, struct session *s, int seat, bool renew, char *url, size_t len)
{
	int r = view_link_of(b, s, seat, renew, url, len);

	if (r >= 0)
		/* a page opened on it is drawn at once, even for a table that has not moved since */
		s->view_dirty = true;
	return r;
}

int
view_watch_url(struct bot *b, const struct adapter *ad, const char *room, char *url, size_t len)
{
	struct session *s = room != NULL ? session_find(&b->sessions, ad, room) : NULL;

	/* only the public page (seat -1): a room line never carries a seat's link */
	if (s == NULL || s->g == NULL || s->state != SESS_PLAYING)
		return -1;
	return view_link_of(b, s, -1, false, url, len);
}
