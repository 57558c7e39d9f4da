/* http.h: libcurl's multi interface driven by the bot's loop (requests, and CONNECT_ONLY streams for IRC). */
#ifndef HF_HTTP_H
#define HF_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <curl/curl.h>

struct loop;
struct http;

/* Connections open at once on the shared multi handle, in all and to one
 * host (CURLMOPT_MAX_TOTAL_CONNECTIONS, CURLMOPT_MAX_HOST_CONNECTIONS): an
 * invite storm, or an adapter gone wrong, queues transfers inside libcurl
 * (their timeouts count the wait) instead of opening a socket each.  A
 * stream (IRC) holds one for as long as it is connected.  Per host, no
 * fewer than an adapter paces itself to: Discord allows 50 requests a
 * second, and one held back here would go out later, with the next
 * second's, over the limit. */
#define HTTP_MAX_CONNECTIONS      128
#define HTTP_MAX_HOST_CONNECTIONS 64

/* Called once a transfer has finished; for a stream (http_add_stream), once
 * the connection is up or has failed. easy stays the caller's. */
typedef void http_done_fn(struct http *h, CURL *easy, CURLcode rc, void *data);

/* Never NULL: out of memory aborts, as xmalloc does. */
struct http *http_new(struct loop *l);
void         http_free(struct http *h);
/* Starts a transfer on the shared multi handle.  http uses CURLOPT_PRIVATE. */
int          http_add(struct http *h, CURL *easy, http_done_fn *fn, void *data);
/* Connects only (sets CURLOPT_CONNECT_ONLY): once fn reports CURLE_OK, use
 * CURLINFO_ACTIVESOCKET with loop_watch and curl_easy_send/recv.  The handle
 * stays on the multi handle (libcurl closes a connect-only connection when
 * it is removed) until http_remove. */
int          http_add_stream(struct http *h, CURL *easy, http_done_fn *fn, void *data);
/* Takes easy off the multi handle at any time; no callback follows. */
void         http_remove(struct http *h, CURL *easy);

/* A response body, collected up to max bytes and kept NUL-terminated: give
 * http_body_write as CURLOPT_WRITEFUNCTION and the struct as
 * CURLOPT_WRITEDATA.  One byte more than max stops the transfer
 * (CURLE_WRITE_ERROR) and sets too_big: a server cannot fill our memory. */
struct http_body {
	char *s;        /* NULL until the first byte */
	size_t len;
	size_t max;
	bool too_big;
};
size_t       http_body_write(char *p, size_t size, size_t n, void *body);
/* A JSON request to a web API (Matrix, Discord), set up alike for every
 * adapter. */
struct http_json_req {
	const char *url;
	const char *method;       /* GET, POST, PUT, DELETE... */
	const char *body;         /* NULL: none; libcurl keeps a copy */
	const char *empty_post;   /* what a POST without a body sends */
	const char *user_agent;
	const char *ca_file;      /* "" or NULL: the system's */
	long connect_ms, timeout_ms;
};
/* A new easy handle for q: http and https only, no signals, its timeouts,
 * any encoding, the answer into *in (http_body_write); "Accept:
 * application/json" (and the Content-Type of a body) appended to *hdrs,
 * which the caller may add to and must set as CURLOPT_HTTPHEADER.  NULL if
 * libcurl cannot make one. */
CURL        *http_json_easy(const struct http_json_req *q, struct http_body *in, struct curl_slist **hdrs);
/* Wipes (an answer may hold a token) and frees what was collected; b is empty again, max kept. */
void         http_body_free(struct http_body *b);

#endif
