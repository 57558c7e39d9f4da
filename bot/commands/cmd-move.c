/* cmd-move.c: the game moves (!draw, !pickup, !meld, !discard, !out, !yes, !no): one entry each, one exec for all. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* Asking the partners is pointless when the side could not go out anyway:
 * said at once, with what is missing (the engine's hf_game_out_ready),
 * before anyone is asked.  Only where the engine would take the ask at all
 * (tried on a copy): its own refusal (the phase, nobody to ask, asked
 * already) comes first. */
static bool
cmd_move_ask_pointless(const struct session *s, int seat, const struct hf_action *a, char *why, size_t whylen)
{
	struct hf_game *g;
	char scratch[HF_ERRLEN];
	bool taken;

	if (a->type != HF_ACT_OUT || hf_game_out_ready(s->g, seat, why, whylen))
		return false;
	if ((g = hf_game_clone(s->g)) == NULL)
		return false;
	taken = hf_apply(g, seat, a, scratch, sizeof scratch) == HF_OK;
	hf_game_free(g);
	if (taken) {
		size_t n = strlen(why);

		snprintf(why + n, whylen - n, ": nobody was asked");
	}
	return taken;
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
	    cmd_move_ask_pointless(c->s, c->seat, &a, why, sizeof why) ||
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
