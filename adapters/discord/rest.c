/* rest.c: the REST request queue: rate-limit buckets, 429 waits, retries with backoff; nothing is dropped while waiting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backoff.h"
#include "list.h"
#include "loop.h"
#include "rest.h"
#include "secret.h"
#include "xmalloc.h"

struct discord_rest {
	struct loop *loop;
	char api[512];
	char auth[300];
	struct discord_rest_io io;
	struct discord_limit *limit;
	struct discord_rest_req *head, *tail;
	size_t n;
	long long timer;
	int64_t timer_due;
	int depth;                 /* inside a done callback */
	bool kicking;
	bool dead;                 /* the token was refused: nothing more goes */
	discord_rest_dead_fn *on_dead;
	void *dead_ctx;
};

static void kick(struct discord_rest *r);

static void
req_free(struct discord_rest_req *q)
{
	free(q->url);
	free(q->body);
	free(q);
}

static void
unlink_req(struct discord_rest *r, struct discord_rest_req *q)
{
	LIST_UNLINK(r->head, r->tail, q);
	r->n--;
}

static void
on_timer(void *data)
{
	struct discord_rest *r = data;

	r->timer_due = -1;
	kick(r);
}

static void
arm(struct discord_rest *r, int64_t wait)
{
	int64_t now = loop_now(r->loop), due = wait >= 0 ? now + wait : -1;

	if (r->timer != 0 && r->timer_due == due)
		return;
	r->timer_due = due;
	if (due >= 0)
		loop_once(r->loop, &r->timer, wait, on_timer, r);
	else
		loop_once_cancel(r->loop, &r->timer);
}

/* An earlier request of the same bucket is held back: this one waits behind it (order per channel). */
static bool
held_behind(struct discord_rest *r, struct discord_rest_req *q)
{
	for (struct discord_rest_req *p = r->head; p != NULL && p != q; p = p->next)
		if (p->held && strcmp(p->route, q->route) == 0 && strcmp(p->major, q->major) == 0)
			return true;
	return false;
}

static void
finish(struct discord_rest *r, struct discord_rest_req *q, long status, json_t *body)
{
	unlink_req(r, q);
	if (q->done != NULL) {
		r->depth++;
		q->done(q->ctx, status, body);
		r->depth--;
	}
	req_free(q);
}

/* Starts every request the limits allow now; arms the timer for the next. */
static void
kick(struct discord_rest *r)
{
	int64_t now = loop_now(r->loop), next = -1;
	struct discord_rest_req *q, *nq;

	if (r->kicking || r->dead)
		return;
	r->kicking = true;
	for (q = r->head; q != NULL; q = q->next)
		q->held = false;
	for (q = r->head; q != NULL; q = nq) {
		int64_t w;

		nq = q->next;
		if (q->inflight)
			continue;
		if (held_behind(r, q)) {
			q->held = true;
			continue;
		}
		if (q->not_before > now) {
			q->held = true;
			w = q->not_before - now;
		} else {
			w = discord_limit_acquire(r->limit, q->route, q->major, (q->flags & DISCORD_REST_INTERACTION) != 0,
			                          now);
			if (w == 0) {
				q->inflight = true;
				if (r->io.start(r->io.ctx, r, q) < 0) {
					/* as a network error: retried after a backoff */
					q->inflight = false;
					discord_limit_release(r->limit, q->route, q->major, 0, NULL, now);
					q->tries++;
					q->not_before = now + 1000;
					q->held = true;
					w = 1000;
				} else
					continue;
			} else {
				q->held = true;
				if (w == DISCORD_LIMIT_BUSY)
					continue;
			}
		}
		if (next < 0 || w < next)
			next = w;
	}
	r->kicking = false;
	arm(r, next);
}

/* ------------------------------------------------------------------ public */

struct discord_rest *
discord_rest_new(struct loop *l, const char *api_url, const char *token, const struct discord_rest_io *io)
{
	struct discord_rest *r;
	size_t n;

	if (strlen(api_url) >= sizeof r->api || strlen(token) + 24 >= sizeof r->auth)
		return NULL;
	r = xcalloc(1, sizeof *r);
	r->limit = discord_limit_new(DISCORD_GLOBAL_PER_S);
	r->loop = l;
	r->io = *io;
	r->timer_due = -1;
	snprintf(r->api, sizeof r->api, "%s", api_url);
	n = strlen(r->api);
	while (n > 0 && r->api[n - 1] == '/')
		r->api[--n] = '\0';
	snprintf(r->auth, sizeof r->auth, "Authorization: Bot %s", token);
	return r;
}

