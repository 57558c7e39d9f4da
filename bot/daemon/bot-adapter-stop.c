/* bot-adapter-stop.c: adapters stopped: all at the daemon's stop, or one that a reload removes, the reply queue flushed or dropped for them first. */
#include <stdlib.h>
#include <string.h>

#include "daemon.h"

void
bot_adapter_stop_all(struct bot *b, const char *quit)
{
	size_t i;

	reply_flush(b);
	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->stop != NULL)
			a->ops->stop(a, quit);
	}
}

void
bot_adapter_remove(struct bot *b, size_t at, const char *quit)
{
	struct adapter *a = &b->adapters[at]->ad;

	if (a->ops->stop != NULL)
		a->ops->stop(a, quit);
	if (a->ops->free != NULL)
		a->ops->free(a);
	free(b->adapters[at]);
	memmove(&b->adapters[at], &b->adapters[at + 1], (b->nadapters - at - 1) * sizeof *b->adapters);
	b->nadapters--;
}
