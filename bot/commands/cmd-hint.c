/* cmd-hint.c: !hint: what the hard computer player would do with your turn, as commands to type, privately. */
#include "cmd.h"

static enum cmd_retval
cmd_hint_exec(struct cmd_ctx *c)
{
	struct hf_view v;
	struct hf_hint h;
	struct rbuf line = { 0 };

	hf_game_view(c->s->g, c->seat, &v);
	/* seeded from the game and its move count: asked twice, the same position gives the same hint */
	hf_ai_hint_plan(&v, (uint32_t)c->bot->cfg->ai_budget,
	                c->s->seed ^ ((uint64_t)c->s->nactions * 0x9e3779b97f4a7c15ULL), &h);
	hint_line(&line, &h);
	reply_private(c, "%s", line.s);
	rbuf_free(&line);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_hint_entry = {
	.name = "hint",
	.alias = "hi",
	.usage = "",
	.help = "what the hard computer player would do with your turn, as commands to type (unless hints=no)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT,
	.exec = cmd_hint_exec,
};
