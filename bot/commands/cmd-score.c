/* cmd-score.c: !score: the scores, round by round */
#include "cmd.h"

static enum cmd_retval
cmd_score_exec(struct cmd_ctx *c)
{
	const char *names[HF_MAX_SEATS];
	struct hf_view v;
	struct rbuf out = { 0 };

	session_names(c->s, names);
	hf_game_view(tell_shown(c->s, c->seat), c->seat, &v);
	render_scores(&out, &v, names);
	render_last_sheets(&out, &v, names);
	reply_answer(c, "score", "%s", out.s);
	rbuf_free(&out);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_score_entry = {
	.name = "score",
	.alias = "sc",
	.usage = "",
	.help = "the scores, round by round, and the last round's score sheet",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED,
	.exec = cmd_score_exec,
};
