/* req.c: HTTP requests to the homeserver on the bot's curl multi: auth header, size limit, 429 wait, JSON answer, and a bounded number at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "matrix.h"
#include "secret.h"
#include "version.h"

static void req_pump(struct matrix_client *c);

static void
req_unlink(struct matrix_client *c, struct matrix_req *r)
{
	for (struct matrix_req **p = &c->reqs; *p != NULL; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			return;
		}
}

/* libcurl has its copy once it is set: ours goes (a login's holds the password). */
static void
body_wipe(struct matrix_req *r)
{
	secret_free(r->body);
	r->body = NULL;
}

static void
req_free(struct matrix_req *r)
{
	if (r->easy != NULL)
		curl_easy_cleanup(r->easy);
	body_wipe(r);
	free(r->url);
	curl_slist_free_all(r->hdrs);
	http_body_free(&r->in);
	free(r->arg);
	free(r->user);
	free(r);
}

int64_t
matrix_req_wait_ms(json_t *body, curl_off_t after)
{
	json_t *ms = json_object_get(body, "retry_after_ms");

	/* 0 is no wait given: libcurl's CURLINFO_RETRY_AFTER says 0 when
	 * there is no Retry-After, and a retry at once would only hammer */
	if (json_is_integer(ms) && json_integer_value(ms) > 0)
		return json_integer_value(ms) < MATRIX_RETRY_MAX_MS ? (int64_t)json_integer_value(ms) : MATRIX_RETRY_MAX_MS;
	if (after > 0)
		return after < MATRIX_RETRY_MAX_MS / 1000 ? (int64_t)after * 1000 : MATRIX_RETRY_MAX_MS;
	return -1;
}

static void
on_done(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct matrix_req *r = data;
	struct matrix_client *c = r->c;
	long status = 0;
	json_t *body = NULL;
	curl_off_t after = -1;

	(void)h;
	req_unlink(c, r);
	if (!r->now)
		c->nactive--;
	if (rc == CURLE_OK) {
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
		if (r->in.s != NULL)
			body = json_loadb(r->in.s, r->in.len, 0, NULL);
		if (status == 429) {
			if (curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &after) != CURLE_OK)
				after = -1;
			r->retry_ms = matrix_req_wait_ms(body, after);
		}
		r->errcode = json_string_value(json_object_get(body, "errcode"));
	} else if (r->in.too_big) {
		/* said as what it is: the server did answer */
		r->errcode = "answer over the size limit";
		matrix_client_log(c, LOG_LVL_WARNING, "%s: the answer is over %zu bytes, the limit: dropped", r->what, r->in.max);
	} else {
		r->errcode = curl_easy_strerror(rc);
		matrix_client_log(c, LOG_LVL_DEBUG, "%s: no answer: %s", r->what, r->errcode);
	}
	r->done(c, r, status, body);
	json_decref(body);
	req_free(r);
	req_pump(c);
}

/* Hands r to libcurl: 0, or -1 if it cannot be started. */
static int
req_launch(struct matrix_client *c, struct matrix_req *r)
{
	const struct http_json_req q = { .url = r->url, .method = r->method, .body = r->body, .empty_post = "{}",
	                                 .user_agent = "handfoot/" HF_VERSION, .ca_file = c->cfg.ca_file,
	                                 .connect_ms = 20000L, .timeout_ms = r->timeout_ms };
	char auth[1100];

	if ((r->easy = http_json_easy(&q, &r->in, &r->hdrs)) == NULL)
		return -1;
	/* the token of now: a queued request goes with the newest one; never
	 * to .well-known, which may be another host than the homeserver */
	if (c->token[0] != '\0' && strstr(r->what, " /.well-known/") == NULL) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", c->token);
		r->hdrs = curl_slist_append(r->hdrs, auth);
		/* the header holds the token: wipe our copy */
		secret_wipe(auth, sizeof auth);
	}
	curl_easy_setopt(r->easy, CURLOPT_HTTPHEADER, r->hdrs);
	body_wipe(r);
	if (http_add(c->http, r->easy, on_done, r) < 0)
		return -1;
	r->next = c->reqs;
	c->reqs = r;
	if (!r->now)
		c->nactive++;
	return 0;
}

