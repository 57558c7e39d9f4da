/* adapters.c: the adapter table: one line per chat service compiled in, handed to the bot by main.c. */
#include <stddef.h>

#include "adapter.h"
#include "adapters.h"

extern const struct adapter_ops console_adapter_ops;
extern const struct adapter_ops discord_adapter_ops;
extern const struct adapter_ops irc_adapter_ops;
extern const struct adapter_ops matrix_adapter_ops;
extern const struct adapter_ops web_adapter_ops;

static const struct adapter_ops *const adapters_list[] = {
	&console_adapter_ops,
	&discord_adapter_ops,
	&irc_adapter_ops,
	&matrix_adapter_ops,
	&web_adapter_ops,
};

const struct adapter_ops *const *
adapters_table(size_t *n)
{
	*n = sizeof adapters_list / sizeof adapters_list[0];
	return adapters_list;
}
