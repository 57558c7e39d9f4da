/* links.c: the tables' links kept in the adapter's store, so that they outlive a restart: seats' as hashes only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "web.h"

/* One row per table: key "link ID", value seven fields separated by spaces:
 * the public link's token (the table's link is public, it is in the room's
 * line and !watch must give the same one again, so its token is kept), then
 * each seat's link as the hex of its SHA-256 (a seat's token is never kept),
 * "-" where there is none.  Only the loop's thread reads or writes the store. */
#define LINKS_PREFIX   "link "

static int
links_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Exactly 2 * n lowercase hex digits at s: 0, else -1. */
static int
links_unhex(const char *s, size_t len, uint8_t *b, size_t n)
{
	size_t i;

	if (len != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		int hi = links_nibble(s[2 * i]), lo = links_nibble(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

void
web_links_value(const struct web_table *t, char *out, size_t len)
{
	char hex[WEB_HASH_BYTES * 2 + 1];
	size_t n;
	int i;

	n = (size_t)snprintf(out, len, "%s", t->has_public ? t->public_token : "-");
	for (i = 0; i < WEB_MAX_SEATS && n < len; i++) {
		if (t->has_seat[i])
			web_cap_hex(hex, t->seat_hash[i], WEB_HASH_BYTES);
		n += (size_t)snprintf(out + n, len - n, " %s", t->has_seat[i] ? hex : "-");
	}
}

/* Parses a row's value into t: 0, or -1 if it is not one this file wrote. */
static int
links_parse(const char *v, struct web_table *t)
{
	const char *f = v, *sp;
	size_t n;
	int i;

	if (strlen(v) >= WEB_LINKS_VALUE)
		return -1;
	for (i = -1; i < WEB_MAX_SEATS; i++) {
		sp = strchr(f, ' ');
		n = sp != NULL ? (size_t)(sp - f) : strlen(f);
		if ((sp == NULL) != (i == WEB_MAX_SEATS - 1))
			return -1;
		if (n == 1 && f[0] == '-')
			;
		else if (i < 0) {
			if (web_cap_hash(f, n, t->public_hash) < 0)
				return -1;
			memcpy(t->public_token, f, n);
			t->public_token[n] = '\0';
			t->has_public = true;
		} else {
			if (links_unhex(f, n, t->seat_hash[i], WEB_HASH_BYTES) < 0)
				return -1;
			t->has_seat[i] = true;
		}
		f = sp != NULL ? sp + 1 : f + n;
	}
	return 0;
}

static void
links_key(char *key, size_t len, int64_t table)
{
	snprintf(key, len, LINKS_PREFIX "%lld", (long long)table);
}

void
web_links_save(struct web *w, const char *value, int64_t table)
{
	char key[32];

	links_key(key, sizeof key, table);
	if (adapter_state_set(w->a, key, value) < 0)
		adapter_log(w->a, LOG_LVL_WARNING, "the links of table %lld are not kept: they end with a restart",
		            (long long)table);
}

void
web_links_forget(struct web *w, int64_t table)
{
	char key[32];

	links_key(key, sizeof key, table);
	adapter_state_del(w->a, key);
}

struct links_load {
	struct web *w;
	size_t loaded, bad, over, gone;
};

static void
links_row(void *ctx, const char *key, const char *value)
{
	struct links_load *l = ctx;
	struct web_table row, *t;
	long long id;
	char *end, again[32];

	id = strtoll(key + strlen(LINKS_PREFIX), &end, 10);
	links_key(again, sizeof again, id);
	memset(&row, 0, sizeof row);
	if (*end != '\0' || strcmp(again, key) != 0 || links_parse(value, &row) < 0) {
		/* not a row this file wrote: it opens nothing, and goes */
		adapter_log(l->w->a, LOG_LVL_WARNING, "a stored link row \"%.40s\" is not one: dropped", key);
		adapter_state_del(l->w->a, key);
		l->bad++;
		return;
	}
	if (!adapter_table_live(l->w->a, id)) {
		/* the game ended, or did not come back: its links die */
		adapter_state_del(l->w->a, key);
		l->gone++;
		return;
	}
	pthread_mutex_lock(&l->w->lock);
	if (web_tables_get(&l->w->tables, id, false) != NULL)
		;  /* made since the store opened: the newer */
	else if (l->w->tables.n >= WEB_LINKS_MAX)
		l->over++;
	else {
		t = web_tables_get(&l->w->tables, id, true);
		t->has_public = row.has_public;
		memcpy(t->public_token, row.public_token, sizeof t->public_token);
		memcpy(t->public_hash, row.public_hash, sizeof t->public_hash);
		memcpy(t->has_seat, row.has_seat, sizeof t->has_seat);
		memcpy(t->seat_hash, row.seat_hash, sizeof t->seat_hash);
		l->loaded++;
	}
	pthread_mutex_unlock(&l->w->lock);
	explicit_bzero(&row, sizeof row);
}

void
web_links_load(struct web *w)
{
	struct links_load l = { .w = w };

	if (adapter_state_each(w->a, LINKS_PREFIX, links_row, &l) < 0)
		return;
	adapter_log(w->a, LOG_LVL_INFO, "links of %zu tables kept from before (%zu of ended games dropped)", l.loaded,
	            l.gone);
	if (l.over > 0)
		adapter_log(w->a, LOG_LVL_WARNING, "%zu tables' links past the bound of %d not loaded", l.over,
		            WEB_LINKS_MAX);
}
