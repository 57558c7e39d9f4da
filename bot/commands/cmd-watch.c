/* cmd-watch.c: !watch: the link to the table's page, which shows what the room sees; with no game in play, the room's page, with its recent games and their replays. */
#include "cmd.h"

/* The room's page from the first adapter that draws tables and makes one. */
static int
cmd_watch_room(struct bot *b, const struct adapter *ad, const char *room, char *url, size_t len)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->room_link != NULL && a->ops->room_link(a, ad->id, room, url, len) == 0)
			return 0;
	}
	return -1;
}

static enum cmd_retval
cmd_watch_exec(struct cmd_ctx *c)
{
	char url[512];

	if (c->s != NULL && c->s->state == SESS_PLAYING) {
		if (view_link(c->bot, c->s, -1, false, url, sizeof url) < 0) {
			reply(c, "%s: this bot shows no table on a page (its operator has not set one up).", c->user_name);
			return CMD_RETURN_ERROR;
		}
		reply_answer(c, "watch", "The table, live: %s", url);
		return CMD_RETURN_NORMAL;
	}
	if (c->s == NULL && (c->direct || c->room == NULL)) {
		reply_refuse(c, "%s: say " CMD("watch") " in a room: it gives its table, or its page of recent games.",
		             c->user_name);
		return CMD_RETURN_ERROR;
	}
	/* no game in play here: the room's page, its finished games and their replays */
	if (cmd_watch_room(c->bot, c->ad, c->s != NULL ? c->s->room : c->room, url, sizeof url) < 0) {
		reply(c, "%s: this bot shows no table on a page (its operator has not set one up).", c->user_name);
		return CMD_RETURN_ERROR;
	}
	reply_answer(c, "watch", "%s The room's recent games and their replays: %s",
	             c->s != NULL ? "The game has not started yet (" CMD("start") " deals)." : "No game in play here.",
	             url);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_watch_entry = {
	.name = "watch",
	.alias = "wa",
	.usage = "",
	.help = "the link to this table's page, live; with no game in play, the room's recent games",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = 0,
	.exec = cmd_watch_exec,
};
