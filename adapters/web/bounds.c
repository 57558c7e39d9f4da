/* bounds.c: web_bounds: the web server's connections counted in all and per address, and a new one admitted or not. */
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
	snprintf(s->addrs[i].addr, sizeof s->addrs[i].addr, "%s", addr);
	s->addrs[i].n = 0;
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

void
web_bounds_count(struct web_bounds *s, struct lws *wsi)
{
	if (s->pending_slot < 0)
		return;
	if (s->ncounted == s->counted_cap) {
		s->counted_cap = s->counted_cap ? 2 * s->counted_cap : 256;
		s->counted = xrealloc(s->counted, s->counted_cap * sizeof *s->counted);
	}
	s->counted[s->ncounted].wsi = wsi;
	s->counted[s->ncounted].slot = s->pending_slot;
	s->ncounted++;
	s->addrs[s->pending_slot].n++;
	s->total++;
	s->pending_slot = -1;
}

void
web_bounds_uncount(struct web_bounds *s, struct lws *wsi)
{
	size_t i;

	for (i = 0; i < s->ncounted; i++)
		if (s->counted[i].wsi == wsi) {
			s->addrs[s->counted[i].slot].n--;
			s->total--;
			s->counted[i] = s->counted[--s->ncounted];
			return;
		}
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
