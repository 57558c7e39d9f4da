/* tables.c: the tables the web was handed: each one's links (hashes only) and last views. */
#include <stdlib.h>

#include "web.h"
#include "xmalloc.h"

struct web_table *
web_tables_get(struct web_tables *t, int64_t id, bool create)
{
	struct web_table *x;

	for (x = t->head; x != NULL; x = x->next)
		if (x->id == id)
			return x;
	if (!create)
		return NULL;
	x = xcalloc(1, sizeof *x);
	x->id = id;
	x->next = t->head;
	t->head = x;
	t->n++;
	return x;
}

static void
table_free(struct web_table *x)
{
	int i;

	for (i = 0; i <= WEB_MAX_SEATS; i++)
		web_blob_unref(x->view[i]);
	free(x);
}

void
web_tables_del(struct web_tables *t, int64_t id)
{
	struct web_table **p, *x;

	for (p = &t->head; (x = *p) != NULL; p = &x->next)
		if (x->id == id) {
			*p = x->next;
			t->n--;
			table_free(x);
			return;
		}
}

void
web_tables_free(struct web_tables *t)
{
	while (t->head != NULL) {
		struct web_table *x = t->head;

		t->head = x->next;
		table_free(x);
	}
	t->n = 0;
}

bool
web_tables_find(const struct web_tables *t, const uint8_t hash[WEB_HASH_BYTES], int64_t *table, int *seat)
{
	const struct web_table *x;
	bool found = false;
	int i;

	/* every link is compared, the match or not: the time says nothing of which */
	for (x = t->head; x != NULL; x = x->next) {
		if (x->has_public && web_cap_equal(x->public_hash, hash) && !found) {
			found = true;
			*table = x->id;
			*seat = -1;
		}
		for (i = 0; i < WEB_MAX_SEATS; i++)
			if (x->has_seat[i] && web_cap_equal(x->seat_hash[i], hash) && !found) {
				found = true;
				*table = x->id;
				*seat = i;
			}
	}
	return found;
}
