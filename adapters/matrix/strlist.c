/* strlist.c: small unordered sets of strings (rooms being joined, users awaiting a direct room, encrypted rooms). */
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

bool
matrix_strlist_has(char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

void
matrix_strlist_add(char ***list, size_t *n, const char *s)
{
	if (matrix_strlist_has(*list, *n, s))
		return;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = xstrdup(s);
}

void
matrix_strlist_del(char **list, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], s) == 0) {
			free(list[i]);
			list[i] = list[--*n];
			return;
		}
}

void
matrix_strlist_free(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}
