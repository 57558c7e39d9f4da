/* outq.c: the one outbound scheduler: an item's lane, class and supersede from its facts, lanes in serving order, the games' first, the quick turn of a lone stranger, answers superseded and evicted first, counts (outq.h has the policy). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "outq.h"
#include "xmalloc.h"

struct outq_item {
	struct outq_lane *lane;
	struct outq_item *prev, *next;   /* the lane's items, in order */
	char *target;
	char *key;                       /* NULL: must be delivered */
	uint64_t event;                  /* the event owed this answer (0: none) */
	bool first;                      /* makes its lane first-class */
	bool aside;                      /* not the room's story: a private line about its game, or an
	                                  * answer that must be delivered */
	bool taken;                      /* in flight */
	bool head;                       /* starts a message (the pieces of an answer share key and target) */
	size_t bytes;
	void *payload;
};

struct outq_lane {
	char *name;
	struct outq_lane *prev, *next;   /* the serving order */
	struct outq_item *head, *tail;
	size_t n, nkeep, nfirst, bytes;
	size_t nroom;                    /* of nkeep, the room's story (not aside) */
	size_t nmsgs;                    /* messages: runs of pieces */
	bool fresh;                      /* had nothing queued, and has not been served since */
	uint64_t woke;                   /* when it was last made fresh (outq.served) */
};

struct outq {
	struct outq_limits lim;
	void (*drop)(void *ctx, void *payload);
	void *ctx;
	struct outq_lane *head, *tail;   /* the lanes (some kept empty), the one served next first */
	size_t items, bytes, nlanes;
	size_t nidle;                    /* lanes kept empty, for their place in the order */
	unsigned run;                    /* first-class items served in a row */
	unsigned quick;                  /* quick turns in a row since the last first-class item */
	uint64_t served;                 /* items served so far (a clock of turns) */
	uint64_t chain;                  /* served when the first quick turn of that row was taken */
};

struct outq *
outq_new(const struct outq_limits *lim, void (*drop)(void *ctx, void *payload), void *ctx)
{
	struct outq *q = xcalloc(1, sizeof *q);

	if (lim != NULL)
		q->lim = *lim;
	q->drop = drop;
	q->ctx = ctx;
	return q;
}

static bool
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

void
outq_lane_name(const struct outq_msg *m, char *buf, size_t len)
{
	const char *target = m->target != NULL ? m->target : "";

	if (m->lane != NULL)
		snprintf(buf, len, "%s", m->lane);
	else if (m->key != NULL)
		/* answers apart, one lane per asker: they never hold a game back,
		 * nor wait behind it, and a flood of questions delays only its asker */
		snprintf(buf, len, "answers %s", m->asker != NULL ? m->asker : target);
	else
		/* a private line about a game waits behind what its room was told before it */
		snprintf(buf, len, "%s", m->room != NULL ? m->room : target);
}

static struct outq_lane *
lane_find(const struct outq *q, const char *name)
{
	for (struct outq_lane *l = q->head; l != NULL; l = l->next)
		if (strcmp(l->name, name) == 0)
			return l;
	return NULL;
}

static bool
lane_first(const struct outq_lane *l)
{
	return l->nfirst > 0;
}

/* A lane that had nothing queued goes next, after the others that just
 * woke up (least recently served first): a quiet room's line, or one
 * answer, waits for one item, not a round of the busy lanes. */
static struct outq_lane *
lane_add(struct outq *q, const char *name)
{
	struct outq_lane *l = xcalloc(1, sizeof *l), *at;

	l->name = xstrdup(name);
	l->fresh = true;
	l->woke = q->served;
	for (at = q->head; at != NULL && at->fresh; at = at->next)
		;
	LIST_INSERT_BEFORE(q->head, q->tail, at, l);
	q->nlanes++;
	return l;
}

static void
lane_free(struct outq *q, struct outq_lane *l)
{
	LIST_UNLINK(q->head, q->tail, l);
	if (l->n > 0)
		q->nlanes--;
	else
		q->nidle--;
	free(l->name);
	free(l);
}

