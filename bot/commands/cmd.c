/* cmd.c: the command table: lookup (aliases, unique prefixes, near misses), argument counts and flags, checked once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

static const struct cmd_entry *const cmd_entries[] = {
	&cmd_new_entry, &cmd_join_entry, &cmd_team_entry, &cmd_leave_entry, &cmd_bot_entry, &cmd_start_entry, &cmd_play_entry,
	&cmd_draw_entry, &cmd_pickup_entry, &cmd_meld_entry, &cmd_discard_entry, &cmd_out_entry,
	&cmd_yes_entry, &cmd_no_entry, &cmd_hand_entry, &cmd_hint_entry, &cmd_table_entry, &cmd_pile_entry, &cmd_score_entry,
	&cmd_rules_entry, &cmd_who_entry, &cmd_auto_entry, &cmd_abort_entry, &cmd_stats_entry, &cmd_top_entry,
	&cmd_private_entry, &cmd_tell_entry, &cmd_clock_entry, &cmd_watch_entry, &cmd_web_entry, &cmd_help_entry,
};
#define NCMD (sizeof cmd_entries / sizeof cmd_entries[0])

const struct cmd_entry *const *
cmd_table(size_t *n)
{
	*n = NCMD;
	return cmd_entries;
}

/* Edit distance, small strings only: for "did you mean". */
static int
cmd_distance(const char *a, const char *b)
{
	int d[24][24], i, j, la = (int)strlen(a), lb = (int)strlen(b);

	if (la > 23 || lb > 23)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int cost = (a[i - 1] | 0x20) != (b[j - 1] | 0x20), m = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < m)
				m = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < m)
				m = d[i][j - 1] + 1;
			d[i][j] = m;
		}
	return d[la][lb];
}

const struct cmd_entry *
cmd_find(const char *name, char *why, size_t whylen)
{
	const struct cmd_entry *found = NULL, *near = NULL;
	size_t i, len = strlen(name), n = 0, o;
	int best = 3, d, cut;

	for (i = 0; i < NCMD; i++)
		if (strcasecmp(cmd_entries[i]->name, name) == 0 || strcasecmp(cmd_entries[i]->alias, name) == 0)
			return cmd_entries[i];
	for (i = 0; i < NCMD; i++)
		if (len > 0 && strncasecmp(cmd_entries[i]->name, name, len) == 0) {
			found = cmd_entries[i];
			n++;
		}
	if (n == 1)
		return found;
	if (n > 1) {
		o = (size_t)snprintf(why, whylen, "\"%.*s\" is ambiguous: it could be", (int)utf8_cut(name, len, 32), name);
		for (i = 0; i < NCMD && o < whylen; i++)
			if (strncasecmp(cmd_entries[i]->name, name, len) == 0)
				o += (size_t)snprintf(why + o, whylen - o, " " ST_COMMAND "%s" ST_END, cmd_entries[i]->name);
		if (o < whylen)
			snprintf(why + o, whylen - o, ".");
		return NULL;
	}
	for (i = 0; i < NCMD; i++)
		if ((d = cmd_distance(cmd_entries[i]->name, name)) < best) {
			best = d;
			near = cmd_entries[i];
		}
	/* Quoted back at most 32 bytes, cut on a UTF-8 boundary: "%.32s" could
	 * split a character and send invalid UTF-8 to the room. */
	cut = (int)utf8_cut(name, len, 32);
	if (near != NULL)
		snprintf(why, whylen, "unknown command \"%.*s\": did you mean " ST_COMMAND "%s" ST_END "? ("
		         CMD("help") " lists them all)", cut, name, near->name);
	else
		snprintf(why, whylen, "unknown command \"%.*s\": " CMD("help") " lists them all.", cut, name);
	return NULL;
}

static bool
cmd_waits_for(const struct session *s, int seat)
{
	int seats[HF_MAX_SEATS], n, i;

	n = hf_game_waiting(s->g, seats);
	for (i = 0; i < n; i++)
		if (seats[i] == seat)
			return true;
	return false;
}

