/* secret.c: secret_wipe on explicit_bzero (glibc 2.25), which no optimiser turns into nothing. */
#include <stdlib.h>
#include <string.h>

#include "secret.h"

void
secret_wipe(void *p, size_t len)
{
	if (p != NULL && len > 0)
		explicit_bzero(p, len);
}

void
secret_free(char *s)
{
	if (s != NULL)
		secret_wipe(s, strlen(s));
	free(s);
}
