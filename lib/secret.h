/* secret.h: wiping a secret (a token, a password, a key) from memory in a way the compiler may not remove. */
#ifndef HF_SECRET_H
#define HF_SECRET_H

#include <stddef.h>

/* Zeroes len bytes at p (p may be NULL when len is 0).  A plain memset just
 * before free is a dead store that gcc -O2 drops; explicit_bzero is not. */
void secret_wipe(void *p, size_t len);
/* Wipes the string s (to its NUL) and frees it; NULL does nothing. */
void secret_free(char *s);

#endif