void
discord_rest_free(struct discord_rest *r)
{
	if (r == NULL)
		return;
	if (r->timer != 0)
		loop_timer_del(r->loop, r->timer);
	while (r->head != NULL) {
		struct discord_rest_req *q = r->head;

		r->head = q->next;
		if (q->inflight && r->io.cancel != NULL)
			r->io.cancel(r->io.ctx, q);
		req_free(q);
	}
	discord_limit_free(r->limit);
	secret_wipe(r->auth, sizeof r->auth);
	free(r);
}

int
discord_rest_call(struct discord_rest *r, const char *method, const char *path, json_t *body, unsigned flags,
                  discord_rest_done_fn *done, void *ctx)
{
	return discord_rest_call_by(r, method, path, body, flags, 0, done, ctx);
}

int
discord_rest_call_by(struct discord_rest *r, const char *method, const char *path, json_t *body, unsigned flags,
                     int64_t deadline, discord_rest_done_fn *done, void *ctx)
{
	struct discord_rest_req *q;
	size_t ulen;

	if (r->dead || r->n >= DISCORD_REST_MAX_QUEUE || strlen(method) >= sizeof q->method || path[0] != '/') {
		json_decref(body);
		return -1;
	}
	q = xcalloc(1, sizeof *q);
	snprintf(q->method, sizeof q->method, "%s", method);
	ulen = strlen(r->api) + strlen(path) + 1;
	if (discord_limit_route(method, path, q->route, sizeof q->route, q->major, sizeof q->major) < 0 ||
	    (body != NULL && (q->body = json_dumps(body, JSON_COMPACT)) == NULL)) {
		json_decref(body);
		req_free(q);
		return -1;
	}
	json_decref(body);
	q->url = xmalloc(ulen);
	snprintf(q->url, ulen, "%s%s", r->api, path);
	/* receiving-and-responding.mdx: the interaction endpoints (callback and
	 * its webhook) are not bound to the global limit and need no bot token */
	if (strncmp(path, "/interactions/", 14) == 0 || strncmp(path, "/webhooks/", 10) == 0)
		flags |= DISCORD_REST_INTERACTION;
	q->flags = flags;
	q->deadline = deadline;
	q->done = done;
	q->ctx = ctx;
	LIST_APPEND(r->head, r->tail, q);
	r->n++;
	kick(r);
	return 0;
}

void
discord_rest_on_dead(struct discord_rest *r, discord_rest_dead_fn *fn, void *ctx)
{
	r->on_dead = fn;
	r->dead_ctx = ctx;
}

bool
discord_rest_dead(const struct discord_rest *r)
{
	return r->dead;
}

void
discord_rest_kill(struct discord_rest *r)
{
	struct discord_rest_req *q, *nq;

	r->dead = true;
	for (q = r->head; q != NULL; q = nq) {
		nq = q->next;
		if (!q->inflight) {
			unlink_req(r, q);
			req_free(q);
		}
	}
	arm(r, -1);
}

void
discord_rest_forget(struct discord_rest *r, void *ctx)
{
	for (struct discord_rest_req *q = r->head; q != NULL; q = q->next)
		if (q->ctx == ctx)
			q->done = NULL;
}

int
discord_rest_waiting(const struct discord_rest *r, void *ctx)
{
	for (const struct discord_rest_req *q = r->head; q != NULL; q = q->next)
		if (q->ctx == ctx)
			return q->inflight ? 0 : 1;
	return -1;
}

size_t
discord_rest_withdraw(struct discord_rest *r, void *ctx)
{
	struct discord_rest_req *q, *nq;
	size_t n = 0;

	for (q = r->head; q != NULL; q = nq) {
		nq = q->next;
		if (q->ctx == ctx && !q->inflight) {
			unlink_req(r, q);
			req_free(q);
			n++;
		}
	}
	return n;
}

