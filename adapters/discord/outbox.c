/* outbox.c: what the bot says, on Discord: encoded, routed (answer, channel, DM or a "My hand" button), with buttons and pings; hands never in a channel (DMs: dm.c); channel lines take turns in lib/outq's lanes before the REST buckets. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "button.h"
#include "client.h"
#include "dm.h"
#include "loop.h"
#include "markdown.h"
#include "rbuf.h"
#include "route.h"
#include "slash.h"
#include "xmalloc.h"

#define MAX_ACTIONS     (DISCORD_BUTTONS_PER_ROW * DISCORD_ROWS_MAX)

/* One message of the bot's, encoded, waiting for the end of its batch. */
struct discord_out {
	bool private;
	char room[DISCORD_ID_LEN];       /* the room's channel ("" if none: a private line outside a game) */
	char user[DISCORD_ID_LEN];       /* private: the player */
	char ping[DISCORD_ID_LEN];       /* the one user it may ping ("" if none) */
	char actions[MAX_ACTIONS][33];   /* the turn line's buttons, for ping */
	size_t nactions;
	bool hand_button;                /* a "My hand" button for anyone whose cards changed */
	char watch[520];                 /* adapter_msg.watch_url: the table's public page, or "" */
	bool watch_button;               /* ... shown as a link button (a turn line, a line that names it) */
	uint64_t reply_to;
	char key[DISCORD_AGAIN_KEY];     /* an answer's supersede key, "" for what must be delivered */
	char asker[64];                  /* an answer: whose question ("" if none): its lane */
	bool player;                     /* an answer to a seated player: served with the games' lines */
	bool again;                      /* it only points at the same answer said a moment ago */
	bool replaced;                   /* a newer answer of the batch replaces it (lib/outq says) */
	enum discord_private mode;
	enum discord_route route;
	struct rbuf pieces;              /* the contents, NUL-separated */
	size_t npieces;
	struct discord_out *next;
};

static void flush_batch(struct discord_client *c);

/* ------------------------------------------------------------------ bodies */

json_t *
discord_outbox_body(const char *content, size_t n, const char *ping)
{
	return json_pack("{s:s%,s:o,s:i}", "content", content, n, "allowed_mentions",
	                 discord_button_mentions(ping != NULL && ping[0] != '\0' ? ping : NULL), "flags",
	                 DISCORD_SUPPRESS_EMBEDS);
}

/* The turn line's buttons: the player's commands that take no argument, and "My hand" for anyone. */
static json_t *
components(struct discord_client *c, const struct discord_out *o)
{
	const char *acts[MAX_ACTIONS + 1];
	size_t n = 0;
	bool hand = false;
	json_t *rows;

	for (size_t i = 0; i < o->nactions; i++)
		hand = hand || strcmp(o->actions[i], DISCORD_BUTTON_HAND) == 0;
	if (o->hand_button && !hand)
		acts[n++] = DISCORD_BUTTON_HAND;
	for (size_t i = 0; i < o->nactions && n < MAX_ACTIONS; i++)
		acts[n++] = o->actions[i];
	if (n == 0 && !o->watch_button)
		return NULL;
	/* the player's moves carry this turn line's number: a press on an older line is stale */
	rows = n == 0 ? NULL : discord_button_rows_n(acts, n, o->ping[0] != '\0' ? o->ping : NULL,
	                                             o->ping[0] != '\0' && n > (hand || o->hand_button ? 1u : 0u) ?
	                                             discord_prompt_next(c, o->room) : 0);
	/* the table's page beside them: public, what the room sees (never a seat's link) */
	if (o->watch_button && (n == 0 || rows != NULL))
		discord_button_add_link(&rows, "Table page", o->watch);
	return rows;
}

/* A hand's private answer: "My page" (a new link to the player's own page,
 * answered to them alone) and the table's page. */
static json_t *
private_components(const struct discord_out *o)
{
	const char *page[] = { DISCORD_BUTTON_PAGE };
	json_t *rows;

	if (o->watch[0] == '\0' || strcmp(o->key, "hand") != 0 || (rows = discord_button_rows(page, 1, NULL)) == NULL)
		return NULL;
	discord_button_add_link(&rows, "Table page", o->watch);
	return rows;
}

/* ------------------------------------------------------------------ posting */

