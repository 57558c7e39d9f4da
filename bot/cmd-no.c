/* cmd-no.c: !no: answer no to a partner asking to go out */
#include "bot.h"

static enum cmd_retval
cmd_no_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "no");
}

const struct cmd_entry cmd_no_entry = {
	.name = "no",
	.alias = "n",
	.usage = "",
	.help = "answer no to a partner asking to go out",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_no_exec,
};
