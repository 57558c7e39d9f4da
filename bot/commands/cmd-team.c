/* cmd-team.c: !team: a seated player changes team before the deal. */
#include "cmd.h"

static enum cmd_retval
cmd_team_exec(struct cmd_ctx *c)
{
	return cmd_join_team_change(c, c->argv[0]) < 0 ? CMD_RETURN_ERROR : CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_team_entry = {
	.name = "team",
	.alias = "tm",
	.usage = "NUMBER",
	.help = "move to team 1, 2... before the deal (partners sit in one team)",
	.min_args = 1,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "team",
	.flags = CMD_NEEDS_GAME | CMD_NEEDS_SEAT | CMD_NOT_STARTED,
	.exec = cmd_team_exec,
};
