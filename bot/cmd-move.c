/* cmd-move.c: the game moves (!draw, !pickup, !meld, !discard, !out, !yes, !no): one entry each, one exec for all. */
#include <stdio.h>
#include <string.h>

#include "bot.h"

/* Asking the partners is pointless when the side could not go out anyway:
 * said at once, naming what is missing, before anyone is asked.  From the
 * seat's view (its side's canastas, its partners' feet), as the engine
 * checks it when the player goes out; false with why if not ready. */
static bool
cmd_move_out_ready(const struct session *s, int seat, char *why, size_t whylen)
{
	const struct hf_rules *r = &s->rules;
	struct hf_view v;
	int have[5] = { 0 }, total = 0, need_total, i, side, n = 0, short_by[6] = { 0 }, nshort = 0, k, sum = 0;
	static const char *const kind[6] = { "", "clean", "dirty", "wild", "sevens", "more" };
	const int need[5] = { 0, r->need_clean, r->need_dirty, r->need_wild, r->need_sevens };
	char missing[128] = "";
	size_t o = 0;

	hf_game_view(s->g, seat, &v);
	side = v.seats[seat].side;
	if (!r->ask_partner || v.phase != HF_PHASE_PLAY || v.asked_this_turn)
		return true;   /* the engine says what is wrong then */
	for (i = 0; i < v.nseats; i++)
		n += i != seat && v.seats[i].side == side;
	if (n == 0)
		return true;
	for (i = 0; i < v.sides[side].nmelds; i++)
		if (v.sides[side].melds[i].kind != HF_KIND_OPEN && v.sides[side].melds[i].kind < 5) {
			have[v.sides[side].melds[i].kind]++;
			total++;
		}
	need_total = r->need_total + (r->need_total_plus_players ? v.nseats : 0);
	if (!r->short_out_allowed) {
		/* what is missing, kind by kind, then of any kind */
		for (i = 1; i < 5; i++)
			if ((short_by[i] = need[i] - have[i]) > 0)
				sum += short_by[i];
			else
				short_by[i] = 0;
		short_by[5] = need_total - total - sum;
		for (i = 1; i < 6; i++)
			nshort += short_by[i] > 0;
		if (nshort > 0) {
			for (i = 1, k = 0; i < 6; i++)
				if (short_by[i] > 0) {
					o += (size_t)snprintf(missing + o, sizeof missing - o, "%s%d %s", k == 0 ? "" :
					                      k == nshort - 1 ? " and " : ", ", short_by[i], kind[i]);
					k++;
					sum = short_by[i];
				}
			snprintf(why, whylen, "your side still needs %s canasta%s to go out: nobody was asked", missing,
			         nshort == 1 && sum == 1 ? "" : "s");
			return false;
		}
	}
	for (i = 0; i < v.nseats; i++) {
		if (i == seat || v.seats[i].side != side)
			continue;
		if (r->partner_foot == HF_PARTNERS_IN_FOOT && !v.seats[i].in_foot) {
			snprintf(why, whylen, "every partner must be playing from the foot before you go out: nobody was asked");
			return false;
		}
		if (r->partner_foot == HF_PARTNERS_PLAYED_FOOT && v.seats[i].foot_turns < 1) {
			snprintf(why, whylen, "every partner must have played a turn from the foot before you go out: "
			         "nobody was asked");
			return false;
		}
	}
	return true;
}

/* The engine's example of a move ("as in: discard 7") as the player types
 * it: the command marked, so that it shows with its prefix ("!discard 7"). */
static void
cmd_move_example(char *why, size_t whylen)
{
	char *p = strstr(why, "as in: "), out[HF_ERRLEN];
	const struct cmd_entry *e;
	char verb[32], err[256];
	size_t n;

	if (p == NULL)
		return;
	p += strlen("as in: ");
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz");
	if (n == 0 || n >= sizeof verb)
		return;
	snprintf(verb, sizeof verb, "%.*s", (int)n, p);
	if ((e = cmd_find(verb, err, sizeof err)) == NULL || strcmp(e->name, verb) != 0)
		return;
	snprintf(out, sizeof out, "%.*s" ST_COMMAND "%s" ST_END "%s", (int)(p - why), why, verb, p + n);
	snprintf(why, whylen, "%s", out);
}

/* A move is "verb args" in the engine's action text: the command's name is
 * its verb, so every move goes through hf_action_parse and flow_apply alike.
 * A refusal goes to the player alone (their hand is nobody else's
 * business), beginning with what was refused. */
static enum cmd_retval
cmd_move_exec(struct cmd_ctx *c)
{
	struct hf_action a;
	char text[BOT_MAX_INPUT + 32], why[HF_ERRLEN];

	snprintf(text, sizeof text, "%s%s%s", c->entry->name, c->args[0] ? " " : "", c->args);
	if (hf_action_parse(&a, text, why, sizeof why) != HF_OK ||
	    (a.type == HF_ACT_OUT && !cmd_move_out_ready(c->s, c->seat, why, sizeof why)) ||
	    flow_apply(c->bot, c->s, c->seat, &a, why, sizeof why) < 0) {
		size_t n = strlen(why);

		if (n > 0 && why[n - 1] == '.')
			why[n - 1] = '\0';
		cmd_move_example(why, HF_ERRLEN);
		reply_refuse(c, ST_COMMAND "%s" ST_END "%s%s refused: %s.", c->entry->name, c->args[0] ? " " : "", c->args,
		             why);
		return CMD_RETURN_ERROR;
	}
	/* The session may be gone (the game ended): nothing more is said here. */
	c->s = NULL;
	c->moved = true;
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_draw_entry = {
	.name = "draw",
	.alias = "d",
	.usage = "",
	.help = "take two cards from the stock at the start of your turn",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_pickup_entry = {
	.name = "pickup",
	.alias = "pu",
	.usage = "[CARDS][, MELD ...]  (e.g. 9 9 to take a 9; 9: a wild onto your open 9s; "
	         "cards: A 2..10 J Q K JK 3h)",
	.help = "take the discard pile, showing the cards that justify it (none: the top card joins your open meld)",
	.min_args = 0,
	.max_args = -1,
	.arg = ADAPTER_ARG_CARDS,
	.arg_name = "cards",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_meld_entry = {
	.name = "meld",
	.alias = "m",
	.usage = "CARDS[, CARDS ...]  (e.g. 9 9 2, K K K or 9: 2)",
	.help = "lay down new melds or add to your side's open ones",
	.min_args = 1,
	.max_args = -1,
	.arg = ADAPTER_ARG_CARDS,
	.arg_name = "cards",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_discard_entry = {
	.name = "discard",
	.alias = "ds",
	.usage = "CARD",
	.help = "discard one card: ends your turn",
	.min_args = 1,
	.max_args = 1,
	.arg = ADAPTER_ARG_CARD,
	.arg_name = "card",
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_out_entry = {
	.name = "out",
	.alias = "o",
	.usage = "",
	.help = "go out (asking your partners first where the rules want it)",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_yes_entry = {
	.name = "yes",
	.alias = "y",
	.usage = "",
	.help = "answer yes to a partner asking to go out",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};

const struct cmd_entry cmd_no_entry = {
	.name = "no",
	.alias = "n",
	.usage = "",
	.help = "answer no to a partner asking to go out",
	.min_args = 0,
	.max_args = 0,
	.arg = ADAPTER_ARG_NONE,
	.flags = CMD_NEEDS_GAME | CMD_STARTED | CMD_NEEDS_SEAT | CMD_YOUR_TURN,
	.exec = cmd_move_exec,
};
