/* tableroom.c: a table opened from a direct message ("play @bob:hs @cy:hs"): a room made for it, unencrypted, its players invited, seated as they join, dealt once all have. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "matrix.h"

/* Tables waiting for their room or their players; past this, the oldest is forgotten. */
#define TABLEROOM_MAX   32
/* Players named at most (the largest preset seats 6, the opener is one). */
#define TABLEROOM_NAMED 5

/* The words of a DM form: its command ("play", "new"), the rest but the ids. */
struct words {
	const char *command;
	char args[512];
	char *named[TABLEROOM_NAMED];
	size_t nnamed;
};

static void
tableroom_free_one(struct matrix_tableroom *t)
{
	free(t->room);
	free(t->opener);
	free(t->command);
	free(t->args);
	free(t->name);
	matrix_strlist_free(t->named, t->nnamed);
	matrix_strlist_free(t->joined, t->njoined);
}

static void
tableroom_del(struct matrix_client *c, size_t i)
{
	tableroom_free_one(&c->tablerooms[i]);
	c->tablerooms[i] = c->tablerooms[--c->ntablerooms];
}

/* Kept in the store as "tableroom/ROOM" = "OPENER COMMAND OPENED NAMED JOINED|ARGS"
 * (NAMED and JOINED comma-separated, "-" if none), so that a restart
 * between the room's making and the deal loses no table. */
static void
tableroom_persist(struct matrix_client *c, const struct matrix_tableroom *t)
{
	char key[MATRIX_MAX_ID + 16];
	struct rbuf v = { 0 };

	if (t->room == NULL)
		return;
	snprintf(key, sizeof key, "tableroom/%s", t->room);
	rbuf_printf(&v, "%s %s %d ", t->opener, t->command, t->opened ? 1 : 0);
	for (size_t k = 0; k < t->nnamed; k++)
		rbuf_printf(&v, "%s%s", k > 0 ? "," : "", t->named[k]);
	rbuf_printf(&v, " ");
	for (size_t k = 0; k < t->njoined; k++)
		rbuf_printf(&v, "%s%s", k > 0 ? "," : "", t->joined[k]);
	rbuf_printf(&v, "%s|%s", t->njoined == 0 ? "-" : "", t->args);
	matrix_client_set(c, key, v.s);
	rbuf_free(&v);
}

static void
tableroom_forget(struct matrix_client *c, size_t i)
{
	char key[MATRIX_MAX_ID + 16];

	if (c->tablerooms[i].room != NULL) {
		snprintf(key, sizeof key, "tableroom/%s", c->tablerooms[i].room);
		matrix_client_del(c, key);
	}
	tableroom_del(c, i);
}

static void
split_ids(char ***list, size_t *n, char *s)
{
	char *save = NULL;

	for (char *tok = strtok_r(s, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
		if (matrix_text_id_ok(tok, '@') && *n < TABLEROOM_NAMED)
			matrix_strlist_add(list, n, tok);
}

static void
restore_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;
	const char *room = key + strlen("tableroom/"), *bar = strchr(value, '|');
	char head[2048], opener[MATRIX_MAX_ID + 1], command[8], named[1400], joined[1400];
	struct matrix_tableroom *t;
	int opened;

	if (bar == NULL || (size_t)(bar - value) >= sizeof head || c->ntablerooms >= TABLEROOM_MAX ||
	    !matrix_text_id_ok(room, '!'))
		return;
	snprintf(head, sizeof head, "%.*s", (int)(bar - value), value);
	if (sscanf(head, "%255s %7s %d %1399s %1399s", opener, command, &opened, named, joined) != 5 ||
	    !matrix_text_id_ok(opener, '@') || (strcmp(command, "play") != 0 && strcmp(command, "new") != 0))
		return;
	c->tablerooms = xreallocarray(c->tablerooms, c->ntablerooms + 1, sizeof *c->tablerooms);
	t = &c->tablerooms[c->ntablerooms++];
	memset(t, 0, sizeof *t);
	t->room = xstrdup(room);
	t->opener = xstrdup(opener);
	t->command = xstrdup(command);
	t->args = xstrdup(bar + 1);
	t->name = xstrdup("");
	t->opened = opened != 0;
	split_ids(&t->named, &t->nnamed, named);
	split_ids(&t->joined, &t->njoined, joined);
}

void
matrix_tableroom_restore(struct matrix_client *c)
{
	c->host.store.each(c->host.store.ctx, "tableroom/", restore_one, c);
}

/* A user id as the spec writes it: "@localpart:server", both parts there. */
static bool
user_id_ok(const char *s)
{
	const char *colon = strchr(s, ':');

	return matrix_text_id_ok(s, '@') && colon != NULL && colon > s + 1 && colon[1] != '\0';
}

static void
say(struct matrix_client *c, const char *room, const char *text)
{
	matrix_outbox_add(c->out, room, NULL, NULL, text, NULL, NULL, 0);
}

/* Splits text into w; 0, or -1 with why (told to the opener), or 1: not the DM form. */
static int
words_read(struct matrix_client *c, const char *opener, const char *text, struct words *w, char *why, size_t len)
{
	char copy[1024], *tok, *save = NULL;
	size_t n;

	/* a prefix is punctuation ("!", "."): in a direct chat any is taken */
	while (*text != '\0' && ispunct((unsigned char)*text))
		text++;
	snprintf(copy, sizeof copy, "%s", text);
	tok = strtok_r(copy, " \t", &save);
	if (tok == NULL)
		return 1;
	if (strcasecmp(tok, "play") == 0 || strcasecmp(tok, "pl") == 0)
		w->command = "play";
	else if (strcasecmp(tok, "new") == 0)
		w->command = "new";
	else
		return 1;
	if (strchr(text, '@') == NULL)
		return 1;
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		/* "!play with @bob:hs" asks for a partner here: the core's */
		if (strcasecmp(tok, "with") == 0)
			return 1;
		if (tok[0] != '@') {
			n = strlen(w->args);
			snprintf(w->args + n, sizeof w->args - n, "%s%s", n > 0 ? " " : "", tok);
			continue;
		}
		if (!user_id_ok(tok)) {
			snprintf(why, len, "\"%.64s\" is not a Matrix user id (as @name:server.org)", tok);
			return -1;
		}
		if (strcmp(tok, c->self) == 0 || strcmp(tok, opener) == 0 ||
		    matrix_strlist_has(w->named, w->nnamed, tok)) {
			snprintf(why, len, "%.64s is you, me, or named twice: name each other player once", tok);
			return -1;
		}
		if (w->nnamed >= TABLEROOM_NAMED) {
			snprintf(why, len, "at most %d players can be named", TABLEROOM_NAMED);
			return -1;
		}
		w->named[w->nnamed++] = xstrdup(tok);
	}
	return w->nnamed > 0 ? 0 : 1;
}

