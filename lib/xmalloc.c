/* xmalloc.c: allocate or abort: the one out-of-memory policy for lib/, bot/ and the adapters. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void
xmalloc_oom(size_t n)
{
	/* No allocation, no stdio buffering: stderr is unbuffered. */
	fprintf(stderr, "<2>out of memory (%zu bytes): stopping; every game is saved\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		xmalloc_oom(n);
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (p == NULL)
		xmalloc_oom(count * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		xmalloc_oom(n);
	return q;
}

void *
xreallocarray(void *p, size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size)
		xmalloc_oom(SIZE_MAX);
	return xrealloc(p, count * size);
}

char *
xstrdup(const char *s)
{
	size_t n;
	char *d;

	if (s == NULL)
		return NULL;
	n = strlen(s) + 1;
	d = xmalloc(n);
	memcpy(d, s, n);
	return d;
}
