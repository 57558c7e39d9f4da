/* adapters.c: the adapter table: one line per chat service compiled in. */
#include <string.h>

#include "bot.h"

extern const struct adapter_ops console_adapter_ops;
extern const struct adapter_ops irc_adapter_ops;
extern const struct adapter_ops matrix_adapter_ops;

static const struct adapter_ops *const adapter_table[] = {
	&console_adapter_ops,
	&irc_adapter_ops,
	&matrix_adapter_ops,
};

const struct adapter_ops *
adapter_ops_find(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof adapter_table / sizeof adapter_table[0]; i++)
		if (strcmp(adapter_table[i]->type, type) == 0)
			return adapter_table[i];
	return NULL;
}
