/* outbox.c: the persisted send queue: a txn id fixed before the first try; its lanes are lib/outq's (rooms and players before strangers, answers replaced, bounded); one send in flight for the account, which a 429 makes wait. */
#include <inttypes.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "backoff.h"
#include "hash.h"
#include "list.h"
#include "matrix.h"

#define KEY_PREFIX "out/"
#define KEY_SEQ    "out_seq"
#define KEY_SALT   "txn_salt"

struct matrix_outbox {
	struct matrix_store st;
	struct matrix_out *head, *tail;    /* every message, in order (persisted order) */
	size_t n;
	uint64_t seq;
	char salt[17];
	struct outq *q;                    /* the lanes: who goes next */
	struct matrix_out *flying;         /* the one send in flight */
	int64_t paused_until;              /* the account waits (a 429) until then */
};

static void
out_free(struct matrix_out *m)
{
	if (m == NULL)
		return;
	free(m->txn);
	free(m->room);
	free(m->user);
	free(m->context);
	free(m->lane);
	free(m->key);
	free(m->asker);
	free(m->body);
	free(m->html);
	free(m->thread);
	free(m->reply);
	for (size_t i = 0; i < m->nmentions; i++)
		free(m->mentions[i]);
	free(m->mentions);
	free(m);
}

/* What outq knows of m, its facts: its lane (persisted with it), where it
 * goes, its key, whose question, seated or not (outq decides its class and
 * what it replaces). */
static struct outq_msg
msg_of(const struct matrix_out *m)
{
	/* a private line in a room's lane is aside: not one the room reads */
	return (struct outq_msg){ .lane = m->lane, .room = m->user != NULL ? m->lane : NULL,
	                          .target = m->user != NULL ? m->user : m->room, .key = m->key, .asker = m->asker,
	                          .player = m->player, .bytes = strlen(m->body), .payload = (void *)m };
}

/* Into its lane (piece: the next piece of the message appended just
 * before; again: a pointer at the same answer said a moment ago), and at
 * the end of the persisted order; -1 if the caps refuse it; 1 if m is a
 * pointer at an answer still waiting, which stands for it (*waiting): m is
 * not queued. */
static int
append(struct matrix_outbox *o, struct matrix_out *m, bool piece, bool again, struct matrix_out **waiting)
{
	struct outq_msg om = msg_of(m);
	struct outq_item *it;

	om.piece = piece;
	om.again = again;
	if ((it = outq_push(o->q, &om)) == NULL)
		return -1;
	if (outq_payload(it) != m) {
		*waiting = outq_payload(it);
		return 1;
	}
	m->it = it;
	LIST_APPEND(o->head, o->tail, m);
	o->n++;
	return 0;
}

/* Takes m out of the persisted order (not its lane, not the store). */
static void
unlink_out(struct matrix_outbox *o, struct matrix_out *m)
{
	LIST_UNLINK(o->head, o->tail, m);
	o->n--;
	if (o->flying == m)
		o->flying = NULL;
}

static void
key_of(uint64_t seq, char *key, size_t len)
{
	snprintf(key, len, KEY_PREFIX "%016" PRIx64, seq);
}

/* Out of the persisted order and the store (its lane is done with it). */
static void
forget_out(struct matrix_outbox *o, struct matrix_out *m)
{
	char key[64];

	unlink_out(o, m);
	key_of(m->seq, key, sizeof key);
	o->st.del(o->st.ctx, key);
	out_free(m);
}

/* outq dropped m (a newer answer replaced it, or a cap made room). */
static void
dropped(void *ctx, void *payload)
{
	forget_out(ctx, payload);
}

/* Done with m: out of its lane, the queue and the store. */
static void
forget(struct matrix_outbox *o, struct matrix_out *m)
{
	outq_remove(o->q, m->it);
	forget_out(o, m);
}

/* The optional strings of a message, as persisted (json name, field). */
static const struct {
	const char *name;
	size_t off;
} opt_fields[] = {
	{ "room", offsetof(struct matrix_out, room) },   { "user", offsetof(struct matrix_out, user) },
	{ "context", offsetof(struct matrix_out, context) }, { "lane", offsetof(struct matrix_out, lane) },
	{ "key", offsetof(struct matrix_out, key) },     { "asker", offsetof(struct matrix_out, asker) },
	{ "html", offsetof(struct matrix_out, html) },
};

static char **
opt_field(struct matrix_out *m, size_t i)
{
	return (char **)((char *)m + opt_fields[i].off);
}

static const char *
opt_value(const struct matrix_out *m, size_t i)
{
	return *(char *const *)((const char *)m + opt_fields[i].off);
}

