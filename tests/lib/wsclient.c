/* wsclient.c: a small blocking WebSocket and HTTP client for end-to-end tests (plain TCP, loopback), able to misbehave on purpose. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wsclient.h"

/* rcvbuf > 0: a slow link's socket: that receive buffer, and segments of
 * an internet path's size rather than loopback's 64 KB (the sender's buffer
 * grows with the segment size: on loopback it would take megabytes of
 * views before it is full), both set before connecting. */
static int
tcp_connect_buf(const char *from, int port, int rcvbuf)
{
	struct sockaddr_in sa, me;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), mss = 1200;

	if (fd < 0)
		return -1;
	if (rcvbuf > 0 && (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf) < 0 ||
	                   setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss) < 0)) {
		close(fd);
		return -1;
	}
	/* from: another loopback address (all of 127/8 is there), a client of its own */
	memset(&me, 0, sizeof me);
	me.sin_family = AF_INET;
	if (from != NULL && (inet_pton(AF_INET, from, &me.sin_addr) != 1 ||
	                     bind(fd, (struct sockaddr *)&me, sizeof me) < 0)) {
		close(fd);
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
tcp_connect(int port)
{
	return tcp_connect_buf(NULL, port, 0);
}

int
wsc_connect_from(const char *from, int port)
{
	return tcp_connect_buf(from, port, 0);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n > 0) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads what comes within ms (until the peer closes, or until stop is seen if not NULL). */
static size_t
read_until(int fd, char *out, size_t len, int ms, const char *stop)
{
	size_t n = 0;
	int64_t end = now_ms() + ms;

	while (n + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = end - now_ms();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		r = read(fd, out + n, len - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		out[n] = '\0';
		if (stop != NULL && strstr(out, stop) != NULL)
			break;
	}
	out[n] = '\0';
	return n;
}

int
wsc_raw(int port, const char *data, size_t n, char *out, size_t len, int ms)
{
	int fd = tcp_connect(port);
	size_t got;

	if (fd < 0)
		return -1;
	write_all(fd, data, n);
	got = read_until(fd, out, len, ms, NULL);
	close(fd);
	return (int)got;
}

int
wsc_http_get(int port, const char *path, const char *extra, char *body, size_t len)
{
	return wsc_http_get_from(NULL, port, path, extra, body, len);
}

int
wsc_http_get_from(const char *from, int port, const char *path, const char *extra, char *body, size_t len)
{
	char req[2048], *resp = malloc(1 << 20), *b;
	int fd = tcp_connect_buf(from, port, 0), status = -1;

	if (body != NULL && len > 0)
		body[0] = '\0';
	if (fd < 0 || resp == NULL) {
		if (fd >= 0)
			close(fd);
		free(resp);
		return -1;
	}
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s\r\n", path, port,
	         extra != NULL ? extra : "");
	if (write_all(fd, req, strlen(req)) == 0) {
		read_until(fd, resp, 1 << 20, 5000, NULL);
		if (sscanf(resp, "HTTP/1.%*d %d", &status) != 1)
			status = -1;
		if ((b = strstr(resp, "\r\n\r\n")) != NULL && body != NULL)
			snprintf(body, len, "%s", b + 4);
	}
	close(fd);
	free(resp);
	return status;
}

int
wsc_open(struct wsc *c, int port, const char *path, const char *origin, const char *proto)
{
	return wsc_open_from(c, NULL, port, path, origin, proto, 0);
}

int
wsc_open_buf(struct wsc *c, int port, const char *path, const char *origin, const char *proto, int rcvbuf)
{
	return wsc_open_from(c, NULL, port, path, origin, proto, rcvbuf);
}

int
wsc_open_from(struct wsc *c, const char *from, int port, const char *path, const char *origin, const char *proto,
              int rcvbuf)
{
	char req[2048], resp[4096], orig[512] = "", pr[256] = "", *end;
	size_t got;

	memset(c, 0, sizeof *c);
	c->fd = tcp_connect_buf(from, port, rcvbuf);
	if (c->fd < 0)
		return -1;
	if (origin != NULL)
		snprintf(orig, sizeof orig, "Origin: %s\r\n", origin);
	if (proto != NULL)
		snprintf(pr, sizeof pr, "Sec-WebSocket-Protocol: %s\r\n", proto);
	snprintf(req, sizeof req,
	         "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
	         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n%s%s\r\n",
	         path, port, orig, pr);
	if (write_all(c->fd, req, strlen(req)) < 0)
		return -1;
	got = read_until(c->fd, resp, sizeof resp, 5000, "\r\n\r\n");
	if (sscanf(resp, "HTTP/1.%*d %d", &c->status) != 1)
		c->status = 0;
	if (c->status != 101 || (end = strstr(resp, "\r\n\r\n")) == NULL) {
		close(c->fd);
		c->fd = -1;
		c->closed = true;
		return -1;
	}
	/* a frame may have come with the answer: by count, not strlen (a
	 * frame's length bytes may be 0, which once lost a view) */
	end += 4;
	c->nin = got - (size_t)(end - resp);
	c->capin = c->nin + 4096;
	c->in = malloc(c->capin);
	memcpy(c->in, end, c->nin);
	return 0;
}

int
wsc_send_frame(struct wsc *c, int opcode, bool fin, const char *payload, size_t n)
{
	unsigned char head[14], mask[4] = { 0x12, 0x34, 0x56, 0x78 };
	size_t h = 0, i;
	char *body;
	int r;

	if (c->fd < 0)
		return -1;
	head[h++] = (unsigned char)((fin ? 0x80 : 0) | (opcode & 15));
	if (n < 126)
		head[h++] = (unsigned char)(0x80 | n);
	else if (n < 65536) {
		head[h++] = 0x80 | 126;
		head[h++] = (unsigned char)(n >> 8);
		head[h++] = (unsigned char)n;
	} else {
		head[h++] = 0x80 | 127;
		for (i = 0; i < 8; i++)
			head[h++] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
	}
	memcpy(head + h, mask, 4);
	h += 4;
	body = malloc(n + 1);
	for (i = 0; i < n; i++)
		body[i] = (char)(payload[i] ^ mask[i & 3]);
	r = write_all(c->fd, head, h) < 0 || write_all(c->fd, body, n) < 0 ? -1 : 0;
	free(body);
	return r;
}

int
wsc_send(struct wsc *c, const char *text)
{
	return wsc_send_frame(c, 1, true, text, strlen(text));
}

/* One whole frame from c->in, if there is one: its opcode, payload and length; 0 if more is needed. */
static int
frame_take(struct wsc *c, int *op, char **payload, size_t *len)
{
	unsigned char *p = (unsigned char *)c->in;
	size_t h = 2, n, i;

	if (c->nin < 2)
		return 0;
	n = p[1] & 0x7f;
	if (n == 126) {
		if (c->nin < 4)
			return 0;
		n = (size_t)p[2] << 8 | p[3];
		h = 4;
	} else if (n == 127) {
		if (c->nin < 10)
			return 0;
		for (n = 0, i = 0; i < 8; i++)
			n = n << 8 | p[2 + i];
		h = 10;
	}
	if (c->nin < h + n)
		return 0;
	*op = p[0] & 15;
	*payload = malloc(n + 1);
	memcpy(*payload, c->in + h, n);
	(*payload)[n] = '\0';
	*len = n;
	memmove(c->in, c->in + h + n, c->nin - h - n);
	c->nin -= h + n;
	return 1;
}

int
wsc_read(struct wsc *c, int ms)
{
	int64_t end = now_ms() + ms;

	for (;;) {
		int op;
		char *pl;
		size_t n;

		while (frame_take(c, &op, &pl, &n)) {
			if (op == 1) {
				if (c->nmsgs == c->capmsgs) {
					c->capmsgs = c->capmsgs ? 2 * c->capmsgs : 64;
					c->msgs = realloc(c->msgs, c->capmsgs * sizeof *c->msgs);
				}
				c->msgs[c->nmsgs++] = pl;
				return 1;
			}
			if (op == 9)
				wsc_send_frame(c, 10, true, pl, n);
			if (op == 8) {
				c->closed = true;
				if (n >= 2) {
					c->close_code = (unsigned char)pl[0] << 8 | (unsigned char)pl[1];
					snprintf(c->close_reason, sizeof c->close_reason, "%.*s", (int)(n - 2), pl + 2);
				}
			}
			free(pl);
			if (c->closed)
				return -1;
		}
		if (c->closed || c->fd < 0)
			return -1;
		{
			struct pollfd p = { .fd = c->fd, .events = POLLIN };
			int64_t left = end - now_ms();
			ssize_t r;

			/* ms 0: what is there already, without waiting */
			if (poll(&p, 1, left > 0 ? (int)left : 0) <= 0)
				return 0;
			if (c->capin - c->nin < 65536) {
				c->capin = c->capin * 2 + 65536;
				c->in = realloc(c->in, c->capin);
			}
			r = read(c->fd, c->in + c->nin, c->capin - c->nin);
			if (r <= 0) {
				c->closed = true;
				return -1;
			}
			c->nin += (size_t)r;
		}
	}
}

const char *
wsc_next(struct wsc *c, int ms)
{
	int64_t end = now_ms() + ms;

	while (c->seen == c->nmsgs) {
		int64_t left = end - now_ms();

		if (left <= 0 || wsc_read(c, (int)left) <= 0)
			if (c->seen == c->nmsgs)
				return NULL;
	}
	return c->msgs[c->seen++];
}

const char *
wsc_wait(struct wsc *c, const char *needle, int ms)
{
	int64_t end = now_ms() + ms;
	const char *m;

	for (;;) {
		int64_t left = end - now_ms();

		if (left <= 0)
			return NULL;
		if ((m = wsc_next(c, (int)left)) == NULL)
			return NULL;
		if (strstr(m, needle) != NULL)
			return m;
	}
}

void
wsc_close(struct wsc *c)
{
	size_t i;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	for (i = 0; i < c->nmsgs; i++)
		free(c->msgs[i]);
	free(c->msgs);
	free(c->in);
	memset(c, 0, sizeof *c);
	c->fd = -1;
}
