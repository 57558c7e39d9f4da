/* rbuf.c: a growing text buffer for rendering (reused: no allocation once warm). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbuf.h"
#include "xmalloc.h"

static void
rbuf_need(struct rbuf *b, size_t n)
{
	size_t cap;
	char *s;

	if (b->len + n + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	s = xrealloc(b->s, cap);
	b->s = s;
	b->cap = cap;
}

void
rbuf_addn(struct rbuf *b, const char *s, size_t n)
{
	rbuf_need(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
rbuf_add(struct rbuf *b, const char *s)
{
	rbuf_addn(b, s, strlen(s));
}

void
rbuf_printf(struct rbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	rbuf_need(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
rbuf_reset(struct rbuf *b)
{
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

void
rbuf_free(struct rbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}
