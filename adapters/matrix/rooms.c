/* rooms.c: the rooms the account is in: invites (allow list, max_rooms), joins, being removed, and encrypted rooms it will not play in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"

/* The room old replaced by room, if room is a replacement we wait to be in. */
static const char *
moved_from(struct matrix_client *c, const char *room, size_t *at)
{
	size_t n = strlen(room);

	for (size_t i = 0; i < c->nmoved; i++)
		if (strncmp(c->moved[i], room, n) == 0 && c->moved[i][n] == ' ') {
			*at = i;
			return c->moved[i] + n + 1;
		}
	return NULL;
}

/* In a replacement room: the core moves the table there. */
static void
moved_joined(struct matrix_client *c, const char *room)
{
	size_t at;
	const char *old = moved_from(c, room, &at);
	char *entry;

	if (old == NULL)
		return;
	entry = c->moved[at];
	c->moved[at] = c->moved[--c->nmoved];
	{
		struct bot_event ev = { .type = BOT_EV_ROOM_MOVED, .room = entry + strlen(room) + 1, .text = room };

		matrix_client_log(c, LOG_LVL_NOTICE, "%s was upgraded to %s: the game moves there", ev.room, room);
		c->host.emit(c->host.ctx, &ev);
	}
	free(entry);
}

#define JOIN_TRIES 4

static struct matrix_req *room_post(struct matrix_client *c, const char *room, const char *what,
                                    matrix_req_done_fn *done);
static void on_join(struct matrix_client *c, struct matrix_req *r, long status, json_t *body);

static int64_t
on_rejoin_timer(struct loop *l, long long id, void *data)
{
	struct matrix_client *c = data;
	char **list = c->rejoin;
	size_t n = c->nrejoin;

	(void)l;
	(void)id;
	c->rejoin_timer = 0;
	c->rejoin = NULL;
	c->nrejoin = 0;
	for (size_t i = 0; i < n; i++) {
		char room[MATRIX_MAX_ID + 1], user[MATRIX_MAX_ID + 1];
		int tries, direct;
		struct matrix_req *r;

		if (sscanf(list[i], "%d %255s %255s %d", &tries, room, user, &direct) == 4 &&
		    (r = room_post(c, room, "join", on_join)) != NULL) {
			r->user = strcmp(user, "-") != 0 ? xstrdup(user) : NULL;
			r->direct = direct != 0;
			r->tries = tries;
		} else
			matrix_strlist_del(c->joining, &c->njoining, room);
	}
	matrix_strlist_free(list, n);
	return LOOP_NOMORE;
}

void
matrix_rooms_stop(struct matrix_client *c)
{
	if (c->rejoin_timer != 0)
		loop_timer_del(c->loop, c->rejoin_timer);
	c->rejoin_timer = 0;
	matrix_strlist_free(c->rejoin, c->nrejoin);
	c->rejoin = NULL;
	c->nrejoin = 0;
}

static void
on_join(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)body;
	if (status != 200 && (status == 0 || status >= 500 || status == 429) && r->tries + 1 < JOIN_TRIES &&
	    c->phase != MX_PH_STOPPED) {
		/* the server (or the room's, over federation) did not answer:
		 * the invite still stands, it is taken again after a while */
		char entry[2 * MATRIX_MAX_ID + 32];
		int64_t wait = r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(r->tries + 2);

		matrix_client_log(c, LOG_LVL_NOTICE, "cannot join %s (HTTP %ld): trying again in %lld ms", r->arg,
		                  status, (long long)wait);
		snprintf(entry, sizeof entry, "%d %s %s %d", r->tries + 1, r->arg, r->user != NULL ? r->user : "-",
		         r->direct);
		matrix_strlist_add(&c->rejoin, &c->nrejoin, entry);
		if (c->rejoin_timer == 0)
			c->rejoin_timer = loop_timer_add(c->loop, wait, on_rejoin_timer, c);
		return;
	}
	if (status != 200) {
		matrix_strlist_del(c->joining, &c->njoining, r->arg);
		matrix_client_log(c, LOG_LVL_WARNING, "cannot join %s (HTTP %ld%s%s)", r->arg, status,
		                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
		return;
	}
	/* it stays in joining until the sync shows it (the sync may also
	 * have shown it already, or shown us leaving it again) */
	matrix_client_log(c, LOG_LVL_INFO, "joined %s", r->arg);
	moved_joined(c, r->arg);
	/* a player who opens a direct chat with us gets their hands there,
	 * once its state shows it private (the invite alone cannot say) */
	if (r->direct && r->user != NULL)
		matrix_private_check(c, r->arg, r->user, false);
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
	/* leaving never holds the players' messages back */
	r = (strcmp(what, "leave") == 0 ? matrix_req_start_later : matrix_req_start)(c, "POST", path, NULL, done,
	                                                                            MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY);
	if (r != NULL)
		r->arg = xstrdup(room);
	return r;
}

