/* cmd-stats.c: !stats: a player's record across games. */
#include "bot.h"

static enum cmd_retval
cmd_stats_exec(struct cmd_ctx *c)
{
	struct store_stats st;
	const char *who = c->argc > 0 ? c->argv[0] : c->user_id;

	if (store_stats_get(c->bot->store, who, &st) < 0) {
		reply(c, "No finished games for %s yet.", c->argc > 0 ? c->argv[0] : c->user_name);
		return CMD_RETURN_NORMAL;
	}
	reply(c, "%s: %d game%s, %d won, %lld points.", st.name, st.games, st.games == 1 ? "" : "s", st.wins,
	      st.points);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.alias = "ss",
	.usage = "[player]",
	.help = "games, wins and points of a player (you by default)",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "player",
	.flags = 0,
	.exec = cmd_stats_exec,
};
