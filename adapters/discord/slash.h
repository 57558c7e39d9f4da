/* slash.h: the bot's command table as Discord slash commands (one string option for a command's argument). */
#ifndef HF_DISCORD_SLASH_H
#define HF_DISCORD_SLASH_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The shape of the adapter API's struct adapter_command (issue 10's new API),
 * field for field, until that lands: phase 2 passes adapter_commands()'s
 * table in its place (or converts, one line a field). */
enum discord_arg { DISCORD_ARG_NONE, DISCORD_ARG_WORD, DISCORD_ARG_CARD, DISCORD_ARG_CARDS, DISCORD_ARG_TEXT };

struct discord_cmd {
	const char *name, *alias, *summary, *usage, *arg_name;
	enum discord_arg arg;
	bool arg_required;
};

#define DISCORD_SLASH_MAX        100   /* application-commands.mdx: 100 global CHAT_INPUT commands */
#define DISCORD_SLASH_DESC       100   /* a description's characters */
#define DISCORD_SLASH_ARG_MAX    200   /* longest argument a player may type (max_length) */

/* True if name is a valid CHAT_INPUT name we make: 1-32 of [a-z0-9_-]. */
bool discord_slash_name_ok(const char *name);

/* The JSON array for PUT /applications/{app}/commands (global: contexts guild
 * and bot DM) or .../guilds/{guild}/commands. Aliases are not registered
 * (Discord's picker finds commands by name). NULL with err if a command
 * cannot be one (a bad name, too many). */
json_t *discord_slash_commands(const struct discord_cmd *cmds, size_t n, bool global, char *err, size_t errlen);

#endif
