/* cmd-help.c: !help: the command list, or one command, generated from the table. */
#include "bot.h"

static enum cmd_retval
cmd_help_exec(struct cmd_ctx *c)
{
	const struct cmd_entry *const *t, *e;
	struct rbuf out = { 0 }, *o = &out;
	char why[256];
	size_t n, i;

	if (c->argc == 1) {
		if ((e = cmd_find(c->argv[0], why, sizeof why)) == NULL) {
			reply(c, "%s", why);
			return CMD_RETURN_ERROR;
		}
		reply(c, ST_COMMAND "%s" ST_END "%s%s (alias %s): %s.", e->name, e->usage[0] ? " " : "", e->usage,
		      e->alias, e->help);
		return CMD_RETURN_NORMAL;
	}
	t = cmd_table(&n);
	rbuf_add(o, "Commands:");
	for (i = 0; i < n; i++)
		rbuf_printf(o, " %s (%s)%s", t[i]->name, t[i]->alias, i + 1 < n ? "," : ".");
	rbuf_add(o, " " CMD("help") " COMMAND explains one.");
	reply(c, "%s", o->s);
	rbuf_free(o);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.alias = "?",
	.usage = "[command]",
	.help = "the list of commands, or how to use one",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "command",
	.flags = 0,
	.exec = cmd_help_exec,
};
