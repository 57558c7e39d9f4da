/* cmd-pile.c: !pile: the discard pile's top card, size and frozen state */
#include "bot.h"

static enum cmd_retval
cmd_pile_exec(struct cmd_ctx *c)
{
	struct bot *b = c->bot;
	const char *names[HF_MAX_SEATS];

	session_names(c->s, names);
	hf_game_view(c->s->g, c->seat, b->view);
	rbuf_reset(&b->out);
	(void)names; render_pile(&b->out, b->view);
	reply(c, "%s", b->out.s);
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
