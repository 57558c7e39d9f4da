/* limit.c: Discord REST rate limits: buckets learnt from the headers, 429 waits, and at most 50 requests a second. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "limit.h"
#include "xmalloc.h"

/* Added to every wait we are told of: the server's clock runs ahead of ours
 * by the answer's travel time, but its numbers are rounded. */
#define MARGIN_MS 10

struct bucket {
	char route[96];
	char major[256];
	char hash[64];            /* X-RateLimit-Bucket: routes sharing it share the limit */
	bool known;               /* limit, remaining and reset_at are from headers */
	int limit, remaining;
	int64_t reset_at;
	int64_t blocked_until;    /* from a 429 */
	bool inflight;
	int64_t last_used;
};

#define SEEN_LIMIT  1u
#define SEEN_REMAIN 2u
#define SEEN_RESET  4u

struct discord_limit {
	struct bucket *b;
	size_t n, cap;
	int per_s;
	int64_t *ring;            /* start times of the last per_s global-bound requests */
	size_t ring_at, ring_n;
	int64_t global_until;
	int64_t swept_at;
};

/* ------------------------------------------------------------------ headers */

void
discord_limit_hdr_init(struct discord_limit_hdr *h)
{
	memset(h, 0, sizeof *h);
	h->retry_after_ms = -1;
}

static int64_t
seconds_to_ms(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !isfinite(v) || v < 0 || v > 86400.0 * 7)
		return -1;
	return (int64_t)ceil(v * 1000.0);
}

static bool
int_value(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < 0 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

void
discord_limit_hdr_line(struct discord_limit_hdr *h, const char *line, size_t len)
{
	char name[40], value[96];
	const char *colon = memchr(line, ':', len), *v;
	size_t nn, vn;
	int64_t ms;

	if (colon == NULL || (nn = (size_t)(colon - line)) >= sizeof name)
		return;
	memcpy(name, line, nn);
	name[nn] = '\0';
	for (v = colon + 1; v < line + len && (*v == ' ' || *v == '\t'); v++)
		;
	vn = (size_t)(line + len - v);
	while (vn > 0 && (v[vn - 1] == '\r' || v[vn - 1] == '\n' || v[vn - 1] == ' ' || v[vn - 1] == '\t'))
		vn--;
	if (vn >= sizeof value)
		return;
	memcpy(value, v, vn);
	value[vn] = '\0';
	if (strcasecmp(name, "X-RateLimit-Limit") == 0) {
		if (int_value(value, &h->limit))
			h->seen |= SEEN_LIMIT;
	} else if (strcasecmp(name, "X-RateLimit-Remaining") == 0) {
		if (int_value(value, &h->remaining))
			h->seen |= SEEN_REMAIN;
	} else if (strcasecmp(name, "X-RateLimit-Reset-After") == 0) {
		if ((ms = seconds_to_ms(value)) >= 0) {
			h->reset_after_ms = ms;
			h->seen |= SEEN_RESET;
		}
	} else if (strcasecmp(name, "X-RateLimit-Bucket") == 0) {
		if (vn < sizeof h->bucket && strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                                   "0123456789-_:.") == vn)
			memcpy(h->bucket, value, vn + 1);
	} else if (strcasecmp(name, "X-RateLimit-Global") == 0) {
		h->global = strcasecmp(value, "true") == 0;
	} else if (strcasecmp(name, "X-RateLimit-Scope") == 0) {
		snprintf(h->scope, sizeof h->scope, "%.15s", value);
		if (strcasecmp(value, "global") == 0)
			h->global = true;
	} else if (strcasecmp(name, "Retry-After") == 0) {
		/* whole seconds; the 429 body's retry_after, if any, is finer and wins */
		if (h->retry_after_ms < 0 && (ms = seconds_to_ms(value)) >= 0)
			h->retry_after_ms = ms;
	}
	h->has_bucket = (h->seen & (SEEN_LIMIT | SEEN_REMAIN | SEEN_RESET)) == (SEEN_LIMIT | SEEN_REMAIN | SEEN_RESET);
}

/* ------------------------------------------------------------------ routes */

static bool
all_digits(const char *s, size_t n)
{
	return n > 0 && n <= 20 && strspn(s, "0123456789") >= n;
}

/* Appends sep (none if '\0') and s[0..n) to buf, which holds *at bytes and
 * a NUL in len; -1 if that would not fit (a route or major never cut). */