size_t
discord_rest_pending(const struct discord_rest *r)
{
	return r->n;
}

size_t
discord_rest_pending_for(const struct discord_rest *r, const char *major)
{
	size_t n = 0;

	for (const struct discord_rest_req *q = r->head; q != NULL; q = q->next)
		n += strcmp(q->major, major) == 0;
	return n;
}

int64_t
discord_rest_wait(const struct discord_rest *r, const char *method, const char *path)
{
	char route[sizeof r->head->route], major[sizeof r->head->major];

	if (r->dead || discord_limit_route(method, path, route, sizeof route, major, sizeof major) < 0)
		return DISCORD_LIMIT_BUSY;
	for (const struct discord_rest_req *q = r->head; q != NULL; q = q->next)
		if (strcmp(q->route, route) == 0 && strcmp(q->major, major) == 0)
			return DISCORD_LIMIT_BUSY;
	return discord_limit_wait(r->limit, route, major, false, loop_now(r->loop));
}

const char *
discord_rest_auth(const struct discord_rest *r)
{
	return r->auth;
}

/* The 429 body's retry_after (seconds, float) and global (rate-limits.mdx). */
static void
read_429(json_t *body, struct discord_limit_hdr *h)
{
	json_t *ra = json_object_get(body, "retry_after");

	if (json_is_number(ra) && json_number_value(ra) >= 0 && json_number_value(ra) < 86400.0 * 7) {
		double ms = json_number_value(ra) * 1000.0;

		h->retry_after_ms = (int64_t)ms + ((double)(int64_t)ms < ms ? 1 : 0);
	}
	if (json_is_true(json_object_get(body, "global")))
		h->global = true;
}

/* After a network error or a 5xx: 1, 2, 4, then 8 s. */
static const struct backoff retry_5xx = { .first_ms = 1000, .max_ms = 8000 };

void
discord_rest_answer(struct discord_rest *r, struct discord_rest_req *q, long status,
                    const struct discord_limit_hdr *hin, const char *text, size_t len)
{
	int64_t now = loop_now(r->loop);
	struct discord_limit_hdr h;
	json_t *body = NULL;

	if (hin != NULL)
		h = *hin;
	else
		discord_limit_hdr_init(&h);
	if (text != NULL && len > 0)
		body = json_loadb(text, len, 0, NULL);
	if (status == 429)
		read_429(body, &h);
	discord_limit_release(r->limit, q->route, q->major, status, &h, now);
	q->inflight = false;
	q->io = NULL;
	if (r->dead) {
		/* on its way when the token was refused: answered, never retried */
		finish(r, q, status, body);
		json_decref(body);
		return;
	}
	if (q->deadline > 0 && (status == 429 || status == 0 || status >= 500) &&
	    now + (status == 429 ? h.retry_after_ms : backoff_delay(&retry_5xx, q->tries + 1, 0)) >= q->deadline) {
		/* a retry would land past the request's life: it could only be refused */
		finish(r, q, status, body);
		json_decref(body);
		kick(r);
		return;
	}
	if (status == 429 && ++q->limited <= DISCORD_REST_MAX_429) {
		/* it keeps its place: the limiter holds it back for retry_after */
		json_decref(body);
		kick(r);
		return;
	}
	if ((status == 0 || status == 500 || status == 502 || status == 503 || status == 504) &&
	    ++q->tries < DISCORD_REST_TRIES) {
		q->not_before = now + backoff_delay(&retry_5xx, q->tries, 0);
		json_decref(body);
		kick(r);
		return;
	}
	if (status == 401 && !(q->flags & DISCORD_REST_INTERACTION) && !r->dead) {
		char method[sizeof q->method], path[128];
		size_t alen = strlen(r->api);

		snprintf(method, sizeof method, "%s", q->method);
		snprintf(path, sizeof path, "%s", strncmp(q->url, r->api, alen) == 0 ? q->url + alen : q->url);
		r->dead = true;
		finish(r, q, status, body);
		json_decref(body);
		discord_rest_kill(r);
		if (r->on_dead != NULL)
			r->on_dead(r->dead_ctx, method, path);
		return;
	}
	finish(r, q, status, body);
	json_decref(body);
	if (!r->dead)
		kick(r);
}