static const char *
jstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static int
persist(struct matrix_outbox *o, const struct matrix_out *m)
{
	json_t *j = json_object(), *men = json_array();
	char key[64], *text;
	int rc;

	for (size_t i = 0; i < m->nmentions; i++)
		json_array_append_new(men, json_string(m->mentions[i]));
	json_object_set_new(j, "txn", json_string(m->txn));
	for (size_t i = 0; i < sizeof opt_fields / sizeof opt_fields[0]; i++)
		if (opt_value(m, i) != NULL)
			json_object_set_new(j, opt_fields[i].name, json_string(opt_value(m, i)));
	json_object_set_new(j, "body", json_string(m->body));
	json_object_set_new(j, "mentions", men);
	if (m->ping)
		json_object_set_new(j, "ping", json_true());
	if (m->thread != NULL && m->reply != NULL) {
		json_object_set_new(j, "thread", json_string(m->thread));
		json_object_set_new(j, "reply", json_string(m->reply));
	}
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (text == NULL)
		return -1;
	key_of(m->seq, key, sizeof key);
	rc = o->st.set(o->st.ctx, key, text);
	free(text);
	return rc;
}

static void
load_one(void *ctx, const char *key, const char *value)
{
	struct matrix_outbox *o = ctx;
	struct matrix_out *m, *waiting;
	json_t *j, *men, *v;
	size_t i;
	uint64_t seq;
	char *end;

	seq = strtoull(key + strlen(KEY_PREFIX), &end, 16);
	if (*end != '\0' || (j = json_loads(value, 0, NULL)) == NULL)
		return;
	if (jstr(j, "txn") == NULL || jstr(j, "body") == NULL ||
	    (jstr(j, "room") == NULL && jstr(j, "user") == NULL)) {
		json_decref(j);
		return;
	}
	m = xcalloc(1, sizeof *m);
	m->seq = seq;
	m->txn = xstrdup(jstr(j, "txn"));
	for (i = 0; i < sizeof opt_fields / sizeof opt_fields[0]; i++)
		*opt_field(m, i) = xstrdup(jstr(j, opt_fields[i].name));
	m->body = xstrdup(jstr(j, "body"));
	m->ping = json_is_true(json_object_get(j, "ping"));
	if (jstr(j, "thread") != NULL && jstr(j, "reply") != NULL) {
		m->thread = xstrdup(jstr(j, "thread"));
		m->reply = xstrdup(jstr(j, "reply"));
	}
	men = json_object_get(j, "mentions");
	if (json_array_size(men) > 0) {
		m->mentions = xcalloc(json_array_size(men), sizeof *m->mentions);
		json_array_foreach(men, i, v)
			if (json_is_string(v))
				m->mentions[m->nmentions++] = xstrdup(json_string_value(v));
	}
	json_decref(j);
	if (seq > o->seq)
		o->seq = seq;
	if (m->lane == NULL) {
		struct outq_msg om = { .room = m->context, .target = m->user != NULL ? m->user : m->room, .key = m->key };
		char lane[2 * MATRIX_MAX_ID];

		outq_lane_name(&om, lane, sizeof lane);
		m->lane = xstrdup(lane);
	}
	/* in the persisted order: a newer answer replaces an older one still
	 * there (one in flight when the daemon stopped) */
	if (append(o, m, false, false, &waiting) < 0) {
		o->st.del(o->st.ctx, key);
		out_free(m);
	}
}

struct matrix_outbox *
matrix_outbox_new(const struct matrix_store *st)
{
	struct matrix_outbox *o = xcalloc(1, sizeof *o);
	char buf[64];
	unsigned char rnd[8];

	o->st = *st;
	o->q = outq_new(&(struct outq_limits){ .lane_items = MATRIX_OUTBOX_LANE, .items = MATRIX_OUTBOX_MAX },
	                dropped, o);
	if (st->get(st->ctx, KEY_SEQ, buf, sizeof buf) >= 0)
		o->seq = strtoull(buf, NULL, 10);
	/* A salt kept with the queue keeps txn ids unique even if the state is
	 * lost while the access token (to which txn ids are scoped) lives on. */
	if (st->get(st->ctx, KEY_SALT, o->salt, sizeof o->salt) < 0 || strlen(o->salt) != 16) {
		if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
			memset(rnd, 0, sizeof rnd);
		for (size_t i = 0; i < sizeof rnd; i++)
			snprintf(o->salt + 2 * i, 3, "%02x", rnd[i]);
		st->set(st->ctx, KEY_SALT, o->salt);
	}
	st->each(st->ctx, KEY_PREFIX, load_one, o);
	return o;
}

