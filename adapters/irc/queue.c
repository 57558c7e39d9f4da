/* queue.c: output queues, one per lane (a room and its players' private lines, an asker's answers, a nick), served round-robin, the least recently served first, the games' lanes before strangers'; answers replaced by newer ones. */
#include <stdlib.h>
#include <string.h>

#include "irc.h"

struct irc_qline {
	struct irc_qline *next;
	uint64_t key;           /* 0: must be delivered; else an answer's key (target and supersede key) */
	size_t len;
	char text[];
};

struct irc_qtarget {
	struct irc_qtarget *next;
	struct irc_qline *first_line, *last;
	size_t n, nkeep;        /* lines, and lines that must be delivered */
	bool fresh;             /* had nothing queued, and has not been served since */
	bool first;             /* a game's lane, or a player's answers: served before the rest */
	char name[64];
};

void
irc_queue_init(struct irc_queue *q, size_t max_per_target)
{
	memset(q, 0, sizeof *q);
	q->max_per_target = max_per_target;
}

static struct irc_qtarget *
find(const struct irc_queue *q, const char *key)
{
	for (struct irc_qtarget *t = q->head; t != NULL; t = t->next)
		if (strcmp(t->name, key) == 0)
			return t;
	return NULL;
}

/* Takes l (the line after prev, or the first) out of t. */
static void
unlink_line(struct irc_queue *q, struct irc_qtarget *t, struct irc_qline *prev, struct irc_qline *l)
{
	if (prev != NULL)
		prev->next = l->next;
	else
		t->first_line = l->next;
	if (t->last == l)
		t->last = prev;
	t->n--;
	t->nkeep -= l->key == 0;
	q->lines--;
	free(l);
}

/* Removes t from the serving order and frees it (it holds no line). */
static void
drop_target(struct irc_queue *q, struct irc_qtarget *t)
{
	struct irc_qtarget *p, *prev = NULL;

	for (p = q->head; p != NULL && p != t; prev = p, p = p->next)
		;
	if (p == NULL)
		return;
	if (prev != NULL)
		prev->next = t->next;
	else
		q->head = t->next;
	if (q->tail == t)
		q->tail = prev;
	free(t);
}

int
irc_queue_push_key(struct irc_queue *q, const char *target, uint64_t key, const char *line, size_t len)
{
	return irc_queue_push_class(q, target, key, key == 0, line, len);
}

int
irc_queue_push_class(struct irc_queue *q, const char *target, uint64_t key, bool first, const char *line,
                     size_t len)
{
	char name[64];
	struct irc_qtarget *t;
	struct irc_qline *l;

	irc_parse_casefold(name, sizeof name, target);
	if ((t = find(q, name)) == NULL) {
		struct irc_qtarget **at = &q->head;

		/* A lane that had nothing queued goes next, after the others that
		 * just woke up (least recently served first): a quiet room's
		 * line, or one answer, waits for one line, not a round of the busy
		 * lanes; a lane served goes to the back, so none can take more. */
		t = xcalloc(1, sizeof *t);
		memcpy(t->name, name, sizeof name);
		t->fresh = true;
		while (*at != NULL && (*at)->fresh)
			at = &(*at)->next;
		t->next = *at;
		*at = t;
		if (t->next == NULL)
			q->tail = t;
	}
	if (q->max_per_target != 0 && t->n >= q->max_per_target) {
		if (t->n == 0)
			drop_target(q, t);
		return -1;
	}
	t->first = first;
	l = xmalloc(sizeof *l + len + 1);
	l->next = NULL;
	l->key = key;
	l->len = len;
	memcpy(l->text, line, len);
	l->text[len] = '\0';
	if (t->last != NULL)
		t->last->next = l;
	else
		t->first_line = l;
	t->last = l;
	t->n++;
	t->nkeep += key == 0;
	q->lines++;
	return 0;
}

int
irc_queue_push(struct irc_queue *q, const char *target, const char *line, size_t len)
{
	return irc_queue_push_class(q, target, 0, true, line, len);
}

size_t
irc_queue_drop(struct irc_queue *q, const char *target, uint64_t key)
{
	char name[64];
	struct irc_qtarget *t;
	struct irc_qline *l, *prev = NULL, *next;
	size_t n = 0;

	if (key == 0)
		return 0;
	irc_parse_casefold(name, sizeof name, target);
	if ((t = find(q, name)) == NULL)
		return 0;
	for (l = t->first_line; l != NULL; l = next) {
		next = l->next;
		if (l->key == key) {
			unlink_line(q, t, prev, l);
			n++;
		} else {
			prev = l;
		}
	}
	if (t->n == 0)
		drop_target(q, t);
	return n;
}

