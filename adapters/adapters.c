/* adapters.c: the adapter table (adapter.h's adapters_table): one line per chat service compiled in. */
#include <stddef.h>

#include "adapter.h"

extern const struct adapter_ops console_adapter_ops;
extern const struct adapter_ops discord_adapter_ops;
extern const struct adapter_ops irc_adapter_ops;
extern const struct adapter_ops matrix_adapter_ops;
extern const struct adapter_ops web_adapter_ops;

/* The optional services are in the table when the build has them (the
 * Makefile's WITH_* switches define HF_WITH_*). */
static const struct adapter_ops *const adapters_list[] = {
	&console_adapter_ops,
#ifdef HF_WITH_DISCORD
	&discord_adapter_ops,
#endif
	&irc_adapter_ops,
#ifdef HF_WITH_MATRIX
	&matrix_adapter_ops,
#endif
#ifdef HF_WITH_WEB
	&web_adapter_ops,
#endif
};

const struct adapter_ops *const *
adapters_table(size_t *n)
{
	*n = sizeof adapters_list / sizeof adapters_list[0];
	return adapters_list;
}
