/* cmd-play.c: !play: a table against computer players in one step, or back to your game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static enum cmd_retval
cmd_play_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[HF_ERRLEN], rules[BOT_MAX_INPUT + 1] = "";
	int players = 0, i = 0;

	if (s != NULL) {
		if (c->seat < 0) {
			reply(c, "There is a table here already: " CMD("join") " it before the deal, or watch.");
			return CMD_RETURN_ERROR;
		}
		if (s->state == SESS_PLAYING) {
			reply(c, "%s: your game goes on.", c->user_name);
			reply_hand(c->bot, s, c->seat);
		} else
			reply(c, "%s: the table waits for " CMD("start") ".", c->user_name);
		return CMD_RETURN_NORMAL;
	}
	if (c->argc > 0 && c->argv[0][strspn(c->argv[0], "0123456789")] == '\0') {
		players = atoi(c->argv[0]);
		i = 1;
	}
	for (; i < c->argc; i++)
		snprintf(rules + strlen(rules), sizeof rules - strlen(rules), "%s%s", rules[0] ? " " : "", c->argv[i]);
	if ((s = table_open(c, rules, why, sizeof why)) == NULL) {
		reply(c, "%s", why);
		return CMD_RETURN_ERROR;
	}
	if (players == 0)
		players = s->rules.players_min;
	if (players < s->rules.players_min || players > s->rules.players_max) {
		reply(c, "%s is for %u to %u players.", s->rules.name, s->rules.players_min, s->rules.players_max);
		table_close(c->bot, s, "abandoned");
		return CMD_RETURN_ERROR;
	}
	table_sit(c->bot, s, c->user_id, c->user_name, -1);
	while (s->nseats < players)
		table_add_ai(c->bot, s, c->bot->cfg->ai_level);
	if (flow_start(c->bot, s, why, sizeof why) < 0) {
		reply(c, "%s", why);
		table_close(c->bot, s, "abandoned");
		return CMD_RETURN_ERROR;
	}
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_play_entry = {
	.name = "play",
	.alias = "pl",
	.usage = "[players] [preset] [key=value ...]",
	.help = "open a table, fill it with computer players and deal at once; in a game, shows your hand again",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "setup",
	.flags = 0,
	.exec = cmd_play_exec,
};
