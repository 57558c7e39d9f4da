/* http.h: libcurl's multi interface driven by the bot's loop (requests, and CONNECT_ONLY streams for IRC). */
#ifndef HF_HTTP_H
#define HF_HTTP_H

#include <curl/curl.h>

struct loop;
struct http;

/* Called once a transfer has finished (or, with CURLOPT_CONNECT_ONLY, once
 * the connection is up: then the handle stays added until http_remove). */
typedef void http_done_fn(struct http *h, CURL *easy, CURLcode rc, void *data);

struct http *http_new(struct loop *l);
void         http_free(struct http *h);
/* Starts a transfer on the shared multi handle; the caller keeps owning easy. */
int          http_add(struct http *h, CURL *easy, http_done_fn *fn, void *data);
/* Takes easy off the multi handle (at any time; no callback follows). */
void         http_remove(struct http *h, CURL *easy);

#endif
