/* cmd-web.c: !web [new]: your own page for this game, privately; "new" replaces the link and kills the old. */
#include <strings.h>

#include "cmd.h"

static enum cmd_retval
cmd_web_exec(struct cmd_ctx *c)
{
	char url[512];
	bool renew = c->argc > 0;
	int r;

	if (renew && strcasecmp(c->argv[0], "new") != 0) {
		reply_usage(c);
		return CMD_RETURN_ERROR;
	}
	r = c->s->seats[c->seat].ai >= 0 ? -1 : view_link(c->bot, c->s, c->seat, renew, url, sizeof url);

	if (r < 0) {
		reply_private(c, "This bot shows no cards on a page (its operator has not set one up).");
		return CMD_RETURN_ERROR;
	}
	if (r == 1) {
		/* kept only as a hash: it cannot be sent again, only replaced */
		reply_private(c, "Your page's link was sent to you privately when the cards were dealt (or at your "
		              "last " ST_COMMAND "%s" ST_END " new); " ST_COMMAND "%s" ST_END " new makes a new one, and "
		              "the old one stops working.", c->entry->name, c->entry->name);
		return CMD_RETURN_NORMAL;
	}
	reply_private(c, "%sYour cards on a page you can play from (keep the link to yourself): %s",
	              renew ? "A new link; the old one no longer works. " : "", url);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_web_entry = {
	.name = "web",
	.alias = "pg",
	.usage = "[new]",
	.help = "your own page for this game, to see and play your cards (sent privately); new: a new link",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "new",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT,
	.exec = cmd_web_exec,
};
