/* cmd-draw.c: !draw: take two cards from the stock at the start of your turn */
#include "bot.h"

static enum cmd_retval
cmd_draw_exec(struct cmd_ctx *c)
{
	return cmd_game_action(c, "draw");
}

const struct cmd_entry cmd_draw_entry = {
	.name = "draw",
	.alias = "d",
	.usage = "",
	.help = "take two cards from the stock at the start of your turn",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_draw_exec,
};
