/* interaction.c: turns Discord's interaction and message payloads into command lines, user ids and shown names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "button.h"
#include "interaction.h"
#include "slash.h"
#include "utf8.h"

/* Copies a snowflake field; false if it is not one. */
static bool
id_of(json_t *v, char out[DISCORD_ID_LEN])
{
	const char *s = json_string_value(v);

	if (s == NULL || !discord_text_snowflake(s))
		return false;
	snprintf(out, DISCORD_ID_LEN, "%s", s);
	return true;
}

/* The name to show: the guild nick, else the global display name, else the username. */
static void
name_of(json_t *member, json_t *user, char out[DISCORD_MAX_NAME + 1])
{
	const char *cands[] = {
		json_string_value(json_object_get(member, "nick")),
		json_string_value(json_object_get(user, "global_name")),
		json_string_value(json_object_get(user, "username")),
	};

	out[0] = '\0';
	for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
		if (cands[i] != NULL &&
		    utf8_clean(cands[i], strlen(cands[i]), out, DISCORD_MAX_NAME + 1, DISCORD_MAX_NAME) > 0)
			return;
}

/* Where and who: guild ("" in a DM), channel, the user and the name to show. */
static int
where_who(json_t *d, json_t *member, json_t *u, const char **why, char *guild, char *channel, char *user,
          char *name, bool *direct)
{
	if (!id_of(json_object_get(d, "channel_id"), channel)) {
		*why = "no channel";
		return -1;
	}
	guild[0] = '\0';
	if (json_object_get(d, "guild_id") != NULL && !id_of(json_object_get(d, "guild_id"), guild)) {
		*why = "a bad guild id";
		return -1;
	}
	if (!id_of(json_object_get(u, "id"), user)) {
		*why = "no user";
		return -1;
	}
	name_of(member, u, name);
	if (name[0] == '\0')
		snprintf(name, DISCORD_MAX_NAME + 1, "%s", user);
	*direct = guild[0] == '\0';
	return 0;
}

/* "name value..." from a slash command's data: its string options in order. */
static int
command_line(json_t *data, char *line, size_t len, const char **why)
{
	const char *name = json_string_value(json_object_get(data, "name"));
	json_t *opts = json_object_get(data, "options"), *o;
	char val[DISCORD_MAX_IN + 1];
	size_t i, n;
	int w;

	if (name == NULL || !discord_slash_name_ok(name)) {
		*why = "not one of our command names";
		return -1;
	}
	w = snprintf(line, len, "%s", name);
	n = (size_t)w;
	if (opts != NULL && !json_is_array(opts)) {
		*why = "bad options";
		return -1;
	}
	json_array_foreach(opts, i, o) {
		const char *v = json_string_value(json_object_get(o, "value"));
		size_t vn;

		/* we register one string option, never subcommands */
		if (json_integer_value(json_object_get(o, "type")) != 3 || v == NULL) {
			*why = "an option that is not a string";
			return -1;
		}
		vn = utf8_clean(v, strlen(v), val, sizeof val, DISCORD_MAX_IN);
		if (vn == 0)
			continue;
		if (n + 1 + vn >= len) {
			*why = "too long";
			return -1;
		}
		line[n++] = ' ';
		memcpy(line + n, val, vn + 1);
		n += vn;
	}
	return 0;
}

int64_t
discord_snowflake_ms(const char *id)
{
	if (id == NULL || !discord_text_snowflake(id))
		return 0;
	return (int64_t)(strtoull(id, NULL, 10) >> 22) + 1420070400000LL;
}

const char *
discord_interaction_cannot_post(const struct discord_interaction *ia)
{
	unsigned long long p = ia->app_perms;

	if (ia->direct || !ia->has_app_perms || (p & DISCORD_PERM_ADMINISTRATOR) != 0)
		return NULL;
	if ((p & DISCORD_PERM_VIEW_CHANNEL) == 0)
		return "View Channel";
	if (ia->thread)
		return (p & DISCORD_PERM_SEND_IN_THREADS) == 0 ? "Send Messages in Threads" : NULL;
	return (p & DISCORD_PERM_SEND_MESSAGES) == 0 ? "Send Messages" : NULL;
}

/* The member's and the app's permissions in the channel, and whether it is a thread. */
static void
permissions(json_t *d, struct discord_interaction *out)
{
	/* the member's permissions in this channel, overwrites included (a decimal string) */
	{
		const char *perm = json_string_value(json_object_get(json_object_get(d, "member"), "permissions"));
		unsigned long long bits;
		char *end;

		if (perm != NULL && out->guild_id[0] != '\0' && perm[0] >= '0' && perm[0] <= '9') {
			bits = strtoull(perm, &end, 10);
			out->moderator = *end == '\0' &&
			                 (bits & (DISCORD_PERM_ADMINISTRATOR | DISCORD_PERM_MANAGE_MESSAGES)) != 0;
		}
	}
	/* receiving-and-responding.mdx: app_permissions, the app's in the channel (overwrites included) */
	{
		const char *perm = json_string_value(json_object_get(d, "app_permissions"));
		json_int_t ct = json_integer_value(json_object_get(json_object_get(d, "channel"), "type"));
		char *end;

		if (perm != NULL && perm[0] >= '0' && perm[0] <= '9') {
			out->app_perms = strtoull(perm, &end, 10);
			out->has_app_perms = *end == '\0';
		}
		out->thread = ct == 10 || ct == 11 || ct == 12;
	}
}

