/* direct.c: each player's direct room (where their hand goes): learnt, created on demand, recorded in m.direct. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find.h"
#include "loop.h"
#include "matrix.h"

const char *
matrix_direct_room(struct matrix_client *c, const char *user)
{
	const struct matrix_direct *d = FIND_STR_PTR(c->directs, c->ndirects, user, user);

	return d != NULL ? d->room : NULL;
}

const char *
matrix_direct_user(struct matrix_client *c, const char *room)
{
	const struct matrix_direct *d = FIND_STR_PTR(c->directs, c->ndirects, room, room);

	return d != NULL ? d->user : NULL;
}

static void
direct_persist(struct matrix_client *c, const struct matrix_direct *d)
{
	char key[MATRIX_MAX_ID + 16], value[MATRIX_MAX_ID + 16];

	snprintf(key, sizeof key, "direct/%s", d->user);
	/* " invited": made for the player, who has not joined it yet */
	snprintf(value, sizeof value, "%s%s", d->room, d->joined ? "" : " invited");
	matrix_client_set(c, key, value);
}

void
matrix_direct_set(struct matrix_client *c, const char *user, const char *room, bool joined, bool persist)
{
	size_t i;

	for (i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			break;
	if (i == c->ndirects) {
		c->directs = xreallocarray(c->directs, c->ndirects + 1, sizeof *c->directs);
		c->directs[i].user = xstrdup(user);
		c->directs[i].room = NULL;
		c->ndirects++;
	}
	free(c->directs[i].room);
	c->directs[i].room = xstrdup(room);
	c->directs[i].joined = joined;
	/* a new room: whatever failed before may be told again */
	for (size_t k = c->ntold_enc; k-- > 0;)
		if (strncmp(c->told_enc[k], user, strlen(user)) == 0 && c->told_enc[k][strlen(user)] == ' ')
			matrix_strlist_del(c->told_enc, &c->ntold_enc, c->told_enc[k]);
	if (persist)
		direct_persist(c, &c->directs[i]);
}

void
matrix_direct_joined(struct matrix_client *c, const char *room)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].room, room) == 0 && !c->directs[i].joined) {
			c->directs[i].joined = true;
			direct_persist(c, &c->directs[i]);
			matrix_client_log(c, LOG_LVL_INFO, "%s joined their direct room %s", c->directs[i].user, room);
			matrix_send_kick(c);
			return;
		}
}

bool
matrix_direct_is_joined(struct matrix_client *c, const char *user)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			return c->directs[i].joined;
	return false;
}

void
matrix_direct_forget(struct matrix_client *c, const char *room)
{
	char key[MATRIX_MAX_ID + 16];

	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].room, room) == 0) {
			snprintf(key, sizeof key, "direct/%s", c->directs[i].user);
			matrix_client_del(c, key);
			free(c->directs[i].user);
			free(c->directs[i].room);
			c->directs[i] = c->directs[--c->ndirects];
			return;
		}
}

static void
restore_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;
	const char *user = key + strlen("direct/");
	char room[MATRIX_MAX_ID + 16];
	size_t n = strcspn(value, " ");

	snprintf(room, sizeof room, "%.*s", (int)n, value);
	if (matrix_text_id_ok(user, '@') && matrix_text_id_ok(room, '!'))
		matrix_direct_set(c, user, room, strcmp(value + n, " invited") != 0, false);
}

void
matrix_direct_restore(struct matrix_client *c)
{
	c->host.store.each(c->host.store.ctx, "direct/", restore_one, c);
}

void
matrix_direct_free(struct matrix_client *c)
{
	for (size_t i = 0; i < c->ndirects; i++) {
		free(c->directs[i].user);
		free(c->directs[i].room);
	}
	free(c->directs);
	c->directs = NULL;
	c->ndirects = 0;
	matrix_strlist_free(c->creating, c->ncreating);
	c->creating = NULL;
	c->ncreating = 0;
	matrix_strlist_free(c->made, c->nmade);
	c->made = NULL;
	c->nmade = 0;
}

