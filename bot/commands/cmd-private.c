/* cmd-private.c: !private: how private lines reach you (quietly beside the room, or in a direct conversation), kept as a preference in the store. */
#include <string.h>
#include <strings.h>

#include "cmd.h"

static enum cmd_retval
cmd_private_exec(struct cmd_ctx *c)
{
	static const char *const said[] = {
		[PRIVATE_DEFAULT] = "as this network's default (you have not chosen)",
		[PRIVATE_QUIET] = "as notice", [PRIVATE_CONVERSATION] = "as privmsg",
	};
	enum adapter_private as;
	struct session *s;
	int i;

	if (c->argc == 0) {
		as = c->s != NULL && c->seat >= 0 ? c->s->seats[c->seat].private_as : PRIVATE_DEFAULT;
		reply_answer(c, "private", "%s: your private lines come %s.", c->user_name, said[as]);
		return CMD_RETURN_NORMAL;
	}
	/* IRC's words, which the players know, and what they mean anywhere */
	if (strcasecmp(c->argv[0], "notice") == 0 || strcasecmp(c->argv[0], "quiet") == 0)
		as = PRIVATE_QUIET;
	else if (strcasecmp(c->argv[0], "privmsg") == 0 || strcasecmp(c->argv[0], "msg") == 0 ||
	         strcasecmp(c->argv[0], "direct") == 0)
		as = PRIVATE_CONVERSATION;
	else {
		reply_usage(c);
		return CMD_RETURN_ERROR;
	}
	/* no row means no choice */
	store_pref_set(c->bot->store, c->ad->id, c->user_id, "notice", store_private_value(as));
	for (s = c->bot->sessions.all; s != NULL; s = s->all_next)
		if (s->ad == c->ad && (i = session_seat_of(s, c->user_id)) >= 0)
			s->seats[i].private_as = as;
	/* this very line already goes the chosen way (reply_vcmd reads the
	 * seat); an answer, so a stranger's asking waits in their own lane and
	 * never in the room's, ahead of the game's lines */
	reply_answer_private(c, "private", "From now on your private lines come %s.", said[as]);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_private_entry = {
	.name = "private",
	.alias = "pm",
	.usage = "[notice|privmsg]",
	.help = "choose how your hand reaches you: notice or privmsg",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "how",
	.flags = 0,
	.exec = cmd_private_exec,
};
