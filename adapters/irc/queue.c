/* queue.c: per-target output queues served round-robin, so no channel or player starves the others. */
#include <stdlib.h>
#include <string.h>

#include "irc.h"

struct irc_qline {
	struct irc_qline *next;
	size_t len;
	char text[];
};

struct irc_qtarget {
	struct irc_qtarget *next;
	struct irc_qline *first, *last;
	size_t n;
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

int
irc_queue_push(struct irc_queue *q, const char *target, const char *line, size_t len)
{
	char key[64];
	struct irc_qtarget *t;
	struct irc_qline *l;

	irc_parse_casefold(key, sizeof key, target);
	if ((t = find(q, key)) == NULL) {
		t = xcalloc(1, sizeof *t);
		memcpy(t->name, key, sizeof key);
		if (q->tail != NULL)
			q->tail->next = t;
		else
			q->head = t;
		q->tail = t;
	}
	if (q->max_per_target != 0 && t->n >= q->max_per_target)
		return -1;
	l = xmalloc(sizeof *l + len + 1);
	l->next = NULL;
	l->len = len;
	memcpy(l->text, line, len);
	l->text[len] = '\0';
	if (t->last != NULL)
		t->last->next = l;
	else
		t->first = l;
	t->last = l;
	t->n++;
	q->lines++;
	return 0;
}

size_t
irc_queue_count(const struct irc_queue *q, const char *target)
{
	char key[64];
	const struct irc_qtarget *t;

	irc_parse_casefold(key, sizeof key, target);
	return (t = find(q, key)) != NULL ? t->n : 0;
}

size_t
irc_queue_pop(struct irc_queue *q, char *buf, size_t buflen)
{
	struct irc_qtarget *t = q->head;
	struct irc_qline *l;
	size_t n;

	if (t == NULL || buflen == 0)
		return 0;
	l = t->first;
	t->first = l->next;
	if (t->first == NULL)
		t->last = NULL;
	t->n--;
	q->lines--;
	/* the target leaves the head: to the tail if it has more, else freed */
	q->head = t->next;
	if (q->head == NULL)
		q->tail = NULL;
	t->next = NULL;
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
