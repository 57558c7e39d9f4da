/* cmd-play.c: !play: a table against computer players in one step, or back to your game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

/* The owner of a table not dealt yet: computer players fill it (to the
 * count given, else the one the seats head for) and it deals, as a !play
 * that opened it would have. */
static enum cmd_retval
play_fill(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[HF_ERRLEN];
	int players = table_target_count(s);

	if (c->argc > 0 && c->argv[0][0] != '\0' && c->argv[0][strspn(c->argv[0], "0123456789")] == '\0')
		players = atoi(c->argv[0]);
	else if (s->play_count > 0 && s->play_count >= s->nseats)
		players = s->play_count;
	if (players < s->nseats || !table_count_ok(&s->rules, players)) {
		struct rbuf counts = { 0 };

		render_counts(&counts, &s->rules);
		reply_refuse(c, "%s: %s is played by %s players, and %d sit here.", c->user_name, s->rules.name,
		             counts.s, s->nseats);
		rbuf_free(&counts);
		return CMD_RETURN_ERROR;
	}
	while (s->nseats < players)
		table_add_ai(c->bot, s, c->bot->cfg->ai_level);
	if (flow_start(c->bot, s, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	return CMD_RETURN_NORMAL;
}

/* A table for players named by id ("@bob:server") is opened in a room of
 * its own by an adapter that can make one, from a direct message (it never
 * reaches the core there): anywhere else, say so rather than read the ids
 * as rules.  True if refused. */
bool
play_names_ids(struct cmd_ctx *c)
{
	for (int i = 0; i < c->argc; i++)
		if (strcasecmp(c->argv[i], "with") == 0)
			i++;    /* the partner asked for, by any name */
		else if (c->argv[i][0] == '@' && strchr(c->argv[i], ':') != NULL) {
			reply_refuse(c, "%s: a table for players named by id is opened from a direct message to me, on a "
			             "service where I can make rooms; here, open it in a room they are in, and they "
			             CMD("join") ".", c->user_name);
			return true;
		}
	return false;
}

/* !play where a table is open: the awaited partner sits, a seated player
 * gets their hand again (or, the owner, a filled table dealt), anyone else
 * is told what they can do instead. */
static enum cmd_retval
play_at_table(struct cmd_ctx *c, struct session *s)
{
	/* the partner a !play with NAME waits for: sits down, and the deal follows */
	if (c->seat < 0 && s->state == SESS_OPEN && s->partner[0] != '\0' &&
	    (strcasecmp(s->partner, c->user_name) == 0 || strcasecmp(s->partner, c->user_id) == 0))
		return table_partner_sits(c) < 0 ? CMD_RETURN_ERROR : CMD_RETURN_NORMAL;
	if (c->seat < 0 && s->state == SESS_PLAYING) {
		/* dealt: no seat to take; say what can be done instead */
		reply_refuse(c, "%s: a game is being played here (" CMD("who") " shows who plays): watch it, or "
		             CMD("play") " in another room.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (c->seat < 0) {
		reply_refuse(c, "%s: there is a table here already: " CMD("join") " it before the deal, or watch.",
		             c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (s->state == SESS_PLAYING) {
		reply_answer_private(c, "play", "%s: your game goes on: your hand is below.", c->user_name);
		reply_hand_step(c->bot, s, c->seat, NULL, "hand");
	} else if (strcmp(s->owner, c->user_id) == 0)
		return play_fill(c);
	else
		reply_refuse(c, "%s: the table waits for " CMD("start") ".", c->user_name);
	return CMD_RETURN_NORMAL;
}

static enum cmd_retval
cmd_play_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[HF_ERRLEN], rules[BOT_MAX_INPUT + 1] = "";
	const char *partner = NULL;
	int players = 0, i = 0;

	if (s != NULL)
		return play_at_table(c, s);
	if (play_names_ids(c))
		return CMD_RETURN_ERROR;
	if (c->argc > 0 && c->argv[0][strspn(c->argv[0], "0123456789")] == '\0') {
		players = atoi(c->argv[0]);
		i = 1;
	}
	for (; i < c->argc; i++) {
		if (strcasecmp(c->argv[i], "with") == 0 && i + 1 < c->argc) {
			partner = c->argv[++i];
			continue;
		}
		snprintf(rules + strlen(rules), sizeof rules - strlen(rules), "%s%s", rules[0] ? " " : "", c->argv[i]);
	}
	if ((s = table_open(c, rules, why, sizeof why)) == NULL) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	if (players == 0)
		players = hf_rules_min_players(&s->rules);
	if (!table_count_ok(&s->rules, players)) {
		struct rbuf counts = { 0 };

		render_counts(&counts, &s->rules);
		reply_refuse(c, "%s: %s is played by %s players, not %d.", c->user_name, s->rules.name, counts.s, players);
		rbuf_free(&counts);
		table_close(c->bot, s, "abandoned");
		return CMD_RETURN_ERROR;
	}
	table_sit(c->bot, s, c->user_id, c->user_name, partner != NULL ? 0 : -1);
	if (partner != NULL) {
		/* a table for two friends as partners: it waits for the other to say so */
		if (hf_rules_default_sides(&s->rules, players) >= players) {
			reply_refuse(c, "%s: with %d players %s has no partners.", c->user_name, players, s->rules.name);
			table_close(c->bot, s, "abandoned");
			return CMD_RETURN_ERROR;
		}
		snprintf(s->partner, sizeof s->partner, "%s", partner);
		s->play_count = (int8_t)players;
		flow_save_seats(c->bot, s);
		flow_schedule(c->bot, s);
		reply_room(c, ST_PLAYER "%s" ST_END ": " ST_PLAYER "%s" ST_END " asks you to partner them at %s for %d: "
		           CMD("play") " (or " CMD("join") ") to sit down, and the computer fills the rest and deals.",
		           s->partner, c->user_name, s->rules.name, players);
		return CMD_RETURN_NORMAL;
	}
	while (s->nseats < players)
		table_add_ai(c->bot, s, c->bot->cfg->ai_level);
	if (flow_start(c->bot, s, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		table_close(c->bot, s, "abandoned");
		return CMD_RETURN_ERROR;
	}
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_play_entry = {
	.name = "play",
	.alias = "pl",
	.usage = "[players] [preset] [key=value ...] [with NAME | @id ...]",
	.help = "a table against computer players, dealt at once (with NAME: as partners); in a game, your hand",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_TEXT,
	.arg_name = "setup",
	.flags = 0,
	.exec = cmd_play_exec,
};