static void
on_join_new(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	(void)body;
	if (status != 200) {
		/* an invite-only replacement: the invite (Element sends one to
		 * every member on request) is accepted as any other, and moves the
		 * game then */
		matrix_client_log(c, LOG_LVL_NOTICE, "cannot join %s, which replaces a room we are in (HTTP %ld): "
		                  "waiting for an invite", r->arg, status);
		return;
	}
	matrix_client_log(c, LOG_LVL_INFO, "joined %s", r->arg);
	moved_joined(c, r->arg);
}

void
matrix_rooms_tombstone(struct matrix_client *c, const struct matrix_item *it)
{
	char path[2400], enc[3 * MATRIX_MAX_ID + 1], venc[3 * MATRIX_MAX_ID + 1], entry[2 * MATRIX_MAX_ID + 2];
	const char *server = strchr(it->user, ':');
	size_t at;
	struct matrix_req *r;

	if (matrix_direct_user(c, it->room) != NULL) {
		matrix_private_drop(c, it->room, "it was upgraded", false);
		return;
	}
	if (moved_from(c, it->text, &at) != NULL || c->nmoved >= 64 ||
	    matrix_text_urlenc(it->text, enc, sizeof enc) < 0 || server == NULL ||
	    matrix_text_urlenc(server + 1, venc, sizeof venc) < 0)
		return;
	snprintf(entry, sizeof entry, "%s %s", it->text, it->room);
	matrix_strlist_add(&c->moved, &c->nmoved, entry);
	if (matrix_strlist_has(c->joined, c->njoined, it->text)) {
		moved_joined(c, it->text);
		return;
	}
	/* room ids need not name a server (room version 12): the server of
	 * whoever upgraded it knows the new room */
	snprintf(path, sizeof path, MATRIX_API "/join/%s?via=%s&server_name=%s", enc, venc, venc);
	if ((r = matrix_req_start(c, "POST", path, NULL, on_join_new, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) != NULL)
		r->arg = xstrdup(it->text);
}

void
matrix_rooms_leave(struct matrix_client *c, const char *room)
{
	room_post(c, room, "leave", on_leave);
}

void
matrix_rooms_invited(struct matrix_client *c, const struct matrix_item *it)
{
	struct matrix_req *r;

	if (matrix_strlist_has(c->joining, c->njoining, it->room) || matrix_strlist_has(c->joined, c->njoined, it->room))
		return;
	if (!c->cfg.auto_join || !matrix_client_allowed(c->cfg.allow, c->self, it->user)) {
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
	/* rooms the bot opens for hands count too, but are never refused */
	if (c->njoined + c->njoining >= (size_t)c->cfg.max_rooms) {
		if (!c->said_full)
			matrix_client_log(c, LOG_LVL_WARNING, "in %zu rooms already (max_rooms = %ld): declining every "
			                  "invite until the bot is in fewer", c->njoined + c->njoining, c->cfg.max_rooms);
		c->said_full = true;
		matrix_client_log(c, LOG_LVL_INFO, "declining the invite to %s from %s: max_rooms reached", it->room,
		                  it->user);
		room_post(c, it->room, "leave", on_leave);
		return;
	}
	c->said_full = false;
	matrix_client_log(c, LOG_LVL_INFO, "invited to %s by %s%s: joining", it->room, it->user,
	                  it->direct ? " for a direct chat" : "");
	if ((r = room_post(c, it->room, "join", on_join)) == NULL)
		return;
	matrix_strlist_add(&c->joining, &c->njoining, it->room);
	r->user = xstrdup(it->user);
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
	matrix_power_forget(c, it->room);
	matrix_strlist_del(c->joined, &c->njoined, it->room);
	matrix_strlist_del(c->joining, &c->njoining, it->room);
	if (du != NULL) {
		/* its hands wait for another room */
		matrix_outbox_unresolve(c->out, it->room);
		matrix_direct_forget(c, it->room);
	} else if (!matrix_private_denied(c, it->room)) {
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
	/* the list is kept (and searched for each event): past its cap, leave */
	if (c->nenc >= c->cfg.max_encrypted) {
		matrix_client_log(c, LOG_LVL_WARNING, "%s is encrypted, and %zu encrypted rooms are remembered "
		                  "already: leaving it", it->room, c->nenc);
		room_post(c, it->room, "leave", on_leave);
		return;
	}
	matrix_strlist_add(&c->joined_enc, &c->nenc, it->room);
	snprintf(key, sizeof key, "enc/%s", it->room);
	matrix_client_set(c, key, "1");
	matrix_client_log(c, LOG_LVL_NOTICE, "%s is encrypted: not playing there", it->room);
	matrix_outbox_add(c->out, it->room, NULL, NULL,
	                  "This room is end-to-end encrypted, and I cannot read encrypted messages, "
	                  "so I cannot host a game here. Say \"!play @friend:server ...\" (naming the players) "
	                  "in a direct chat with me, and I make an unencrypted room for your table.",
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

void
matrix_rooms_joined(struct matrix_client *c, const char *room)
{
	matrix_strlist_del(c->joining, &c->njoining, room);
	matrix_strlist_add(&c->joined, &c->njoined, room);
	/* a replacement room the sync shows us in before the answer to our
	 * join came: the table moves now, before the room's first command */
	moved_joined(c, room);
}

/* Forgets an encrypted room we are no longer in. */
static void
enc_forget(struct matrix_client *c, const char *room)
{
	char key[MATRIX_MAX_ID + 8];

	snprintf(key, sizeof key, "enc/%s", room);
	matrix_client_del(c, key);
	matrix_strlist_del(c->joined_enc, &c->nenc, room);
}

/* The server's list of our rooms, against ours: rooms in before (ours when
 * the list was asked for) and no longer in it were left meanwhile. */
static void
list_apply(struct matrix_client *c, long status, json_t *body, const char *before)
{
	json_t *list = json_object_get(body, "joined_rooms"), *v;
	char **now = NULL, **gone = NULL, *copy, *tok, *save = NULL;
	size_t nnow = 0, ngone = 0, i;

	if (status != 200 || !json_is_array(list)) {
		matrix_client_log(c, LOG_LVL_WARNING, "cannot list the rooms the account is in (HTTP %ld): counting "
		                  "them from the sync alone", status);
		return;
	}
	json_array_foreach(list, i, v)
		if (matrix_text_id_ok(json_string_value(v), '!'))
			matrix_strlist_add(&now, &nnow, json_string_value(v));
	if (before != NULL) {
		copy = xstrdup(before);
		for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			if (!matrix_strlist_has(now, nnow, tok) && matrix_strlist_has(c->joined, c->njoined, tok))
				matrix_strlist_add(&gone, &ngone, tok);
		free(copy);
	}
	for (i = 0; i < ngone; i++) {
		struct matrix_item it = { .kind = MX_IT_REMOVED, .room = gone[i] };

		matrix_rooms_removed(c, &it);
	}
	for (i = 0; i < nnow; i++)
		matrix_rooms_joined(c, now[i]);
	/* encrypted rooms remembered from an earlier run that we have left */
	for (i = c->nenc; i-- > 0;)
		if (!matrix_strlist_has(c->joined, c->njoined, c->joined_enc[i]))
			enc_forget(c, c->joined_enc[i]);
	matrix_client_log(c, LOG_LVL_INFO, "in %zu rooms (max_rooms = %ld)", c->njoined, c->cfg.max_rooms);
	matrix_strlist_free(now, nnow);
	matrix_strlist_free(gone, ngone);
}

static void
on_list_chain(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	c->sync_req = NULL;
	list_apply(c, status, body, r->arg);
	matrix_poll_start(c);
}

static void
on_list(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	list_apply(c, status, body, r->arg);
}

void
matrix_rooms_list(struct matrix_client *c, bool chain)
{
	struct matrix_req *r;
	size_t len = 1, o = 0;
	char *before;

	/* our rooms as they are now: only these may turn out to be gone */
	for (size_t i = 0; i < c->njoined; i++)
		len += strlen(c->joined[i]) + 1;
	before = xmalloc(len);
	before[0] = '\0';
	for (size_t i = 0; i < c->njoined; i++)
		o += (size_t)snprintf(before + o, len - o, "%s%s", o > 0 ? " " : "", c->joined[i]);
	if (chain)
		c->phase = MX_PH_ROOMS;
	r = (chain ? matrix_req_start_now : matrix_req_start)(c, "GET", MATRIX_API "/joined_rooms", NULL,
	                                                     chain ? on_list_chain : on_list, MATRIX_REQ_TIMEOUT,
	                                                     MATRIX_ROOMS_MAX_BODY);
	if (r == NULL) {
		free(before);
		if (chain)
			matrix_poll_start(c);
		return;
	}
	r->arg = before;
	if (chain)
		c->sync_req = r;
}