static void
on_posted(void *ctx, long status, json_t *body)
{
	struct discord_req *r = ctx;
	struct discord_client *c = r->c;
	json_int_t code = json_integer_value(json_object_get(body, "code"));
	const char *msg = json_string_value(json_object_get(body, "message"));
	struct discord_dm *d;

	if (status >= 200 && status < 300) {
		discord_client_req_done(r);
		discord_lanes_pump(c);
		return;
	}
	if (r->kind == DISCORD_REQ_ROOM && (status == 403 || status == 404)) {
		discord_refused_mark(c, r->channel, status, (long long)code);
		discord_client_req_done(r);
		return;
	}
	discord_client_log(c, LOG_LVL_WARNING, "%s %s: HTTP %ld, code %lld%s%s", r->kind == DISCORD_REQ_DM_POST ?
	                   "a direct message to" : "a line in channel", r->kind == DISCORD_REQ_DM_POST ? r->user :
	                   r->channel, status, (long long)code, msg != NULL ? ": " : "", msg != NULL ? msg : "");
	if (r->kind == DISCORD_REQ_DM_POST && (d = discord_dm_of(c, r->user, false)) != NULL) {
		/* 50007: "Cannot send messages to this user" (their DMs are closed to the bot):
		 * each more try would be another 403, so none is made until they say again */
		if (code == 50007) {
			struct discord_req *q, *nq;

			d->closed = true;
			for (q = c->reqs; q != NULL; q = nq) {
				nq = q->next;
				if (q != r && q->kind == DISCORD_REQ_DM_POST && strcmp(q->user, r->user) == 0 &&
				    discord_rest_withdraw(c->rest, q) > 0)
					discord_client_req_done(q);
			}
		}
		discord_dm_failed(c, d, code == 50007 ? "cannot send you direct messages" : "the direct message was refused");
	}
	discord_client_req_done(r);
	discord_lanes_pump(c);
}

/* POST /channels/{channel}/messages, with a nonce Discord enforces: a
 * request retried after a 5xx whose first try had landed posts nothing twice. */
void
discord_outbox_channel(struct discord_client *c, enum discord_req_kind kind, const char *channel, const char *user,
                       json_t *body, const char *key)
{
	struct discord_req *r;
	char path[80], nonce[24];

	if (kind == DISCORD_REQ_ROOM && discord_refused_has(c, channel)) {
		/* Discord refused the last line there: each more would be another 403 */
		json_decref(body);
		return;
	}
	r = discord_client_req(c, kind);

	snprintf(r->channel, sizeof r->channel, "%s", channel);
	snprintf(r->key, sizeof r->key, "%s", key != NULL ? key : "");
	snprintf(r->user, sizeof r->user, "%s", user != NULL ? user : "");
	snprintf(nonce, sizeof nonce, "%" PRIu64, ++c->nonce);
	json_object_set_new(body, "nonce", json_string(nonce));
	json_object_set_new(body, "enforce_nonce", json_true());
	snprintf(path, sizeof path, "/channels/%s/messages", channel);
	discord_client_call(c, "POST", path, body, r, on_posted);
}

/* ------------------------------------------------------------------ answers */

static void
on_answered(void *ctx, long status, json_t *body)
{
	struct discord_req *r = ctx;
	struct discord_client *c = r->c;
	json_int_t code = json_integer_value(json_object_get(body, "code"));

	if (c->ans != NULL)
		discord_answer_result(c->ans, r->ref, (enum discord_answer_kind)r->ans_kind, status, (int)code,
		                      loop_now(c->loop));
	if (r->ans_kind == DISCORD_ANS_CHANNEL && (status == 403 || status == 404) && r->channel[0] != '\0')
		discord_refused_mark(c, r->channel, status, (long long)code);
	else if (status < 200 || status >= 300)
		discord_client_log(c, LOG_LVL_NOTICE, "interaction %" PRIu64 ": HTTP %ld, code %lld", r->ref, status,
		                   (long long)code);
	/* the follow-ups it released go first: pending() never sees the room empty in between */
	discord_outbox_answers(c);
	discord_client_req_done(r);
}

static void
on_answer_timer(void *data)
{
	struct discord_client *c = data;

	c->answer_due = -1;
	if (c->ans != NULL)
		discord_answer_tick(c->ans, loop_now(c->loop));
	discord_outbox_answers(c);
}

