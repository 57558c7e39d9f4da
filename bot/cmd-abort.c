/* cmd-abort.c: !abort: the owner or a moderator of the room ends the game, or the seated humans vote it to an end. */
#include <string.h>

#include "bot.h"

/* A moderator of the table's room, by the chat service's own rules (the
 * adapter API's is_moderator): a table nobody else can end is not stuck. */
static bool
cmd_abort_moderator(struct cmd_ctx *c)
{
	const struct adapter_ops *ops = c->ad->ops;

	return ops->is_moderator != NULL && ops->is_moderator(c->ad, c->s->room, c->user_id);
}

static enum cmd_retval
cmd_abort_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int votes = 0, humans = session_humans(s), i;

	if (strcmp(s->owner, c->user_id) != 0 && cmd_abort_moderator(c)) {
		reply_room(c, "The game is over: ended by %s, a moderator of the room.", c->user_name);
		table_close(c->bot, s, "aborted");
		c->s = NULL;
		return CMD_RETURN_NORMAL;
	}
	if (strcmp(s->owner, c->user_id) != 0) {
		if (c->seat < 0) {
			reply_refuse(c, "%s: only the table's owner or its players can end it.", c->user_name);
			return CMD_RETURN_ERROR;
		}
		s->seats[c->seat].abort_vote = true;
		for (i = 0; i < s->nseats; i++)
			votes += s->seats[i].ai < 0 && s->seats[i].abort_vote;
		if (votes * 2 <= humans) {
			reply_room(c, "%s votes to end the game (%d of %d players; more than half needed).",
			           c->user_name, votes, humans);
			return CMD_RETURN_NORMAL;
		}
	}
	/* a table never dealt was no game: it is closed, not over */
	if (s->state == SESS_OPEN)
		reply_room(c, "The table is closed: ended by %s.", votes ? "a vote" : c->user_name);
	else
		reply_room(c, "The game is over: ended by %s.", votes ? "a vote" : c->user_name);
	table_close(c->bot, s, "aborted");
	c->s = NULL;
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_abort_entry = {
	.name = "abort",
	.alias = "ab",
	.usage = "",
	.help = "end the game (the owner or a moderator at once; players by a vote of more than half)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME,
	.exec = cmd_abort_exec,
};