size_t
irc_queue_rewrite(struct irc_queue *q, int (*fn)(void *ctx, const char *line, size_t len, char *buf, size_t buflen),
                  void *ctx)
{
	struct irc_qtarget *t, *tnext;
	size_t changed = 0;

	for (t = q->head; t != NULL; t = tnext) {
		struct irc_qline *l, *prev = NULL, *next;

		tnext = t->next;
		for (l = t->first_line; l != NULL; l = next) {
			char buf[IRC_MAX_LINE + 1];
			int r = fn(ctx, l->text, l->len, buf, sizeof buf);

			next = l->next;
			if (r < 0) {
				unlink_line(q, t, prev, l);
				changed++;
				continue;
			}
			if (r > 0) {
				struct irc_qline *n = xmalloc(sizeof *n + (size_t)r + 1);

				n->next = l->next;
				n->key = l->key;
				n->len = (size_t)r < sizeof buf ? (size_t)r : sizeof buf - 1;
				memcpy(n->text, buf, n->len);
				n->text[n->len] = '\0';
				if (prev != NULL)
					prev->next = n;
				else
					t->first_line = n;
				if (t->last == l)
					t->last = n;
				free(l);
				l = n;
				changed++;
			}
			prev = l;
		}
		if (t->n == 0)
			drop_target(q, t);
	}
	return changed;
}

size_t
irc_queue_count(const struct irc_queue *q, const char *target)
{
	char name[64];
	const struct irc_qtarget *t;

	irc_parse_casefold(name, sizeof name, target);
	return (t = find(q, name)) != NULL ? t->n : 0;
}

size_t
irc_queue_count_keep(const struct irc_queue *q, const char *target)
{
	char name[64];
	const struct irc_qtarget *t;

	irc_parse_casefold(name, sizeof name, target);
	return (t = find(q, name)) != NULL ? t->nkeep : 0;
}

/* A stranger's question that may go after one game line: the first lane
 * of the rest that had nothing queued and has not been served since (one
 * question, not a backlog), when no more than IRC_QUEUE_FEW_RESTS lanes of
 * the rest wait (a bystander or two, not a flood); NULL if none. */
static struct irc_qtarget *
quick_rest(struct irc_queue *q, struct irc_qtarget **prev)
{
	struct irc_qtarget *t, *p = NULL, *found = NULL;
	size_t rests = 0;

	for (t = q->head; t != NULL; p = t, t = t->next) {
		if (t->first)
			continue;
		if (++rests > IRC_QUEUE_FEW_RESTS)
			return NULL;
		if (found == NULL && t->fresh) {
			found = t;
			*prev = p;
		}
	}
	return found;
}

/* The lane served next: the first in order of the class whose turn it is.
 * The games' lanes (and the players' answers) go first, but after
 * IRC_QUEUE_FIRST_RUN of their lines in a row a waiting lane of the rest
 * goes: 50 strangers' questions, each in a lane of its own, would otherwise
 * put the game's next line behind 50 of theirs, and a stranger still gets a
 * line in IRC_QUEUE_FIRST_RUN + 1 however busy the games are.  A bystander
 * with one question (quick_rest) waits for one game line only, so that she
 * is answered within two lines beside two busy tables, or beside a
 * flooder, whose backlog keeps to its line in IRC_QUEUE_FIRST_RUN + 1. */
static struct irc_qtarget *
next_lane(struct irc_queue *q, struct irc_qtarget **prev)
{
	bool want = q->run < IRC_QUEUE_FIRST_RUN;
	struct irc_qtarget *t, *p = NULL;

	if (q->run > 0 && (t = quick_rest(q, prev)) != NULL)
		return t;
	for (t = q->head; t != NULL && t->first != want; p = t, t = t->next)
		;
	if (t == NULL) {
		p = NULL;
		t = q->head;
	}
	*prev = p;
	return t;
}

size_t
irc_queue_pop(struct irc_queue *q, char *buf, size_t buflen)
{
	struct irc_qtarget *prev, *t;
	struct irc_qline *l;
	size_t n;

	if (q->head == NULL || buflen == 0)
		return 0;
	t = next_lane(q, &prev);
	if (t->first)
		q->run += q->run < IRC_QUEUE_FIRST_RUN;
	else
		q->run = 0;
	l = t->first_line;
	t->first_line = l->next;
	if (t->first_line == NULL)
		t->last = NULL;
	t->n--;
	t->nkeep -= l->key == 0;
	q->lines--;
	/* the target leaves its place: to the tail if it has more, else freed */
	if (prev != NULL)
		prev->next = t->next;
	else
		q->head = t->next;
	if (q->tail == t)
		q->tail = prev;
	t->next = NULL;
	t->fresh = false;
	if (t->n > 0) {
		if (q->tail != NULL)
			q->tail->next = t;
		else
			q->head = t;
		q->tail = t;
	} else {
		free(t);
	}
	n = l->len < buflen - 1 ? l->len : buflen - 1;
	memcpy(buf, l->text, n);
	buf[n] = '\0';
	free(l);
	return n;
}

void
irc_queue_clear(struct irc_queue *q)
{
	char buf[16];

	while (q->lines > 0)
		irc_queue_pop(q, buf, sizeof buf);
}
