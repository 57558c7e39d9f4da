/* cmd-top.c: !top: the ten best records. */
#include "bot.h"

static enum cmd_retval
cmd_top_exec(struct cmd_ctx *c)
{
	struct store_stats st[10];
	struct rbuf out = { 0 }, *o = &out;
	int n = store_stats_top(c->bot->store, st, 10), i;

	if (n == 0) {
		reply(c, "No finished games yet.");
		return CMD_RETURN_NORMAL;
	}
	rbuf_add(o, "Top:");
	for (i = 0; i < n; i++)
		rbuf_printf(o, " %d. " ST_PLAYER "%s" ST_END " (%d won of %d, %lld pts)%s", i + 1, st[i].name, st[i].wins, st[i].games,
		            st[i].points, i + 1 < n ? ";" : ".");
	reply(c, "%s", o->s);
	rbuf_free(o);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_top_entry = {
	.name = "top",
	.alias = "tp",
	.usage = "",
	.help = "the ten best players by wins, then points",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = 0,
	.exec = cmd_top_exec,
};
