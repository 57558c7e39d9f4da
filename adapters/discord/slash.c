/* slash.c: builds the slash command list Discord registers by bulk overwrite, from the bot's command table. */
#include <stdio.h>
#include <string.h>

#include "slash.h"
#include "text.h"
#include "utf8.h"

bool
discord_slash_name_ok(const char *name)
{
	size_t n = strlen(name);

	/* application-commands.mdx's naming rule, in its ASCII lower-case part */
	return n >= 1 && n <= 32 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* A 1-100 character description from text: cut on a word and marked with "…" if too long. */
static json_t *
description(const char *text, const char *fallback)
{
	char buf[512];
	size_t len, next, cut;

	if (text == NULL || text[0] == '\0')
		text = fallback;
	len = utf8_clean(text, strlen(text), buf, sizeof buf, sizeof buf - 1);
	if (len == 0)
		return json_string(fallback);
	if (discord_text_units(buf, len) <= DISCORD_SLASH_DESC)
		return json_stringn(buf, len);
	cut = discord_text_chunk(buf, len, DISCORD_SLASH_DESC - 1, &next);
	while (cut > 0 && buf[cut - 1] == ' ')
		cut--;
	/* U+2026 is one unit: cut + 1 <= 100 */
	memcpy(buf + cut, "\xe2\x80\xa6", 4);
	return json_string(buf);
}

static const char *
default_arg_name(enum adapter_arg a)
{
	switch (a) {
	case ADAPTER_ARG_CARD: return "card";
	case ADAPTER_ARG_CARDS: return "cards";
	case ADAPTER_ARG_WORD: return "word";
	default: return "text";
	}
}

const struct adapter_command *
discord_slash_find(const struct adapter_command *cmds, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (cmds[i].name != NULL && strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

json_t *
discord_slash_commands(const struct adapter_command *cmds, size_t n, bool global, char *err, size_t errlen)
{
	json_t *list = json_array();

	if (n > DISCORD_SLASH_MAX) {
		snprintf(err, errlen, "%zu commands: Discord takes at most %d", n, DISCORD_SLASH_MAX);
		json_decref(list);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct adapter_command *c = &cmds[i];
		const char *an = c->arg_name != NULL && c->arg_name[0] != '\0' ? c->arg_name : default_arg_name(c->arg);
		json_t *cmd;

		if (c->name == NULL || !discord_slash_name_ok(c->name)) {
			snprintf(err, errlen, "command \"%s\" cannot be a slash command: names are 1-32 of a-z 0-9 _ -",
			         c->name != NULL ? c->name : "");
			json_decref(list);
			return NULL;
		}
		cmd = json_pack("{s:s,s:i,s:o}", "name", c->name, "type", 1, "description",
		                description(c->summary, c->name));
		if (c->arg != ADAPTER_ARG_NONE) {
			if (!discord_slash_name_ok(an)) {
				snprintf(err, errlen, "command \"%s\": argument name \"%s\" is not a valid option name",
				         c->name, an);
				json_decref(cmd);
				json_decref(list);
				return NULL;
			}
			/* one string option: "/meld cards:9 9 2", "/discard card:7" */
			json_object_set_new(cmd, "options",
			                    json_pack("[{s:i,s:s,s:o,s:b,s:i}]", "type", 3, "name", an, "description",
			                              description(c->usage, an), "required", c->arg_required,
			                              "max_length", DISCORD_SLASH_ARG_MAX));
		}
		if (global) {
			/* in guilds and in DMs with the bot (guild commands are only ever in their guild) */
			json_object_set_new(cmd, "contexts", json_pack("[i,i]", 0, 1));
			/* application-commands.mdx: installed to guilds only (GUILD_INSTALL), whatever
			 * the app's default install settings say */
			json_object_set_new(cmd, "integration_types", json_pack("[i]", 0));
		}
		json_array_append_new(list, cmd);
	}
	return list;
}
