/* events.c: what Discord tells the bot: slash commands, button presses and (with message_commands) typed commands, as bot events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer.h"
#include "button.h"
#include "client.h"
#include "interaction.h"
#include "loop.h"
#include "slash.h"

/* Hands the bot one message from user in channel, as said by player
 * "discord:<id>": a typed line, or (command not NULL) a command as data. */
static void
emit(struct discord_client *c, uint64_t ref, const char *user, const char *name, const char *channel, bool direct,
     const struct command *command, const char *text)
{
	char player[DISCORD_ID_LEN + 16];
	const struct bot_event ev = {
		.type = BOT_EV_MESSAGE, .room = channel, .user_id = player, .user_name = name,
		.command = command, .text = command != NULL ? NULL : text, .direct = direct, .ref = ref,
	};

	if (discord_text_player(user, player, sizeof player) < 0)
		return;
	adapter_emit(c->a, &ev);
}

/* An interaction delivered well after it was made (replayed by a Resume
 * after the link was down) is not acted on: it can no longer be answered,
 * and what it asked for was meant for a game as it was then. Its age is
 * read from its snowflake, less the smallest age seen (the clocks' skew). */
static bool
too_old(struct discord_client *c, const struct discord_interaction *ia)
{
	struct timespec ts;
	int64_t made = discord_snowflake_ms(ia->id), age;

	if (made == 0 || clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return false;
	age = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - made;
	if (!c->ia_skew_set || age < c->ia_skew) {
		c->ia_skew = age;
		c->ia_skew_set = true;
	}
	if (age - c->ia_skew <= DISCORD_IA_MAX_AGE_MS)
		return false;
	discord_client_log(c, LOG_LVL_NOTICE, "interaction %s arrived %lld ms after it was made (replayed late): too "
	                   "old to answer, not acted on", ia->id, (long long)(age - c->ia_skew));
	return true;
}

/* The pressed message's components with only its My hand button and its
 * link (the table's page) left (an empty list if it had neither). */
static json_t *
hand_only(json_t *d)
{
	json_t *rows = json_object_get(json_object_get(d, "message"), "components"), *row, *b, *out = NULL;
	size_t i, j;
	const char *hand[] = { DISCORD_BUTTON_HAND }, *url = NULL, *label = NULL;

	json_array_foreach(rows, i, row)
		json_array_foreach(json_object_get(row, "components"), j, b) {
			const char *id = json_string_value(json_object_get(b, "custom_id"));

			if (id != NULL && strcmp(id, "hf:" DISCORD_BUTTON_HAND ":") == 0 && out == NULL)
				out = discord_button_rows(hand, 1, NULL);
			else if (json_integer_value(json_object_get(b, "style")) == 5 && url == NULL) {
				url = json_string_value(json_object_get(b, "url"));
				label = json_string_value(json_object_get(b, "label"));
			}
		}
	if (url != NULL)
		discord_button_add_link(&out, label != NULL ? label : "Table page", url);
	return out != NULL ? out : json_array();
}

/* The commands that open or join a table: where the bot may not post, the
 * game could not be followed (turn prompts, computer turns, hands offered). */
static bool
opens_table(const char *line)
{
	static const char *const names[] = { "new", "play", "join" };
	size_t n = strcspn(line, " ");

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == n && strncmp(line, names[i], n) == 0)
			return true;
	return false;
}

/* app_permissions says whether the bot may post in the channel: a table is
 * refused there (naming what is missing), and a channel that refused a line
 * before is posted in again once it says the bot may. */
static bool
refuse_unpostable(struct discord_client *c, uint64_t ref, const struct discord_interaction *ia)
{
	const char *missing = discord_interaction_cannot_post(ia);
	char line[400];

	if (missing == NULL) {
		if (ia->has_app_perms)
			discord_refused_clear(c, ia->channel_id);
		return false;
	}
	if (ia->kind != DISCORD_IA_COMMAND || !opens_table(ia->line))
		return false;
	snprintf(line, sizeof line, "I cannot host a game in this %s: I lack the **%s** permission here, so the "
	         "turns and the computer players' moves could not be shown. Ask a server admin to give it to me "
	         "(or my role) in this %s, or play in another channel.", ia->thread ? "thread" : "channel", missing,
	         ia->thread ? "thread's channel" : "channel");
	discord_outbox_say_private(c, ref, line);
	return true;
}

/* An interaction's command as data: its name, then its option's value
 * read as the bot's table says that command's argument is (cards in
 * groups, or words); a button's action and its word ("web new"). */
static void
command_of(struct discord_client *c, const char *line, struct command *cmd)
{
	const struct adapter_command *cmds, *ac;
	char name[COMMAND_NAME_MAX + 1];
	size_t n = strcspn(line, " "), k;

	snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), line);
	command_init(cmd, name);
	cmds = adapter_commands(c->a, &k);
	ac = discord_slash_find(cmds, k, name);
	command_args(cmd, line + n, ac != NULL && (ac->arg == ADAPTER_ARG_CARDS || ac->arg == ADAPTER_ARG_CARD));
}

