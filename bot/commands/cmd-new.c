/* cmd-new.c: !new: opens a table in the room with a preset and house rules. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static enum cmd_retval
cmd_new_exec(struct cmd_ctx *c)
{
	struct session *s;
	char why[HF_ERRLEN];

	struct rbuf counts = { 0 };

	if (c->s != NULL) {
		/* only those who can end it are told how */
		if (c->seat >= 0 || strcmp(c->s->owner, c->user_id) == 0)
			reply_refuse(c, "%s: there is a table here already (" CMD("who") " shows it; " CMD("abort")
			             " ends it).", c->user_name);
		else
			reply_refuse(c, "%s: there is a table here already (" CMD("who") " shows it).", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (play_names_ids(c))
		return CMD_RETURN_ERROR;
	if ((s = table_open(c, c->args, why, sizeof why)) == NULL) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	table_sit(c->bot, s, c->user_id, c->user_name, 0);   /* the owner's team from the start: team 1 */
	flow_save_seats(c->bot, s);
	flow_schedule(c->bot, s);
	render_counts(&counts, &s->rules);
	/* where partners play, the way to sit as the owner's partner */
	reply_room(c, ST_PLAYER "%s" ST_END " opens a %s table for %s players: " CMD("join") " to sit down%s, "
	           CMD("bot") " add for computer players, " CMD("start") " to deal.", c->user_name, s->rules.name,
	           counts.s, table_has_partners(&s->rules) ?
	           " (" ST_COMMAND "join" ST_END " 1 as their partner)" : "");
	rbuf_free(&counts);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_new_entry = {
	.name = "new",
	.alias = "nw",
	.usage = "[classic|sevens|family|pcio|duel] [key=value ...]",
	.help = "open a table here with a rule preset and house rules (the owner sits down)",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "rules",
	.flags = 0,
	.exec = cmd_new_exec,
};
