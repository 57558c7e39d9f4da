/* cmd-help.c: !help: how to start, then the command list, privately; or one command, where asked. */
#include <stdio.h>

#include "cmd.h"

static enum cmd_retval
cmd_help_exec(struct cmd_ctx *c)
{
	const struct cmd_entry *const *t, *e;
	struct rbuf out = { 0 }, *o = &out;
	char why[256], key[160];
	size_t n, i;

	if (c->argc == 1) {
		if ((e = cmd_find(c->argv[0], why, sizeof why)) == NULL) {
			reply_refuse(c, "%s: %s", c->user_name, why);
			return CMD_RETURN_ERROR;
		}
		snprintf(key, sizeof key, "help/%s", e->name);
		reply_answer(c, key, ST_COMMAND "%s" ST_END "%s%s (alias " ST_COMMAND "%s" ST_END "): %s.", e->name,
		             e->usage[0] ? " " : "", e->usage, e->alias, e->help);
		return CMD_RETURN_NORMAL;
	}
	/* a newcomer's first question is how to begin: that comes first */
	rbuf_add(o, ST_BOLD "To start:" ST_END " " CMD("play") " deals you a game against computer players at once ("
	         CMD("play") " 4 pcio: four players, the pcio rules); " CMD("new") ", then " CMD("join") ", "
	         CMD("bot") " add and " CMD("start") ", a table for people. " ST_BOLD "Your turn:" ST_END " "
	         CMD("draw") " or " CMD("pickup") ", " CMD("meld") " 9 9 2, then " CMD("discard") " 7. "
	         "Your hand comes privately");
	if (c->ad->ops->private_note != NULL)
		rbuf_printf(o, " (%s)", c->ad->ops->private_note);
	rbuf_add(o, ".");
	t = cmd_table(&n);
	rbuf_add(o, ST_BR ST_BOLD "Commands:" ST_END);
	for (i = 0; i < n; i++)
		rbuf_printf(o, " " ST_COMMAND "%s" ST_END " (%s)%s", t[i]->name, t[i]->alias, i + 1 < n ? "," : ".");
	rbuf_add(o, " " CMD("help") " COMMAND explains one.");
	if (!c->direct) {
		snprintf(key, sizeof key, "where/%s", c->user_id);
		reply_answer(c, key, "%s: how to play is on its way privately.", c->user_name);
	}
	reply_answer_private(c, "help", "%s", o->s);
	rbuf_free(o);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.alias = "?",
	.usage = "[command]",
	.help = "how to start and the list of commands (privately), or how to use one",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "command",
	.flags = 0,
	.exec = cmd_help_exec,
};
