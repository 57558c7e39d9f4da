/* cmd-abort.c: !abort: the owner or a moderator of the room ends the game, or the seated humans vote it to an end. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* A moderator of the table's room, by the chat service's own rules (the
 * adapter API's is_moderator): a table nobody else can end is not stuck. */
static bool
cmd_abort_moderator(struct cmd_ctx *c)
{
	const struct adapter_ops *ops = c->ad->ops;

	return ops->is_moderator != NULL && ops->is_moderator(c->ad, c->s->room, c->user_id);
}

/* Ends the table: a game dealt says the scores so far, and counts in every
 * person's !stats as played, with its points so far, never as won. */
static void
cmd_abort_end(struct cmd_ctx *c, const char *by)
{
	struct session *s = c->s;
	struct rbuf out = { 0 };
	const char *names[HF_MAX_SEATS];
	struct hf_view v;
	int i;

	if (s->state == SESS_OPEN) {
		/* a table never dealt was no game: it is closed, not over */
		reply_room(c, "The table is closed: ended by %s.", by);
	} else {
		session_names(s, names);
		hf_game_view(s->g, -1, &v);
		render_scores(&out, &v, names);
		reply_room(c, "The game is over: ended by %s. %s", by, out.s);
		if (store_begin(c->bot->store) == 0) {
			for (i = 0; i < s->nseats; i++)
				if (s->seats[i].ai < 0)
					store_stats_add(c->bot->store, s->ad->id, s->seats[i].user_id, s->seats[i].name, 0,
					                hf_game_score(s->g, hf_game_side_of(s->g, i)));
			if (store_commit(c->bot->store) < 0)
				store_rollback(c->bot->store);
		}
	}
	rbuf_free(&out);
	table_close(c->bot, s, "aborted");
	c->s = NULL;
}

static enum cmd_retval
cmd_abort_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	int votes = 0, humans = session_humans(s), i;

	if (strcmp(s->owner, c->user_id) != 0 && cmd_abort_moderator(c)) {
		char by[160];

		snprintf(by, sizeof by, "%s, a moderator of the room", c->user_name);
		cmd_abort_end(c, by);
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
	cmd_abort_end(c, votes ? "a vote" : c->user_name);
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
