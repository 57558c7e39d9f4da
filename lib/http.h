/* http.h: libcurl's multi interface driven by the bot's loop (requests, and CONNECT_ONLY streams for IRC). */
#ifndef HF_HTTP_H
#define HF_HTTP_H

#include <curl/curl.h>

struct loop;
struct http;

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

#endif
