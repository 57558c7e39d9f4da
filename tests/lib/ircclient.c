/* ircclient.c: a scripted, blocking IRC client for end-to-end tests (plain TCP). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ircclient.h"

int64_t
ircclient_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int
ircclient_send_raw(struct ircclient *c, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = send(c->fd, data, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = c->fd, .events = POLLOUT };

			poll(&p, 1, 100);
			if (c->pump != NULL)
				c->pump(c->pump_ctx);
			continue;
		}
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int
ircclient_send(struct ircclient *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 2, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line - 2)
		return -1;
	memcpy(line + n, "\r\n", 2);
	return ircclient_send_raw(c, line, (size_t)n + 2);
}

static void
keep(struct ircclient *c, const char *line)
{
	if (c->nlines == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		char **v = realloc(c->lines, cap * sizeof *v);

		if (v == NULL)
			return;
		c->lines = v;
		c->cap = cap;
	}
	c->lines[c->nlines++] = strdup(line);
}

/* Reads what is available (waiting up to ms); splits lines into c->lines. -1 on EOF. */
static int
read_some(struct ircclient *c, int ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	ssize_t n;
	size_t start = 0;

	if (c->pump != NULL) {
		c->pump(c->pump_ctx);
		ms = ms > 5 ? 5 : ms;
	}
	if (poll(&p, 1, ms) <= 0)
		return 0;
	n = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, 0);
	if (n <= 0)
		return -1;
	c->len += (size_t)n;
	for (size_t i = 0; i < c->len; i++) {
		if (c->buf[i] != '\n')
			continue;
		c->buf[i] = '\0';
		if (i > start && c->buf[i - 1] == '\r')
			c->buf[i - 1] = '\0';
		if (strncmp(c->buf + start, "PING ", 5) == 0) {
			char pong[600];

			snprintf(pong, sizeof pong, "PONG %s\r\n", c->buf + start + 5);
			ircclient_send_raw(c, pong, strlen(pong));
		}
		keep(c, c->buf + start);
		start = i + 1;
	}
	memmove(c->buf, c->buf + start, c->len - start);
	c->len -= start;
	if (c->len == sizeof c->buf - 1)
		c->len = 0;
	return 0;
}

static bool
matches(const char *line, const char *const *subs, int n)
{
	for (int i = 0; i < n; i++)
		if (strstr(line, subs[i]) == NULL)
			return false;
	return true;
}

int
ircclient_wait(struct ircclient *c, int timeout_ms, char *out, size_t outlen, const char *s1, ...)
{
	const char *subs[8];
	int n = 0;
	va_list ap;
	int64_t end = ircclient_now_us() + (int64_t)timeout_ms * 1000;

	subs[n++] = s1;
	va_start(ap, s1);
	while (n < 8 && (subs[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	for (;;) {
		for (; c->seen < c->nlines; c->seen++)
			if (c->lines[c->seen] != NULL && matches(c->lines[c->seen], subs, n)) {
				if (out != NULL)
					snprintf(out, outlen, "%s", c->lines[c->seen]);
				c->seen++;
				return 0;
			}
		if (ircclient_now_us() > end)
			return -1;
		if (read_some(c, 50) != 0)
			return -1;
	}
}

bool
ircclient_saw(const struct ircclient *c, const char *a, const char *b)
{
	for (size_t i = 0; i < c->nlines; i++)
		if (c->lines[i] != NULL && strstr(c->lines[i], a) != NULL && (b == NULL || strstr(c->lines[i], b) != NULL))
			return true;
	return false;
}

bool
ircclient_saw_hand(const struct ircclient *c, const char *nick)
{
	char want[96];

	snprintf(want, sizeof want, "NOTICE %s :Your ", nick);
	return ircclient_saw(c, want, NULL);
}

int
ircclient_drain(struct ircclient *c, int ms)
{
	int64_t end = ircclient_now_us() + (int64_t)ms * 1000;

	while (ircclient_now_us() < end)
		if (read_some(c, 20) != 0)
			return -1;
	return 0;
}

int
ircclient_open_from(struct ircclient *c, int port, const char *nick, const char *from)
{
	struct sockaddr_in sa;
	void (*pump)(void *) = c->pump;
	void *pump_ctx = c->pump_ctx;
	int one = 1;

	memset(c, 0, sizeof *c);
	c->pump = pump;
	c->pump_ctx = pump_ctx;
	snprintf(c->nick, sizeof c->nick, "%s", nick);
	if ((c->fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return -1;
	if (from != NULL) {
		/* another loopback address: to the server, another host */
		memset(&sa, 0, sizeof sa);
		sa.sin_family = AF_INET;
		if (inet_pton(AF_INET, from, &sa.sin_addr) != 1 || bind(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0)
			return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* no Nagle: a line sent right after another must not wait for the
	 * server's delayed ACK (40 ms), which would swamp any latency figure */
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return connect(c->fd, (struct sockaddr *)&sa, sizeof sa) == 0 ? 0 : -1;
}

int
ircclient_open(struct ircclient *c, int port, const char *nick)
{
	return ircclient_open_from(c, port, nick, NULL);
}

int
ircclient_connect(struct ircclient *c, int port, const char *nick)
{
	return ircclient_connect_from(c, port, nick, NULL);
}

int
ircclient_connect_from(struct ircclient *c, int port, const char *nick, const char *from)
{
	if (ircclient_open_from(c, port, nick, from) != 0)
		return -1;
	ircclient_send(c, "NICK %s", nick);
	ircclient_send(c, "USER %s 0 * :test client", nick);
	return ircclient_wait(c, 10000, NULL, 0, " 001 ", NULL);
}

int
ircclient_join(struct ircclient *c, const char *chan)
{
	char want[128];

	ircclient_send(c, "JOIN %s", chan);
	snprintf(want, sizeof want, " %s :", chan);
	return ircclient_wait(c, 10000, NULL, 0, " 366 ", want, NULL);
}

void
ircclient_close(struct ircclient *c)
{
	if (c->fd >= 0) {
		ircclient_send(c, "QUIT :done");
		close(c->fd);
	}
	for (size_t i = 0; i < c->nlines; i++)
		free(c->lines[i]);
	free(c->lines);
	c->lines = NULL;
	c->nlines = c->cap = c->seen = 0;
	c->fd = -1;
}
