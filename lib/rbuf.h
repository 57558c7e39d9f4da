/* rbuf.h: a growing text buffer, always NUL-terminated (reused: no allocation once warm). */
#ifndef HF_RBUF_H
#define HF_RBUF_H

#include <stddef.h>

struct rbuf {
	char *s;                 /* NULL until something is added */
	size_t len, cap;
};

void rbuf_add(struct rbuf *b, const char *s);
void rbuf_addn(struct rbuf *b, const char *s, size_t n);
void rbuf_printf(struct rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rbuf_reset(struct rbuf *b);
void rbuf_free(struct rbuf *b);

#endif
