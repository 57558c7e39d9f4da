/* cmd-hand.c: !hand: your hand again, privately. */
#include "cmd.h"

static enum cmd_retval
cmd_hand_exec(struct cmd_ctx *c)
{
	/* asked for: an answer, said once until it changes */
	reply_hand_step(c->bot, c->s, c->seat, NULL, "hand");
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_hand_entry = {
	.name = "hand",
	.alias = "h",
	.usage = "",
	.help = "your hand (or foot) again, privately",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT,
	.exec = cmd_hand_exec,
};
