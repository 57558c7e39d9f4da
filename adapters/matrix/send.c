/* send.c: drives the outbox: one PUT in flight for the account, a 429 making every room wait, retries after failures, private messages routed to direct rooms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"

static void
on_out_timer(void *data)
{
	matrix_send_kick(data);
}

void
matrix_send_arm(struct matrix_client *c, int64_t ms)
{
	int64_t when = loop_now(c->loop) + ms;

	if (c->out_timer != 0 && c->out_due <= when)
		return;
	c->out_due = when;
	loop_once(c->loop, &c->out_timer, ms, on_out_timer, c);
}

static void
on_sent(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	struct matrix_out *m = r->msg;
	int64_t now = loop_now(c->loop);

	(void)body;
	if (status == 200) {
		matrix_outbox_done(c->out, m);
	} else if (status == 429) {
		/* Synapse limits the user, not the room: the whole account waits,
		 * every room, for as long as the server asks */
		int64_t wait = r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(m->tries + 1);

		matrix_client_log(c, LOG_LVL_DEBUG, "send to %s: rate limited; every send waits %lld ms", m->room,
		                  (long long)wait);
		matrix_outbox_retry(c->out, m, now, wait);
		matrix_outbox_pause(c->out, now + wait);
	} else if (status == 0 || status >= 500 || status == 401) {
		matrix_client_log(c, LOG_LVL_DEBUG, "send to %s: HTTP %ld; retrying", m->room, status);
		matrix_outbox_retry(c->out, m, now, -1);
	} else if (m->user != NULL && status == 403 && m->tries < 3) {
		/* the room refused a hand (the player left, a server rule): it is
		 * dropped, and the hands route anew */
		char *room = xstrdup(m->room);

		matrix_client_log(c, LOG_LVL_NOTICE, "direct room %s of %s refused a message (HTTP %ld)", room, m->user,
		                  status);
		matrix_outbox_retry(c->out, m, now, 0);
		matrix_private_drop(c, room, "it refused a message", false);
		free(room);
	} else {
		matrix_client_log(c, LOG_LVL_WARNING, "message to %s dropped (HTTP %ld%s%s)", m->room, status,
		                  r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
		if (m->user != NULL) {
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->context, .user_id = m->user,
			                        .text = "I cannot reach you in our direct chat" };
			char nb[MATRIX_MAX_NAME + 1];

			ev.user_name = matrix_names_of(c, m->context, m->user, nb, sizeof nb);
			c->host.emit(c->host.ctx, &ev);
		} else if (status == 403) {
			/* the room refuses us (our power level, an upgrade that raised
			 * events_default): the core tells the table's owner */
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->room,
			                        .text = r->errcode != NULL ? r->errcode : "HTTP 403" };

			c->host.emit(c->host.ctx, &ev);
		}
		matrix_outbox_done(c->out, m);
	}
	matrix_send_kick(c);
}

void
matrix_send_kick(struct matrix_client *c)
{
	struct matrix_out *m, *next;
	int64_t wait, now;

	if (!c->up || c->phase == MX_PH_STOPPED)
		return;
	now = loop_now(c->loop);
	/* private messages waiting for a direct room (also those restored from
	 * the store, whose room was still being made).  createRoom has a limit
	 * of its own (Synapse's rc_room_creation) and a pause of its own: it
	 * never holds the sends back, nor they it; one room at a time. */
	for (m = matrix_outbox_unresolved(c->out, NULL); m != NULL; m = next) {
		const char *room;

		next = m->next;
		if (m->room != NULL || m->user == NULL || matrix_strlist_has(c->creating, c->ncreating, m->user) ||
		    matrix_private_checking(c, m->user))
			continue;
		/* a room made for the player holds no hand before they are in
		 * it: its history is hidden from those who were not */
		if ((room = matrix_direct_room(c, m->user)) != NULL) {
			if (matrix_direct_is_joined(c, m->user))
				matrix_outbox_resolve(c->out, m->user, room);
		} else if (c->server_encrypts) {
			/* every room we make comes encrypted: none is made */
			matrix_direct_failed(c, m->user, MATRIX_ENCRYPTED_WHY);
			next = matrix_outbox_unresolved(c->out, NULL);
		} else if (now >= c->create_after && c->ncreating == 0)
			matrix_direct_create(c, m->user);
	}
	wait = -1;
	/* a widget's state event spends the same allowance: one or the other in flight */
	while (!matrix_widget_kick(c, now) && (m = matrix_outbox_next(c->out, now, &wait)) != NULL) {
		char path[1200], enc[3 * MATRIX_MAX_ID + 1], tenc[200], *content;
		struct matrix_req *r = NULL;

		content = matrix_outbox_content(m);
		if (content != NULL && matrix_text_urlenc(m->room, enc, sizeof enc) == 0 &&
		    matrix_text_urlenc(m->txn, tenc, sizeof tenc) == 0) {
			snprintf(path, sizeof path, MATRIX_API "/rooms/%s/send/m.room.message/%s", enc, tenc);
			r = matrix_req_start(c, "PUT", path, content, on_sent, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY);
		}
		free(content);
		if (r == NULL) {
			matrix_outbox_retry(c->out, m, now, -1);
			continue;
		}
		r->msg = m;
		matrix_outbox_flying(c->out, m);
	}
	if (wait >= 0)
		matrix_send_arm(c, wait);
	if (matrix_outbox_unresolved(c->out, NULL) != NULL && now < c->create_after)
		matrix_send_arm(c, c->create_after - now);
}
