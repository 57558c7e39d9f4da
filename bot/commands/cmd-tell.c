/* cmd-tell.c: !tell: how the room hears a game: one line a turn (the default), or every move as it is made. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

static enum cmd_retval
cmd_tell_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	bool moves;

	if (c->direct || c->room == NULL) {
		reply_refuse(c, "%s: say it in the room it is for.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (c->argc == 0) {
		/* with no table, the room's preference as the store keeps it */
		moves = s != NULL ? tell_moves(s) : tell_room_moves(c->bot, c->ad, c->room);
		reply_answer(c, "tell", "This room hears %s (" CMD("tell") " %s: %s).",
		             moves ? "every move as it is made" : "each turn once, in one line, when it ends",
		             moves ? "turns" : "moves", moves ? "a line a turn" : "every move");
		return CMD_RETURN_NORMAL;
	}
	if (strcasecmp(c->argv[0], "moves") == 0 || strcasecmp(c->argv[0], "move") == 0)
		moves = true;
	else if (strcasecmp(c->argv[0], "turns") == 0 || strcasecmp(c->argv[0], "turn") == 0)
		moves = false;
	else {
		reply_usage(c);
		return CMD_RETURN_ERROR;
	}
	/* the table's business while there is one: its owner decides */
	if (s != NULL && strcmp(s->owner, c->user_id) != 0) {
		reply_refuse(c, "%s: only the table's owner can change that while the table is open.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	/* with none, the room's: its moderators decide, where the service has
	 * any (anyone flipped it for every game to come) */
	if (s == NULL && c->ad->ops->is_moderator != NULL && !c->ad->ops->is_moderator(c->ad, c->room, c->user_id)) {
		reply_refuse(c, "%s: only a moderator of this room can change that while no table is open.",
		             c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (tell_set(c->bot, c->ad, c->room, moves) < 0) {
		reply_refuse(c, "%s: that could not be saved; try again.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	/* an answer (the room's, with the asker's lane): a stranger flipping it
	 * where no table is open queues nothing that must be delivered */
	reply_answer(c, "tell", "From now on this room hears %s.",
	           moves ? "every move as it is made" : "each turn once, in one line, when it ends");
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_tell_entry = {
	.name = "tell",
	.alias = "tl",
	.usage = "[turns|moves]",
	.help = "how this room hears a game: a line a turn (turns, the default), or every move (moves)",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "how",
	.flags = 0,
	.exec = cmd_tell_exec,
};