void
discord_outbox_answers(struct discord_client *c)
{
	struct discord_answer_op op;

	/* the lanes too: a request that ended with no callback frees a turn */
	discord_lanes_pump(c);
	if (c->ans == NULL)
		return;
	while (discord_answer_next(c->ans, &op)) {
		const struct discord_recent_ev *ev = discord_recent_find(c->recent, op.ref);
		struct discord_req *r;
		json_t *body;

		if (!discord_answer_safe(&op)) {
			/* never happens; if it ever did, the line is dropped, not shown */
			discord_client_log(c, LOG_LVL_ERR, "a private line for interaction %" PRIu64 " would have been "
			                   "public: not sent", op.ref);
			discord_answer_op_free(&op);
			continue;
		}
		body = op.body;
		op.body = NULL;
		if (op.kind == DISCORD_ANS_UNDELIVERED) {
			/* too late to answer privately: a DM is private too */
			if (ev != NULL && body != NULL)
				discord_dm_send(c, ev->user, ev->channel, body);
			else
				json_decref(body);
			continue;
		}
		r = discord_client_req(c, DISCORD_REQ_ANSWER);
		r->ref = op.ref;
		r->ans_kind = (int)op.kind;
		r->deadline = op.deadline;
		if (ev != NULL)
			snprintf(r->channel, sizeof r->channel, "%s", ev->channel);
		if (op.kind == DISCORD_ANS_CHANNEL && ev != NULL && discord_refused_has(c, ev->channel)) {
			/* the channel refused a line: this would be one more 403 */
			json_decref(body);
			discord_client_req_done(r);
			continue;
		}
		if (op.kind == DISCORD_ANS_CHANNEL && body != NULL) {
			char nonce[24];

			snprintf(nonce, sizeof nonce, "%" PRIu64, ++c->nonce);
			json_object_set_new(body, "nonce", json_string(nonce));
			json_object_set_new(body, "enforce_nonce", json_true());
		}
		discord_client_call(c, op.method, op.path, body, r, on_answered);
	}
	loop_once_at(c->loop, &c->answer_timer, &c->answer_due, discord_answer_due(c->ans), on_answer_timer, c);
}

void
discord_outbox_say_private(struct discord_client *c, uint64_t ref, const char *content)
{
	if (c->ans != NULL)
		discord_answer_say(c->ans, ref, true, discord_outbox_body(content, strlen(content), NULL), loop_now(c->loop));
	discord_outbox_answers(c);
}

/* ------------------------------------------------------------------ the batch */

static void
add_piece(void *ctx, const char *content, size_t n)
{
	struct discord_out *o = ctx;

	rbuf_addn(&o->pieces, content, n);
	rbuf_addn(&o->pieces, "", 1);
	o->npieces++;
}

static void
out_free(struct discord_out *o)
{
	rbuf_free(&o->pieces);
	free(o);
}

static void
on_batch(void *data)
{
	flush_batch(data);
}

static enum discord_private
mode_of(const struct discord_client *c, enum adapter_private as)
{
	/* !private on Discord: "privmsg" (or "msg") is a DM, "notice" a line only they can see */
	switch (as) {
	case PRIVATE_CONVERSATION: return DISCORD_PRIVATE_DM;
	case PRIVATE_QUIET: return DISCORD_PRIVATE_EPHEMERAL;
	default: return c->cfg.private_mode;
	}
}

