/* cmd-abort.c: !abort: the owner ends the game, or the seated humans vote it to an end. */
#include <string.h>

#include "bot.h"

static enum cmd_retval
cmd_abort_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int votes = 0, humans = session_humans(s), i;

	if (strcmp(s->owner, c->user_id) != 0) {
		if (c->seat < 0) {
			reply(c, "%s: only the owner or the players can end this game.", c->user_name);
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
	reply_room(c, "The game is over: ended by %s.", votes ? "a vote" : c->user_name);
	table_close(c->bot, s, "aborted");
	c->s = NULL;
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_abort_entry = {
	.name = "abort",
	.alias = "ab",
	.usage = "",
	.help = "end the game (the owner at once; players by a vote of more than half)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME,
	.exec = cmd_abort_exec,
};
