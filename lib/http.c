/* http.c: glue between libcurl's multi_socket API and the loop: sockets become fd watches, its timeout a timer. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "loop.h"
#include "secret.h"
#include "xmalloc.h"

struct http_req {
	CURL *easy;
	http_done_fn *fn;
	void *data;
	bool stream;
	bool done;
	struct http_req *next;
};

struct http {
	struct loop *loop;
	CURLM *multi;
	long long timer;
	struct http_req *reqs;
};

static void http_check_done(struct http *h);

static struct http_req *
req_find(struct http *h, CURL *easy, struct http_req ***prevp)
{
	struct http_req **p = &h->reqs;

	for (; *p != NULL; p = &(*p)->next)
		if ((*p)->easy == easy) {
			if (prevp != NULL)
				*prevp = p;
			return *p;
		}
	return NULL;
}

static void
on_socket_ready(struct loop *l, int fd, int mask, void *data)
{
	struct http *h = data;
	int running, ev = 0;

	(void)l;
	if (mask & LOOP_READ)
		ev |= CURL_CSELECT_IN;
	if (mask & LOOP_WRITE)
		ev |= CURL_CSELECT_OUT;
	curl_multi_socket_action(h->multi, fd, ev, &running);
	http_check_done(h);
}

static int
socket_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	struct http *h = userp;

	(void)easy;
	(void)socketp;
	switch (what) {
	case CURL_POLL_IN:
		loop_watch(h->loop, s, LOOP_READ, on_socket_ready, h);
		break;
	case CURL_POLL_OUT:
		loop_watch(h->loop, s, LOOP_WRITE, on_socket_ready, h);
		break;
	case CURL_POLL_INOUT:
		loop_watch(h->loop, s, LOOP_READ | LOOP_WRITE, on_socket_ready, h);
		break;
	case CURL_POLL_REMOVE:
		loop_unwatch(h->loop, s);
		break;
	}
	return 0;
}

static int64_t
on_timeout(struct loop *l, long long id, void *data)
{
	struct http *h = data;
	int running;

	(void)l;
	(void)id;
	h->timer = 0;
	curl_multi_socket_action(h->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	http_check_done(h);
	return LOOP_NOMORE;
}

/* libcurl asks for one timeout at a time; -1 cancels it. It must not be
 * driven from inside this callback, so even 0 goes through the loop. */
static int
timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	struct http *h = userp;

	(void)multi;
	if (h->timer != 0) {
		loop_timer_del(h->loop, h->timer);
		h->timer = 0;
	}
	if (timeout_ms >= 0)
		h->timer = loop_timer_add(h->loop, timeout_ms, on_timeout, h);
	return 0;
}

static void
http_check_done(struct http *h)
{
	CURLMsg *msg;
	int left;

	while ((msg = curl_multi_info_read(h->multi, &left)) != NULL) {
		struct http_req *r, **prev;
		CURL *easy = msg->easy_handle;
		CURLcode rc = msg->data.result;

		if (msg->msg != CURLMSG_DONE || (r = req_find(h, easy, &prev)) == NULL || r->done)
			continue;
		if (!r->stream || rc != CURLE_OK) {
			/* finished for good: off the multi handle before the callback,
			 * which may free or re-add the handle */
			curl_multi_remove_handle(h->multi, easy);
			*prev = r->next;
			r->fn(h, easy, rc, r->data);
			free(r);
		} else {
			r->done = true;
			r->fn(h, easy, rc, r->data);
		}
	}
}

struct http *
http_new(struct loop *l)
{
	struct http *h = xcalloc(1, sizeof *h);

	h->loop = l;
	/* curl_multi_init fails only without memory: the allocation policy's case */
	if ((h->multi = curl_multi_init()) == NULL) {
		fprintf(stderr, "<2>out of memory (curl_multi_init): stopping\n");
		abort();
	}
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETDATA, h);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERDATA, h);
	curl_multi_setopt(h->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)HTTP_MAX_CONNECTIONS);
	curl_multi_setopt(h->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)HTTP_MAX_HOST_CONNECTIONS);
	return h;
}

void
http_free(struct http *h)
{
	if (h == NULL)
		return;
	while (h->reqs != NULL)
		http_remove(h, h->reqs->easy);
	if (h->timer != 0)
		loop_timer_del(h->loop, h->timer);
	curl_multi_cleanup(h->multi);
	free(h);
}

static int
add(struct http *h, CURL *easy, http_done_fn *fn, void *data, bool stream)
{
	struct http_req *r = xcalloc(1, sizeof *r);

	r->easy = easy;
	r->fn = fn;
	r->data = data;
	r->stream = stream;
	if (stream)
		curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
	if (curl_multi_add_handle(h->multi, easy) != CURLM_OK) {
		free(r);
		return -1;
	}
	r->next = h->reqs;
	h->reqs = r;
	return 0;
}

int
http_add(struct http *h, CURL *easy, http_done_fn *fn, void *data)
{
	return add(h, easy, fn, data, false);
}

int
http_add_stream(struct http *h, CURL *easy, http_done_fn *fn, void *data)
{
	return add(h, easy, fn, data, true);
}

void
http_remove(struct http *h, CURL *easy)
{
	struct http_req *r, **prev;

	if ((r = req_find(h, easy, &prev)) == NULL)
		return;
	*prev = r->next;
	curl_multi_remove_handle(h->multi, easy);
	free(r);
}

size_t
http_body_write(char *p, size_t size, size_t n, void *body)
{
	struct http_body *b = body;
	size_t len = size * n;

	if (b->len > b->max || len > b->max - b->len) {
		b->too_big = true;
		return 0;
	}
	b->s = xrealloc(b->s, b->len + len + 1);
	memcpy(b->s + b->len, p, len);
	b->len += len;
	b->s[b->len] = '\0';
	return len;
}

void
http_body_free(struct http_body *b)
{
	if (b->s != NULL)
		secret_wipe(b->s, b->len);
	free(b->s);
	b->s = NULL;
	b->len = 0;
	b->too_big = false;
}

CURL *
http_json_easy(const struct http_json_req *q, struct http_body *in, struct curl_slist **hdrs)
{
	CURL *e = curl_easy_init();

	if (e == NULL)
		return NULL;
	/* libcurl keeps its own copies of the URL and the body */
	curl_easy_setopt(e, CURLOPT_URL, q->url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, q->connect_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, q->timeout_ms);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, http_body_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, in);
	curl_easy_setopt(e, CURLOPT_USERAGENT, q->user_agent);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	if (q->ca_file != NULL && q->ca_file[0] != '\0')
		curl_easy_setopt(e, CURLOPT_CAINFO, q->ca_file);
	*hdrs = curl_slist_append(*hdrs, "Accept: application/json");
	if (q->body != NULL) {
		*hdrs = curl_slist_append(*hdrs, "Content-Type: application/json");
		curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, q->body);
	}
	if (strcmp(q->method, "GET") != 0 && strcmp(q->method, "POST") != 0)
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, q->method);
	else if (strcmp(q->method, "POST") == 0 && q->body == NULL)
		curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, q->empty_post != NULL ? q->empty_post : "");
	return e;
}
