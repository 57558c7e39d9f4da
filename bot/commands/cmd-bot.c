/* cmd-bot.c: !bot: the owner adds or removes computer players before the deal. */
#include <string.h>
#include <strings.h>

#include "cmd.h"

static enum cmd_retval
cmd_bot_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int level = c->bot->cfg->ai_level, i, k = 0;
	bool add = true;

	if (k < c->argc && (strcasecmp(c->argv[k], "add") == 0 || strcasecmp(c->argv[k], "remove") == 0 ||
	                    strcasecmp(c->argv[k], "rm") == 0))
		add = strcasecmp(c->argv[k++], "add") == 0;
	if (k < c->argc && (level = hf_ai_level_parse(c->argv[k++])) < 0) {
		reply_refuse(c, "%s: the level is easy, normal or hard.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (k < c->argc) {
		reply_usage(c);
		return CMD_RETURN_ERROR;
	}
	if (add) {
		if (table_add_ai(c->bot, s, level) < 0) {
			reply_refuse(c, "%s: the table is full (%d players at most).", c->user_name,
		             hf_rules_max_players(&s->rules));
			return CMD_RETURN_ERROR;
		}
		flow_save_seats(c->bot, s);
		reply_room(c, "%s sits down (%d at the table).", s->seats[s->nseats - 1].name, s->nseats);
		return CMD_RETURN_NORMAL;
	}
	for (i = s->nseats - 1; i >= 0; i--)
		if (s->seats[i].ai >= 0)
			break;
	if (i < 0) {
		reply_refuse(c, "%s: there is no computer player to remove.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	reply_room(c, "%s leaves.", s->seats[i].name);
	table_remove_seat(s, i);
	flow_save_seats(c->bot, s);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_bot_entry = {
	.name = "bot",
	.alias = "b",
	.usage = "[add|remove] [easy|normal|hard]",
	.help = "add (or remove) a computer player before the deal",
	.min_args = 0,
	.max_args = 2,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "what",
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED | CMD_OWNER,
	.exec = cmd_bot_exec,
};
