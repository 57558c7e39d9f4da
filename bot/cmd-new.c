/* cmd-new.c: !new: opens a table in the room with a preset and house rules. */
#include <stdio.h>

#include "bot.h"

static enum cmd_retval
cmd_new_exec(struct cmd_ctx *c)
{
	struct session *s;
	char why[HF_ERRLEN];

	if (c->s != NULL) {
		reply(c, "There is a table here already (" CMD("who") " shows it; " CMD("abort") " ends it).");
		return CMD_RETURN_ERROR;
	}
	if ((s = table_open(c, c->args, why, sizeof why)) == NULL) {
		reply(c, "%s", why);
		return CMD_RETURN_ERROR;
	}
	table_sit(c->bot, s, c->user_id, c->user_name, -1);
	flow_save_seats(c->bot, s);
	flow_schedule(c->bot, s);
	reply_room(c, ST_PLAYER "%s" ST_END " opens a %s table for %u to %u players: " CMD("join") " to sit down, "
	           CMD("bot") " add for computer players, " CMD("start") " to deal.", c->user_name, s->rules.name,
	           s->rules.players_min, s->rules.players_max);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_new_entry = {
	.name = "new",
	.alias = "nw",
	.usage = "[classic|sevens|family|pcio|duel] [key=value ...]",
	.help = "open a table here with a rule preset and house rules (the owner sits down)",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "rules",
	.flags = 0,
	.exec = cmd_new_exec,
};
