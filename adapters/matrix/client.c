/* client.c: one Matrix account's public face (new, start, send, stop, free), and the logging and state store its parts share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"
#include "secret.h"

void
matrix_client_log(struct matrix_client *c, int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	/* a client with nobody listening formats nothing */
	if (c->host.log == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	c->host.log(c->host.ctx, level, buf);
}

int
matrix_client_get(struct matrix_client *c, const char *key, char *buf, size_t len)
{
	return c->host.store.get(c->host.store.ctx, key, buf, len);
}

void
matrix_client_set(struct matrix_client *c, const char *key, const char *value)
{
	if (c->host.store.set(c->host.store.ctx, key, value) < 0)
		matrix_client_log(c, LOG_LVL_WARNING, "cannot store %s", key);
}

void
matrix_client_del(struct matrix_client *c, const char *key)
{
	c->host.store.del(c->host.store.ctx, key);
}

bool
matrix_client_allowed(const char *allow, const char *self, const char *inviter)
{
	char buf[1024], *tok, *save = NULL;
	const char *server = strchr(inviter, ':'), *ours = self != NULL ? strchr(self, ':') : NULL;
	bool any = false;

	snprintf(buf, sizeof buf, "%s", allow != NULL ? allow : "");
	for (tok = strtok_r(buf, " ,\t", &save); tok != NULL; tok = strtok_r(NULL, " ,\t", &save)) {
		any = true;
		if (strcmp(tok, "*") == 0 || strcmp(tok, inviter) == 0)
			return true;
		if (tok[0] != '@' && server != NULL && strcmp(tok, server + 1) == 0)
			return true;
	}
	/* nothing listed: the people of our own homeserver, not the whole federation */
	return !any && server != NULL && ours != NULL && strcmp(server, ours) == 0;
}

bool
matrix_client_insecure(const char *url)
{
	const char *host;
	size_t n;

	if (strncmp(url, "http://", 7) != 0)
		return false;
	host = url + 7;
	if (host[0] == '[') {
		n = strcspn(host, "]");
		n += host[n] == ']';
	} else
		n = strcspn(host, ":/?#@");
	if (host[n] == '@')
		return true; /* user info: whatever follows, not worth a guess */
	if ((n == 9 && strncmp(host, "localhost", n) == 0) || (n == 5 && strncmp(host, "[::1]", n) == 0))
		return false;
	/* 127.0.0.0/8, written as digits and dots only */
	return !(n > 4 && strncmp(host, "127.", 4) == 0 && strspn(host, "0123456789.") == n);
}

struct matrix_client *
matrix_client_new(const struct matrix_config *cfg, const struct matrix_host *host, struct loop *l, struct http *h)
{
	struct matrix_client *c = xcalloc(1, sizeof *c);

	c->cfg = *cfg;
	c->host = *host;
	c->loop = l;
	c->http = h;
	snprintf(c->token, sizeof c->token, "%s", cfg->token);
	snprintf(c->refresh, sizeof c->refresh, "%s", cfg->refresh);
	if (c->cfg.sync_timeout_ms <= 0)
		c->cfg.sync_timeout_ms = 30000;
	if (c->cfg.max_rooms <= 0)
		c->cfg.max_rooms = MATRIX_MAX_ROOMS;
	if (c->cfg.max_encrypted == 0)
		c->cfg.max_encrypted = MATRIX_MAX_ENCRYPTED;
	c->out = matrix_outbox_new(&c->host.store);
	return c;
}

int
matrix_client_start(struct matrix_client *c)
{
	char buf[1100];

	if (matrix_client_get(c, "device_id", buf, sizeof buf) >= 0 && matrix_text_id_ok(buf, 0) &&
	    strlen(buf) < sizeof c->device)
		snprintf(c->device, sizeof c->device, "%s", buf);
	matrix_poll_restore(c);
	matrix_direct_restore(c);
	matrix_rooms_restore(c);
	matrix_private_restore(c);
	matrix_power_restore(c);
	matrix_names_restore(c);
	matrix_notices_restore(c);
	matrix_tableroom_restore(c);
	if (matrix_client_insecure(c->cfg.homeserver))
		matrix_client_log(c, LOG_LVL_WARNING, "%s is plain http: the %s, and every message, cross the network "
		                  "unencrypted; use https://", c->cfg.homeserver,
		                  c->cfg.password[0] != '\0' ? "password" : "access token");
	matrix_client_log(c, LOG_LVL_INFO, "connecting to %s (%zu queued messages, %s)", c->cfg.homeserver,
	                  matrix_outbox_count(c->out), c->since != NULL ? "resuming" : "first start: history skipped");
	matrix_login_start(c);
	return 0;
}

bool
matrix_client_is_moderator(struct matrix_client *c, const char *room, const char *user)
{
	return matrix_power_is_moderator(c, room, user);
}

size_t
matrix_client_pending(struct matrix_client *c, const char *room, enum adapter_pending what)
{
	return what == PENDING_ROOM ? matrix_outbox_count_told(c->out, room) : matrix_outbox_count_room(c->out, room);
}

/* One message on its way out: each piece becomes one event, body and HTML. */
struct matrix_client_out {
	struct matrix_client *c;
	const struct adapter_msg *m;
	const char *room;
	struct rbuf html;
	int rc;
	bool more;               /* a piece of the message went already: the next continues it */
};

