/* table.c: tables before the deal: opening one, seating people and computer players, closing. */
#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "loop.h"

static const char *const ai_names[] = { "Ada", "Alan", "Grace", "Edsger", "Barbara", "Ken", "Dennis", "Frances" };

struct session *
table_open(struct cmd_ctx *c, const char *rules_text, char *why, size_t whylen)
{
	struct bot *b = c->bot;
	struct store_game g;
	struct session *s;
	struct hf_rules r;
	char text[HF_RULES_TEXT];
	size_t need;

	if (c->room == NULL || c->direct) {
		snprintf(why, whylen, "Open a table in a room, not in a private message.");
		return NULL;
	}
	char rules[BOT_MAX_INPUT + 1];
	int64_t clock_ms;

	/* the table's clock is the bot's setting, not a rule of the game */
	snprintf(rules, sizeof rules, "%s", rules_text);
	if (clock_take(rules, &clock_ms, why, whylen) < 0)
		return NULL;
	if (hf_rules_parse(&r, rules[0] ? rules : b->cfg->rules, why, whylen) != HF_OK)
		return NULL;
	/* stored whole or not at all: a cut copy came back after a restart
	 * without its last keys (hints=no lost), or broken inside one */
	if ((need = hf_rules_format(&r, text, sizeof text)) >= sizeof text) {
		snprintf(why, whylen, "Those house rules are too long to keep (%zu characters written out, at most %zu): "
		         "leave out some keys.", need, sizeof text - 1);
		return NULL;
	}
	if (!table_may_sit(b, c->ad, c->user_id, c->user_name, true, why, whylen))
		return NULL;
	if ((s = session_add(&b->sessions, c->ad, c->room)) == NULL) {
		snprintf(why, whylen, "No room for another table.");
		return NULL;
	}
	tell_load(b, s);
	s->rules = r;
	s->clock_ms = clock_ms > 0 ? clock_ms : clock_room(b, c->ad, c->room);
	s->created = loop_now(b->loop);
	s->state = SESS_OPEN;
	snprintf(s->owner, sizeof s->owner, "%s", c->user_id);
	memset(&g, 0, sizeof g);
	g.adapter = c->ad->id;
	g.room = c->room;
	g.rules = text;
	g.owner = c->user_id;
	g.state = "open";
	g.created = s->created;
	if ((s->id = store_game_new(b->store, &g)) < 0) {
		session_remove(&b->sessions, s);
		snprintf(why, whylen, "The table could not be saved; try again.");
		return NULL;
	}
	clock_keep(b, s);
	return s;
}

bool
table_may_sit(struct bot *b, struct adapter *ad, const char *user_id, const char *name, bool opening, char *why,
              size_t whylen)
{
	const struct bot_config *cfg = b->cfg;
	size_t n;

	/* An invite storm, or one player in many rooms, must not grow the bot
	 * without bound: every table holds a game, its timers, its seats. */
	if (opening && cfg->max_tables > 0 && (n = session_count(&b->sessions, ad)) >= (size_t)cfg->max_tables) {
		snprintf(why, whylen, "No room for another table: %zu are in play here, the most this bot runs "
		         "(max_tables); try again when one ends.", n);
		return false;
	}
	if (cfg->max_tables_per_user > 0 &&
	    (n = session_player_tables(&b->sessions, ad, user_id, NULL, 0)) >= (size_t)cfg->max_tables_per_user) {
		/* short: with a name of 63 bytes it still fits a refusal (HF_ERRLEN), uncut */
		snprintf(why, whylen, "%s: you sit at %zu tables already, the most one may (max_tables_per_user).", name, n);
		return false;
	}
	return true;
}

int
table_sit(struct bot *b, struct session *s, const char *user_id, const char *name, int team)
{
	struct seat *st;
	char buf[16];

	if (s->nseats >= HF_MAX_SEATS || s->nseats >= hf_rules_max_players(&s->rules))
		return -1;
	st = &s->seats[s->nseats++];
	memset(st, 0, sizeof *st);
	snprintf(st->user_id, sizeof st->user_id, "%s", user_id);
	snprintf(st->name, sizeof st->name, "%s", name);
	st->ai = -1;
	st->team = (int8_t)team;
	if (store_pref_get(b->store, s->ad->id, user_id, "notice", buf, sizeof buf) == 0)
		st->private_as = store_private_as(buf);
	session_player_add(&b->sessions, s, user_id);
	return 0;
}

