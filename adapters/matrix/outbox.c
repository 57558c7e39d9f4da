/* outbox.c: the persisted send queue: a txn id fixed before the first try, ordered per room, retried with backoff. */
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
#define MAX_QUEUED 10000

struct matrix_outbox {
	struct matrix_store st;
	struct matrix_out *head, *tail;
	size_t n;
	uint64_t seq;
	char salt[17];
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
	free(m->body);
	free(m->html);
	for (size_t i = 0; i < m->nmentions; i++)
		free(m->mentions[i]);
	free(m->mentions);
	free(m);
}

static void
append(struct matrix_outbox *o, struct matrix_out *m)
{
	m->next = NULL;
	if (o->tail != NULL)
		o->tail->next = m;
	else
		o->head = m;
	o->tail = m;
	o->n++;
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
	json_object_set_new(j, "body", json_string(m->body));
	if (m->html != NULL)
		json_object_set_new(j, "html", json_string(m->html));
	json_object_set_new(j, "mentions", men);
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
	m->body = xstrdup(jstr(j, "body"));
	m->html = opt_dup(jstr(j, "html"));
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
	struct matrix_out *m, *next;

	if (o == NULL)
		return;
	for (m = o->head; m != NULL; m = next) {
		next = m->next;
		out_free(m);
	}
	free(o);
}

struct matrix_out *
matrix_outbox_add(struct matrix_outbox *o, const char *room, const char *user, const char *context,
                  const char *body, const char *html, const char *const *mentions, size_t nmentions)
{
	struct matrix_out *m;
	char txn[64], seqs[32];

	if (o->n >= MAX_QUEUED || body == NULL || (room == NULL && user == NULL))
		return NULL;
	m = xcalloc(1, sizeof *m);
	m->seq = ++o->seq;
	snprintf(txn, sizeof txn, "hf.%s.%" PRIu64, o->salt, m->seq);
	snprintf(seqs, sizeof seqs, "%" PRIu64, o->seq);
	m->txn = xstrdup(txn);
	m->room = opt_dup(room);
	m->user = opt_dup(user);
	m->context = opt_dup(context);
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

static bool
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The oldest queued message for m's target (room, or user while unresolved). */
static bool
first_of_target(const struct matrix_outbox *o, const struct matrix_out *m)
{
	for (const struct matrix_out *p = o->head; p != m; p = p->next) {
		if (m->room != NULL && same(p->room, m->room))
			return false;
		if (m->room == NULL && p->room == NULL && same(p->user, m->user))
			return false;
	}
	return true;
}

struct matrix_out *
matrix_outbox_next(struct matrix_outbox *o, int64_t now, int64_t *wait_ms)
{
	*wait_ms = -1;
	for (struct matrix_out *m = o->head; m != NULL; m = m->next) {
		if (m->in_flight || m->room == NULL || !first_of_target(o, m))
			continue;
		if (m->not_before > now) {
			if (*wait_ms < 0 || m->not_before - now < *wait_ms)
				*wait_ms = m->not_before - now;
			continue;
		}
		return m;
	}
	return NULL;
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
	struct matrix_out **p, *prev = NULL;
	char key[64];

	for (p = &o->head; *p != NULL; prev = *p, p = &(*p)->next)
		if (*p == m) {
			*p = m->next;
			if (o->tail == m)
				o->tail = prev;
			o->n--;
			key_of(m->seq, key, sizeof key);
			o->st.del(o->st.ctx, key);
			out_free(m);
			return;
		}
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
	(void)o;
	m->in_flight = false;
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

	json_object_set_new(j, "msgtype", json_string("m.notice"));
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
matrix_outbox_count_room(const struct matrix_outbox *o, const char *room)
{
	const struct matrix_out *m;
	size_t n = 0;

	for (m = o->head; m != NULL; m = m->next)
		if (m->user == NULL && m->room != NULL && strcmp(m->room, room) == 0)
			n++;
	return n;
}
