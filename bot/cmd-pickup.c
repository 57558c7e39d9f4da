/* cmd-pickup.c: !pickup: take the discard pile, showing the cards that justify it (they are melded with the top card) */
#include "bot.h"

static enum cmd_retval
cmd_pickup_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "pickup");
}

const struct cmd_entry cmd_pickup_entry = {
	.name = "pickup",
	.alias = "pu",
	.usage = "[CARDS][, MELD ...]",
	.help = "take the discard pile, showing the cards that justify it (they are melded with the top card)",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_CARDS,
	.arg_name = "cards",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_pickup_exec,
};
