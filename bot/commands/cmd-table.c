/* cmd-table.c: !table: every side's melds, canastas, red threes and card counts */
#include "cmd.h"

static enum cmd_retval
cmd_table_exec(struct cmd_ctx *c)
{
	const char *names[HF_MAX_SEATS];
	struct hf_view v;
	struct rbuf out = { 0 };

	session_names(c->s, names);
	hf_game_view(tell_shown(c->s, c->seat), c->seat, &v);
	render_table(&out, &v, names);
	reply_answer(c, "table", "%s", out.s);
	rbuf_free(&out);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_table_entry = {
	.name = "table",
	.alias = "t",
	.usage = "",
	.help = "every side's melds, canastas, red threes and card counts",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED,
	.exec = cmd_table_exec,
};
