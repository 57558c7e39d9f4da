/* cmd-join.c: !join: takes a seat at the room's table before the deal, in a team if asked; seated, changes team. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

/* The team a word names (0-based), or -1 with a refusal said. */
static int
cmd_join_team(struct cmd_ctx *c, const char *word)
{
	int most = table_team_max(&c->s->rules), team = atoi(word);

	if (word[strspn(word, "0123456789")] != '\0' || team < 1 || team > most) {
		if (most < 2)
			reply_refuse(c, "%s: %s has no teams: everyone plays alone.", c->user_name, c->s->rules.name);
		else
			reply_refuse(c, "%s: the team is a number from 1 to %d, as in: " CMD("join") " 1.", c->user_name,
			             most);
		return -1;
	}
	return team - 1;
}

/* "alice is in team 1 (with bob)". */
static void
cmd_join_said(struct cmd_ctx *c, const char *what, int seat)
{
	struct session *s = c->s;
	struct rbuf out = { 0 };
	int team[HF_MAX_SEATS], i, nsides, with = 0;
	char why[HF_ERRLEN];

	rbuf_printf(&out, "%s %s (%d at the table)", c->user_name, what, s->nseats);
	if ((nsides = table_teams(s, team, false, why, sizeof why)) > 0 && nsides < table_target_count(s)) {
		rbuf_printf(&out, ", in team %d", team[seat] + 1);
		for (i = 0; i < s->nseats; i++)
			if (i != seat && team[i] == team[seat])
				rbuf_printf(&out, "%s" ST_PLAYER "%s" ST_END, with++ ? " & " : " with ", s->seats[i].name);
	}
	rbuf_add(&out, ".");
	reply_room(c, "%s", out.s);
	rbuf_free(&out);
}

int
cmd_join_team_change(struct cmd_ctx *c, const char *word)
{
	char why[HF_ERRLEN];
	int team = cmd_join_team(c, word);

	if (team < 0)
		return -1;
	if (table_set_team(c->s, c->seat, team, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return -1;
	}
	flow_save_seats(c->bot, c->s);
	cmd_join_said(c, "changes team", c->seat);
	return 0;
}

static enum cmd_retval
cmd_join_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[256];
	int team = -1, seat;

	if (c->seat >= 0) {
		if (c->argc == 1)
			return cmd_join_team_change(c, c->argv[0]) < 0 ? CMD_RETURN_ERROR : CMD_RETURN_NORMAL;
		reply_refuse(c, "%s: you already sit at this table (" CMD("join") " 2 moves you to team 2).", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (c->argc == 1 && (team = cmd_join_team(c, c->argv[0])) < 0)
		return CMD_RETURN_ERROR;
	/* the partner a !play asked for sits with its opener, and the deal follows */
	if (s->partner[0] != '\0' && strcasecmp(s->partner, c->user_name) == 0 && team < 0 && s->nseats > 0)
		return table_partner_sits(c) < 0 ? CMD_RETURN_ERROR : CMD_RETURN_NORMAL;
	if (!table_may_sit(c->bot, c->ad, c->user_id, c->user_name, false, why, sizeof why)) {
		reply_refuse(c, "%s", why);
		return CMD_RETURN_ERROR;
	}
	if (table_sit(c->bot, s, c->user_id, c->user_name, -1) < 0) {
		reply_refuse(c, "%s: the table is full (%d players at most).", c->user_name,
		             hf_rules_max_players(&s->rules));
		return CMD_RETURN_ERROR;
	}
	seat = s->nseats - 1;
	if (team >= 0 && table_set_team(s, seat, team, why, sizeof why) < 0) {
		table_remove_seat(s, seat);
		reply_refuse(c, "%s: %s", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	flow_save_seats(c->bot, s);
	cmd_join_said(c, "sits down", seat);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_join_entry = {
	.name = "join",
	.alias = "j",
	.usage = "[team]",
	.help = "take a seat before the deal, in team 1, 2... if you say; seated, change team",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "team",
	.flags = CMD_NEEDS_GAME | CMD_NOT_STARTED,
	.exec = cmd_join_exec,
};
