/* direct.c: each player's direct room (where their hand goes): learnt, created on demand, recorded in m.direct. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"

const char *
matrix_direct_room(struct matrix_client *c, const char *user)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			return c->directs[i].room;
	return NULL;
}

const char *
matrix_direct_user(struct matrix_client *c, const char *room)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].room, room) == 0)
			return c->directs[i].user;
	return NULL;
}

void
matrix_direct_set(struct matrix_client *c, const char *user, const char *room, bool persist)
{
	char key[MATRIX_MAX_ID + 16];
	struct matrix_direct *d;
	size_t i;

	for (i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			break;
	if (i == c->ndirects) {
		if ((d = realloc(c->directs, (c->ndirects + 1) * sizeof *d)) == NULL)
			return;
		c->directs = d;
		c->directs[i].user = strdup(user);
		c->directs[i].room = NULL;
		c->ndirects++;
	}
	free(c->directs[i].room);
	c->directs[i].room = strdup(room);
	if (persist) {
		snprintf(key, sizeof key, "direct/%s", user);
		matrix_client_set(c, key, room);
	}
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

	if (matrix_text_id_ok(user, '@') && matrix_text_id_ok(value, '!'))
		matrix_direct_set(c, user, value, false);
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
}

/* ---------------------------------------------------------------- m.direct */

static void
on_put(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)r;
	(void)body;
	if (status != 200)
		matrix_client_log(c, LOG_LVL_WARNING, "cannot write m.direct (HTTP %ld)", status);
}

static void
put_m_direct(struct matrix_client *c)
{
	json_t *j = json_object();
	char path[1024], enc[3 * MATRIX_MAX_ID + 1], *text;

	for (size_t i = 0; i < c->ndirects; i++)
		json_object_set_new(j, c->directs[i].user, json_pack("[s]", c->directs[i].room));
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (text == NULL || matrix_text_urlenc(c->self, enc, sizeof enc) < 0) {
		free(text);
		return;
	}
	snprintf(path, sizeof path, MATRIX_API "/user/%s/account_data/m.direct", enc);
	matrix_req_start(c, "PUT", path, text, on_put, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY);
	free(text);
}

/* ---------------------------------------------------------------- creating a direct room */

/* Tells the game room that a player's hand cannot reach them, and drops
 * what was queued for them. */
static void
direct_failed(struct matrix_client *c, const char *user, const char *why)
{
	struct matrix_out *m;
	bool told = false;

	while ((m = matrix_outbox_unresolved(c->out, user)) != NULL) {
		if (!told) {
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->context,
			                        .user_id = user, .text = why };
			char nb[MATRIX_MAX_NAME + 1];

			ev.user_name = matrix_names_of(c, m->context, user, nb, sizeof nb);
			told = true;
			c->host.emit(c->host.ctx, &ev);
		}
		matrix_outbox_done(c->out, m);
	}
}

static void
on_create(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *room = json_string_value(json_object_get(body, "room_id"));

	matrix_strlist_del(c->creating, &c->ncreating, r->arg);
	if (status == 200 && matrix_text_id_ok(room, '!')) {
		matrix_client_log(c, LOG_LVL_INFO, "direct room %s for %s", room, r->arg);
		c->create_fails = 0;
		matrix_direct_set(c, r->arg, room, true);
		put_m_direct(c);
		matrix_outbox_resolve(c->out, r->arg, room);
		matrix_send_kick(c);
		return;
	}
	if (status == 429 || status == 0 || status >= 500) {
		/* matrix_send_kick tries again once the wait is over */
		c->create_after = loop_now(c->loop) +
		                  (r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(++c->create_fails));
		matrix_send_arm(c, c->create_after - loop_now(c->loop));
		return;
	}
	matrix_client_log(c, LOG_LVL_WARNING, "cannot open a direct room with %s (HTTP %ld%s%s)", r->arg, status,
	                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
	direct_failed(c, r->arg, "I cannot open a direct chat with you");
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
	j = json_pack("{s:b,s:s,s:[s],s:s}", "is_direct", 1, "preset", "trusted_private_chat",
	              "invite", user, "name", "Hand and Foot: your hand");
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (r = matrix_req_start(c, "POST", MATRIX_API "/createRoom", text, on_create,
	                                          MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL) {
		matrix_strlist_del(c->creating, &c->ncreating, user);
		free(text);
		return;
	}
	free(text);
	r->arg = strdup(user);
}
