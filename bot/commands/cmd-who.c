/* cmd-who.c: !who: the seats, their sides, whose turn it is. */
#include <string.h>

#include "cmd.h"

static enum cmd_retval
cmd_who_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	struct rbuf out = { 0 }, *o = &out;
	int i, turn = -1, team[HF_MAX_SEATS], nsides = 0;
	char why[HF_ERRLEN];

	if (s->state == SESS_PLAYING) {
		/* as the room was told it: a computer turn held is not told yet */
		turn = hf_game_turn(tell_shown(s, c->seat));
		rbuf_printf(o, "%s, round %d:", s->rules.name, hf_game_round(tell_shown(s, c->seat)));
	} else {
		rbuf_printf(o, "%s table, not dealt yet:", s->rules.name);
		/* the teams a deal now would make, every seat's shown */
		if ((nsides = table_teams(s, team, false, why, sizeof why)) >= table_target_count(s))
			nsides = 0;
	}
	for (i = 0; i < s->nseats; i++) {
		const struct seat *st = &s->seats[i];
		rbuf_printf(o, " %d. " ST_PLAYER "%s" ST_END, i + 1, st->name);
		if (s->state == SESS_PLAYING && s->nsides < s->nseats)
			rbuf_printf(o, " (team %d)", hf_game_side_of(s->g, i) + 1);
		else if (s->state == SESS_OPEN && nsides > 0)
			rbuf_printf(o, " (team %d)", team[i] + 1);
		if (st->away)
			rbuf_add(o, " [away]");
		if (strcmp(st->user_id, s->owner) == 0 && st->ai < 0)
			rbuf_add(o, " [owner]");
		if (i == turn)
			rbuf_add(o, " <- to play");
		rbuf_add(o, i + 1 < s->nseats ? "," : ".");
	}
	if (s->nseats == 0)
		rbuf_add(o, " nobody.");
	if (s->state == SESS_OPEN && nsides < 0)
		rbuf_printf(o, " %s", why);
	reply_answer(c, "who", "%s", o->s);
	rbuf_free(o);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_who_entry = {
	.name = "who",
	.alias = "w",
	.usage = "",
	.help = "the seats, their sides and whose turn it is",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME,
	.exec = cmd_who_exec,
};
