/* cmd-yes.c: !yes: answer yes to a partner asking to go out */
#include "bot.h"

static enum cmd_retval
cmd_yes_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "yes");
}

const struct cmd_entry cmd_yes_entry = {
	.name = "yes",
	.alias = "y",
	.usage = "",
	.help = "answer yes to a partner asking to go out",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_yes_exec,
};
