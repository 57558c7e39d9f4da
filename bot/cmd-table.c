/* cmd-table.c: !table: every side's melds, canastas, red threes and card counts */
#include "bot.h"

static enum cmd_retval
cmd_table_exec(struct cmd_ctx *c)
{
	struct bot *b = c->bot;
	const char *names[HF_MAX_SEATS];

	session_names(c->s, names);
	hf_game_view(c->s->g, c->seat, b->view);
	rbuf_reset(&b->out);
	render_table(&b->out, b->view, names);
	reply(c, "%s", b->out.s);
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