/* The next waiting request, the first queue first; NULL if none. */
static struct matrix_req *
req_dequeue(struct matrix_client *c)
{
	for (size_t q = 0; q < sizeof c->waiting / sizeof *c->waiting; q++) {
		struct matrix_req *r = c->waiting[q].head;

		if (r == NULL)
			continue;
		if ((c->waiting[q].head = r->next) == NULL)
			c->waiting[q].tail = NULL;
		c->nqueued--;
		r->next = NULL;
		return r;
	}
	return NULL;
}

/* Starts waiting requests while there is room. */
static void
req_pump(struct matrix_client *c)
{
	struct matrix_req *r;

	while (c->nactive < MATRIX_REQS_MAX && (r = req_dequeue(c)) != NULL) {
		if (req_launch(c, r) < 0) {
			/* its caller has moved on: it is told as any failure */
			r->errcode = "cannot start the request";
			r->done(c, r, 0, NULL);
			req_free(r);
		}
	}
}

enum { REQ_NOW = -1, REQ_FIRST = 0, REQ_LATER = 1 };

static struct matrix_req *
req_new(struct matrix_client *c, const char *method, const char *path, const char *json,
        matrix_req_done_fn *done, long timeout_ms, size_t max, int queue)
{
	bool now = queue == REQ_NOW;
	struct matrix_req *r = xcalloc(1, sizeof *r);
	size_t urllen = strlen(c->cfg.homeserver) + strlen(path) + 1;

	r->c = c;
	r->done = done;
	r->in.max = max;
	r->retry_ms = -1;
	r->timeout_ms = timeout_ms;
	r->now = now;
	snprintf(r->method, sizeof r->method, "%s", method);
	snprintf(r->what, sizeof r->what, "%s %.*s", method, (int)strcspn(path, "?"), path);
	r->url = xmalloc(urllen);
	snprintf(r->url, urllen, "%s%s", c->cfg.homeserver, path);
	r->body = xstrdup(json);
	/* first come, first served: nothing overtakes a waiting request */
	if (now || (c->nactive < MATRIX_REQS_MAX && c->nqueued == 0)) {
		if (req_launch(c, r) < 0) {
			req_free(r);
			return NULL;
		}
		return r;
	}
	if (c->nqueued >= MATRIX_REQS_QUEUED) {
		matrix_client_log(c, LOG_LVL_WARNING, "%zu requests wait already: %s not sent", c->nqueued, r->what);
		req_free(r);
		return NULL;
	}
	if (c->waiting[queue].tail != NULL)
		c->waiting[queue].tail->next = r;
	else
		c->waiting[queue].head = r;
	c->waiting[queue].tail = r;
	c->nqueued++;
	return r;
}

struct matrix_req *
matrix_req_start(struct matrix_client *c, const char *method, const char *path, const char *json,
                 matrix_req_done_fn *done, long timeout_ms, size_t max)
{
	return req_new(c, method, path, json, done, timeout_ms, max, REQ_FIRST);
}

struct matrix_req *
matrix_req_start_now(struct matrix_client *c, const char *method, const char *path, const char *json,
                     matrix_req_done_fn *done, long timeout_ms, size_t max)
{
	return req_new(c, method, path, json, done, timeout_ms, max, REQ_NOW);
}

struct matrix_req *
matrix_req_start_later(struct matrix_client *c, const char *method, const char *path, const char *json,
                       matrix_req_done_fn *done, long timeout_ms, size_t max)
{
	return req_new(c, method, path, json, done, timeout_ms, max, REQ_LATER);
}

void
matrix_req_cancel_all(struct matrix_client *c)
{
	while (c->reqs != NULL) {
		struct matrix_req *r = c->reqs;

		c->reqs = r->next;
		http_remove(c->http, r->easy);
		req_free(r);
	}
	for (struct matrix_req *r; (r = req_dequeue(c)) != NULL;)
		req_free(r);
	c->nactive = 0;
	c->sync_req = NULL;
}
