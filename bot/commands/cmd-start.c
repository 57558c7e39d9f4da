/* cmd-start.c: !start: the owner deals once the seats suit the rules. */
#include "cmd.h"

static enum cmd_retval
cmd_start_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[HF_ERRLEN];
	int more;

	if (!table_count_ok(&s->rules, s->nseats)) {
		struct rbuf counts = { 0 };

		/* what to do about it: the next count up is a computer player or a few away */
		render_counts(&counts, &s->rules);
		for (more = s->nseats + 1; more <= hf_rules_max_players(&s->rules) && !table_count_ok(&s->rules, more); more++)
			;
		if (more <= hf_rules_max_players(&s->rules))
			reply_refuse(c, "%s: %s is played by %s players, and %d sit here: " CMD("bot") " add fills a seat "
			             "with a computer player (or wait for someone to " CMD("join") ").", c->user_name,
			             s->rules.name, counts.s, s->nseats);
		else
			reply_refuse(c, "%s: %s is played by %s players, and %d sit here: someone must " CMD("leave")
			             " (or " CMD("bot") " remove).", c->user_name, s->rules.name, counts.s, s->nseats);
		rbuf_free(&counts);
		return CMD_RETURN_ERROR;
	}
	if (flow_start(c->bot, s, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_start_entry = {
	.name = "start",
	.alias = "st",
	.usage = "",
	.help = "deal (the owner, once the seats suit the rules)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED | CMD_OWNER,
	.exec = cmd_start_exec,
};
