/* commands.c: the bot's commands as Discord slash commands: registered by bulk overwrite at each start, per listed guild or globally, stale ones cleared. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "slash.h"

/* Where our commands were registered last (adapter state): the guild ids, or "" for globally. */
#define STATE_KEY "slash_guilds"

static void
on_registered(void *ctx, long status, json_t *body)
{
	struct discord_req *r = ctx;
	struct discord_client *c = r->c;
	const char *msg = json_string_value(json_object_get(body, "message"));
	const char *where = r->guild[0] != '\0' ? "in guild " : "globally";

	if (status == 200 && r->clear)
		discord_client_log(c, LOG_LVL_DEBUG, "stale slash commands cleared %s%s", where, r->guild);
	else if (status == 200)
		discord_client_log(c, LOG_LVL_INFO, "%zu slash commands registered %s%s", json_array_size(body), where,
		                   r->guild);
	else
		/* a guild the bot has left answers 403 to a clear: nothing to take away there */
		discord_client_log(c, r->clear ? LOG_LVL_NOTICE : LOG_LVL_ERR, "slash commands %s %s%s: HTTP %ld%s%s%s",
		                   r->clear ? "not cleared" : "not registered", where, r->guild, status,
		                   msg != NULL ? " (" : "", msg != NULL ? msg : "", msg != NULL ? ")" : "");
	discord_client_req_done(r);
}

/* PUT list (taken) globally (guild NULL) or in guild. */
static void
put(struct discord_client *c, const char *guild, json_t *list, bool clear)
{
	struct discord_req *r = discord_client_req(c, DISCORD_REQ_REGISTER);
	char path[200];

	r->clear = clear;
	if (guild != NULL) {
		snprintf(r->guild, sizeof r->guild, "%s", guild);
		snprintf(path, sizeof path, "/applications/%s/guilds/%s/commands", c->app_id, guild);
	} else
		snprintf(path, sizeof path, "/applications/%s/commands", c->app_id);
	discord_client_call(c, "PUT", path, list, r, on_registered);
}

static bool
listed(const struct discord_config *cfg, const char *guild)
{
	for (size_t i = 0; i < cfg->nguilds; i++)
		if (strcmp(cfg->guilds[i], guild) == 0)
			return true;
	return false;
}

/* application-commands.mdx: a bulk overwrite replaces the whole list of its
 * scope, and guild commands show beside global ones.  So the commands go
 * where the section says, and every other scope they were in is emptied:
 * no player sees each command twice, or commands of a guild no longer served. */
void
discord_commands_register(struct discord_client *c)
{
	size_t n, len;
	const struct adapter_command *cmds = adapter_commands(c->a, &n);
	char err[256], old[DISCORD_MAX_GUILDS * DISCORD_ID_LEN + 8], now[sizeof old];
	const char *p;
	json_t *list;

	if ((list = discord_slash_commands(cmds, n, c->cfg.nguilds == 0, err, sizeof err)) == NULL) {
		discord_client_log(c, LOG_LVL_ERR, "slash commands: %s", err);
		return;
	}
	c->registered = true;
	if (adapter_state_get(c->a, STATE_KEY, old, sizeof old) < 0)
		old[0] = '\0';
	/* guilds served before and not now */
	for (p = old; *p != '\0'; p += len) {
		char g[DISCORD_ID_LEN];

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len == 0 || len >= sizeof g)
			break;
		memcpy(g, p, len);
		g[len] = '\0';
		if (discord_text_snowflake(g) && !listed(&c->cfg, g))
			put(c, g, json_array(), true);
	}
	if (c->cfg.nguilds == 0) {
		put(c, NULL, list, false);
		adapter_state_set(c->a, STATE_KEY, "");
		return;
	}
	/* global commands (of a run without guilds) would show twice in these guilds */
	put(c, NULL, json_array(), true);
	now[0] = '\0';
	for (size_t i = 0; i < c->cfg.nguilds; i++) {
		put(c, c->cfg.guilds[i], json_deep_copy(list), false);
		snprintf(now + strlen(now), sizeof now - strlen(now), "%s%s", i > 0 ? " " : "", c->cfg.guilds[i]);
	}
	adapter_state_set(c->a, STATE_KEY, now);
	json_decref(list);
}
