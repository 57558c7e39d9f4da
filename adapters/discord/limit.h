/* limit.h: Discord's REST rate limits: per-route buckets from X-RateLimit-* headers, 429 retry_after, the global limit. Pure. */
#ifndef HF_DISCORD_LIMIT_H
#define HF_DISCORD_LIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* developers/topics/rate-limits.mdx: "All bots can make up to 50 requests per second". */
#define DISCORD_GLOBAL_PER_S  50
#define DISCORD_LIMIT_BUSY    (-1)   /* acquire: a request of the bucket is in flight: wait for its answer */
#define DISCORD_LIMIT_IDLE_MS (10 * 60 * 1000)  /* an idle, unblocked bucket is forgotten after this */
#define DISCORD_RETRY_MAX_MS  (60 * 60 * 1000)   /* the longest wait a server's 429 or reset is granted */

/* What a response said about limits (headers, and a 429's body). */
struct discord_limit_hdr {
	bool has_bucket;          /* Limit, Remaining and Reset-After were all there */
	int limit, remaining;
	int64_t reset_after_ms;
	char bucket[64];          /* X-RateLimit-Bucket, "" if none */
	bool global;              /* X-RateLimit-Global, or the 429 body's "global" */
	char scope[16];           /* X-RateLimit-Scope: user, global, shared */
	int64_t retry_after_ms;   /* the 429 body's retry_after (seconds, float), else Retry-After; -1 if none */
	unsigned seen;            /* which of Limit, Remaining, Reset-After were read */
};

void discord_limit_hdr_init(struct discord_limit_hdr *h);
/* Reads one response header line ("Name: value\r\n") into h, if it is one of ours. */
void discord_limit_hdr_line(struct discord_limit_hdr *h, const char *line, size_t len);

/* The rate-limit identity of a request: route is the method and path with
 * ids replaced ("POST /channels/:id/messages"); major is the top-level
 * resource the limit is counted per (a channel, guild, webhook id + token,
 * or an interaction's id), "" if none. -1 if the path is too long. */
int discord_limit_route(const char *method, const char *path, char *route, size_t rlen, char *major, size_t mlen);

struct discord_limit;

struct discord_limit *discord_limit_new(int global_per_s);
void discord_limit_free(struct discord_limit *l);

/* May a request on (route, major) start at now? 0: yes, and it is counted
 * (one request per bucket is in flight at a time, which also keeps a
 * channel's messages in order); > 0: ms to wait; DISCORD_LIMIT_BUSY: wait
 * for the answer in flight. exempt: not bound to the global limit (the
 * interaction endpoints, per receiving-and-responding.mdx). */
int64_t discord_limit_acquire(struct discord_limit *l, const char *route, const char *major, bool exempt,
                              int64_t now);
/* The same answer, but nothing counted (0: a request would start now). */
int64_t discord_limit_wait(const struct discord_limit *l, const char *route, const char *major, bool exempt,
                           int64_t now);
/* The answer of the request acquired on (route, major): status 0 for none
 * (a network error), h may be NULL. A 429 blocks its bucket, or everything
 * if global, for retry_after. */
void discord_limit_release(struct discord_limit *l, const char *route, const char *major, long status,
                           const struct discord_limit_hdr *h, int64_t now);
/* Buckets known (for tests and the log). */
size_t discord_limit_count(const struct discord_limit *l);

#endif