/* A lane left empty keeps its place in the serving order (it was served
 * lately, so it is behind the lanes that were not): the game's room or a
 * player whose lane empties and fills again at every line must not jump
 * ahead of a lane with a backlog each time, which starved a room's round
 * end for two minutes beside a busy game.  Once no lane was served longer
 * ago (it is at the head), or when nothing is queued, it goes: filled
 * again, a new lane stands in the same place.  At most OUTQ_IDLE kept. */
#define OUTQ_IDLE 256

static void
lanes_trim(struct outq *q)
{
	struct outq_lane *l, *next;

	/* with nothing queued every lane is empty, and all go here */
	while (q->head != NULL && q->head->n == 0)
		lane_free(q, q->head);
	for (l = q->head; l != NULL && q->nidle > OUTQ_IDLE; l = next) {
		next = l->next;
		if (l->n == 0)
			lane_free(q, l);
	}
}

/* Takes it out of its lane (kept, empty, if it was the last: lanes_trim); its payload. */
static void *
item_unlink(struct outq *q, struct outq_item *it)
{
	struct outq_lane *l = it->lane;
	void *payload = it->payload;

	/* a message's first piece gone, its next piece starts it */
	if (it->head && it->next != NULL && !it->next->head)
		it->next->head = true;
	else
		l->nmsgs -= it->head;
	LIST_UNLINK(l->head, l->tail, it);
	l->n--;
	l->nkeep -= it->key == NULL;
	l->nroom -= it->key == NULL && !it->aside;
	l->nfirst -= it->first;
	l->bytes -= it->bytes;
	q->items--;
	q->bytes -= it->bytes;
	free(it->target);
	free(it->key);
	free(it);
	if (l->n == 0) {
		q->nlanes--;
		q->nidle++;
	}
	return payload;
}

static void
item_drop(struct outq *q, struct outq_item *it)
{
	void *payload = item_unlink(q, it);

	if (q->drop != NULL)
		q->drop(q->ctx, payload);
}

/* Drops the oldest answer waiting in l (every item of it: the pieces of one
 * message share key and target), a stranger's only if strangers (one that
 * is not first-class); whether there was one. */
static bool
evict_answer(struct outq *q, struct outq_lane *l, bool strangers)
{
	struct outq_item *it, *next;
	char *key = NULL, *target = NULL;

	for (it = l->head; it != NULL && (it->key == NULL || it->taken || (strangers && it->first)); it = it->next)
		;
	if (it == NULL)
		return false;
	key = xstrdup(it->key);
	target = xstrdup(it->target);
	/* l may be freed with its last item: stop there */
	for (size_t left = l->n; left > 0 && it != NULL; left--, it = next) {
		next = it->next;
		if (!it->taken && same(it->key, key) && same(it->target, target)) {
			bool last = l->n == 1;

			item_drop(q, it);
			if (last)
				break;
		}
	}
	free(key);
	free(target);
	return true;
}

/* Whether lane l (NULL: a new one) and the whole queue have room for bytes more. */
static bool
fits(const struct outq *q, const struct outq_lane *l, size_t bytes)
{
	size_t ln = l != NULL ? l->n : 0, lb = l != NULL ? l->bytes : 0;

	return (q->lim.lane_items == 0 || ln + 1 <= q->lim.lane_items) &&
	       (q->lim.lane_bytes == 0 || lb + bytes <= q->lim.lane_bytes) &&
	       (q->lim.items == 0 || q->items + 1 <= q->lim.items) &&
	       (q->lim.bytes == 0 || q->bytes + bytes <= q->lim.bytes);
}

/* Whether the lane is within its own caps for bytes more. */
static bool
lane_fits(const struct outq *q, const struct outq_lane *l, size_t bytes)
{
	return l == NULL || ((q->lim.lane_items == 0 || l->n + 1 <= q->lim.lane_items) &&
	                     (q->lim.lane_bytes == 0 || l->bytes + bytes <= q->lim.lane_bytes));
}

/* Drops the oldest answer of l, a stranger's first; a seated player's
 * answer (player) never drops another first-class answer to make room. */