int
discord_outbox_send(struct discord_client *c, const struct adapter_msg *m)
{
	struct discord_out *o;
	struct discord_md_ping ping = { NULL, NULL };
	const char *who = m->prompt_user != NULL ? m->prompt_user : m->nmentions > 0 ? m->mentions[0] : NULL;
	const char *styled = m->styled != NULL ? m->styled : "";

	if (c->rest == NULL)
		return -1;
	o = xcalloc(1, sizeof *o);
	o->private = m->kind == MSG_PRIVATE;
	o->reply_to = m->reply_to;
	o->mode = mode_of(c, m->private_as);
	if (m->supersede != NULL && strlen(m->supersede) < sizeof o->key)
		snprintf(o->key, sizeof o->key, "%s", m->supersede);
	if (m->asker != NULL)
		snprintf(o->asker, sizeof o->asker, "%s", m->asker);
	o->player = m->player;
	o->again = m->again;
	if (m->room != NULL && discord_text_snowflake(m->room))
		snprintf(o->room, sizeof o->room, "%s", m->room);
	if ((o->private && (m->user_id == NULL || discord_text_user_of(m->user_id, o->user, sizeof o->user) < 0)) ||
	    (!o->private && o->room[0] == '\0')) {
		discord_client_log(c, LOG_LVL_WARNING, "a line for %s%s: not a Discord %s", o->private ? "" : "room ",
		                   o->private ? (m->user_id != NULL ? m->user_id : "?") : (m->room != NULL ? m->room : "?"),
		                   o->private ? "player" : "channel");
		free(o);
		return -1;
	}
	if (!o->private && who != NULL && discord_text_user_of(who, o->ping, sizeof o->ping) == 0) {
		ping.user = o->ping;
		ping.name = discord_recent_name(c->recent, o->ping);
	}
	if (!o->private && m->prompt_user != NULL && o->ping[0] != '\0') {
		size_t n;
		const struct adapter_command *cmds = adapter_commands(c->a, &n), *cmd;

		/* a button runs its command as it is: only commands that need no argument */
		for (size_t i = 0; i < m->nactions && o->nactions < MAX_ACTIONS; i++)
			if ((cmd = discord_slash_find(cmds, n, m->actions[i])) != NULL && !cmd->arg_required &&
			    discord_slash_name_ok(cmd->name))
				snprintf(o->actions[o->nactions++], sizeof o->actions[0], "%s", cmd->name);
	}
	if (m->watch_url != NULL && strlen(m->watch_url) < sizeof o->watch) {
		snprintf(o->watch, sizeof o->watch, "%s", m->watch_url);
		/* the turn line (its buttons), and the line that names the page (the deal's) */
		o->watch_button = !o->private && (o->nactions > 0 || strstr(styled, m->watch_url) != NULL);
	}
	discord_markdown_split(styled, strlen(styled), ping.user != NULL ? &ping : NULL, add_piece, o);
	if (o->npieces == 0 && o->nactions == 0) {
		out_free(o);
		return 0;
	}
	if (o->npieces == 0)
		/* buttons alone: a message may have no content if it has components */
		add_piece(o, "", 0);
	*c->batch_tail = o;
	c->batch_tail = &o->next;
	/* the rest of this flush joins it: then the hands are known before the room's line goes */
	if (c->batch_timer == 0)
		loop_once(c->loop, &c->batch_timer, 0, on_batch, c);
	return 0;
}

static void
send_room(struct discord_client *c, struct discord_out *o)
{
	const char *s = o->pieces.s;
	int64_t now = loop_now(c->loop);

	for (size_t i = 0; i < o->npieces; i++, s += strlen(s) + 1) {
		json_t *body = discord_outbox_body(s, strlen(s), o->ping), *comps;

		if (i + 1 == o->npieces && (comps = components(c, o)) != NULL)
			json_object_set_new(body, "components", comps);
		if (o->route == DISCORD_ROUTE_ANSWER && c->ans != NULL &&
		    discord_answer_say(c->ans, o->reply_to, false, json_incref(body), now) == 0) {
			json_decref(body);
			continue;
		}
		discord_outbox_channel(c, DISCORD_REQ_ROOM, o->room, NULL, body, o->key);
	}
}

static void
send_private(struct discord_client *c, struct discord_out *o)
{
	const char *s = o->pieces.s;
	int64_t now = loop_now(c->loop);

	const struct discord_recent_ev *ev;
	bool ephemeral = true;

	discord_client_log(c, LOG_LVL_DEBUG, "a private line for %s: %s", o->user, discord_route_name(o->route));
	/* a line that must be delivered (a hand, a step) may make what was answered before stale */
	if (o->key[0] == '\0')
		discord_again_forget(c->again, o->user);
	if (o->route == DISCORD_ROUTE_BUTTON)
		/* not sent: the room's line carries My hand, which shows it when pressed */
		return;
	for (size_t i = 0; i < o->npieces; i++, s += strlen(s) + 1) {
		json_t *body = discord_outbox_body(s, strlen(s), NULL), *comps;

		if (i + 1 == o->npieces && (comps = private_components(o)) != NULL)
			json_object_set_new(body, "components", comps);
		if (o->route == DISCORD_ROUTE_ANSWER && c->ans != NULL &&
		    discord_answer_say(c->ans, o->reply_to, true, json_incref(body), now) == 0) {
			json_decref(body);
			continue;
		}
		/* ANSWER that could not be (the interaction is gone), or DM */
		ephemeral = false;
		discord_dm_send(c, o->user, o->room, body);
	}
	/* an answer only this interaction shows: kept to say again (a DM stays on screen) */
	if (o->key[0] != '\0' && o->route == DISCORD_ROUTE_ANSWER && ephemeral &&
	    (ev = discord_recent_find(c->recent, o->reply_to)) != NULL)
		discord_again_keep(c->again, o->user, o->key, ev->channel, o->pieces.s, o->pieces.len, o->npieces, now);
}

