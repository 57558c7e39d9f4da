/* outbox.c: the persisted send queue: a txn id fixed before the first try; one lane per room, served round-robin, the rooms' and players' before strangers', bounded each; answers replaced by newer ones; one send in flight for the account, which a 429 makes wait. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "matrix.h"

#define KEY_PREFIX "out/"
#define KEY_SEQ    "out_seq"
#define KEY_SALT   "txn_salt"

/* One room's messages (and those of private messages about a game played
 * there), in order; lanes with messages are in a ring, served in turn. */
struct matrix_lane {
	char *name;
	struct matrix_out *first, *last;
	size_t n, nkeep;               /* messages, and those that must be delivered */
	struct matrix_lane *rnext, *rprev;  /* the ring */
	struct matrix_lane *hnext;     /* hash chain */
	bool fresh;                    /* had nothing queued, and has not been served since */
	size_t nplayer;                /* players' answers waiting (matrix_outbox_player) */
};

/* A room's lane, or one with a player's answer: served before strangers'. */
static bool
lane_first(const struct matrix_lane *l)
{
	return l->nkeep > 0 || l->nplayer > 0;
}

#define LANE_BUCKETS 256

struct matrix_outbox {
	struct matrix_store st;
	struct matrix_out *head, *tail;    /* every message, in order (persisted order) */
	size_t n;
	uint64_t seq;
	char salt[17];
	struct matrix_lane *lanes[LANE_BUCKETS];
	struct matrix_lane *ring;          /* the lane served next */
	struct matrix_out *flying;         /* the one send in flight */
	unsigned run;                      /* first-class sends in a row */
	int64_t paused_until;              /* the account waits (a 429) until then */
};

static uint32_t
lane_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static struct matrix_lane *
lane_find(struct matrix_outbox *o, const char *name, bool create)
{
	struct matrix_lane **b = &o->lanes[lane_hash(name) % LANE_BUCKETS], *l;

	for (l = *b; l != NULL; l = l->hnext)
		if (strcmp(l->name, name) == 0)
			return l;
	if (!create)
		return NULL;
	l = xcalloc(1, sizeof *l);
	l->name = xstrdup(name);
	l->hnext = *b;
	*b = l;
	return l;
}

static void
lane_free(struct matrix_outbox *o, struct matrix_lane *l)
{
	struct matrix_lane **b = &o->lanes[lane_hash(l->name) % LANE_BUCKETS];

	while (*b != l)
		b = &(*b)->hnext;
	*b = l->hnext;
	free(l->name);
	free(l);
}

static void
ring_add(struct matrix_outbox *o, struct matrix_lane *l)
{
	struct matrix_lane *at;

	l->fresh = true;
	if (o->ring == NULL) {
		l->rnext = l->rprev = l;
		o->ring = l;
		return;
	}
	/* A lane that had nothing queued goes next, after the others that just
	 * woke up (least recently served first): a quiet room's message, or
	 * one answer, waits for one send, not a round of the busy rooms; a
	 * lane served goes round to the back, so none can take more. */
	for (at = o->ring; at->fresh && at->rnext != o->ring; at = at->rnext)
		;
	if (at->fresh) {
		at = o->ring;   /* every lane is fresh: l is last of them */
	}
	l->rnext = at;
	l->rprev = at->rprev;
	l->rprev->rnext = l;
	at->rprev = l;
	if (at == o->ring && !o->ring->fresh)
		o->ring = l;
}

static void
ring_del(struct matrix_outbox *o, struct matrix_lane *l)
{
	if (l->rnext == l) {
		o->ring = NULL;
	} else {
		l->rprev->rnext = l->rnext;
		l->rnext->rprev = l->rprev;
		if (o->ring == l)
			o->ring = l->rnext;
	}
	l->rnext = l->rprev = NULL;
}

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
	free(m->body);
	free(m->html);
	free(m->thread);
	free(m->reply);
	for (size_t i = 0; i < m->nmentions; i++)
		free(m->mentions[i]);
	free(m->mentions);
	free(m);
}

