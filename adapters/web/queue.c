/* queue.c: the items between the loop and the web server's thread. */
#include <stdlib.h>

#include "web.h"

void
web_queue_push(struct fifo *q, struct web_item *it)
{
	fifo_push(q, &it->link);
}

struct web_item *
web_queue_take(struct fifo *q)
{
	return (struct web_item *)fifo_take_all(q);
}

struct web_item *
web_item_next(const struct web_item *it)
{
	return (struct web_item *)it->link.next;
}

void
web_item_free(struct web_item *it)
{
	free(it->text);
	free(it);
}