/* The flags of the table, checked once here so that handlers never re-check. */
static bool
cmd_check(struct cmd_ctx *c, unsigned flags)
{
	struct session *s = c->s;
	int w;

	if ((flags & CMD_NEEDS_GAME) && s == NULL) {
		if (c->many != NULL)
			reply_refuse(c, "%s: you sit at tables in %s: say it in the room of the one you mean.", c->user_name,
			             c->many);
		else if (c->direct)
			reply_refuse(c, "%s: you have no game going: open one in a room with " CMD("play") " (against the "
			             "computer) or " CMD("new") ".", c->user_name);
		else
			reply_refuse(c, "%s: no table here: " CMD("play") " starts a game against the computer, " CMD("new")
			             " opens a table for people.", c->user_name);
		return false;
	}
	if ((flags & CMD_NOT_STARTED) && s->state != SESS_OPEN) {
		reply_refuse(c, "%s: the game has already started.", c->user_name);
		return false;
	}
	if ((flags & CMD_STARTED) && s->state != SESS_PLAYING) {
		reply_refuse(c, "%s: the game has not started yet (" CMD("start") " deals).", c->user_name);
		return false;
	}
	if ((flags & CMD_NEEDS_SEAT) && c->seat < 0) {
		/* "bob_" after a reconnect, "bob|away": the seat is bob's, who may be them */
		if ((w = near_seat(s, c->user_name)) >= 0)
			reply_refuse(c, "%s: you have no seat at this table; " ST_PLAYER "%s" ST_END " has one: if that is you, "
			      "take that name back to play.", c->user_name, s->seats[w].name);
		else
			reply_refuse(c, "%s: you have no seat at this table.", c->user_name);
		return false;
	}
	if ((flags & CMD_OWNER) && strcmp(s->owner, c->user_id) != 0) {
		reply_refuse(c, "%s: only the table's owner can do that.", c->user_name);
		return false;
	}
	if ((flags & CMD_YOUR_TURN) && !cmd_waits_for(s, c->seat)) {
		/* a refused move, to its player alone, beginning with what was refused */
		w = hf_game_turn(s->g);
		if (hf_game_phase(s->g) == HF_PHASE_ASK)
			reply_refuse(c, ST_COMMAND "%s" ST_END " refused: not now: the table waits for the partners' answer.",
			             c->entry->name);
		else
			reply_refuse(c, ST_COMMAND "%s" ST_END " refused: it is not your turn (" ST_PLAYER "%s" ST_END
			             " is to play).", c->entry->name, s->seats[w].name);
		return false;
	}
	return true;
}

/* Whether e's arguments are cards in groups ("9 9 2, K K K", "9: 2"). */
static bool
cmd_takes_cards(const struct cmd_entry *e)
{
	return e != NULL && (e->arg == ADAPTER_ARG_CARDS || e->arg == ADAPTER_ARG_CARD);
}

void
cmd_parse(const char *line, struct command *cmd)
{
	char name[COMMAND_NAME_MAX + 1], why[256];
	size_t n;

	line += strspn(line, " ");
	n = strcspn(line, " ");
	snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), line);
	command_init(cmd, n < sizeof name ? name : "");
	if (n >= sizeof name)
		/* no command is that long: its name is quoted back as it was typed */
		snprintf(cmd->name, sizeof cmd->name, "%.*s", (int)utf8_cut(line, n, COMMAND_NAME_MAX), line);
	command_args(cmd, line + n, cmd_takes_cards(cmd_find(cmd->name, why, sizeof why)));
}

/* A command given as data whose arguments were read as words, for an entry
 * that takes cards: read again from their canonical text, as cards. */
static void
cmd_regroup(const struct command *in, struct command *out)
{
	char text[COMMAND_TEXT_MAX + 1];

	command_text(in, text, sizeof text);
	command_init(out, in->name);
	snprintf(out->why, sizeof out->why, "%s", in->why);
	command_args(out, text, true);
}

void
cmd_run(struct cmd_ctx *c, const struct command *cmd)
{
	char why[256], args[COMMAND_TEXT_MAX + 1], *argv[COMMAND_MAX_WORDS + 1];
	const struct cmd_entry *e;
	struct command copy;
	size_t i;

	if (cmd->name[0] == '\0')
		return;
	if ((e = cmd_find(cmd->name, why, sizeof why)) == NULL) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return;
	}
	/* the handlers get words they may cut up: from a copy */
	if (cmd_takes_cards(e) && !cmd->cards && cmd->nwords > 0)
		cmd_regroup(cmd, &copy);
	else
		copy = *cmd;
	c->entry = e;
	if (copy.why[0] != '\0') {
		/* as a refused move is: beginning with what was refused, then the rule */
		reply_refuse(c, ST_COMMAND "%s" ST_END " refused: %s.", e->name, copy.why);
		return;
	}
	for (i = 0; i < copy.nwords; i++)
		argv[i] = copy.buf + copy.at[i];
	argv[i] = NULL;
	command_text(&copy, args, sizeof args);
	c->cmd = &copy;
	c->args = args;
	c->argc = (int)copy.nwords;
	c->argv = argv;
	if (c->argc < e->min_args || (e->max_args >= 0 && c->argc > e->max_args)) {
		reply_usage(c);
		return;
	}
	if (!cmd_check(c, e->flags))
		return;
	e->exec(c);
}
