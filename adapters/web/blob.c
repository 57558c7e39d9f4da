/* blob.c: one message shared by every socket it goes to (a view sent to a thousand spectators is built once). */
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "web.h"
#include "xmalloc.h"

struct web_blob *
web_blob_new(const char *s, size_t len)
{
	struct web_blob *b = xcalloc(1, sizeof *b);

	b->refs = 1;
	b->story_round = -1;
	b->len = len;
	b->data = xmalloc(LWS_PRE + len + 1);
	memcpy(b->data + LWS_PRE, s, len);
	b->data[LWS_PRE + len] = '\0';
	return b;
}

struct web_blob *
web_blob_ref(struct web_blob *b)
{
	if (b != NULL)
		b->refs++;
	return b;
}

void
web_blob_unref(struct web_blob *b)
{
	if (b == NULL || --b->refs > 0)
		return;
	web_blob_unref(b->tail);
	free(b->data);
	free(b);
}
