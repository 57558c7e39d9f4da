/* restio.c: the REST queue's transport: one libcurl easy handle per request on the bot's curl multi (http.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "http.h"
#include "rest.h"
#include "xmalloc.h"

#define TIMEOUT_MS         30000L
#define TIMEOUT_MS_ANSWER  10000L   /* interaction answers: their token dies after 3 s anyway */

struct discord_restio {
	struct http *http;
	char ca_file[512];
};

/* One request in flight. */
struct creq {
	struct discord_restio *x;
	struct discord_rest *r;
	struct discord_rest_req *q;
	CURL *easy;
	struct curl_slist *hdrs;
	struct discord_limit_hdr h;
	struct http_body in;
};

static size_t
on_header(char *p, size_t size, size_t n, void *data)
{
	struct creq *c = data;

	discord_limit_hdr_line(&c->h, p, size * n);
	return size * n;
}

static void
creq_free(struct creq *c)
{
	if (c->easy != NULL)
		curl_easy_cleanup(c->easy);
	curl_slist_free_all(c->hdrs);
	http_body_free(&c->in);
	free(c);
}

static void
on_done(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct creq *c = data;
	long status = 0;

	(void)h;
	if (rc == CURLE_OK)
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
	c->q->io = NULL;
	discord_rest_answer(c->r, c->q, status, &c->h, c->in.s, c->in.len);
	creq_free(c);
}

static int
io_start(void *ctx, struct discord_rest *r, struct discord_rest_req *q)
{
	struct discord_restio *x = ctx;
	const struct http_json_req hq = { .url = q->url, .method = q->method, .body = q->body, .empty_post = "",
	                                  .user_agent = DISCORD_USER_AGENT, .ca_file = x->ca_file,
	                                  .connect_ms = 10000L,
	                                  .timeout_ms = (q->flags & DISCORD_REST_INTERACTION) ? TIMEOUT_MS_ANSWER
	                                                                                      : TIMEOUT_MS };
	struct creq *c = xcalloc(1, sizeof *c);

	if ((c->easy = http_json_easy(&hq, &c->in, &c->hdrs)) == NULL) {
		free(c);
		return -1;
	}
	c->x = x;
	c->r = r;
	c->q = q;
	c->in.max = DISCORD_REST_MAX_BODY;
	discord_limit_hdr_init(&c->h);
	curl_easy_setopt(c->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c->easy, CURLOPT_HEADERDATA, c);
	/* the interaction endpoints are authorised by the token in their path */
	if (!(q->flags & DISCORD_REST_INTERACTION))
		c->hdrs = curl_slist_append(c->hdrs, discord_rest_auth(r));
	curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, c->hdrs);
	if (http_add(x->http, c->easy, on_done, c) < 0) {
		creq_free(c);
		return -1;
	}
	q->io = c;
	return 0;
}

static void
io_cancel(void *ctx, struct discord_rest_req *q)
{
	struct discord_restio *x = ctx;
	struct creq *c = q->io;

	if (c == NULL)
		return;
	http_remove(x->http, c->easy);
	q->io = NULL;
	creq_free(c);
}

struct discord_restio *
discord_restio_new(struct http *h, const char *ca_file)
{
	struct discord_restio *x;

	if (ca_file != NULL && strlen(ca_file) >= sizeof x->ca_file)
		return NULL;
	x = xcalloc(1, sizeof *x);
	x->http = h;
	if (ca_file != NULL)
		snprintf(x->ca_file, sizeof x->ca_file, "%s", ca_file);
	return x;
}

void
discord_restio_free(struct discord_restio *x)
{
	free(x);
}

void
discord_restio_ops(struct discord_restio *x, struct discord_rest_io *io)
{
	io->ctx = x;
	io->start = io_start;
	io->cancel = io_cancel;
}