void
discord_outbox_again(struct discord_client *c, uint64_t ref, const char *user, const char *channel, const char *line)
{
	const struct discord_again_entry *e;
	char name[DISCORD_AGAIN_KEY];
	size_t n = strcspn(line, " ");
	const char *s;

	for (const struct discord_out *o = c->batch; o != NULL; o = o->next)
		if (o->private && o->reply_to == ref)
			return;
	if (n >= sizeof name)
		return;
	memcpy(name, line, n);
	name[n] = '\0';
	/* the core's keys for a command's answers are the command's name ("hand", "rules") */
	if (c->ans == NULL || (e = discord_again_find(c->again, user, name, channel, loop_now(c->loop))) == NULL)
		return;
	discord_client_log(c, LOG_LVL_DEBUG, "interaction %" PRIu64 ": the \"%s\" answer again, only %s sees it", ref,
	                   name, user);
	s = e->pieces;
	for (size_t i = 0; i < e->npieces; i++, s += strlen(s) + 1)
		discord_answer_say(c->ans, ref, true, discord_outbox_body(s, strlen(s), NULL), loop_now(c->loop));
	discord_outbox_answers(c);
}

/* A room whose players' cards changed with no line of its own in the batch: a short one with the button. */
static void
notice_for(struct discord_out **notices, const struct discord_out *p)
{
	struct discord_out *n;
	char tag[DISCORD_ID_LEN + 4];

	for (n = *notices; n != NULL && strcmp(n->room, p->room) != 0; n = n->next)
		;
	if (n == NULL) {
		n = xcalloc(1, sizeof *n);
		snprintf(n->room, sizeof n->room, "%s", p->room);
		n->route = DISCORD_ROUTE_CHANNEL;
		n->hand_button = true;
		n->next = *notices;
		*notices = n;
		rbuf_add(&n->pieces, "New cards for");
	}
	snprintf(tag, sizeof tag, "<@%s>", p->user);
	if (strstr(n->pieces.s, tag) == NULL && n->pieces.len < 1800)
		rbuf_printf(&n->pieces, "%s %s", n->npieces++ > 0 ? "," : "", tag);
}

static void
replaced(void *ctx, void *payload)
{
	(void)ctx;
	((struct discord_out *)payload)->replaced = true;
}

/* The batch without the answers a later one of it replaces: lib/outq
 * decides, from the facts (the key; where it goes: the room, or the player
 * for a private one; the event owed its own answer: an interaction left
 * without one shows "thinking..."; again), as it does in the lanes.  The
 * batch is one lane, drained at once: nothing is reordered. */
static struct discord_out *
drop_superseded(struct discord_out *list)
{
	struct discord_out **pp = &list, *o;
	struct outq *q = NULL;
	struct outq_item *it;
	char target[DISCORD_ID_LEN + 8];

	for (o = list; o != NULL; o = o->next) {
		if (o->key[0] == '\0')
			continue;
		if (q == NULL)
			q = outq_new(NULL, replaced, NULL);
		snprintf(target, sizeof target, "%s %s", o->private ? "user" : "room", o->private ? o->user : o->room);
		it = outq_push(q, &(struct outq_msg){ .lane = "batch", .target = target, .key = o->key, .asker = o->asker,
		                                      .player = o->player, .again = o->again, .event = o->reply_to,
		                                      .payload = o });
		/* a pointer at an answer of the batch: that one says it */
		o->replaced = it != NULL && outq_payload(it) != o;
	}
	if (q == NULL)
		return list;
	while ((it = outq_next(q, NULL, NULL)) != NULL)
		outq_remove(q, it);
	outq_free(q);
	while ((o = *pp) != NULL) {
		if (o->replaced) {
			*pp = o->next;
			out_free(o);
		} else {
			pp = &o->next;
		}
	}
	return list;
}

/* ------------------------------------------------------------------ the lanes (lanes.c) */

void
discord_outbox_post(struct discord_client *c, void *msg)
{
	send_room(c, msg);
	out_free(msg);
}

void
discord_outbox_discard(void *msg)
{
	out_free(msg);
}

