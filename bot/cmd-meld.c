/* cmd-meld.c: !meld: lay down new melds or add to your side's open ones */
#include "bot.h"

static enum cmd_retval
cmd_meld_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "meld");
}

const struct cmd_entry cmd_meld_entry = {
	.name = "meld",
	.alias = "m",
	.usage = "CARDS[, CARDS ...]  (e.g. 9 9 2, K K K or 9: 2)",
	.help = "lay down new melds or add to your side's open ones",
	.min_args = 1,
	.max_args = -1,
	.arg = ADAPTER_ARG_CARDS,
	.arg_name = "cards",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_meld_exec,
};
