/* queue.c: the items between the loop and the web server's thread. */
#include <stdlib.h>

#include "web.h"

void
web_queue_push(struct web_queue *q, struct web_item *it)
{
	it->next = NULL;
	if (q->tail != NULL)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
}

struct web_item *
web_queue_take(struct web_queue *q)
{
	struct web_item *h = q->head;

	q->head = q->tail = NULL;
	return h;
}

void
web_item_free(struct web_item *it)
{
	free(it->text);
	free(it);
}