/* ---------------------------------------------------------------- m.direct
 * m.direct is one map (user id -> room ids) shared by every client of the
 * account: writing only our rooms would drop everyone else's. So each round
 * reads the map, adds the rooms we know that it lacks, and writes it back;
 * one round at a time, another one after it if a room came in meanwhile. */

#define MDIRECT_MAX_BODY  (1u << 20)
#define MDIRECT_MAX_FAILS 8

static void mdirect_get(struct matrix_client *c);

static void
on_mdirect_timer(void *data)
{
	mdirect_get(data);
}

/* This round failed: try again after a backoff, but not forever. */
static void
mdirect_later(struct matrix_client *c, const char *what, long status)
{
	c->mdirect_busy = false;
	if (++c->mdirect_fails > MDIRECT_MAX_FAILS) {
		matrix_client_log(c, LOG_LVL_WARNING, "giving up on m.direct (%s: HTTP %ld); other clients "
		                  "may not show the hand rooms as direct chats", what, status);
		c->mdirect_fails = 0;
		return;
	}
	matrix_client_log(c, LOG_LVL_INFO, "m.direct %s failed (HTTP %ld); trying again", what, status);
	if (c->mdirect_timer == 0 && c->phase != MX_PH_STOPPED)
		loop_once(c->loop, &c->mdirect_timer, matrix_outbox_backoff(c->mdirect_fails), on_mdirect_timer, c);
}

/* Takes the rooms dropped as no longer private out of every list in map:
 * they must not come back when the server echoes the map; true if any was. */
static bool
mdirect_deny(struct matrix_client *c, json_t *map)
{
	bool changed = false;
	const char *user;
	json_t *list;

	json_object_foreach(map, user, list) {
		for (size_t k = json_array_size(list); k-- > 0;)
			if (matrix_private_denied(c, json_string_value(json_array_get(list, k))) &&
			    json_array_remove(list, k) == 0)
				changed = true;
	}
	return changed;
}

/* Adds each of our direct rooms to its user's list in map (and takes the
 * dropped ones out); true if anything changed. */
static bool
mdirect_merge(struct matrix_client *c, json_t *map)
{
	bool changed = mdirect_deny(c, map);

	for (size_t i = 0; i < c->ndirects; i++) {
		json_t *list = json_object_get(map, c->directs[i].user), *r;
		bool has = false;
		size_t k;

		if (!json_is_array(list)) {
			list = json_array();
			if (list == NULL || json_object_set_new(map, c->directs[i].user, list) < 0)
				continue;
		}
		json_array_foreach(list, k, r)
			if (json_is_string(r) && strcmp(json_string_value(r), c->directs[i].room) == 0)
				has = true;
		/* appended: readers take the last room of a list as the newest */
		if (!has && json_array_append_new(list, json_string(c->directs[i].room)) == 0)
			changed = true;
	}
	return changed;
}

static int
mdirect_path(struct matrix_client *c, char *path, size_t len)
{
	char enc[3 * MATRIX_MAX_ID + 1];

	if (matrix_text_urlenc(c->self, enc, sizeof enc) < 0)
		return -1;
	snprintf(path, len, MATRIX_API "/user/%s/account_data/m.direct", enc);
	return 0;
}

static void
on_mdirect_put(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)r;
	(void)body;
	if (status != 200) {
		mdirect_later(c, "write", status);
		return;
	}
	c->mdirect_busy = false;
	c->mdirect_fails = 0;
	if (c->mdirect_again)
		mdirect_get(c);
}

static void
on_mdirect_get(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	char path[1024], *text;
	json_t *map;

	(void)r;
	if (status == 200 && json_is_object(body))
		map = json_deep_copy(body);
	else if (status == 404) /* none yet */
		map = json_object();
	else {
		mdirect_later(c, "read", status);
		return;
	}
	/* this round carries every room known now */
	c->mdirect_again = false;
	if (map == NULL || !mdirect_merge(c, map)) {
		json_decref(map);
		c->mdirect_busy = false;
		c->mdirect_fails = 0;
		return;
	}
	text = json_dumps(map, JSON_COMPACT);
	json_decref(map);
	if (text == NULL || mdirect_path(c, path, sizeof path) < 0 ||
	    matrix_req_start(c, "PUT", path, text, on_mdirect_put, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY) == NULL)
		mdirect_later(c, "write", 0);
	free(text);
}

