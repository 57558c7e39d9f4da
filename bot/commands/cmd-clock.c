/* cmd-clock.c: !clock: the table's clock and the room's default (a lunch-break table or a game over a week). */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* "1d (a reminder after 9h 36m, the computer plays for whoever is silent after 1d)" */
static void
cmd_clock_say(struct rbuf *o, const struct bot *b, const struct session *s)
{
	char t[32], r[32];

	clock_format(clock_takeover_ms(b, s), t, sizeof t);
	clock_format(clock_remind_ms(b, s), r, sizeof r);
	rbuf_printf(o, "a reminder after %s, the computer plays for whoever is silent after %s", r, t);
}

static enum cmd_retval
cmd_clock_exec(struct cmd_ctx *c)
{
	struct session *s = c->s;
	struct rbuf out = { 0 };
	char why[HF_ERRLEN], text[32];
	int64_t ms = 0, room;

	if (c->room == NULL || c->direct) {
		reply_refuse(c, "%s: a clock belongs to a room: say it there.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (c->argc == 0) {
		if (s != NULL) {
			rbuf_add(&out, "This table: ");
			cmd_clock_say(&out, c->bot, s);
			rbuf_add(&out, ".");
		}
		room = clock_room(c->bot, c->ad, c->room);
		if (room > 0) {
			clock_format(room, text, sizeof text);
			rbuf_printf(&out, "%sThe room's tables: clock=%s.", out.len ? " " : "", text);
		} else {
			rbuf_printf(&out, "%sNo room default (" CMD("clock") " 1d sets one; " CMD("new") " classic clock=1d "
			            "one table's).", out.len ? " " : "");
		}
		reply_answer(c, "clock", "%s", out.s);
		rbuf_free(&out);
		return CMD_RETURN_NORMAL;
	}
	if (clock_parse(c->argv[0], &ms, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s.", c->user_name, why);
		return CMD_RETURN_ERROR;
	}
	/* a table in play is its owner's to change; the room's default is anyone's here */
	if (s != NULL && strcmp(s->owner, c->user_id) != 0) {
		reply_refuse(c, "%s: only the table's owner can change its clock.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	if (clock_room_set(c->bot, c->ad, c->room, ms) < 0) {
		reply_refuse(c, "%s: the clock could not be saved; try again.", c->user_name);
		return CMD_RETURN_ERROR;
	}
	clock_format(ms, text, sizeof text);
	rbuf_printf(&out, "Clock %s for the tables of this room", text);
	if (s != NULL) {
		s->clock_ms = ms;
		clock_keep(c->bot, s);
		if (s->state == SESS_PLAYING)
			flow_schedule(c->bot, s);
		rbuf_add(&out, ", this one included: ");
		cmd_clock_say(&out, c->bot, s);
	}
	rbuf_add(&out, ".");
	reply_room(c, "%s", out.s);
	rbuf_free(&out);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_clock_entry = {
	.name = "clock",
	.alias = "ck",
	.usage = "[2m..7d]",
	.help = "the time a turn may take here: a reminder at 2/5 of it, then the computer plays",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "time",
	.flags = 0,
	.exec = cmd_clock_exec,
};