bool
table_count_ok(const struct hf_rules *r, int n)
{
	return hf_rules_count_ok(r, n);
}

int
table_add_ai(struct bot *b, struct session *s, int level)
{
	struct seat *st;
	char id[32];
	size_t k, i;
	bool taken;

	(void)b;
	if (s->nseats >= HF_MAX_SEATS || s->nseats >= hf_rules_max_players(&s->rules))
		return -1;
	/* The first name not yet at the table. */
	for (k = 0; k < sizeof ai_names / sizeof ai_names[0]; k++) {
		taken = false;
		for (i = 0; i < (size_t)s->nseats; i++)
			if (s->seats[i].ai >= 0 && strncmp(s->seats[i].name, ai_names[k], strlen(ai_names[k])) == 0)
				taken = true;
		if (!taken)
			break;
	}
	st = &s->seats[s->nseats++];
	memset(st, 0, sizeof *st);
	snprintf(id, sizeof id, "ai:%zu", k);
	snprintf(st->user_id, sizeof st->user_id, "%s", id);
	snprintf(st->name, sizeof st->name, "%s[bot]", ai_names[k % 8]);
	st->ai = (int8_t)level;
	st->team = -1;
	return 0;
}

void
table_remove_seat(struct session *s, int seat)
{
	struct bot *b = s->ad->host;

	if (s->seats[seat].ai < 0)
		session_player_del(&b->sessions, s, s->seats[seat].user_id);
	memmove(&s->seats[seat], &s->seats[seat + 1], (size_t)(s->nseats - seat - 1) * sizeof s->seats[0]);
	s->nseats--;
	memset(&s->seats[s->nseats], 0, sizeof s->seats[0]);
	s->seats[s->nseats].ai = -1;
	s->seats[s->nseats].team = -1;
}

/* Ends a table for good, recording why ("aborted", "abandoned", "expired"). */
void
table_close(struct bot *b, struct session *s, const char *state)
{
	/* an aborted or abandoned game gives no statistics and is never played
	 * again: its rows go now, not in 30 days, so that !play and !abort in a
	 * loop do not grow the database (issue 24); game_retention = 0 keeps
	 * every game, these too */
	if (b->cfg->game_retention > 0 && (strcmp(state, "aborted") == 0 || strcmp(state, "abandoned") == 0) &&
	    store_game_forget(b->store, s->id) == 0) {
		bot_session_end(b, s);
		return;
	}
	store_game_state(b->store, s->id, state, s->nseats, s->nsides, s->seed);
	bot_session_end(b, s);
}

/* The player count the table is heading for: its own if the rules deal to
 * it, else the next one they do (computer players or others fill it). */
static int
table_target(const struct hf_rules *r, int n)
{
	int m;

	for (m = n < 2 ? 2 : n; m <= hf_rules_max_players(r); m++)
		if (table_count_ok(r, m))
			return m;
	return n;
}

/* The teams at m players, if those asked for fit: the sides, else -1. */
static int
table_teams_at(const struct session *s, int m, int team[HF_MAX_SEATS])
{
	const struct hf_rules *r = &s->rules;
	int order[HF_MAX_SIDES + 1], norder = 0, k, i, j, asked[HF_MAX_SIDES], size[HF_MAX_SIDES];
	int def = hf_rules_default_sides(r, m);

	if (def == 0)
		return -1;
	/* the rules' default first, then every other count of sides they allow */
	order[norder++] = def;
	for (k = 1; k <= HF_MAX_SIDES; k++)
		if (k != def && hf_rules_sides_ok(r, m, k))
			order[norder++] = k;
	for (j = 0; j < norder; j++) {
		int nsides = order[j], cap = m / nsides;
		bool fits = true;

		memset(asked, 0, sizeof asked);
		for (i = 0; i < s->nseats && fits; i++)
			if (s->seats[i].team >= 0 && (s->seats[i].team >= nsides || ++asked[s->seats[i].team] > cap))
				fits = false;
		if (!fits)
			continue;
		/* who asked for no team joins the smallest, the first of equals */
		memcpy(size, asked, sizeof size);
		for (i = 0; i < s->nseats; i++) {
			if ((team[i] = s->seats[i].team) >= 0)
				continue;
			for (team[i] = 0, k = 1; k < nsides; k++)
				if (size[k] < size[team[i]])
					team[i] = k;
			size[team[i]]++;
		}
		return nsides;
	}
	return -1;
}