static void
mdirect_get(struct matrix_client *c)
{
	char path[1024];

	if (c->phase == MX_PH_STOPPED || c->mdirect_timer != 0)
		return;
	if (c->mdirect_busy) {
		c->mdirect_again = true;
		return;
	}
	if (mdirect_path(c, path, sizeof path) < 0)
		return;
	c->mdirect_busy = true;
	if (matrix_req_start(c, "GET", path, NULL, on_mdirect_get, MATRIX_REQ_TIMEOUT, MDIRECT_MAX_BODY) == NULL)
		mdirect_later(c, "read", 0);
}

void
matrix_direct_publish(struct matrix_client *c)
{
	if (c->ndirects > 0 || c->ndenied > 0)
		mdirect_get(c);
}

void
matrix_direct_stop(struct matrix_client *c)
{
	/* the requests themselves are cancelled with all the others */
	loop_once_cancel(c->loop, &c->mdirect_timer);
	c->mdirect_busy = c->mdirect_again = false;
}

/* ---------------------------------------------------------------- creating a direct room */

/* Tells the game room that a player's hand cannot reach them, and why (once
 * per reason and player: every hand after fails the same way), and drops
 * what was queued for them. */
void
matrix_direct_failed(struct matrix_client *c, const char *user, const char *why)
{
	struct matrix_out *m;
	char told[2 * MATRIX_MAX_ID + 8], nb[MATRIX_MAX_NAME + 1];
	bool said = false;

	snprintf(told, sizeof told, "%s %.60s", user, why);
	while ((m = matrix_outbox_unresolved(c->out, user)) != NULL) {
		if (!said && !matrix_strlist_has(c->told_enc, c->ntold_enc, told)) {
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->context, .user_id = user,
			                        .text = why };
			struct rbuf line = { 0 };

			ev.user_name = matrix_names_of(c, m->context, user, nb, sizeof nb);
			said = true;
			matrix_strlist_add(&c->told_enc, &c->ntold_enc, told);
			c->host.emit(c->host.ctx, &ev);
			/* the core only logs a private message that failed: the player
			 * hears it in the game room, with the way to get their hand */
			if (m->context != NULL) {
				rbuf_printf(&line, "%s: I cannot give you your hand privately: %s.", ev.user_name, why);
				matrix_outbox_add(c->out, m->context, NULL, NULL, line.s, NULL, (const char *const *)&user, 1);
				rbuf_free(&line);
			}
		}
		matrix_outbox_done(c->out, m);
	}
}

static void
on_create(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *room = json_string_value(json_object_get(body, "room_id"));

	if (status == 200 && matrix_text_id_ok(room, '!')) {
		matrix_client_log(c, LOG_LVL_INFO, "direct room %s for %s: checking it", room, r->arg);
		c->create_fails = 0;
		/* stays in creating until its state is read: whatever the server
		 * made of it (encrypted, say), it holds no hand before */
		matrix_private_check(c, room, r->arg, true);
		return;
	}
	matrix_strlist_del(c->creating, &c->ncreating, r->arg);
	if ((status == 429 || status == 0 || status >= 500) && ++c->create_fails < MATRIX_CREATE_TRIES) {
		/* matrix_send_kick tries again once the wait is over: a pause of
		 * createRoom's own (Synapse's rc_room_creation is not rc_message),
		 * the sends go on.  Without an answer (or with a 5xx) the room may
		 * exist: the next try looks for it first (MATRIX_MADE_TYPE) */
		int64_t wait = r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(c->create_fails);

		matrix_client_log(c, LOG_LVL_INFO, "createRoom for %s failed (HTTP %ld): trying again in %lld ms",
		                  r->arg, status, (long long)wait);
		c->create_after = loop_now(c->loop) + wait;
		matrix_send_arm(c, wait);
		return;
	}
	c->create_fails = 0;
	matrix_client_log(c, LOG_LVL_WARNING, "cannot open a direct room with %s (HTTP %ld%s%s)", r->arg, status,
	                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
	matrix_direct_failed(c, r->arg, "I cannot open a direct chat with you");
	matrix_send_kick(c);
}

#define MADE_MAX 64

void
matrix_direct_made(struct matrix_client *c, const struct matrix_item *it)
{
	char entry[2 * MATRIX_MAX_ID + 2];

	if (matrix_private_denied(c, it->room) || c->nmade >= MADE_MAX)
		return;
	snprintf(entry, sizeof entry, "%s %s", it->room, it->user);
	matrix_strlist_add(&c->made, &c->nmade, entry);
}

/* A room we made for user that may have lost its answer: taken again (its
 * invite sent again, in case it failed), rather than a second one made. */
static void
on_reinvite(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)body;
	matrix_client_log(c, LOG_LVL_INFO, "found %s, made for %s before (invite: HTTP %ld)", r->arg, r->user, status);
	matrix_private_check(c, r->arg, r->user, true);
}