/* The lane a message waits in: its game room, else its own target. */
static const char *
lane_of(const struct matrix_out *m)
{
	if (m->lane != NULL)
		return m->lane;
	if (m->context != NULL)
		return m->context;
	return m->room != NULL && m->user == NULL ? m->room : m->user;
}

static void
append(struct matrix_outbox *o, struct matrix_out *m)
{
	struct matrix_lane *l;

	m->next = NULL;
	m->prev = o->tail;
	if (o->tail != NULL)
		o->tail->next = m;
	else
		o->head = m;
	o->tail = m;
	o->n++;
	if (m->lane == NULL)
		m->lane = xstrdup(lane_of(m));
	l = lane_find(o, m->lane, true);
	m->ln = l;
	m->lnext = NULL;
	m->lprev = l->last;
	if (l->last != NULL)
		l->last->lnext = m;
	else
		l->first = m;
	l->last = m;
	if (l->n++ == 0)
		ring_add(o, l);
	l->nkeep += m->key == NULL;
}

/* Takes m out of the queue (not the store). */
static void
unlink_out(struct matrix_outbox *o, struct matrix_out *m)
{
	struct matrix_lane *l = m->ln;

	if (m->prev != NULL)
		m->prev->next = m->next;
	else
		o->head = m->next;
	if (m->next != NULL)
		m->next->prev = m->prev;
	else
		o->tail = m->prev;
	o->n--;
	if (m->lprev != NULL)
		m->lprev->lnext = m->lnext;
	else
		l->first = m->lnext;
	if (m->lnext != NULL)
		m->lnext->lprev = m->lprev;
	else
		l->last = m->lprev;
	l->nkeep -= m->key == NULL;
	l->nplayer -= m->player;
	if (--l->n == 0) {
		ring_del(o, l);
		lane_free(o, l);
	}
	if (o->flying == m)
		o->flying = NULL;
}

static void
key_of(uint64_t seq, char *key, size_t len)
{
	snprintf(key, len, KEY_PREFIX "%016" PRIx64, seq);
}

static char *
opt_dup(const char *s)
{
	return xstrdup(s);
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
	if (m->room != NULL)
		json_object_set_new(j, "room", json_string(m->room));
	if (m->user != NULL)
		json_object_set_new(j, "user", json_string(m->user));
	if (m->context != NULL)
		json_object_set_new(j, "context", json_string(m->context));
	if (m->lane != NULL)
		json_object_set_new(j, "lane", json_string(m->lane));
	if (m->key != NULL)
		json_object_set_new(j, "key", json_string(m->key));
	json_object_set_new(j, "body", json_string(m->body));
	if (m->html != NULL)
		json_object_set_new(j, "html", json_string(m->html));
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
	struct matrix_out *m;
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
	m->room = opt_dup(jstr(j, "room"));
	m->user = opt_dup(jstr(j, "user"));
	m->context = opt_dup(jstr(j, "context"));
	m->lane = opt_dup(jstr(j, "lane"));
	m->key = opt_dup(jstr(j, "key"));
	m->body = xstrdup(jstr(j, "body"));
	m->html = opt_dup(jstr(j, "html"));
	m->ping = json_is_true(json_object_get(j, "ping"));
	m->thread = opt_dup(jstr(j, "thread"));
	m->reply = opt_dup(jstr(j, "reply"));
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
	append(o, m);
}

struct matrix_outbox *
matrix_outbox_new(const struct matrix_store *st)
{
	struct matrix_outbox *o = xcalloc(1, sizeof *o);
	char buf[64];
	unsigned char rnd[8];

	o->st = *st;
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

		unlink_out(o, m);
		out_free(m);
	}
	free(o);
}

static bool
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* Whether a and b go to the same place: the same room, or the same player. */
static bool
same_target(const struct matrix_out *a, const char *room, const char *user)
{
	return user != NULL ? same(a->user, user) : a->user == NULL && same(a->room, room);
}

