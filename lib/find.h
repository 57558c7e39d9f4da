/* find.h: the first record of an array whose string member equals a key: the lookup of the small tables adapters keep by room, channel or user. */
#ifndef HF_FIND_H
#define HF_FIND_H

#include <stddef.h>

/* The first of the n records at base, each size bytes, whose string at
 * offset off equals key (strcmp; key is not NULL), or NULL.  find_str: the
 * record holds the string, a char array member; find_str_ptr: it holds a
 * char * to it, and a NULL one matches nothing.  A linear walk: the
 * tables it serves are bounded and small.  Called through the macros. */
void *find_str(const void *base, size_t n, size_t size, size_t off, const char *key);
void *find_str_ptr(const void *base, size_t n, size_t size, size_t off, const char *key);

/* &array[i] for the first i < n whose member, a char array, is key; NULL
 * if none: FIND_STR(c->prompts, c->nprompts, channel, id).  The record's
 * size and the member's offset come from the array's own type, so the
 * call stays typed (array is evaluated once, and may be NULL when n is 0). */
#define FIND_STR(array, n, member, key) \
	find_str((array), (n), sizeof *(array), offsetof(__typeof__(*(array)), member), (key))
/* The same where member is a char *. */
#define FIND_STR_PTR(array, n, member, key) \
	find_str_ptr((array), (n), sizeof *(array), offsetof(__typeof__(*(array)), member), (key))

#endif