/* The budget is the plain body's: the HTML beside it is a few times that at most. */
static void
matrix_client_plain(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct matrix_client_out *o = ctx;

	style_plain(out, m, len, o->m->prefix);
}

/* One piece, one event: the plain body the budget was measured on, and its HTML. */
static void
matrix_client_piece(void *ctx, const char *m, size_t len, const char *body, size_t bodylen)
{
	struct matrix_client_out *o = ctx;
	const struct adapter_msg *msg = o->m;
	bool priv = msg->kind == MSG_PRIVATE;
	struct matrix_out *out;

	bool ping = !priv && matrix_text_id_ok(msg->prompt_user, '@');
	char nb[MATRIX_MAX_NAME + 1];

	(void)bodylen;
	rbuf_reset(&o->html);
	matrix_html_pill(&o->html, m, len, msg->prefix, ping ? msg->prompt_user : NULL,
	                 ping ? matrix_names_of(o->c, msg->room, msg->prompt_user, nb, sizeof nb) : NULL);
	/* its facts: lib/outq decides its class and the older answer it replaces */
	out = matrix_outbox_add_key(o->c->out, o->room, priv ? msg->user_id : NULL, priv ? msg->room : NULL, body,
	                            o->html.s, msg->mentions, msg->nmentions,
	                            &(struct matrix_answer){ .key = msg->supersede, .asker = msg->asker,
	                                                     .player = msg->player, .piece = o->more,
	                                                     .again = msg->again });
	o->more = true;
	if (out == NULL)
		o->rc = -1;
	if (out != NULL && ping)
		matrix_outbox_ping(o->c->out, out);
	/* an answer to a command said in a thread, in that room: in the thread */
	for (size_t i = 0; out != NULL && !priv && msg->reply_to != 0 && i < sizeof o->c->refs / sizeof *o->c->refs; i++)
		if (o->c->refs[i].ref == msg->reply_to && o->c->refs[i].room != NULL &&
		    strcmp(o->c->refs[i].room, msg->room) == 0)
			matrix_outbox_thread(o->c->out, out, o->c->refs[i].thread, o->c->refs[i].event_id);
}

int
matrix_client_send(struct matrix_client *c, const struct adapter_msg *m)
{
	struct matrix_client_out o = { .c = c, .m = m, .room = m->room };

	if (m->styled == NULL)
		return -1;
	if (m->kind == MSG_PRIVATE) {
		if (!matrix_text_id_ok(m->user_id, '@'))
			return -1;
		/* every private_as: Matrix has no line shown to one member of a
		 * room, only the direct conversation (PRIVATE_CONVERSATION) */
		/* a room made for the player holds no hand before they are in
		 * it (its history is hidden from those who were not): until
		 * then the message waits unresolved, as send.c's would */
		o.room = matrix_direct_is_joined(c, m->user_id) ? matrix_direct_room(c, m->user_id) : NULL;
	} else {
		if (!matrix_text_id_ok(o.room, '!'))
			return -1;
		if (matrix_rooms_is_encrypted(c, o.room))
			return 0;
		/* the table's page as the room's widget, from the deal to the end */
		matrix_widget_room(c, o.room, m->watch_url);
	}
	/* one event per message, cut only when longer than a body should be */
	style_split(m->styled, strlen(m->styled), MATRIX_MAX_LINE, false, matrix_client_plain, &o,
	            matrix_client_piece, &o);
	rbuf_free(&o.html);
	/* a private message with no direct room yet: the kick makes one, when
	 * the account's allowance lets it */
	matrix_send_kick(c);
	return o.rc;
}

bool
matrix_client_stopped(const struct matrix_client *c)
{
	return c->phase == MX_PH_STOPPED;
}

void
matrix_client_stop(struct matrix_client *c)
{
	/* nothing to say goodbye with: queued messages stay in the store and
	 * go out, with the same txn ids, on the next start */
	c->phase = MX_PH_STOPPED;
	matrix_req_cancel_all(c);
	matrix_widget_stop(c);
	matrix_direct_stop(c);
	matrix_rooms_stop(c);
	loop_once_cancel(c->loop, &c->sync_timer);
	loop_once_cancel(c->loop, &c->out_timer);
}

void
matrix_client_free(struct matrix_client *c)
{
	if (c == NULL)
		return;
	matrix_client_stop(c);
	matrix_outbox_free(c->out);
	matrix_poll_free(c);
	matrix_names_free(c);
	matrix_power_free(c);
	matrix_direct_free(c);
	matrix_tableroom_free(c);
	matrix_private_free(c);
	matrix_strlist_free(c->joined_enc, c->nenc);
	matrix_strlist_free(c->joining, c->njoining);
	matrix_strlist_free(c->joined, c->njoined);
	matrix_strlist_free(c->moved, c->nmoved);
	secret_wipe(c->token, sizeof c->token);
	secret_wipe(c->refresh, sizeof c->refresh);
	secret_wipe(c->cfg.password, sizeof c->cfg.password);
	secret_wipe(c->cfg.token, sizeof c->cfg.token);
	secret_wipe(c->cfg.refresh, sizeof c->cfg.refresh);
	free(c);
}