static bool
direct_find_made(struct matrix_client *c, const char *user)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1], body[MATRIX_MAX_ID + 32], room[MATRIX_MAX_ID + 1];
	size_t n = strlen(user);
	struct matrix_req *r;

	for (size_t i = c->nmade; i-- > 0;) {
		size_t l = strlen(c->made[i]);

		if (l <= n + 1 || strcmp(c->made[i] + l - n, user) != 0 || c->made[i][l - n - 1] != ' ')
			continue;
		snprintf(room, sizeof room, "%.*s", (int)(l - n - 1), c->made[i]);
		matrix_strlist_del(c->made, &c->nmade, c->made[i]);
		if (matrix_private_denied(c, room) || !matrix_strlist_has(c->joined, c->njoined, room) ||
		    matrix_text_urlenc(room, enc, sizeof enc) < 0)
			continue;
		snprintf(path, sizeof path, MATRIX_API "/rooms/%s/invite", enc);
		snprintf(body, sizeof body, "{\"user_id\":\"%s\"}", user);
		if ((r = matrix_req_start(c, "POST", path, body, on_reinvite, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL)
			continue;
		r->arg = xstrdup(room);
		r->user = xstrdup(user);
		return true;
	}
	return false;
}

void
matrix_direct_create(struct matrix_client *c, const char *user)
{
	json_t *j;
	char *text;
	struct matrix_req *r;

	if (c->phase == MX_PH_STOPPED || matrix_strlist_has(c->creating, c->ncreating, user))
		return;
	matrix_strlist_add(&c->creating, &c->ncreating, user);
	if (direct_find_made(c, user))
		return;
	/* Only the bot may invite (the player cannot bring anyone in), no one
	 * may join or knock uninvited, and whoever came later would read
	 * nothing from before: the spec's defaults (and Synapse's presets)
	 * give a shared history that new members read back. */
	j = json_pack("{s:b,s:s,s:[s],s:s,s:[{s:s,s:s,s:{s:s}},{s:s,s:s,s:{s:s}},{s:s,s:s,s:{s:s}}],s:{s:i}}",
	              "is_direct", 1, "preset", "private_chat", "invite", user, "name", "Hand and Foot: your hand",
	              "initial_state",
	              "type", "m.room.join_rules", "state_key", "", "content", "join_rule", "invite",
	              "type", "m.room.history_visibility", "state_key", "", "content", "history_visibility", "joined",
	              "type", MATRIX_MADE_TYPE, "state_key", "", "content", "user", user,
	              "power_level_content_override", "invite", 100);
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (r = matrix_req_start(c, "POST", MATRIX_API "/createRoom", text, on_create,
	                                          MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL) {
		matrix_strlist_del(c->creating, &c->ncreating, user);
		free(text);
		return;
	}
	free(text);
	r->arg = xstrdup(user);
}