void
matrix_outbox_free(struct matrix_outbox *o)
{
	if (o == NULL)
		return;
	while (o->head != NULL) {
		struct matrix_out *m = o->head;

		outq_remove(o->q, m->it);
		unlink_out(o, m);
		out_free(m);
	}
	outq_free(o->q);
	free(o);
}

static bool
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

struct matrix_out *
matrix_outbox_add_key(struct matrix_outbox *o, const char *room, const char *user, const char *context,
                      const char *body, const char *html, const char *const *mentions, size_t nmentions,
                      const struct matrix_answer *a)
{
	static const struct matrix_answer none = { 0 };
	const char *key = (a = a != NULL ? a : &none)->key, *asker = a->asker;
	struct matrix_out *m, *waiting;
	struct outq_msg om = { .room = context, .target = user != NULL ? user : room, .key = key, .asker = asker };
	char txn[64], seqs[32], lane[2 * MATRIX_MAX_ID];

	if (body == NULL || (room == NULL && user == NULL))
		return NULL;
	/* the lane (lib/outq): a game's room, or the asker's; persisted with
	 * the message (outq_push replaces an older answer waiting there) */
	outq_lane_name(&om, lane, sizeof lane);
	m = xcalloc(1, sizeof *m);
	m->seq = o->seq + 1;
	snprintf(txn, sizeof txn, "hf.%s.%" PRIu64, o->salt, m->seq);
	snprintf(seqs, sizeof seqs, "%" PRIu64, m->seq);
	m->txn = xstrdup(txn);
	m->room = xstrdup(room);
	m->user = xstrdup(user);
	m->context = xstrdup(context);
	m->lane = xstrdup(lane);
	m->key = xstrdup(key);
	m->asker = xstrdup(asker);
	m->player = a->player;
	m->body = xstrdup(body);
	m->html = xstrdup(html);
	if (nmentions > 0) {
		m->mentions = xcalloc(nmentions, sizeof *m->mentions);
		for (size_t i = 0; i < nmentions; i++)
			if (mentions[i] != NULL)
				m->mentions[m->nmentions++] = xstrdup(mentions[i]);
	}
	/* bounded per lane and in all (outq's caps); a pointer at an answer
	 * still waiting is said by that one */
	switch (append(o, m, a->piece, a->again, &waiting)) {
	case -1:
		out_free(m);
		return NULL;
	case 1:
		out_free(m);
		return waiting;
	default:
		break;
	}
	/* persisted before it is ever tried: a retry after a restart reuses the txn id */
	o->seq = m->seq;
	if (o->st.set(o->st.ctx, KEY_SEQ, seqs) < 0 || persist(o, m) < 0) {
		forget(o, m);
		return NULL;
	}
	return m;
}

struct matrix_out *
matrix_outbox_add(struct matrix_outbox *o, const char *room, const char *user, const char *context,
                  const char *body, const char *html, const char *const *mentions, size_t nmentions)
{
	return matrix_outbox_add_key(o, room, user, context, body, html, mentions, nmentions, NULL);
}

/* What matrix_outbox_next asks of each lane's messages in turn. */
struct ready {
	int64_t now, *wait_ms;
};

/* A private message whose direct room is being made does not hold its lane;
 * one waiting for a retry does, and says when it may go. */
static enum outq_ready
ready(void *ctx, void *payload)
{
	struct ready *r = ctx;
	const struct matrix_out *m = payload;

	if (m->room == NULL)
		return OUTQ_SKIP;
	if (m->not_before > r->now) {
		if (*r->wait_ms < 0 || m->not_before - r->now < *r->wait_ms)
			*r->wait_ms = m->not_before - r->now;
		return OUTQ_WAIT;
	}
	return OUTQ_GO;
}

struct matrix_out *
matrix_outbox_next(struct matrix_outbox *o, int64_t now, int64_t *wait_ms)
{
	struct ready r = { now, wait_ms };
	struct outq_item *it;

	*wait_ms = -1;
	if (o->flying != NULL || o->head == NULL)
		return NULL;
	if (o->paused_until > now) {
		*wait_ms = o->paused_until - now;
		return NULL;
	}
	return (it = outq_next(o->q, ready, &r)) != NULL ? outq_payload(it) : NULL;
}

void
matrix_outbox_flying(struct matrix_outbox *o, struct matrix_out *m)
{
	m->in_flight = true;
	o->flying = m;
	outq_take(o->q, m->it);
}

bool
matrix_outbox_busy(const struct matrix_outbox *o)
{
	return o->flying != NULL;
}

