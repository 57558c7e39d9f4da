/* cmd-rules.c: !rules: the rules in force at the table (or of a preset), privately, in four lines at most. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* The rules in four lines: the engine's description, one rule a line,
 * gathered into four lines of about equal size in its order. */
#define RULES_LINES 4

static void
cmd_rules_lines(struct rbuf *out, const char *text, const char *desc)
{
	const char *line[64], *p = desc;
	size_t len[64], n = 0, i, per;

	while (*p != '\0' && n < 64) {
		line[n] = p;
		len[n] = strcspn(p, "\n");
		p += len[n] + (p[len[n]] == '\n');
		if (len[n] > 0)
			n++;
	}
	/* the description names the rules first ("rules: classic; 4 or 6
	 * players"): said once, in the head */
	if (n > 0 && strncmp(line[0], "rules: ", 7) == 0) {
		const char *semi = memchr(line[0], ';', len[0]);

		if (semi != NULL && (size_t)(semi + 2 - line[0]) < len[0]) {
			len[0] -= (size_t)(semi + 2 - line[0]);
			line[0] = semi + 2;
		} else {
			memmove(line, line + 1, --n * sizeof line[0]);
			memmove(len, len + 1, n * sizeof len[0]);
		}
	}
	per = n > 0 ? (n + RULES_LINES - 1) / RULES_LINES : 1;
	rbuf_printf(out, ST_BOLD "Rules: %s" ST_END, text);
	for (i = 0; i < n; i++) {
		if (i > 0 && i % per == 0)
			rbuf_add(out, ST_BR);
		else
			rbuf_add(out, i == 0 ? " · " : "; ");
		rbuf_addn(out, line[i], len[i]);
	}
}

static enum cmd_retval
cmd_rules_exec(struct cmd_ctx *c)
{
	struct hf_rules r;
	struct rbuf out = { 0 };
	char buf[4096], why[HF_ERRLEN], text[HF_RULES_TEXT], key[160];
	int n = 4;

	if (c->argc > 0 || c->s == NULL) {
		if (hf_rules_parse(&r, c->argc > 0 ? c->args : c->bot->cfg->rules, why, sizeof why) != HF_OK) {
			reply_refuse(c, "%s: %s", c->user_name, why);
			return CMD_RETURN_ERROR;
		}
		n = hf_rules_min_players(&r);
	} else {
		r = c->s->rules;
		/* a table still filling up is described at the count it heads for */
		n = c->s->nseats >= hf_rules_min_players(&r) ? c->s->nseats : hf_rules_min_players(&r);
	}
	hf_rules_format(&r, text, sizeof text);
	hf_rules_describe(&r, n, buf, sizeof buf);
	/* the room hears where they went first, then they go: a long answer
	 * spends the asker's private lines, not everyone's */
	if (!c->direct) {
		snprintf(key, sizeof key, "where/%s", c->user_id);
		reply_answer(c, key, "%s: the rules are on their way privately.", c->user_name);
	}
	cmd_rules_lines(&out, text, buf);
	reply_answer_private(c, "rules", "%s", out.s);
	rbuf_free(&out);
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
