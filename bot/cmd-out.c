/* cmd-out.c: !out: go out (asking your partners first where the rules want it) */
#include "bot.h"

static enum cmd_retval
cmd_out_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "out");
}

const struct cmd_entry cmd_out_entry = {
	.name = "out",
	.alias = "o",
	.usage = "",
	.help = "go out (asking your partners first where the rules want it)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_out_exec,
};
