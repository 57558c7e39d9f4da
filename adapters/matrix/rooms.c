/* rooms.c: the rooms the account is in: invites (allow list), joins, being removed, and encrypted rooms it will not play in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

/* Who is in a room said to be a direct chat with r->user: only that user
 * and us, or it is no place for their hands. */
static void
on_members(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	json_t *chunk = json_object_get(body, "chunk"), *ev;
	const char *other = NULL;
	bool with_user = false;
	size_t i;

	if (status != 200 || !json_is_array(chunk)) {
		matrix_client_log(c, LOG_LVL_NOTICE, "cannot tell who is in %s (HTTP %ld): %s's hands go to a room of "
		                  "their own", r->arg, status, r->user);
		return;
	}
	json_array_foreach(chunk, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));
		const char *who = json_string_value(json_object_get(ev, "state_key"));
		const char *ms = json_string_value(json_object_get(json_object_get(ev, "content"), "membership"));

		if (type == NULL || strcmp(type, "m.room.member") != 0 || who == NULL || ms == NULL ||
		    strcmp(ms, "leave") == 0 || strcmp(ms, "ban") == 0 || strcmp(who, c->self) == 0)
			continue;
		if (strcmp(who, r->user) == 0)
			with_user = strcmp(ms, "join") == 0;
		else if (other == NULL)
			other = matrix_text_id_ok(who, '@') ? who : "someone";
	}
	if (other != NULL || !with_user) {
		matrix_client_log(c, LOG_LVL_NOTICE, "%s is no direct room with %s alone (%s): their hands go to a room "
		                  "of their own", r->arg, r->user, other != NULL ? other : "they have not joined");
		return;
	}
	if (matrix_direct_room(c, r->user) == NULL)
		matrix_direct_set(c, r->user, r->arg, true);
}

/* A room invited to as a direct chat becomes the inviter's hand room only once
 * its members are known: the invite alone cannot say who else is in it. */
static void
check_direct(struct matrix_client *c, const char *room, const char *user)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	struct matrix_req *r;

	if (matrix_direct_room(c, user) != NULL || matrix_text_urlenc(room, enc, sizeof enc) < 0)
		return;
	snprintf(path, sizeof path, MATRIX_API "/rooms/%s/members?not_membership=leave", enc);
	if ((r = matrix_req_start(c, "GET", path, NULL, on_members, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) != NULL) {
		r->arg = strdup(room);
		r->user = strdup(user);
	}
}

static void
on_join(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)body;
	matrix_strlist_del(c->joining, &c->njoining, r->arg);
	if (status != 200) {
		matrix_client_log(c, LOG_LVL_WARNING, "cannot join %s (HTTP %ld%s%s)", r->arg, status,
		                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
		return;
	}
	matrix_client_log(c, LOG_LVL_INFO, "joined %s", r->arg);
	/* a player who opens a direct chat with us gets their hands there */
	if (r->direct && r->user != NULL)
		check_direct(c, r->arg, r->user);
}

static void
on_leave(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)body;
	matrix_client_log(c, status == 200 ? LOG_LVL_INFO : LOG_LVL_WARNING, "left %s (HTTP %ld)", r->arg, status);
}

static struct matrix_req *
room_post(struct matrix_client *c, const char *room, const char *what, matrix_req_done_fn *done)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	struct matrix_req *r;

	if (matrix_text_urlenc(room, enc, sizeof enc) < 0)
		return NULL;
	snprintf(path, sizeof path, MATRIX_API "/rooms/%s/%s", enc, what);
	if ((r = matrix_req_start(c, "POST", path, NULL, done, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) != NULL)
		r->arg = strdup(room);
	return r;
}

void
matrix_rooms_invited(struct matrix_client *c, const struct matrix_item *it)
{
	struct matrix_req *r;

	if (matrix_strlist_has(c->joining, c->njoining, it->room))
		return;
	if (!c->cfg.auto_join || !matrix_client_allowed(c->cfg.allow, it->user)) {
		matrix_client_log(c, LOG_LVL_NOTICE, "declining the invite to %s from %s", it->room, it->user);
		room_post(c, it->room, "leave", on_leave);
		return;
	}
	if (it->forged) {
		matrix_client_log(c, LOG_LVL_WARNING, "declining the invite to %s from %s: its stripped state names "
		                  "another inviter or another kind of invite (forged by a server)", it->room, it->user);
		room_post(c, it->room, "leave", on_leave);
		return;
	}
	matrix_client_log(c, LOG_LVL_INFO, "invited to %s by %s%s: joining", it->room, it->user,
	                  it->direct ? " for a direct chat" : "");
	if ((r = room_post(c, it->room, "join", on_join)) == NULL)
		return;
	matrix_strlist_add(&c->joining, &c->njoining, it->room);
	r->user = strdup(it->user);
	r->direct = it->direct;
}

void
matrix_rooms_removed(struct matrix_client *c, const struct matrix_item *it)
{
	char key[MATRIX_MAX_ID + 8];
	const char *du = matrix_direct_user(c, it->room);
	struct bot_event ev = { .type = BOT_EV_LEAVE, .room = it->room, .user_id = c->self };
	char nb[MATRIX_MAX_NAME + 1];

	matrix_client_log(c, LOG_LVL_NOTICE, "no longer in %s", it->room);
	if (du != NULL)
		matrix_direct_forget(c, it->room);
	else {
		ev.user_name = matrix_names_of(c, it->room, c->self, nb, sizeof nb);
		c->host.emit(c->host.ctx, &ev);
	}
	if (matrix_strlist_has(c->joined_enc, c->nenc, it->room)) {
		matrix_strlist_del(c->joined_enc, &c->nenc, it->room);
		snprintf(key, sizeof key, "enc/%s", it->room);
		matrix_client_del(c, key);
	}
}

void
matrix_rooms_encrypted(struct matrix_client *c, const struct matrix_item *it)
{
	char key[MATRIX_MAX_ID + 8];

	if (matrix_strlist_has(c->joined_enc, c->nenc, it->room))
		return;
	matrix_strlist_add(&c->joined_enc, &c->nenc, it->room);
	snprintf(key, sizeof key, "enc/%s", it->room);
	matrix_client_set(c, key, "1");
	matrix_client_log(c, LOG_LVL_NOTICE, "%s is encrypted: not playing there", it->room);
	matrix_outbox_add(c->out, it->room, NULL, NULL,
	                  "This room is end-to-end encrypted, and I cannot read encrypted messages, "
	                  "so I cannot host a game here. Please invite me to an unencrypted room.",
	                  NULL, NULL, 0);
}

bool
matrix_rooms_is_encrypted(struct matrix_client *c, const char *room)
{
	return matrix_strlist_has(c->joined_enc, c->nenc, room);
}

static void
restore_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;

	(void)value;
	matrix_strlist_add(&c->joined_enc, &c->nenc, key + strlen("enc/"));
}

void
matrix_rooms_restore(struct matrix_client *c)
{
	c->host.store.each(c->host.store.ctx, "enc/", restore_one, c);
}