static void
on_interaction(struct discord_client *c, json_t *d)
{
	struct discord_interaction ia;
	struct command cmd;
	const char *why;
	uint64_t ref;

	if (c->ans == NULL)
		return;
	if (discord_interaction_parse(d, c->app_id, &ia, &why) < 0) {
		discord_client_log(c, LOG_LVL_DEBUG, "interaction ignored: %s", why);
		return;
	}
	if (too_old(c, &ia))
		return;
	ref = strtoull(ia.id, NULL, 10);
	if (discord_answer_begin(c->ans, ref, ia.id, ia.token, ia.channel_id, ia.user_id, ia.kind == DISCORD_IA_BUTTON,
	                         loop_now(c->loop)) < 0) {
		/* at debug: a member's flood of them must not flood the log too */
		discord_client_log(c, LOG_LVL_DEBUG, "interaction %s not answered (a repeat, or too many of %s's at once)",
		                   ia.id, ia.user_id);
		return;
	}
	discord_recent_event(c->recent, ref, DISCORD_RECENT_INTERACTION, ia.user_id, ia.channel_id);
	discord_recent_set_name(c->recent, ia.user_id, ia.user_name);
	if (ia.guild_id[0] != '\0' && !discord_config_guild_ok(&c->cfg, ia.guild_id)) {
		discord_outbox_say_private(c, ref, "This bot does not play in this server.");
		return;
	}
	if (refuse_unpostable(c, ref, &ia))
		return;
	if (ia.kind == DISCORD_IA_BUTTON && ia.target[0] != '\0' && ia.prompt != discord_prompt_current(c, ia.channel_id)) {
		/* yesterday's Draw must not act on whatever is pending now */
		discord_outbox_say_private(c, ref, "That button is from an earlier turn and does nothing now: use the "
		                           "buttons of the latest turn line, or the slash commands.");
		return;
	}
	if (ia.kind == DISCORD_IA_BUTTON && ia.target[0] != '\0' && strcmp(ia.target, ia.user_id) == 0)
		/* the player moves: the turn line's moves go away at once (My hand stays) */
		discord_answer_update(c->ans, ref, json_pack("{s:o}", "components", hand_only(d)), loop_now(c->loop));
	if (ia.kind == DISCORD_IA_COMMAND && strncmp(ia.line, "private", 7) == 0 && (ia.line[7] == '\0' || ia.line[7] == ' '))
		/* they choose how hands reach them: DMs are tried again (once more, if still closed) */
		discord_dm_reopen(c, ia.user_id);
	/* the command as Discord gives it (interaction.c: its name, then its
	 * option; a button's action), as data: the core runs it as it is, with
	 * no prefix, and refuses another player's press of a turn button in its
	 * own words */
	command_of(c, ia.line, &cmd);
	snprintf(c->cur_user, sizeof c->cur_user, "%s", ia.user_id);
	snprintf(c->cur_channel, sizeof c->cur_channel, "%s", ia.channel_id);
	c->cur_moderator = ia.moderator;
	emit(c, ref, ia.user_id, ia.user_name, ia.channel_id, ia.direct, &cmd, NULL);
	c->cur_user[0] = c->cur_channel[0] = '\0';
	c->cur_moderator = false;
	discord_outbox_again(c, ref, ia.user_id, ia.channel_id, ia.line);
	/* what the bot said is flushed before the loop sleeps; the defer timer is armed now */
	discord_outbox_answers(c);
}

static void
on_message(struct discord_client *c, json_t *d)
{
	struct discord_message m;
	const char *why, *text;
	char mention[DISCORD_ID_LEN + 4], line[DISCORD_MAX_IN + DISCORD_MAX_NAME + 8];
	size_t n;

	if (discord_message_parse(d, c->self_id[0] != '\0' ? c->self_id : NULL, &m, &why) < 0) {
		discord_client_log(c, LOG_LVL_DEBUG, "message ignored: %s", why);
		return;
	}
	if (m.guild_id[0] != '\0' && !discord_config_guild_ok(&c->cfg, m.guild_id))
		return;
	text = m.text;
	/* "@handfoot draw" arrives as "<@ID> draw": the bot reads it as addressed to it */
	for (int bang = 0; bang < 2; bang++) {
		snprintf(mention, sizeof mention, "<@%s%s>", bang ? "!" : "", c->self_id);
		n = strlen(mention);
		if (c->self_id[0] != '\0' && strncmp(text, mention, n) == 0) {
			snprintf(line, sizeof line, "%s: %s", c->self_name, text + n + strspn(text + n, " :,"));
			text = line;
			break;
		}
	}
	discord_recent_event(c->recent, strtoull(m.id, NULL, 10), DISCORD_RECENT_MESSAGE, m.user_id, m.channel_id);
	discord_recent_set_name(c->recent, m.user_id, m.user_name);
	emit(c, strtoull(m.id, NULL, 10), m.user_id, m.user_name, m.channel_id, m.direct, NULL, text);
}

/* Discord says it only in an interaction (its member's permissions in the
 * channel, overwrites included), so only while one is handled: a typed
 * command (MESSAGE_CREATE's member has no permissions) is nobody's. */
bool
discord_events_moderator(const struct discord_client *c, const char *room, const char *player)
{
	char user[DISCORD_ID_LEN];

	return c->cur_moderator && room != NULL && player != NULL &&
	       discord_text_user_of(player, user, sizeof user) == 0 && strcmp(user, c->cur_user) == 0 &&
	       strcmp(room, c->cur_channel) == 0;
}

void
discord_events_dispatch(struct discord_client *c, const char *name, json_t *d)
{
	if (strcmp(name, "INTERACTION_CREATE") == 0)
		on_interaction(c, d);
	else if (strcmp(name, "MESSAGE_CREATE") == 0 && c->cfg.message_commands)
		on_message(c, d);
	else if (strcmp(name, "GUILD_CREATE") == 0 && json_is_string(json_object_get(d, "id")))
		discord_client_log(c, LOG_LVL_DEBUG, "in guild %s", json_string_value(json_object_get(d, "id")));
}