static bool
evict_for(struct outq *q, struct outq_lane *l, bool player)
{
	return evict_answer(q, l, true) || (!player && evict_answer(q, l, false));
}

/* Drops an answer from the back of the serving order, strangers' first in
 * every lane, then (!player) any other; whether one went. */
static bool
evict_any(struct outq *q, bool player)
{
	for (int pass = 0; pass < (player ? 1 : 2); pass++)
		for (struct outq_lane *v = q->tail; v != NULL; v = v->prev)
			if (evict_answer(q, v, pass == 0))
				return true;
	return false;
}

/* Makes room for a first-class item: one that must be delivered, or a
 * seated player's answer, which strangers' answers filling a lane (the
 * answers to a room share one when they name no asker) or the queue must
 * never refuse.  Strangers' answers go first, its lane's, then the others'
 * from the back of the serving order; then, for an item that must be
 * delivered, the players' answers too. */
static void
make_room(struct outq *q, const char *name, size_t bytes, bool player)
{
	struct outq_lane *l;

	while (!lane_fits(q, l = lane_find(q, name), bytes))
		if (!evict_for(q, l, player))
			return;   /* a lane full of what must be delivered refuses */
	while (!fits(q, lane_find(q, name), bytes))
		if (!evict_any(q, player))
			return;
}

/* Drops the items of l not taken that match: with key (NULL: any), to
 * target (NULL: any), and, for a newer answer to event (0: none), not
 * owed to another event; how many.  A newer answer's supersede and the
 * drops by lane or target are the one walk. */
static size_t
drop_in(struct outq *q, struct outq_lane *l, const char *key, const char *target, uint64_t event)
{
	struct outq_item *it, *next;
	size_t n = 0;

	for (it = l->head; it != NULL; it = next) {
		bool last = l->n == 1;

		next = it->next;
		if (it->taken || (key != NULL && !same(it->key, key)) || (target != NULL && !same(it->target, target)) ||
		    (key != NULL && it->event != 0 && it->event != event))
			continue;
		item_drop(q, it);
		n++;
		if (last)
			break;
	}
	return n;
}

/* The answer with key to target still waiting in l (not taken) that a newer
 * one to event would replace, the newest of them; NULL if none. */
static struct outq_item *
waiting_answer(struct outq_lane *l, const char *key, const char *target, uint64_t event)
{
	for (struct outq_item *it = l->tail; it != NULL; it = it->prev)
		if (it->head && !it->taken && same(it->key, key) && same(it->target, target) &&
		    (it->event == 0 || it->event == event))
			return it;
	return NULL;
}

/* The one class rule: a lane is first-class while it holds an item that
 * must be delivered (a game's line, a hand, "bob steps away") or a seated
 * player's answer; a stranger's answer, and what must be delivered to a
 * stranger for no game (a CTCP reply), wait in the rest. */
static bool
class_first(const struct outq_msg *m)
{
	return m->key != NULL ? m->player : !m->stranger;
}

struct outq_item *
outq_push(struct outq *q, const struct outq_msg *m)
{
	char name[512];
	struct outq_lane *l;
	struct outq_item *it;
	bool first = class_first(m);

	if (m->target == NULL)
		return NULL;
	lanes_trim(q);
	outq_lane_name(m, name, sizeof name);
	/* a newer answer replaces the same one still waiting in its lane: the
	 * one place this is decided (a piece of it continues it instead, and
	 * a pointer at it, again, is said by it) */
	if (m->key != NULL && !m->piece && (l = lane_find(q, name)) != NULL) {
		if (!m->again)
			drop_in(q, l, m->key, m->target, m->event);
		else if ((it = waiting_answer(l, m->key, m->target, m->event)) != NULL)
			return it;
	}
	if (first || m->key == NULL)
		make_room(q, name, m->bytes, m->key != NULL);
	l = lane_find(q, name);
	if (!fits(q, l, m->bytes))
		return NULL;
	if (l == NULL) {
		l = lane_add(q, name);
	} else if (l->n == 0) {
		/* had nothing queued: as a new lane would be, in its own place */
		q->nidle--;
		q->nlanes++;
		l->fresh = true;
		l->woke = q->served;
	}
	it = xcalloc(1, sizeof *it);
	it->lane = l;
	it->target = xstrdup(m->target);
	it->key = m->key != NULL ? xstrdup(m->key) : NULL;
	it->event = m->key != NULL ? m->event : 0;
	it->first = first;
	it->aside = m->room != NULL || (m->key == NULL && m->asker != NULL);
	it->bytes = m->bytes;
	it->payload = m->payload;
	/* the next piece of the answer queued last in this lane, or a message of its own */
	it->head = !m->piece || l->tail == NULL || it->key == NULL || !same(l->tail->key, it->key) ||
	           !same(l->tail->target, it->target);
	l->nmsgs += it->head;
	LIST_APPEND(l->head, l->tail, it);
	l->n++;
	l->nkeep += it->key == NULL;
	l->nroom += it->key == NULL && !it->aside;
	l->nfirst += it->first;
	l->bytes += it->bytes;
	q->items++;
	q->bytes += it->bytes;
	return it;
}

