/* cmd-leave.c: !leave: gives up a seat before the deal (the last human out closes the table); the owner may remove another. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

/* "!leave NAME": the owner removes a person who sat down before the deal
 * (one who joined and went quiet held the table up for good). */
static enum cmd_retval
cmd_leave_other(struct cmd_ctx *c)
{
	struct session *s = c->s;
	const char *name = c->argv[0];
	int i;

	if (strcmp(s->owner, c->user_id) != 0) {
		reply_refuse(c, "%s: only the table's owner can remove a player; " CMD("leave") " alone gives up your "
		             "own seat.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (s->state != SESS_OPEN) {
		reply_refuse(c, "%s: the cards are dealt: nobody is removed now (" CMD("abort") " ends the game).",
		             c->user_name);
		return CMD_RETURN_ERROR;
	}
	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0 && strcasecmp(s->seats[i].name, name) == 0)
			break;
	if (i == s->nseats) {
		reply_refuse(c, "%s: nobody called %s sits at this table (" CMD("bot") " remove takes a computer player "
		             "away).", c->user_name, name);
		return CMD_RETURN_ERROR;
	}
	if (i == c->seat) {
		reply_refuse(c, "%s: " CMD("leave") " alone gives up your own seat.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	reply_room(c, "%s is removed from the table by its owner (%d at the table).", s->seats[i].name, s->nseats - 1);
	table_remove_seat(s, i);
	flow_save_seats(c->bot, s);
	return CMD_RETURN_NORMAL;
}

static enum cmd_retval
cmd_leave_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int i;

	if (c->argc > 0)
		return cmd_leave_other(c);
	if (s->state != SESS_OPEN) {
		/* dealt: a seat is not given up, it is handed to the computer or the game ends */
		reply_refuse(c, "%s: the cards are dealt: " CMD("auto") " lets the computer play your seat (until you "
		             "type again), " CMD("abort") " ends the game (the owner, or a vote of the players).",
		             c->user_name);
		return CMD_RETURN_ERROR;
	}
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
	.usage = "[player]",
	.help = "give up your seat before the deal (the owner: remove that player)",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "player",
	.flags = CMD_NEEDS_GAME | CMD_NEEDS_SEAT,
	.exec = cmd_leave_exec,
};