static int
append(char *buf, size_t len, size_t *at, char sep, const char *s, size_t n)
{
	if (*at + (sep != '\0') + n >= len)
		return -1;
	if (sep != '\0')
		buf[(*at)++] = sep;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
	return 0;
}

int
discord_limit_route(const char *method, const char *path, char *route, size_t rlen, char *major, size_t mlen)
{
	const char *p = path, *q;
	char prev[32] = "", prev2[32] = "";
	size_t rn, mn = 0;
	int w;

	w = snprintf(route, rlen, "%s ", method);
	if (w < 0 || (size_t)w >= rlen)
		return -1;
	rn = (size_t)w;
	major[0] = '\0';
	while (*p == '/') {
		const char *seg = ++p, *put;
		size_t n, pn;

		q = p + strcspn(p, "/?");
		n = (size_t)(q - seg);
		p = q;
		put = seg;
		pn = n;
		if (all_digits(seg, n)) {
			put = ":id";
			pn = 3;
			/* the top-level resources limits are counted per (rate-limits.mdx);
			 * an interaction's endpoints are its own */
			if (mn == 0 && (strcmp(prev, "channels") == 0 || strcmp(prev, "guilds") == 0 ||
			                strcmp(prev, "webhooks") == 0 || strcmp(prev, "interactions") == 0) &&
			    append(major, mlen, &mn, '\0', seg, n) < 0)
				return -1;
		} else if ((strcmp(prev2, "webhooks") == 0 || strcmp(prev2, "interactions") == 0) && prev[0] == ':') {
			/* a webhook's or interaction's token */
			put = ":token";
			pn = 6;
			if (strcmp(prev2, "webhooks") == 0 && append(major, mlen, &mn, '/', seg, n) < 0)
				return -1;
		}
		if (append(route, rlen, &rn, '/', put, pn) < 0)
			return -1;
		snprintf(prev2, sizeof prev2, "%s", prev);
		if (put != seg)
			snprintf(prev, sizeof prev, "%s", put);
		else
			snprintf(prev, sizeof prev, "%.*s", (int)(n < sizeof prev ? n : sizeof prev - 1), seg);
	}
	return 0;
}

/* ------------------------------------------------------------------ buckets */

struct discord_limit *
discord_limit_new(int global_per_s)
{
	struct discord_limit *l = xcalloc(1, sizeof *l);

	l->per_s = global_per_s > 0 ? global_per_s : DISCORD_GLOBAL_PER_S;
	l->ring = xcalloc((size_t)l->per_s, sizeof *l->ring);
	return l;
}

void
discord_limit_free(struct discord_limit *l)
{
	if (l == NULL)
		return;
	free(l->b);
	free(l->ring);
	free(l);
}

size_t
discord_limit_count(const struct discord_limit *l)
{
	return l->n;
}

static struct bucket *
find(const struct discord_limit *l, const char *route, const char *major)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->b[i].route, route) == 0 && strcmp(l->b[i].major, major) == 0)
			return &l->b[i];
	return NULL;
}

static struct bucket *
find_or_add(struct discord_limit *l, const char *route, const char *major, int64_t now)
{
	struct bucket *b = find(l, route, major);

	if (b != NULL)
		return b;
	if (strlen(route) >= sizeof b->route || strlen(major) >= sizeof b->major)
		return NULL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		l->b = xreallocarray(l->b, cap, sizeof *l->b);
		l->cap = cap;
	}
	b = &l->b[l->n++];
	memset(b, 0, sizeof *b);
	snprintf(b->route, sizeof b->route, "%s", route);
	snprintf(b->major, sizeof b->major, "%s", major);
	b->last_used = now;
	return b;
}

/* Same limit: the same bucket, or another route Discord put in the same bucket, for the same resource. */
static bool
peer(const struct bucket *a, const struct bucket *b)
{
	return a == b || (a->hash[0] != '\0' && strcmp(a->hash, b->hash) == 0 && strcmp(a->major, b->major) == 0);
}

/* Forgets buckets nobody used for a while (a channel per game adds up). */
static void
sweep(struct discord_limit *l, int64_t now)
{
	if (now - l->swept_at < 60000)
		return;
	l->swept_at = now;
	for (size_t i = 0; i < l->n;) {
		struct bucket *b = &l->b[i];

		if (!b->inflight && now - b->last_used > DISCORD_LIMIT_IDLE_MS && now >= b->blocked_until &&
		    (!b->known || now >= b->reset_at))
			l->b[i] = l->b[--l->n];
		else
			i++;
	}
}

