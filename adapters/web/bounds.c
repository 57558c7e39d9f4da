/* bounds.c: web_bounds: the web server's connections counted in all and per address (with their WebSockets and their unfinished headers), and a new one admitted or not. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "web.h"
#include "xmalloc.h"

static int
addr_slot(struct web_bounds *s, const char *addr, bool create)
{
	size_t i;

	for (i = 0; i < s->naddrs; i++)
		if (strcmp(s->addrs[i].addr, addr) == 0)
			return (int)i;
	if (!create)
		return -1;
	for (i = 0; i < s->naddrs; i++)
		if (s->addrs[i].n == 0)
			break;
	if (i == s->naddrs) {
		if (s->naddrs == s->addrs_cap) {
			s->addrs_cap = s->addrs_cap ? 2 * s->addrs_cap : 64;
			s->addrs = xrealloc(s->addrs, s->addrs_cap * sizeof *s->addrs);
		}
		s->naddrs++;
	}
	memset(&s->addrs[i], 0, sizeof s->addrs[i]);
	snprintf(s->addrs[i].addr, sizeof s->addrs[i].addr, "%s", addr);
	return (int)i;
}

static void
peer_addr(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	snprintf(buf, len, "?");
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0)
		return;
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, buf, (socklen_t)len);
	else if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, buf, (socklen_t)len);
}

bool
web_bounds_admit(struct web_bounds *s, int fd, long max_conns, long max_per_addr)
{
	char addr[64];
	int slot;

	peer_addr(fd, addr, sizeof addr);
	slot = addr_slot(s, addr, true);
	if ((long)s->total >= max_conns || s->addrs[slot].n >= max_per_addr) {
		s->pending_slot = -1;
		return false;
	}
	s->pending_slot = slot;
	return true;
}

static struct web_bounds_wsi *
counted_find(struct web_bounds *s, const struct lws *wsi)
{
	size_t i;

	for (i = 0; i < s->ncounted; i++)
		if (s->counted[i].wsi == wsi)
			return &s->counted[i];
	return NULL;
}

static void
wait_set(struct web_bounds *s, struct web_bounds_wsi *c, bool waits, int64_t now_ms)
{
	if (waits == (c->waiting != 0))
		return;
	if (waits) {
		c->waiting = ++s->next_wait;
		c->since_ms = now_ms;
		s->addrs[c->slot].unfinished++;
	} else {
		c->waiting = 0;
		s->addrs[c->slot].unfinished--;
	}
}

void
web_bounds_count(struct web_bounds *s, struct lws *wsi, int64_t now_ms)
{
	struct web_bounds_wsi *c;

	if (s->pending_slot < 0)
		return;
	if (s->ncounted == s->counted_cap) {
		s->counted_cap = s->counted_cap ? 2 * s->counted_cap : 256;
		s->counted = xrealloc(s->counted, s->counted_cap * sizeof *s->counted);
	}
	c = &s->counted[s->ncounted++];
	memset(c, 0, sizeof *c);
	c->wsi = wsi;
	c->slot = s->pending_slot;
	s->addrs[s->pending_slot].n++;
	s->total++;
	s->pending_slot = -1;
	wait_set(s, c, true, now_ms);
}

void
web_bounds_uncount(struct web_bounds *s, struct lws *wsi)
{
	struct web_bounds_wsi *c = counted_find(s, wsi);

	if (c == NULL)
		return;
	wait_set(s, c, false, 0);
	if (c->socket)
		s->addrs[c->slot].sockets--;
	s->addrs[c->slot].n--;
	s->total--;
	*c = s->counted[--s->ncounted];
}

void
web_bounds_headers(struct web_bounds *s, struct lws *wsi, bool done, int64_t now_ms)
{
	struct web_bounds_wsi *c = counted_find(s, wsi);

	if (c != NULL)
		wait_set(s, c, !done, now_ms);
}

bool
web_bounds_socket(struct web_bounds *s, struct lws *wsi, long max_per_addr)
{
	struct web_bounds_wsi *c = counted_find(s, wsi);

	if (c == NULL || (!c->socket && s->addrs[c->slot].sockets >= max_per_addr))
		return false;
	if (!c->socket) {
		c->socket = true;
		s->addrs[c->slot].sockets++;
	}
	return true;
}

bool
web_bounds_over_share(const struct web_bounds *s)
{
	size_t i;

	for (i = 0; i < s->naddrs; i++)
		if (s->addrs[i].unfinished > WEB_HEADER_SHARE)
			return true;
	return false;
}

size_t
web_bounds_past_share(struct web_bounds *s, int64_t now_ms, struct lws **out, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->ncounted && n < max; i++) {
		struct web_bounds_wsi *c = &s->counted[i];
		int older = 0;

		if (c->waiting == 0 || s->addrs[c->slot].unfinished <= WEB_HEADER_SHARE ||
		    now_ms - c->since_ms < WEB_HEADER_GRACE)
			continue;
		/* its rank among its address's waiting ones, the oldest first */
		for (j = 0; j < s->ncounted && older < WEB_HEADER_SHARE; j++)
			older += s->counted[j].slot == c->slot && s->counted[j].waiting != 0 &&
			         s->counted[j].waiting < c->waiting;
		if (older < WEB_HEADER_SHARE)
			continue;
		wait_set(s, c, false, now_ms);
		out[n++] = c->wsi;
	}
	return n;
}

void
web_bounds_init(struct web_bounds *s)
{
	memset(s, 0, sizeof *s);
	s->pending_slot = -1;
}

void
web_bounds_free(struct web_bounds *s)
{
	free(s->addrs);
	free(s->counted);
}
