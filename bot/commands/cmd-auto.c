/* cmd-auto.c: !auto: the computer plays your seat until you type again. */
#include "cmd.h"

static enum cmd_retval
cmd_auto_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;

	flow_away(c->bot, s, c->seat, true);
	reply_room(c, "%s steps away: the computer plays for them until they type again.", c->user_name);
	flow_schedule(c->bot, s);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_auto_entry = {
	.name = "auto",
	.alias = "au",
	.usage = "",
	.help = "let the computer play your seat until you type again",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT,
	.exec = cmd_auto_exec,
};
