/* wsclient.h: a small blocking WebSocket and HTTP client for end-to-end tests (plain TCP, loopback), able to misbehave on purpose. */
#ifndef HF_TEST_WSCLIENT_H
#define HF_TEST_WSCLIENT_H

#include <stdbool.h>
#include <stddef.h>

struct wsc {
	int fd;
	int status;             /* the HTTP status of the upgrade */
	char *in;               /* bytes read, not yet a whole frame */
	size_t nin, capin;
	char **msgs;            /* every text message received, in order */
	size_t nmsgs, capmsgs;
	size_t seen;            /* messages already returned by wsc_next */
	int close_code;         /* the server's close frame's code, 0 none yet */
	char close_reason[128];
	bool closed;            /* a close frame came, or the connection ended */
};

/* GET path on 127.0.0.1:port with extra header lines (each ending "\r\n", or
 * NULL); the body (cut to len) in body.  The HTTP status, or -1. */
int  wsc_http_get(int port, const char *path, const char *extra, char *body, size_t len);
/* The same from the local address from (NULL: any; on loopback, 127.0.0.2 is another client). */
int  wsc_http_get_from(const char *from, int port, const char *path, const char *extra, char *body, size_t len);
/* A TCP connection to 127.0.0.1:port from the local address from: its fd, or -1. */
int  wsc_connect_from(const char *from, int port);
/* Sends raw bytes on a new connection and puts what came back within ms in
 * out (cut to len, NUL-terminated): how many bytes came, -1 if none could connect. */
int  wsc_raw(int port, const char *data, size_t n, char *out, size_t len, int ms);
/* Opens a WebSocket on path with Origin origin (NULL: none) and subprotocol
 * proto: 0 once upgraded, else -1 (c->status holds the HTTP status, 0 if the
 * server just closed). */
int  wsc_open(struct wsc *c, int port, const char *path, const char *origin, const char *proto);
/* The same on a slow link's socket: a receive buffer of rcvbuf bytes (0:
 * the system's, and loopback's segments) and an internet path's segment
 * size, set before connecting: a reader the server can fill quickly. */
int  wsc_open_buf(struct wsc *c, int port, const char *path, const char *origin, const char *proto, int rcvbuf);
/* wsc_open_buf from the local address from (NULL: any). */
int  wsc_open_from(struct wsc *c, const char *from, int port, const char *path, const char *origin, const char *proto,
                   int rcvbuf);
/* A text message (masked, one frame). */
int  wsc_send(struct wsc *c, const char *text);
/* A frame as given: opcode, fin, a payload of n bytes (masked). */
int  wsc_send_frame(struct wsc *c, int opcode, bool fin, const char *payload, size_t n);
/* Reads for up to ms: 1 when a new text message came (it is c->msgs[c->nmsgs - 1]),
 * 0 on timeout, -1 once the connection is closed. Answers pings. */
int  wsc_read(struct wsc *c, int ms);
/* The next message not yet returned, waiting up to ms; NULL if none. */
const char *wsc_next(struct wsc *c, int ms);
/* Waits until a message containing needle comes (up to ms): it, or NULL. */
const char *wsc_wait(struct wsc *c, const char *needle, int ms);
void wsc_close(struct wsc *c);

#endif
