/* cmd-watch.c: !watch: the link to the table's page, which shows what the room sees. */
#include "cmd.h"

static enum cmd_retval
cmd_watch_exec(struct cmd_ctx *c)
{
	char url[512];

	if (view_link(c->bot, c->s, -1, false, url, sizeof url) < 0) {
		reply(c, "%s: this bot shows no table on a page (its operator has not set one up).", c->user_name);
		return CMD_RETURN_ERROR;
	}
	reply_answer(c, "watch", "The table, live: %s", url);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_watch_entry = {
	.name = "watch",
	.alias = "wa",
	.usage = "",
	.help = "the link to a page that shows this table live, as the room sees it",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED,
	.exec = cmd_watch_exec,
};
