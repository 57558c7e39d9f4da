/* cmd-leave.c: !leave: gives up a seat before the deal (the last human out closes the table). */
#include <stdio.h>
#include <string.h>

#include "bot.h"

static enum cmd_retval
cmd_leave_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int i;

	table_remove_seat(s, c->seat);
	if (session_humans(s) == 0) {
		reply_room(c, "%s leaves; the table is closed.", c->user_name);
		table_close(c->bot, s, "abandoned");
		c->s = NULL;
		return CMD_RETURN_NORMAL;
	}
	if (strcmp(s->owner, c->user_id) == 0)
		for (i = 0; i < s->nseats; i++)
			if (s->seats[i].ai < 0) {
				snprintf(s->owner, sizeof s->owner, "%s", s->seats[i].user_id);
				break;
			}
	flow_save_seats(c->bot, s);
	reply_room(c, "%s leaves (%d at the table).", c->user_name, s->nseats);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_leave_entry = {
	.name = "leave",
	.alias = "lv",
	.usage = "",
	.help = "give up your seat before the deal",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED | CMD_NEEDS_SEAT,
	.exec = cmd_leave_exec,
};
