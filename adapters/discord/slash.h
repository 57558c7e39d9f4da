/* slash.h: the bot's command table as Discord slash commands (one string option for a command's argument). */
#ifndef HF_DISCORD_SLASH_H
#define HF_DISCORD_SLASH_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "adapter.h"

#define DISCORD_SLASH_MAX        100   /* application-commands.mdx: 100 global CHAT_INPUT commands */
#define DISCORD_SLASH_DESC       100   /* a description's characters */
#define DISCORD_SLASH_ARG_MAX    200   /* longest argument a player may type (max_length) */

/* True if name is a valid CHAT_INPUT name we make: 1-32 of [a-z0-9_-]. */
bool discord_slash_name_ok(const char *name);

/* The JSON array for PUT /applications/{app}/commands (global: contexts guild
 * and bot DM) or .../guilds/{guild}/commands, from the bot's command table
 * (adapter_commands). Aliases are not registered (Discord's picker finds
 * commands by name). NULL with err if a command cannot be one (a bad name,
 * too many). */
json_t *discord_slash_commands(const struct adapter_command *cmds, size_t n, bool global, char *err,
                               size_t errlen);

/* The command named name in cmds, or NULL. */
const struct adapter_command *discord_slash_find(const struct adapter_command *cmds, size_t n, const char *name);

#endif