/* The wait before a request on bucket b may start: 0 now, > 0 ms, or
 * DISCORD_LIMIT_BUSY (a request of its bucket is in flight). */
static int64_t
wait_of(const struct discord_limit *l, const struct bucket *b, bool exempt, int64_t now)
{
	int64_t wait = 0;

	if (!exempt && now < l->global_until)
		return l->global_until - now;
	for (size_t i = 0; i < l->n; i++) {
		const struct bucket *p = &l->b[i];

		if (!peer(b, p))
			continue;
		if (p->inflight)
			return DISCORD_LIMIT_BUSY;
		if (now < p->blocked_until && p->blocked_until - now > wait)
			wait = p->blocked_until - now;
		if (p->known && p->remaining <= 0 && now < p->reset_at && p->reset_at - now > wait)
			wait = p->reset_at - now;
	}
	if (wait > 0)
		return wait;
	if (!exempt && l->ring_n == (size_t)l->per_s) {
		int64_t oldest = l->ring[l->ring_at];

		if (now - oldest < 1000)
			return oldest + 1000 - now;
	}
	return 0;
}

int64_t
discord_limit_wait(const struct discord_limit *l, const char *route, const char *major, bool exempt, int64_t now)
{
	static const struct bucket none;   /* a bucket not met yet: no peer, no limit learnt */
	const struct bucket *b = find(l, route, major);

	return wait_of(l, b != NULL ? b : &none, exempt, now);
}

int64_t
discord_limit_acquire(struct discord_limit *l, const char *route, const char *major, bool exempt, int64_t now)
{
	struct bucket *b;
	int64_t wait;

	sweep(l, now);
	if ((b = find_or_add(l, route, major, now)) == NULL)
		return 1000;   /* out of memory: try again in a while */
	if ((wait = wait_of(l, b, exempt, now)) != 0)
		return wait;
	for (size_t i = 0; i < l->n; i++) {
		struct bucket *p = &l->b[i];

		if (!peer(b, p) || !p->known)
			continue;
		if (now >= p->reset_at)
			p->remaining = p->limit;
		p->remaining--;
	}
	b->inflight = true;
	b->last_used = now;
	if (!exempt) {
		l->ring[l->ring_at] = now;
		l->ring_at = (l->ring_at + 1) % (size_t)l->per_s;
		if (l->ring_n < (size_t)l->per_s)
			l->ring_n++;
	}
	return 0;
}

void
discord_limit_release(struct discord_limit *l, const char *route, const char *major, long status,
                      const struct discord_limit_hdr *h, int64_t now)
{
	struct bucket *b = find(l, route, major);
	int64_t retry;

	if (b == NULL)
		return;
	b->inflight = false;
	b->last_used = now;
	if (h != NULL && h->bucket[0] != '\0')
		snprintf(b->hash, sizeof b->hash, "%s", h->bucket);
	if (h != NULL && h->has_bucket) {
		for (size_t i = 0; i < l->n; i++) {
			struct bucket *p = &l->b[i];

			if (!peer(b, p))
				continue;
			p->known = true;
			p->limit = h->limit;
			p->remaining = h->remaining;
			/* a server's word, up to an hour: a week's reset would silence the bot */
			p->reset_at = now + (h->reset_after_ms < DISCORD_RETRY_MAX_MS ? h->reset_after_ms : DISCORD_RETRY_MAX_MS) +
			              MARGIN_MS;
		}
	}
	if (status != 429)
		return;
	/* rate-limits.mdx: wait retry_after; a global one holds every request back */
	retry = h != NULL && h->retry_after_ms >= 0 ? h->retry_after_ms : 1000;
	/* up to an hour: a server asking for 7 days is not obeyed for 7 days */
	if (retry > DISCORD_RETRY_MAX_MS)
		retry = DISCORD_RETRY_MAX_MS;
	retry += MARGIN_MS;
	if (h != NULL && h->global) {
		if (now + retry > l->global_until)
			l->global_until = now + retry;
		return;
	}
	for (size_t i = 0; i < l->n; i++)
		if (peer(b, &l->b[i]) && now + retry > l->b[i].blocked_until)
			l->b[i].blocked_until = now + retry;
}
