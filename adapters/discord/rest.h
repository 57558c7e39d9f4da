/* rest.h: Discord's REST API: a request queue that keeps to the rate limits (limit.h) and retries, over a pluggable transport. */
#ifndef HF_DISCORD_REST_H
#define HF_DISCORD_REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "limit.h"
#include "version.h"

struct loop;
struct http;

#define DISCORD_API_URL        "https://discord.com/api/v10"
/* reference.mdx: "DiscordBot ($url, $versionNumber)", the URL the project's home */
#define DISCORD_USER_AGENT     "DiscordBot (" HF_URL ", " HF_VERSION ")"
#define DISCORD_REST_MAX_QUEUE 4096     /* requests waiting; more are refused (and said so) */
#define DISCORD_REST_TRIES     4        /* attempts on network errors and 5xx */
#define DISCORD_REST_MAX_429   100      /* 429s one request may get before it is given up */
#define DISCORD_REST_MAX_BODY  (1u << 20)

/* Flags of a request. */
#define DISCORD_REST_INTERACTION 1u     /* an interaction endpoint (/interactions, /webhooks): not bound to
                                         * the global limit, no bot token; set from the path */

/* The final answer: status 0 if there was none (network errors, given up);
 * body is the JSON answer or NULL, valid during the call. */
typedef void discord_rest_done_fn(void *ctx, long status, json_t *body);

struct discord_rest;

/* One queued request, as the transport sees it. */
struct discord_rest_req {
	char method[8];
	char *url;                 /* api_url + path */
	char *body;                /* JSON text, or NULL */
	char route[96];            /* rate-limit identity (discord_limit_route) */
	char major[256];
	unsigned flags;
	discord_rest_done_fn *done;
	void *ctx;
	int tries, limited;        /* failed attempts; 429s received */
	int64_t not_before;        /* a retry after a failure waits until then */
	int64_t deadline;          /* no retry (5xx, 429) that would go past it; 0: none */
	bool inflight, held;
	void *io;                  /* the transport's */
	struct discord_rest_req *prev, *next;   /* the queue, in order */
};

/* How requests go out: libcurl on the bot's multi handle (discord_restio),
 * or a test's fake. start returns -1 if it could not start the request. */
struct discord_rest_io {
	void *ctx;
	int  (*start)(void *ctx, struct discord_rest *r, struct discord_rest_req *q);
	void (*cancel)(void *ctx, struct discord_rest_req *q);
};

/* api_url without a trailing slash is best; token is the bot token (copied, never logged). */
struct discord_rest *discord_rest_new(struct loop *l, const char *api_url, const char *token,
                                      const struct discord_rest_io *io);
/* Cancels what is in flight and frees everything; no callback follows. Not from inside a callback. */
void discord_rest_free(struct discord_rest *r);
/* Queues method path (below api_url, e.g. "/channels/1/messages") with body
 * (taken, may be NULL). done may be NULL. 0, or -1 if refused (queue full,
 * path too long). */
int  discord_rest_call(struct discord_rest *r, const char *method, const char *path, json_t *body,
                       unsigned flags, discord_rest_done_fn *done, void *ctx);
/* The same with a deadline (loop clock, ms; 0 none): a retry that would go
 * past it is not made, the request answered with its last status instead
 * (an interaction callback is dead after 3 s, its token after 15 min). */
int  discord_rest_call_by(struct discord_rest *r, const char *method, const char *path, json_t *body,
                          unsigned flags, int64_t deadline, discord_rest_done_fn *done, void *ctx);
/* Requests of ctx still go, but their done is not called any more. */
void discord_rest_forget(struct discord_rest *r, void *ctx);
/* Where ctx's request is: 1 waiting (not sent yet), 0 on its way, -1 not queued. */
int  discord_rest_waiting(const struct discord_rest *r, void *ctx);
/* Drops ctx's requests that are still waiting (an answer a newer one
 * replaces), with no callback; how many. */
size_t discord_rest_withdraw(struct discord_rest *r, void *ctx);
size_t discord_rest_pending(const struct discord_rest *r);
/* Whether a request (method, path) queued now would start at once: 0 yes;
 * > 0 the ms its limit has it wait; DISCORD_LIMIT_BUSY: a request of the
 * same route for the same resource is queued or in flight ahead of it (its
 * answer comes first).  Nothing is queued or counted. */
int64_t discord_rest_wait(const struct discord_rest *r, const char *method, const char *path);
/* Requests waiting or in flight for one top-level resource (a channel id:
 * the room lines a paced computer seat waits for). */
size_t discord_rest_pending_for(const struct discord_rest *r, const char *major);
/* A 401 on a bot route (not an interaction endpoint) means the token was
 * reset or revoked: every later request would get one too, and each counts
 * toward Discord's invalid-request ban. The queue is then dead: what waits is
 * dropped (no callback), later calls are refused, and fn is called once with
 * the request that got it. discord_rest_kill does the same from outside (close 4004). */
typedef void discord_rest_dead_fn(void *ctx, const char *method, const char *path);
void discord_rest_on_dead(struct discord_rest *r, discord_rest_dead_fn *fn, void *ctx);
void discord_rest_kill(struct discord_rest *r);
bool discord_rest_dead(const struct discord_rest *r);

/* "Authorization: Bot TOKEN", for the transport. */
const char *discord_rest_auth(const struct discord_rest *r);

/* The transport reports a request's answer: status 0 if none; h may be NULL. */
void discord_rest_answer(struct discord_rest *r, struct discord_rest_req *q, long status,
                         const struct discord_limit_hdr *h, const char *body, size_t len);

/* restio.c: the libcurl transport, on the bot's curl multi handle. */
struct discord_restio;
struct discord_restio *discord_restio_new(struct http *h, const char *ca_file);
void discord_restio_free(struct discord_restio *x);
void discord_restio_ops(struct discord_restio *x, struct discord_rest_io *io);

#endif