int
table_teams(const struct session *s, int team[HF_MAX_SEATS], bool dealing, char *why, size_t whylen)
{
	const struct hf_rules *r = &s->rules;
	int m = table_target(r, s->nseats), last = dealing ? m : hf_rules_max_players(r), n, nsides;

	/* teams bigger than the count in view ask for more players: the next count that has them */
	for (n = m; n <= last && n <= HF_MAX_SEATS; n++)
		if ((nsides = table_teams_at(s, n, team)) > 0)
			return nsides;
	if (!hf_rules_count_ok(r, m))
		snprintf(why, whylen, "%s is not played by %d players.", r->name, s->nseats);
	else if (dealing)
		snprintf(why, whylen, "with %d players %s has teams of %d: a team has more.", m, r->name,
		         m / hf_rules_default_sides(r, m));
	else {
		int most = 1, k;

		for (n = 2; n <= HF_MAX_SEATS; n++)
			for (k = 1; k <= n; k++)
				if (hf_rules_sides_ok(r, n, k) && n / k > most)
					most = n / k;
		snprintf(why, whylen, "that team is full: %s has teams of %d at most.", r->name, most);
	}
	return -1;
}

int
table_set_team(struct session *s, int seat, int team, char *why, size_t whylen)
{
	int teams[HF_MAX_SEATS], old = s->seats[seat].team;

	s->seats[seat].team = (int8_t)team;
	if (table_teams(s, teams, false, why, whylen) < 0) {
		s->seats[seat].team = (int8_t)old;
		return -1;
	}
	return 0;
}

int
table_team_max(const struct hf_rules *r)
{
	int n, k, most = 1;

	for (n = 2; n <= HF_MAX_SEATS; n++)
		for (k = 1; k <= HF_MAX_SIDES; k++)
			if (hf_rules_sides_ok(r, n, k) && k > most)
				most = k;
	return most;
}

bool
table_has_partners(const struct hf_rules *r)
{
	int most = hf_rules_max_players(r);

	return most > 0 && hf_rules_default_sides(r, most) < most;
}

int
table_target_count(const struct session *s)
{
	return table_target(&s->rules, s->nseats);
}

int
table_partner_sits(struct cmd_ctx *c)
{
	struct session *s = c->s;
	char why[HF_ERRLEN];
	int players = s->play_count > 0 ? s->play_count : hf_rules_min_players(&s->rules);

	if (!table_may_sit(c->bot, c->ad, c->user_id, c->user_name, false, why, sizeof why)) {
		reply_refuse(c, "%s", why);
		return -1;
	}
	if (table_sit(c->bot, s, c->user_id, c->user_name, -1) < 0) {
		reply_refuse(c, "%s: the table is full (%d players at most).", c->user_name,
		             hf_rules_max_players(&s->rules));
		return -1;
	}
	if (table_set_team(s, s->nseats - 1, s->seats[0].team, why, sizeof why) < 0) {
		table_remove_seat(s, s->nseats - 1);
		reply_refuse(c, "%s: %s", c->user_name, why);
		return -1;
	}
	s->partner[0] = '\0';
	while (s->nseats < players)
		table_add_ai(c->bot, s, c->bot->cfg->ai_level);
	if (flow_start(c->bot, s, why, sizeof why) < 0) {
		reply_refuse(c, "%s: %s", c->user_name, why);
		return -1;
	}
	return 0;
}
