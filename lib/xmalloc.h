/* xmalloc.h: the one allocation policy: allocate or abort, as Redis's zmalloc does. */
#ifndef HF_XMALLOC_H
#define HF_XMALLOC_H

#include <stddef.h>

/* Each returns memory or, when there is none, says so on stderr and aborts:
 * a daemon that carries on without memory loses replies or games silently,
 * and every game is committed before it is told, so a restart loses nothing.
 * xcalloc zeroes; xrealloc(NULL, n) allocates; xstrdup(NULL) is NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* xrealloc of count elements of size, refusing an overflowing product. */
void *xreallocarray(void *p, size_t count, size_t size);
char *xstrdup(const char *s);

#endif
