/* cmd-rules.c: !rules: the rules in force at the table (or of a preset), privately. */
#include <string.h>

#include "bot.h"

static enum cmd_retval
cmd_rules_exec(struct cmd_ctx *c)
{
	struct hf_rules r;
	char buf[4096], why[HF_ERRLEN], text[256];
	int n = 4;

	if (c->argc > 0 || c->s == NULL) {
		if (hf_rules_parse(&r, c->argc > 0 ? c->args : c->bot->cfg->rules, why, sizeof why) != HF_OK) {
			reply(c, "%s", why);
			return CMD_RETURN_ERROR;
		}
		n = r.players_min;
	} else {
		r = c->s->rules;
		n = c->s->nseats > 0 ? c->s->nseats : r.players_min;
	}
	hf_rules_format(&r, text, sizeof text);
	hf_rules_describe(&r, n, buf, sizeof buf);
	reply_private(c, "Rules: %s\n%s", text, buf);
	if (!c->direct)
		reply(c, "%s: the rules are on their way privately.", c->user_name);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_rules_entry = {
	.name = "rules",
	.alias = "r",
	.usage = "[preset] [key=value ...]",
	.help = "the rules in force here (or of a preset with house rules), privately",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "rules",
	.flags = 0,
	.exec = cmd_rules_exec,
};
