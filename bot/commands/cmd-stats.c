/* cmd-stats.c: !stats: a player's record across games and ratings per rule set, by user id or name; a name two players share is said so. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#define STATS_LISTED 4
#define STATS_RATED  5   /* the five presets */

/* " Rating: duel 1516 (3 games), classic 1490 (1 game)." or "" if none. */
static void
stats_ratings(struct cmd_ctx *c, const struct store_stats *st, char *buf, size_t len)
{
	struct store_rating r[STATS_RATED];
	int n = store_rating_player(c->bot->store, st->adapter, st->user_id, r, STATS_RATED), i;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s %.0f (%d game%s)%s", i ? ", " : " Rating: ", r[i].rules,
		                      r[i].rating, r[i].games, r[i].games == 1 ? "" : "s", i + 1 < n ? "" : ".");
}

static enum cmd_retval
cmd_stats_exec(struct cmd_ctx *c)
{
	struct store_stats st[STATS_LISTED];
	const char *who = c->argc > 0 ? c->argv[0] : c->user_id;
	char list[512], key[160];
	size_t o = 0;
	int n = store_stats_find(c->bot->store, c->ad->id, who, st, STATS_LISTED), i;

	/* one player's record replaces an older one of theirs still waiting, not another's */
	snprintf(key, sizeof key, "stats/%s", who);
	if (n == 0) {
		reply_answer(c, key, "No finished games for %s yet.", c->argc > 0 ? c->argv[0] : c->user_name);
		return CMD_RETURN_NORMAL;
	}
	if (n > 1) {
		/* never one of them picked for the other: their ids tell them apart */
		list[0] = '\0';
		for (i = 0; i < n && i < STATS_LISTED && o < sizeof list; i++)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s%s%s (%d game%s)", i ? ", " : "", st[i].user_id,
			                      strcmp(st[i].adapter, c->ad->id) != 0 && st[i].adapter[0] != '\0' ? " on " : "",
			                      strcmp(st[i].adapter, c->ad->id) != 0 ? st[i].adapter : "", st[i].games,
			                      st[i].games == 1 ? "" : "s");
		reply_answer(c, key, "%d players are called %s: %s%s. Ask for one by id: " CMD("stats") " %s", n, st[0].name,
		             list, n > STATS_LISTED ? ", ..." : "", st[0].user_id);
		return CMD_RETURN_NORMAL;
	}
	stats_ratings(c, &st[0], list, sizeof list);
	reply_answer(c, key, "%s: %d game%s, %d won, %lld points.%s", st[0].name, st[0].games, st[0].games == 1 ? "" : "s",
	             st[0].wins, st[0].points, list);
	return CMD_RETURN_NORMAL;
}

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.alias = "ss",
	.usage = "[player or id]",
	.help = "games, wins, points and ratings of a player, by name or id (you by default)",
	.min_args = 0,
	.max_args = 1,
	.arg = ADAPTER_ARG_WORD,
	.arg_name = "player",
	.flags = 0,
	.exec = cmd_stats_exec,
};