static void
flush_batch(struct discord_client *c)
{
	struct discord_out *list = c->batch, *o, *p, *last, *notices = NULL;

	c->batch = NULL;
	c->batch_tail = &c->batch;
	list = drop_superseded(list);
	for (o = list; o != NULL; o = o->next) {
		struct discord_route_msg rm = {
			.private = o->private, .room = o->room, .user = o->user, .mode = o->mode,
			.ev = discord_recent_find(c->recent, o->reply_to),
		};

		o->route = discord_route(&rm);
		if (o->private && o->route == DISCORD_ROUTE_BUTTON && discord_refused_has(c, o->room))
			/* no room line can carry My hand there: the player's DMs are the way left */
			o->route = DISCORD_ROUTE_DM;
		else if (o->private && o->route == DISCORD_ROUTE_DM && discord_dm_closed(c, o->user) &&
		         discord_text_snowflake(o->room) && !discord_refused_has(c, o->room))
			/* their DMs are closed to the bot: the button way, until they choose DMs again */
			o->route = DISCORD_ROUTE_BUTTON;
	}
	/* a hand that changed outside its player's own interaction: the room's
	 * last line of this batch offers it (the player sees it by pressing) */
	for (p = list; p != NULL; p = p->next) {
		if (!p->private || p->route != DISCORD_ROUTE_BUTTON)
			continue;
		for (last = NULL, o = list; o != NULL; o = o->next)
			if (!o->private && strcmp(o->room, p->room) == 0)
				last = o;
		if (last != NULL)
			last->hand_button = true;
		else
			notice_for(&notices, p);
	}
	while ((o = list) != NULL) {
		list = o->next;
		if (o->private) {
			send_private(c, o);
		} else if (o->route == DISCORD_ROUTE_CHANNEL) {
			if (discord_lanes_add(c, o->room, &(struct outq_msg){ .key = o->key[0] != '\0' ? o->key : NULL,
			                      .asker = o->asker[0] != '\0' ? o->asker : NULL, .player = o->player,
			                      .again = o->again, .bytes = o->pieces.len }, o) == 0)
				continue;
			discord_client_log(c, LOG_LVL_WARNING, "channel %s: too many lines waiting: one dropped", o->room);
		} else {
			send_room(c, o);
		}
		out_free(o);
	}
	while ((o = notices) != NULL) {
		notices = o->next;
		rbuf_add(&o->pieces, ": press **My hand** to see yours.");
		{
			json_t *body = discord_outbox_body(o->pieces.s, o->pieces.len, NULL);

			json_object_set_new(body, "components", components(c, o));
			discord_outbox_channel(c, DISCORD_REQ_ROOM, o->room, NULL, body, NULL);
		}
		out_free(o);
	}
	discord_lanes_pump(c);
	discord_outbox_answers(c);
}

/* What must be delivered in room (adapter.h: answers are not counted, so
 * that computer players never wait on them). */
size_t
discord_outbox_pending(struct discord_client *c, const char *room)
{
	size_t n = 0;

	for (const struct discord_out *o = c->batch; o != NULL; o = o->next)
		n += !o->private && o->key[0] == '\0' && strcmp(o->room, room) == 0;
	n += discord_lanes_pending(c, room);
	for (const struct discord_req *r = c->reqs; r != NULL; r = r->next)
		/* an interaction's reply in flight shows in the room too (a turn
		 * line answering a /discard): a computer seat waits for it */
		n += strcmp(r->channel, room) == 0 &&
		     ((r->kind == DISCORD_REQ_ROOM && r->key[0] == '\0') || r->kind == DISCORD_REQ_ANSWER);
	return n;
}

size_t
discord_outbox_queued(struct discord_client *c)
{
	size_t n = 0;

	for (const struct discord_out *o = c->batch; o != NULL; o = o->next)
		n++;
	n += discord_lanes_queued(c);
	/* lines on their way: posts, answers and their follow-ups, DMs (and the channel opening them) */
	for (const struct discord_req *r = c->reqs; r != NULL; r = r->next)
		n += r->kind == DISCORD_REQ_ANSWER || r->kind == DISCORD_REQ_ROOM || r->kind == DISCORD_REQ_DM_OPEN ||
		     r->kind == DISCORD_REQ_DM_POST;
	for (const struct discord_dm *d = c->dms; d != NULL; d = d->next)
		n += json_array_size(d->waiting);
	return n;
}

void
discord_outbox_free(struct discord_client *c)
{
	struct discord_out *o;
	struct discord_dm *d;

	loop_once_cancel(c->loop, &c->batch_timer);
	loop_once_cancel(c->loop, &c->answer_timer);
	while ((o = c->batch) != NULL) {
		c->batch = o->next;
		out_free(o);
	}
	c->batch_tail = &c->batch;
	discord_lanes_free(c);
	while ((d = c->dms) != NULL) {
		c->dms = d->next;
		json_decref(d->waiting);
		free(d);
	}
}
