/* restio.c: the REST queue's transport: one libcurl easy handle per request on the bot's curl multi (http.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "http.h"
#include "rest.h"

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
	char *in;
	size_t nin;
	bool too_big;
};

static size_t
on_header(char *p, size_t size, size_t n, void *data)
{
	struct creq *c = data;

	discord_limit_hdr_line(&c->h, p, size * n);
	return size * n;
}

static size_t
on_body(char *p, size_t size, size_t n, void *data)
{
	struct creq *c = data;
	size_t len = size * n;
	char *in;

	if (c->nin + len > DISCORD_REST_MAX_BODY) {
		c->too_big = true;
		return 0;
	}
	if ((in = realloc(c->in, c->nin + len + 1)) == NULL)
		return 0;
	c->in = in;
	memcpy(c->in + c->nin, p, len);
	c->nin += len;
	c->in[c->nin] = '\0';
	return len;
}

static void
creq_free(struct creq *c)
{
	if (c->easy != NULL)
		curl_easy_cleanup(c->easy);
	curl_slist_free_all(c->hdrs);
	free(c->in);
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
	discord_rest_answer(c->r, c->q, status, &c->h, c->in, c->nin);
	creq_free(c);
}

static int
io_start(void *ctx, struct discord_rest *r, struct discord_rest_req *q)
{
	struct discord_restio *x = ctx;
	struct creq *c = calloc(1, sizeof *c);

	if (c == NULL || (c->easy = curl_easy_init()) == NULL) {
		free(c);
		return -1;
	}
	c->x = x;
	c->r = r;
	c->q = q;
	discord_limit_hdr_init(&c->h);
	curl_easy_setopt(c->easy, CURLOPT_URL, q->url);
	curl_easy_setopt(c->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	curl_easy_setopt(c->easy, CURLOPT_TIMEOUT_MS, (q->flags & DISCORD_REST_INTERACTION) ? TIMEOUT_MS_ANSWER
	                                                                                  : TIMEOUT_MS);
	curl_easy_setopt(c->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c->easy, CURLOPT_HEADERDATA, c);
	curl_easy_setopt(c->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c->easy, CURLOPT_WRITEDATA, c);
	curl_easy_setopt(c->easy, CURLOPT_USERAGENT, DISCORD_USER_AGENT);
	curl_easy_setopt(c->easy, CURLOPT_ACCEPT_ENCODING, "");
	if (x->ca_file[0] != '\0')
		curl_easy_setopt(c->easy, CURLOPT_CAINFO, x->ca_file);
	c->hdrs = curl_slist_append(c->hdrs, "Accept: application/json");
	/* the interaction endpoints are authorised by the token in their path */
	if (!(q->flags & DISCORD_REST_INTERACTION))
		c->hdrs = curl_slist_append(c->hdrs, discord_rest_auth(r));
	if (q->body != NULL) {
		c->hdrs = curl_slist_append(c->hdrs, "Content-Type: application/json");
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDS, q->body);
	}
	if (strcmp(q->method, "GET") != 0 && strcmp(q->method, "POST") != 0)
		curl_easy_setopt(c->easy, CURLOPT_CUSTOMREQUEST, q->method);
	else if (strcmp(q->method, "POST") == 0 && q->body == NULL)
		curl_easy_setopt(c->easy, CURLOPT_POSTFIELDS, "");
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
	struct discord_restio *x = calloc(1, sizeof *x);

	if (x == NULL || (ca_file != NULL && strlen(ca_file) >= sizeof x->ca_file)) {
		free(x);
		return NULL;
	}
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
