/* cmd-join.c: !join: takes a seat at the room's table before the deal. */
#include <stdlib.h>

#include "bot.h"

static enum cmd_retval
cmd_join_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[256];
	int team = -1;

	if (c->seat >= 0) {
		reply_refuse(c, "%s: you already sit at this table.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (c->argc == 1) {
		team = atoi(c->argv[0]);
		if (team < 1 || team > HF_MAX_SIDES) {
			reply_refuse(c, "%s: the team is a number from 1 to %d.", c->user_name, HF_MAX_SIDES);
			return CMD_RETURN_ERROR;
		}
		team--;
	}
	if (!table_may_sit(c->bot, c->ad, c->user_id, c->user_name, false, why, sizeof why)) {
		reply_refuse(c, "%s", why);
		return CMD_RETURN_ERROR;
	}
	if (table_sit(c->bot, s, c->user_id, c->user_name, team) < 0) {
		reply_refuse(c, "%s: the table is full (%u players at most).", c->user_name, s->rules.players_max);
		return CMD_RETURN_ERROR;
	}
	flow_save_seats(c->bot, s);
	reply_room(c, "%s sits down (%d at the table).", c->user_name, s->nseats);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_join_entry = {
	.name = "join",
	.alias = "j",
	.usage = "[team]",
	.help = "take a seat at the table before the deal, optionally on team 1, 2...",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "team",
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED,
	.exec = cmd_join_exec,
};
