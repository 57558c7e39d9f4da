/* memstore.h: an in-memory key-value store for tests of code that persists through callbacks. */
#ifndef HF_TEST_MEMSTORE_H
#define HF_TEST_MEMSTORE_H

#include <stddef.h>

struct memstore;

struct memstore *memstore_new(void);
void memstore_free(struct memstore *s);
int  memstore_get(void *ctx, const char *key, char *buf, size_t len);
int  memstore_set(void *ctx, const char *key, const char *value);
int  memstore_del(void *ctx, const char *key);
/* In key order, like the bot's adapter_state_each. */
int  memstore_each(void *ctx, const char *prefix,
                   void (*fn)(void *fctx, const char *key, const char *value), void *fctx);
size_t memstore_count(const struct memstore *s, const char *prefix);

#endif
