/* cmd-discard.c: !discard: discard one card: ends your turn */
#include "bot.h"

static enum cmd_retval
cmd_discard_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "discard");
}

const struct cmd_entry cmd_discard_entry = {
	.name = "discard",
	.alias = "ds",
	.usage = "CARD",
	.help = "discard one card: ends your turn",
	.min_args = 1,
	.max_args = 1,
	.arg = ADAPTER_ARG_CARD,
	.arg_name = "card",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_discard_exec,
};