static void
on_made(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *room = json_string_value(json_object_get(body, "room_id"));
	struct matrix_tableroom *t = NULL;
	struct rbuf line = { 0 };
	size_t i;

	for (i = 0; i < c->ntablerooms; i++)
		if (c->tablerooms[i].room == NULL && strcmp(c->tablerooms[i].opener, r->user) == 0) {
			t = &c->tablerooms[i];
			break;
		}
	if (t == NULL)
		return;
	/* createRoom is not idempotent: never tried again (an orphan room at most) */
	if (status != 200 || !matrix_text_id_ok(room, '!')) {
		matrix_client_log(c, LOG_LVL_WARNING, "cannot make a table room for %s (HTTP %ld%s%s)", r->user, status,
		                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
		rbuf_printf(&line, "I could not make a room for your table (HTTP %ld): please try again later.", status);
		say(c, r->arg, line.s);
		rbuf_free(&line);
		tableroom_del(c, i);
		return;
	}
	t->room = xstrdup(room);
	tableroom_persist(c, t);
	matrix_client_log(c, LOG_LVL_INFO, "table room %s made for %s", room, r->user);
	rbuf_printf(&line, "I made the room \"%s\" for your table and invited you", t->name);
	for (size_t k = 0; k < t->nnamed; k++)
		rbuf_printf(&line, "%s %s", k + 1 == t->nnamed ? " and" : ",", t->named[k]);
	rbuf_printf(&line, ": the table opens there when you join, and deals once they all have.");
	say(c, r->arg, line.s);
	rbuf_free(&line);
}

bool
matrix_tableroom_said(struct matrix_client *c, const struct matrix_item *it)
{
	struct words w = { 0 };
	struct matrix_tableroom *t;
	struct matrix_req *r;
	char why[256], name[128], *text = NULL, *words_args;
	json_t *j, *invite;
	int rc;

	/* any room we read will do, not only a direct room the bot took for
	 * hands: Element's direct chats share their history with later
	 * members, so they never hold a hand (private.c), yet are where a
	 * player writes to the bot */
	if (it->room == NULL || it->text == NULL)
		return false;
	rc = words_read(c, it->user, it->text, &w, why, sizeof why);
	if (rc > 0)
		goto out;
	if (rc < 0) {
		char line[400];

		snprintf(line, sizeof line, "I cannot open that table: %s.", why);
		say(c, it->room, line);
		goto out;
	}
	for (size_t i = 0; i < c->ntablerooms; i++)
		if (c->tablerooms[i].room == NULL && strcmp(c->tablerooms[i].opener, it->user) == 0) {
			say(c, it->room, "I am still making the room of your last table: a moment, please.");
			rc = -1;
			goto out;
		}
	/* named for its preset, the first word that is neither a count nor a key=value */
	words_args = w.args;
	snprintf(name, sizeof name, "Hand and Foot");
	for (char *p = words_args; *p != '\0';) {
		size_t n = strcspn(p, " ");

		if (p[strspn(p, "0123456789")] != ' ' && p[strspn(p, "0123456789")] != '\0' &&
		    memchr(p, '=', n) == NULL) {
			snprintf(name, sizeof name, "Hand and Foot: %.*s", (int)(n > 40 ? 40 : n), p);
			break;
		}
		p += n;
		p += strspn(p, " ");
	}
	/* invite only, no history before one joined, and no encryption: the
	 * bot must read every command said there (NOTES.md) */
	invite = json_array();
	json_array_append_new(invite, json_string(it->user));
	for (size_t i = 0; i < w.nnamed; i++)
		json_array_append_new(invite, json_string(w.named[i]));
	j = json_pack("{s:s,s:s,s:o,s:[{s:s,s:s,s:{s:s}},{s:s,s:s,s:{s:s}}]}",
	              "preset", "private_chat", "name", name, "invite", invite, "initial_state",
	              "type", "m.room.join_rules", "state_key", "", "content", "join_rule", "invite",
	              "type", "m.room.history_visibility", "state_key", "", "content", "history_visibility", "joined");
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (r = matrix_req_start(c, "POST", MATRIX_API "/createRoom", text, on_made,
	                                          MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL) {
		say(c, it->room, "I cannot make a room for your table now: please try again later.");
		goto out;
	}
	r->arg = xstrdup(it->room);
	r->user = xstrdup(it->user);
	if (c->ntablerooms >= TABLEROOM_MAX)
		tableroom_forget(c, 0);
	c->tablerooms = xreallocarray(c->tablerooms, c->ntablerooms + 1, sizeof *c->tablerooms);
	t = &c->tablerooms[c->ntablerooms++];
	memset(t, 0, sizeof *t);
	t->opener = xstrdup(it->user);
	t->command = xstrdup(w.command);
	t->args = xstrdup(w.args);
	t->name = xstrdup(name);
	for (size_t i = 0; i < w.nnamed; i++)
		matrix_strlist_add(&t->named, &t->nnamed, w.named[i]);
	matrix_client_log(c, LOG_LVL_INFO, "%s opens a table from a direct message: making its room", it->user);
out:
	free(text);
	for (size_t i = 0; i < w.nnamed; i++)
		free(w.named[i]);
	return rc <= 0;
}

/* Runs command with args in t's room as user said it (a structured
 * command: no prefix is looked for). */
static void
tableroom_run(struct matrix_client *c, const struct matrix_tableroom *t, const char *user, const char *command,
              const char *args)
{
	char nb[MATRIX_MAX_NAME + 1];
	struct command cmd;
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = t->room, .user_id = user, .command = &cmd };

	/* new, join and play take words: a count, the rules, names */
	command_init(&cmd, command);
	command_args(&cmd, args, false);
	ev.user_name = matrix_names_of(c, t->room, user, nb, sizeof nb);
	c->host.emit(c->host.ctx, &ev);
}

void
matrix_tableroom_joined(struct matrix_client *c, const char *room, const char *user)
{
	struct matrix_tableroom *t = NULL;
	const char *rules;
	size_t i;

	for (i = 0; i < c->ntablerooms; i++)
		if (c->tablerooms[i].room != NULL && strcmp(c->tablerooms[i].room, room) == 0) {
			t = &c->tablerooms[i];
			break;
		}
	if (t == NULL)
		return;
	if (strcmp(user, t->opener) == 0 && !t->opened) {
		/* the table opens as the opener is there to see it; !new takes no count */
		rules = t->args + strspn(t->args, "0123456789");
		rules += strspn(rules, " ");
		tableroom_run(c, t, t->opener, "new", rules);
		t->opened = true;
		for (size_t k = 0; k < t->njoined; k++)
			tableroom_run(c, t, t->joined[k], "join", "");
	} else if (matrix_strlist_has(t->named, t->nnamed, user) && !matrix_strlist_has(t->joined, t->njoined, user)) {
		matrix_strlist_add(&t->joined, &t->njoined, user);
		if (t->opened)
			tableroom_run(c, t, user, "join", "");
	}
	if (t->opened && t->njoined == t->nnamed) {
		/* the opener's !play at their open table: computer players fill
		 * the rest (to the count asked) and it deals */
		tableroom_run(c, t, t->opener, "play", t->args);
		tableroom_forget(c, i);
		return;
	}
	tableroom_persist(c, t);
}

void
matrix_tableroom_free(struct matrix_client *c)
{
	for (size_t i = 0; i < c->ntablerooms; i++)
		tableroom_free_one(&c->tablerooms[i]);
	free(c->tablerooms);
	c->tablerooms = NULL;
	c->ntablerooms = 0;
}
