/* cmd-start.c: !start: the owner deals once the seats suit the rules. */
#include "bot.h"

static enum cmd_retval
cmd_start_exec(struct cmd_ctx *c)
{
	char why[HF_ERRLEN];

	if (flow_start(c->bot, c->s, why, sizeof why) < 0) {
		reply(c, "%s", why);
		return CMD_RETURN_ERROR;
	}
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_start_entry = {
	.name = "start",
	.alias = "st",
	.usage = "",
	.help = "deal (the owner, once the seats suit the rules)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED | CMD_OWNER,
	.exec = cmd_start_exec,
};
