/* table.c: tables before the deal: opening one, seating people and computer players, closing. */
#include <stdio.h>
#include <string.h>

#include "bot.h"
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
	if (hf_rules_parse(&r, rules_text[0] ? rules_text : b->cfg->rules, why, whylen) != HF_OK)
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
	s->rules = r;
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

	if (s->nseats >= HF_MAX_SEATS || s->nseats >= s->rules.players_max)
		return -1;
	st = &s->seats[s->nseats++];
	memset(st, 0, sizeof *st);
	snprintf(st->user_id, sizeof st->user_id, "%s", user_id);
	snprintf(st->name, sizeof st->name, "%s", name);
	st->ai = -1;
	st->team = (int8_t)team;
	if (store_pref_get(b->store, s->ad->id, user_id, "notice", buf, sizeof buf) == 0)
		st->private_as = cmd_private_stored(buf);
	session_player_add(&b->sessions, s, user_id);
	return 0;
}

bool
table_count_ok(const struct hf_rules *r, int n)
{
	char why[HF_ERRLEN];

	return n >= 2 && n <= HF_MAX_SEATS && hf_rules_check_table(r, n, r->sides_default[n], why, sizeof why) == HF_OK;
}

int
table_add_ai(struct bot *b, struct session *s, int level)
{
	struct seat *st;
	char id[32];
	size_t k, i;
	bool taken;

	(void)b;
	if (s->nseats >= HF_MAX_SEATS || s->nseats >= s->rules.players_max)
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