/* The item lane l may send now, NULL if it waits. */
static struct outq_item *
lane_ready(struct outq_lane *l, enum outq_ready (*ready)(void *ctx, void *payload), void *ctx)
{
	for (struct outq_item *it = l->head; it != NULL; it = it->next) {
		enum outq_ready r = it->taken ? OUTQ_WAIT : ready != NULL ? ready(ctx, it->payload) : OUTQ_GO;

		if (r == OUTQ_GO)
			return it;
		if (r == OUTQ_WAIT)
			return NULL;
	}
	return NULL;
}

/* A stranger's question that may go after one first-class item: the first
 * lane of the rest that had nothing queued, has not been served since, and
 * holds one message (one question, not a backlog), while no more than
 * OUTQ_FEW_RESTS such lanes wait (a bystander or two, not 50 strangers at
 * once).  A backlog (a flooder's lane, served already or holding several
 * answers) is not counted: it keeps to its item in OUTQ_FIRST_RUN + 1 and
 * never costs a bystander the quick turn.  Only a lane that woke by turn
 * woke_by may go (a bystander who asks again at once does not chain with
 * herself).  NULL if none. */
static struct outq_item *
quick_rest(struct outq *q, uint64_t woke_by, enum outq_ready (*ready)(void *ctx, void *payload), void *ctx)
{
	struct outq_item *found = NULL, *it;
	size_t one = 0;

	for (struct outq_lane *l = q->head; l != NULL; l = l->next) {
		if (lane_first(l) || !l->fresh || l->nmsgs != 1)
			continue;
		if (++one > OUTQ_FEW_RESTS)
			return NULL;
		if (found == NULL && l->woke <= woke_by && (it = lane_ready(l, ready, ctx)) != NULL)
			found = it;
	}
	return found;
}

/* The games' lanes (and the players' answers) go first, but after
 * OUTQ_FIRST_RUN of their items in a row a waiting lane of the rest goes:
 * 50 strangers' questions, each in a lane of their own, would otherwise put
 * the game's next line behind 50 of theirs, and a stranger still gets an
 * item in OUTQ_FIRST_RUN + 1 however busy the games are.  A bystander with
 * one question (quick_rest) waits for one game item only: two who asked at
 * once go one after the other (OUTQ_FEW_RESTS in a row at most, the second
 * one waiting then already), or the second would wait for two game items
 * and the first's answer: a flood's first bystander in another room waited
 * 6 s on IRC. */