/* Done with m: out of the queue and the store. */
static void
forget(struct matrix_outbox *o, struct matrix_out *m)
{
	char key[64];

	unlink_out(o, m);
	key_of(m->seq, key, sizeof key);
	o->st.del(o->st.ctx, key);
	out_free(m);
}

struct matrix_out *
matrix_outbox_add_key(struct matrix_outbox *o, const char *room, const char *user, const char *context,
                      const char *body, const char *html, const char *const *mentions, size_t nmentions,
                      const char *key, const char *asker)
{
	struct matrix_out *m, *p, *next;
	struct matrix_lane *l;
	char txn[64], seqs[32], lanebuf[2 * MATRIX_MAX_ID];
	const char *lane;

	if (body == NULL || (room == NULL && user == NULL))
		return NULL;
	/* a game's room; answers apart, one lane per asker: they never hold a
	 * game back, nor wait behind it, and a flood of questions delays only
	 * its asker */
	if (key != NULL)
		snprintf(lanebuf, sizeof lanebuf, "answers %s", asker != NULL ? asker : user != NULL ? user : room);
	else
		snprintf(lanebuf, sizeof lanebuf, "%s", context != NULL ? context : user != NULL ? user : room);
	lane = lanebuf;
	l = lane_find(o, lane, false);
	/* a newer answer replaces the same one still waiting */
	if (key != NULL && l != NULL)
		for (p = l->first; p != NULL; p = next) {
			next = p->lnext;
			if (!p->in_flight && same(p->key, key) && same_target(p, room, user)) {
				forget(o, p);
				l = lane_find(o, lane, false);
				if (l == NULL)
					break;
			}
		}
	/* bounded per lane, so that no room (and no asker) can crowd out the others */
	if (l != NULL && l->n >= MATRIX_OUTBOX_LANE)
		return NULL;
	if (o->n >= MATRIX_OUTBOX_MAX)
		return NULL;
	m = xcalloc(1, sizeof *m);
	m->seq = ++o->seq;
	snprintf(txn, sizeof txn, "hf.%s.%" PRIu64, o->salt, m->seq);
	snprintf(seqs, sizeof seqs, "%" PRIu64, o->seq);
	m->txn = xstrdup(txn);
	m->room = opt_dup(room);
	m->user = opt_dup(user);
	m->context = opt_dup(context);
	m->lane = xstrdup(lane);
	m->key = opt_dup(key);
	m->body = xstrdup(body);
	m->html = opt_dup(html);
	if (nmentions > 0) {
		m->mentions = xcalloc(nmentions, sizeof *m->mentions);
		for (size_t i = 0; i < nmentions; i++)
			if (mentions[i] != NULL)
				m->mentions[m->nmentions++] = xstrdup(mentions[i]);
	}
	/* persisted before it is ever tried: a retry after a restart reuses the txn id */
	if (o->st.set(o->st.ctx, KEY_SEQ, seqs) < 0 || persist(o, m) < 0) {
		out_free(m);
		return NULL;
	}
	append(o, m);
	return m;
}

struct matrix_out *
matrix_outbox_add(struct matrix_outbox *o, const char *room, const char *user, const char *context,
                  const char *body, const char *html, const char *const *mentions, size_t nmentions)
{
	return matrix_outbox_add_key(o, room, user, context, body, html, mentions, nmentions, NULL, NULL);
}

/* The message lane l may send now: its oldest with a room (a private
 * message whose direct room is being made does not hold the others); NULL
 * if it waits, *wait_ms lowered to when it may go if that is known. */
static struct matrix_out *
lane_next(struct matrix_lane *l, int64_t now, int64_t *wait_ms)
{
	for (struct matrix_out *m = l->first; m != NULL; m = m->lnext) {
		if (m->room == NULL)
			continue;
		if (m->not_before > now) {
			if (*wait_ms < 0 || m->not_before - now < *wait_ms)
				*wait_ms = m->not_before - now;
			return NULL;
		}
		return m;
	}
	return NULL;
}