int
discord_interaction_parse(json_t *d, const char *app_id, struct discord_interaction *out, const char **why)
{
	json_t *data = json_object_get(d, "data");
	const char *tok = json_string_value(json_object_get(d, "token"));
	const char *app = json_string_value(json_object_get(d, "application_id"));
	json_int_t type = json_integer_value(json_object_get(d, "type"));
	json_t *u;
	size_t tn;

	memset(out, 0, sizeof *out);
	*why = NULL;
	if (!json_is_object(d) || !id_of(json_object_get(d, "id"), out->id)) {
		*why = "no interaction id";
		return -1;
	}
	if (app_id != NULL && (app == NULL || strcmp(app, app_id) != 0)) {
		*why = "for another application";
		return -1;
	}
	/* the token goes into a URL path: printable ASCII, no '/', '?' or '%' */
	if (tok == NULL || (tn = strlen(tok)) == 0 || tn > DISCORD_TOKEN_MAX ||
	    strspn(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~") != tn) {
		*why = "no usable token";
		return -1;
	}
	memcpy(out->token, tok, tn + 1);
	/* receiving-and-responding.mdx: member (with its user) in a guild, user in a DM */
	u = json_object_get(json_object_get(d, "member"), "user");
	if (u == NULL)
		u = json_object_get(d, "user");
	if (where_who(d, json_object_get(d, "member"), u, why, out->guild_id, out->channel_id, out->user_id,
	              out->user_name, &out->direct) < 0)
		return -1;
	permissions(d, out);
	if (!json_is_object(data)) {
		*why = "no data";
		return -1;
	}
	if (type == 2) {
		/* CHAT_INPUT only: user and message commands are not ours */
		if (json_integer_value(json_object_get(data, "type")) != 1) {
			*why = "not a slash command";
			return -1;
		}
		out->kind = DISCORD_IA_COMMAND;
		return command_line(data, out->line, sizeof out->line, why);
	}
	if (type == 3) {
		const char *cid = json_string_value(json_object_get(data, "custom_id"));

		if (json_integer_value(json_object_get(data, "component_type")) != 2 || cid == NULL ||
		    discord_button_parse_n(cid, out->line, sizeof out->line, out->target, sizeof out->target,
		                           &out->prompt) < 0) {
			*why = "not one of our buttons";
			return -1;
		}
		if (!id_of(json_object_get(json_object_get(d, "message"), "id"), out->message_id)) {
			*why = "a button without its message";
			return -1;
		}
		/* a button that runs a command with its argument ("My page": web new) */
		if (discord_button_command(out->line) != out->line)
			snprintf(out->line, sizeof out->line, "%s", discord_button_command(out->line));
		out->kind = DISCORD_IA_BUTTON;
		return 0;
	}
	*why = "an interaction type the bot does not use";
	return -1;
}

int
discord_message_parse(json_t *d, const char *self_id, struct discord_message *out, const char **why)
{
	json_t *author = json_object_get(d, "author");
	const char *content = json_string_value(json_object_get(d, "content"));
	json_int_t type = json_integer_value(json_object_get(d, "type"));

	memset(out, 0, sizeof *out);
	*why = NULL;
	if (!json_is_object(d) || !id_of(json_object_get(d, "id"), out->id)) {
		*why = "no message id";
		return -1;
	}
	/* 0 DEFAULT, 19 REPLY: what people type; the rest are system messages */
	if (type != 0 && type != 19) {
		*why = "a system message";
		return -1;
	}
	if (json_is_true(json_object_get(author, "bot")) || json_object_get(d, "webhook_id") != NULL) {
		*why = "from a bot or webhook";
		return -1;
	}
	/* gateway-events.mdx: MESSAGE_CREATE's member is partial (no user): the author is the user */
	if (where_who(d, json_object_get(d, "member"), author, why, out->guild_id, out->channel_id, out->user_id,
	              out->user_name, &out->direct) < 0)
		return -1;
	if (self_id != NULL && strcmp(out->user_id, self_id) == 0) {
		*why = "our own";
		return -1;
	}
	if (content == NULL || utf8_clean(content, strlen(content), out->text, sizeof out->text,
	                                          DISCORD_MAX_IN) == 0) {
		/* without MESSAGE_CONTENT, guild messages come with content "" */
		*why = "no content";
		return -1;
	}
	return 0;
}
