/* fifo.c: a first-in first-out list of the caller's items (the queues between a thread and the loop). */
#include <stddef.h>

#include "fifo.h"

void
fifo_push(struct fifo *f, struct fifo_link *it)
{
	it->next = NULL;
	if (f->tail != NULL)
		f->tail->next = it;
	else
		f->head = it;
	f->tail = it;
}

struct fifo_link *
fifo_pop(struct fifo *f)
{
	struct fifo_link *h = f->head;

	if (h != NULL && (f->head = h->next) == NULL)
		f->tail = NULL;
	return h;
}

struct fifo_link *
fifo_take_all(struct fifo *f)
{
	struct fifo_link *h = f->head;

	f->head = f->tail = NULL;
	return h;
}