/* l was served: to the back of the ring, the others keeping their order. */
static void
lane_served(struct matrix_outbox *o, struct matrix_lane *l)
{
	o->run = lane_first(l) ? o->run + (o->run < MATRIX_OUTBOX_FIRST_RUN) : 0;
	l->fresh = false;
	if (l == o->ring) {
		o->ring = l->rnext;
	} else {
		l->rprev->rnext = l->rnext;
		l->rnext->rprev = l->rprev;
		l->rnext = o->ring;
		l->rprev = o->ring->rprev;
		l->rprev->rnext = l;
		o->ring->rprev = l;
	}
}

/* A stranger's question that may go after one room message: the first
 * lane of the rest that had nothing queued and has not been served since
 * (one question, not a backlog), while no more than
 * MATRIX_OUTBOX_FEW_RESTS lanes of the rest wait (a bystander or two, not
 * a flood); NULL if none. */
static struct matrix_out *
quick_rest(struct matrix_outbox *o, int64_t now, int64_t *wait_ms, struct matrix_lane **lane)
{
	struct matrix_lane *l = o->ring;
	struct matrix_out *found = NULL, *m;
	size_t rests = 0;

	do {
		if (!lane_first(l) && l->n > 0) {
			if (++rests > MATRIX_OUTBOX_FEW_RESTS)
				return NULL;
			if (found == NULL && l->fresh && (m = lane_next(l, now, wait_ms)) != NULL) {
				found = m;
				*lane = l;
			}
		}
		l = l->rnext;
	} while (l != o->ring);
	return found;
}

struct matrix_out *
matrix_outbox_next(struct matrix_outbox *o, int64_t now, int64_t *wait_ms)
{
	struct matrix_lane *l;
	struct matrix_out *m;

	*wait_ms = -1;
	if (o->flying != NULL || o->ring == NULL)
		return NULL;
	if (o->paused_until > now) {
		*wait_ms = o->paused_until - now;
		return NULL;
	}
	/* a bystander's one question, after one room message */
	if (o->run > 0 && (m = quick_rest(o, now, wait_ms, &l)) != NULL) {
		lane_served(o, l);
		return m;
	}
	/* round-robin: each lane with something to send, in turn; the rooms'
	 * and the players' first, MATRIX_OUTBOX_FIRST_RUN in a row at most
	 * while a stranger's answer may go (50 strangers' lanes would otherwise
	 * put a game's next message behind 50 of theirs) */
	for (int pass = 0; pass < 2; pass++) {
		bool want = o->run < MATRIX_OUTBOX_FIRST_RUN;

		l = o->ring;
		do {
			if ((pass == 1 || lane_first(l) == want) && (m = lane_next(l, now, wait_ms)) != NULL) {
				lane_served(o, l);
				return m;
			}
			l = l->rnext;
		} while (l != o->ring);
	}
	return NULL;
}

void
matrix_outbox_player(struct matrix_outbox *o, struct matrix_out *m)
{
	(void)o;
	if (m == NULL || m->player || m->ln == NULL)
		return;
	m->player = true;
	m->ln->nplayer++;
}

void
matrix_outbox_flying(struct matrix_outbox *o, struct matrix_out *m)
{
	m->in_flight = true;
	o->flying = m;
}

bool
matrix_outbox_busy(const struct matrix_outbox *o)
{
	return o->flying != NULL;
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
	int64_t ms = 500;

	for (int i = 1; i < tries && ms < 30000; i++)
		ms *= 2;
	return ms < 30000 ? ms : 30000;
}

void
matrix_outbox_retry(struct matrix_outbox *o, struct matrix_out *m, int64_t now, int64_t retry_ms)
{
	m->in_flight = false;
	if (o->flying == m)
		o->flying = NULL;
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
matrix_outbox_count(const struct matrix_outbox *o)
{
	return o->n;
}

size_t
matrix_outbox_count_room(struct matrix_outbox *o, const char *room)
{
	struct matrix_lane *l = lane_find(o, room, false);

	return l != NULL ? l->nkeep : 0;
}
