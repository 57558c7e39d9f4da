/* cmd-pile.c: !pile: the discard pile's top card, size and frozen state */
#include "cmd.h"

static enum cmd_retval
cmd_pile_exec(struct cmd_ctx *c)
{
	struct hf_view v;
	struct rbuf out = { 0 };

	hf_game_view(tell_shown(c->s, c->seat), c->seat, &v);
	render_pile(&out, &v);
	reply_answer(c, "pile", "%s", out.s);
	rbuf_free(&out);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_pile_entry = {
	.name = "pile",
	.alias = "p",
	.usage = "",
	.help = "the discard pile's top card, size and frozen state",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED,
	.exec = cmd_pile_exec,
};
