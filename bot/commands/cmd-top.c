/* cmd-top.c: !top: the ten best ratings of a rule set (one named, the room's table's, or the one most played). */
#include <string.h>

#include "cmd.h"

#define TOP_LISTED 10

/* "classic, sevens, ..." for a rule set not known. */
static void
top_presets(struct rbuf *o)
{
	const char *const *p = hf_preset_names();
	int i;

	for (i = 0; p[i] != NULL; i++)
		rbuf_printf(o, "%s%s", i ? ", " : "", p[i]);
}

static enum cmd_retval
cmd_top_exec(struct cmd_ctx *c)
{
	struct store_rating r[TOP_LISTED];
	struct rbuf out = { 0 }, *o = &out;
	const char *rules = c->argc > 0 ? c->argv[0] : c->s != NULL ? c->s->rules.name : "classic";
	char busiest[32];
	int n, i;

	/* no table here: the rule set most played */
	if (c->argc == 0 && c->s == NULL && store_rating_busiest(c->bot->store, busiest, sizeof busiest) == 0)
		rules = busiest;

	if (hf_preset(rules) == NULL) {
		top_presets(o);
		reply_answer(c, "top", "No rule set is called %s: ask for one of %s.", rules, o->s);
		rbuf_free(o);
		return CMD_RETURN_NORMAL;
	}
	rules = hf_preset(rules)->name;
	if ((n = store_rating_top(c->bot->store, rules, r, TOP_LISTED)) <= 0) {
		reply_answer(c, "top", "No rated games of %s yet.", rules);
		return CMD_RETURN_NORMAL;
	}
	rbuf_printf(o, "Top of %s:", rules);
	for (i = 0; i < n; i++)
		rbuf_printf(o, " %d. " ST_PLAYER "%s" ST_END " %.0f (%d game%s)%s", i + 1, r[i].name, r[i].rating, r[i].games,
		            r[i].games == 1 ? "" : "s", i + 1 < n ? ";" : ".");
	reply_answer(c, "top", "%s", o->s);
	rbuf_free(o);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_top_entry = {
	.name = "top",
	.alias = "tp",
	.usage = "[rules]",
	.help = "the ten best ratings of a rule set (the table's here, else the one most played)",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "rules",
	.flags = 0,
	.exec = cmd_top_exec,
};