int64_t
matrix_outbox_paused_until(const struct matrix_outbox *o)
{
	return o->paused_until;
}

void
matrix_outbox_pause(struct matrix_outbox *o, int64_t until)
{
	if (until > o->paused_until)
		o->paused_until = until;
}

void
matrix_outbox_resolve(struct matrix_outbox *o, const char *user, const char *room)
{
	for (struct matrix_out *m = o->head; m != NULL; m = m->next)
		if (m->room == NULL && same(m->user, user)) {
			m->room = xstrdup(room);
			persist(o, m);
		}
}

void
matrix_outbox_ping(struct matrix_outbox *o, struct matrix_out *m)
{
	m->ping = true;
	persist(o, m);
}

void
matrix_outbox_thread(struct matrix_outbox *o, struct matrix_out *m, const char *root, const char *reply)
{
	free(m->thread);
	free(m->reply);
	m->thread = xstrdup(root);
	m->reply = xstrdup(reply);
	persist(o, m);
}

void
matrix_outbox_unresolve(struct matrix_outbox *o, const char *room)
{
	for (struct matrix_out *m = o->head; m != NULL; m = m->next)
		if (m->user != NULL && !m->in_flight && same(m->room, room)) {
			free(m->room);
			m->room = NULL;
			persist(o, m);
		}
}

struct matrix_out *
matrix_outbox_unresolved(struct matrix_outbox *o, const char *user)
{
	for (struct matrix_out *m = o->head; m != NULL; m = m->next)
		if (m->room == NULL && (user == NULL || same(m->user, user)))
			return m;
	return NULL;
}

void
matrix_outbox_done(struct matrix_outbox *o, struct matrix_out *m)
{
	forget(o, m);
}

int64_t
matrix_outbox_backoff(int tries)
{
	static const struct backoff b = { .first_ms = 500, .max_ms = 30000 };

	return backoff_delay(&b, tries, 0);
}

void
matrix_outbox_retry(struct matrix_outbox *o, struct matrix_out *m, int64_t now, int64_t retry_ms)
{
	m->in_flight = false;
	if (o->flying == m)
		o->flying = NULL;
	outq_untake(o->q, m->it);
	m->tries++;
	if (retry_ms < 0)
		retry_ms = matrix_outbox_backoff(m->tries);
	if (retry_ms > 3600000)
		retry_ms = 3600000;
	m->not_before = now + retry_ms;
}

char *
matrix_outbox_content(const struct matrix_out *m)
{
	json_t *j = json_object(), *ids = json_array();
	char *text;

	json_object_set_new(j, "msgtype", json_string(m->ping ? "m.text" : "m.notice"));
	json_object_set_new(j, "body", json_string(m->body));
	if (m->html != NULL) {
		json_object_set_new(j, "format", json_string("org.matrix.custom.html"));
		json_object_set_new(j, "formatted_body", json_string(m->html));
	}
	for (size_t i = 0; i < m->nmentions; i++)
		json_array_append_new(ids, json_string(m->mentions[i]));
	/* always present: an empty m.mentions says "ping nobody" to clients
	 * that would otherwise guess from the body */
	json_object_set_new(j, "m.mentions", json_pack("{s:o}", "user_ids", ids));
	/* in the thread the command was said in (clients without threads show
	 * it as a reply to the command) */
	if (m->thread != NULL && m->reply != NULL)
		json_object_set_new(j, "m.relates_to", json_pack("{s:s,s:s,s:b,s:{s:s}}", "rel_type", "m.thread",
		                                                "event_id", m->thread, "is_falling_back", 1,
		                                                "m.in_reply_to", "event_id", m->reply));
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return text;
}

size_t
matrix_outbox_drop(struct matrix_outbox *o, const char *target)
{
	return target != NULL ? outq_drop_target(o->q, target) : outq_drop_all(o->q);
}

size_t
matrix_outbox_count(const struct matrix_outbox *o)
{
	return o->n;
}

size_t
matrix_outbox_count_room(struct matrix_outbox *o, const char *room)
{
	size_t n = outq_pending(o->q, room);

	/* A hand waiting for its player to join their direct room (which may
	 * never happen) is not the room's to wait on: computer seats and the
	 * answers held for the room's story go on without it. */
	for (const struct matrix_out *m = o->head; m != NULL && n > 0; m = m->next)
		if (m->key == NULL && m->room == NULL && m->user != NULL && m->lane != NULL && strcmp(m->lane, room) == 0)
			n--;
	return n;
}

size_t
matrix_outbox_count_told(struct matrix_outbox *o, const char *room)
{
	return outq_pending_room(o->q, room);
}
