/* memstore.c: an in-memory key-value store (sorted pairs) standing in for the bot's adapter state in tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memstore.h"

struct pair { char *key, *value; };

struct memstore {
	struct pair *p;
	size_t n, cap;
};

struct memstore *
memstore_new(void)
{
	return calloc(1, sizeof(struct memstore));
}

void
memstore_free(struct memstore *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->p[i].key);
		free(s->p[i].value);
	}
	free(s->p);
	free(s);
}

static size_t
find(const struct memstore *s, const char *key, int *found)
{
	size_t i;

	*found = 0;
	for (i = 0; i < s->n; i++) {
		int c = strcmp(s->p[i].key, key);

		if (c == 0) {
			*found = 1;
			return i;
		}
		if (c > 0)
			break;
	}
	return i;
}

int
memstore_get(void *ctx, const char *key, char *buf, size_t len)
{
	struct memstore *s = ctx;
	int found;
	size_t i = find(s, key, &found);

	if (!found)
		return -1;
	snprintf(buf, len, "%s", s->p[i].value);
	return 0;
}

int
memstore_set(void *ctx, const char *key, const char *value)
{
	struct memstore *s = ctx;
	int found;
	size_t i = find(s, key, &found);

	if (found) {
		free(s->p[i].value);
		s->p[i].value = strdup(value);
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct pair *p = realloc(s->p, cap * sizeof *p);

		if (p == NULL)
			return -1;
		s->p = p;
		s->cap = cap;
	}
	memmove(&s->p[i + 1], &s->p[i], (s->n - i) * sizeof *s->p);
	s->p[i].key = strdup(key);
	s->p[i].value = strdup(value);
	s->n++;
	return 0;
}

int
memstore_del(void *ctx, const char *key)
{
	struct memstore *s = ctx;
	int found;
	size_t i = find(s, key, &found);

	if (!found)
		return -1;
	free(s->p[i].key);
	free(s->p[i].value);
	memmove(&s->p[i], &s->p[i + 1], (s->n - i - 1) * sizeof *s->p);
	s->n--;
	return 0;
}

int
memstore_each(void *ctx, const char *prefix, void (*fn)(void *fctx, const char *key, const char *value), void *fctx)
{
	struct memstore *s = ctx;
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < s->n; i++)
		if (strncmp(s->p[i].key, prefix, plen) == 0)
			fn(fctx, s->p[i].key, s->p[i].value);
	return 0;
}

size_t
memstore_count(const struct memstore *s, const char *prefix)
{
	size_t n = 0, plen = strlen(prefix);

	for (size_t i = 0; i < s->n; i++)
		if (strncmp(s->p[i].key, prefix, plen) == 0)
			n++;
	return n;
}
