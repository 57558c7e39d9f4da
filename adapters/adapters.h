/* adapters.h: the adapter table, for the composition root (bot/main.c) and tests only. */
#ifndef HF_ADAPTERS_H
#define HF_ADAPTERS_H

#include <stddef.h>

struct adapter_ops;

/* Every adapter compiled in, in table order; *n gets their number.  main.c
 * hands the table to bot_new: the core never names an adapter. */
const struct adapter_ops *const *adapters_table(size_t *n);

#endif