struct outq_item *
outq_next(struct outq *q, enum outq_ready (*ready)(void *ctx, void *payload), void *ctx)
{
	struct outq_item *it = NULL, *quick = NULL;
	struct outq_lane *l;

	lanes_trim(q);
	if (q->run > 0)
		quick = it = quick_rest(q, UINT64_MAX, ready, ctx);
	else if (q->quick > 0 && q->quick < OUTQ_FEW_RESTS)
		quick = it = quick_rest(q, q->chain, ready, ctx);
	for (int pass = 0; it == NULL && pass < 2; pass++) {
		bool want = q->run < OUTQ_FIRST_RUN;

		for (l = q->head; l != NULL; l = l->next)
			if ((pass == 1 || lane_first(l) == want) && (it = lane_ready(l, ready, ctx)) != NULL)
				break;
	}
	if (it == NULL)
		return NULL;
	/* served: to the back, the others keeping their order */
	l = it->lane;
	q->run = lane_first(l) ? q->run + (q->run < OUTQ_FIRST_RUN) : 0;
	if (quick == NULL)
		q->quick = 0;
	else if (q->quick++ == 0)
		q->chain = q->served;   /* the row starts: lanes that woke by now may follow */
	q->served++;
	l->fresh = false;
	LIST_UNLINK(q->head, q->tail, l);
	LIST_APPEND(q->head, q->tail, l);
	return it;
}

void *
outq_payload(const struct outq_item *it)
{
	return it->payload;
}

void
outq_take(struct outq *q, struct outq_item *it)
{
	(void)q;
	it->taken = true;
}

void
outq_untake(struct outq *q, struct outq_item *it)
{
	(void)q;
	it->taken = false;
}

void *
outq_remove(struct outq *q, struct outq_item *it)
{
	return item_unlink(q, it);
}

size_t
outq_pending(const struct outq *q, const char *lane)
{
	const struct outq_lane *l = lane_find(q, lane);

	return l != NULL ? l->nkeep : 0;
}

size_t
outq_pending_room(const struct outq *q, const char *lane)
{
	const struct outq_lane *l = lane_find(q, lane);

	return l != NULL ? l->nroom : 0;
}

size_t
outq_count(const struct outq *q, const char *lane)
{
	const struct outq_lane *l = lane_find(q, lane);

	return l != NULL ? l->n : 0;
}

size_t
outq_queued(const struct outq *q)
{
	return q->items;
}

size_t
outq_lanes(const struct outq *q)
{
	return q->nlanes;
}


size_t
outq_drop_lane(struct outq *q, const char *lane)
{
	struct outq_lane *l = lane_find(q, lane);

	return l != NULL ? drop_in(q, l, NULL, NULL, 0) : 0;
}

/* Calls drop_in for every lane; a lane may go while it runs. */
static size_t
drop_each(struct outq *q, const char *target)
{
	struct outq_lane *l, *next;
	size_t n = 0;

	for (l = q->head; l != NULL; l = next) {
		next = l->next;
		n += drop_in(q, l, NULL, target, 0);
	}
	return n;
}

size_t
outq_drop_target(struct outq *q, const char *target)
{
	return target != NULL ? drop_each(q, target) : 0;
}

size_t
outq_drop_all(struct outq *q)
{
	return drop_each(q, NULL);
}

size_t
outq_rewrite(struct outq *q, int (*fn)(void *ctx, void **payload, size_t *bytes, char *target, size_t targetlen),
             void *ctx)
{
	struct outq_lane *l, *lnext;
	size_t n = 0;

	for (l = q->head; l != NULL; l = lnext) {
		struct outq_item *it, *next;

		lnext = l->next;
		for (it = l->head; it != NULL; it = next) {
			char target[512];
			size_t bytes = it->bytes;
			bool last = l->n == 1;
			int r;

			next = it->next;
			if (it->taken)
				continue;
			snprintf(target, sizeof target, "%s", it->target);
			if ((r = fn(ctx, &it->payload, &bytes, target, sizeof target)) < 0) {
				item_drop(q, it);
				n++;
				if (last)
					break;
				continue;
			}
			if (r > 0) {
				l->bytes = l->bytes - it->bytes + bytes;
				q->bytes = q->bytes - it->bytes + bytes;
				it->bytes = bytes;
				if (strcmp(target, it->target) != 0) {
					free(it->target);
					it->target = xstrdup(target);
				}
				n++;
			}
		}
	}
	return n;
}

void
outq_free(struct outq *q)
{
	if (q == NULL)
		return;
	/* taken items too: nothing is in flight once the queue goes */
	while (q->head != NULL) {
		if (q->head->head != NULL)
			item_drop(q, q->head->head);
		else
			lane_free(q, q->head);
	}
	free(q);
}
