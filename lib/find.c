/* find.c: find_str and find_str_ptr, one walk over the records for both kinds of member. */
#include <stdbool.h>
#include <string.h>

#include "find.h"

static void *
walk(const char *rec, size_t n, size_t size, size_t off, const char *key, bool ptr)
{
	for (; n > 0; n--, rec += size) {
		const char *s = rec + off;

		/* the member is a pointer: its bytes copied, whether it points to
		 * char or const char (no read through another pointer type) */
		if (ptr)
			memcpy(&s, rec + off, sizeof s);
		if (s != NULL && strcmp(s, key) == 0)
			return (void *)rec;
	}
	return NULL;
}

void *
find_str(const void *base, size_t n, size_t size, size_t off, const char *key)
{
	return walk(base, n, size, off, key, false);
}

void *
find_str_ptr(const void *base, size_t n, size_t size, size_t off, const char *key)
{
	return walk(base, n, size, off, key, true);
}
