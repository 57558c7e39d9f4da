/* server.c: the web table's HTTP and WebSocket server: libwebsockets in its own thread, queues both ways. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "adapter.h"
#include "list.h"
#include "lwsserve.h"
#include "serve.h"
#include "wakefd.h"
#include "web.h"
#include "xmalloc.h"

#define SRV_PROTOCOL   "handfoot-1"    /* the WebSocket subprotocol: the message format's version */
#define SRV_CHUNK      4096            /* an HTTP body goes out in pieces this big */
#define SRV_ANSWERS    4               /* answers waiting for one socket, at most */
#define SRV_ACTS       4               /* actions of one socket not answered yet, at most */

/* One open WebSocket. */
struct conn {
	struct lws *wsi;
	uint64_t id;
	int64_t table;
	int seat;
	uint8_t hash[WEB_HASH_BYTES];
	struct web_blob *view;     /* the newest view not sent yet: an older one is dropped for it */
	int story_round;           /* the story sent so far: its round (-1: none yet) and lines */
	unsigned story_upto;
	struct web_blob *answers[SRV_ANSWERS];
	int nanswers;
	int acts;                  /* sent to the loop, not answered yet */
	time_t want_since;         /* something has waited since (0: nothing waits) */
	bool closing;              /* close once what waits is sent */
	int close_code;
	char close_why[64];
	char *rx;
	size_t nrx;
	bool rx_bad;
	struct conn *prev, *next;
};

struct web_server {
	struct web *w;
	struct serve *thread;
	struct lws_context *ctx;
	int port;
	/* the thread's own */
	struct conn *conns;
	size_t nconns;
	uint64_t next_id;
	struct web_bounds bounds;  /* connections in all and per address */
	lws_sorted_usec_list_t sweep;  /* closes connections past their address's share of headers */
	bool sweeping;
};

struct http_pss {
	struct web_reply rep;
	size_t off;
	bool active;
};

struct ws_pss {
	struct conn *c;
	int64_t table;
	int seat;
	uint8_t hash[WEB_HASH_BYTES];
	bool ok;
};

/* ------------------------------------------------------------------ talking to the loop */

static void
srv_post(struct web_server *s, struct web_item *it)
{
	pthread_mutex_lock(&s->w->lock);
	web_queue_push(&s->w->to_loop, it);
	pthread_mutex_unlock(&s->w->lock);
	wakefd_ring(s->w->efd);
}

static void srv_log(struct web_server *s, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void
srv_log(struct web_server *s, int level, const char *fmt, ...)
{
	struct web_item *it = xcalloc(1, sizeof *it);
	char line[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	it->kind = WEB_IT_LOG;
	it->code = level;
	it->text = xstrdup(line);
	srv_post(s, it);
}

static int64_t
srv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ the header pool, shared */

static void srv_sweep_arm(struct web_server *s);

/* Every second while an address holds more than its share of connections
 * whose headers are unfinished: those past the share, past their grace, closed. */
static void
srv_sweep(lws_sorted_usec_list_t *sul)
{
	struct web_server *s = lws_container_of(sul, struct web_server, sweep);
	struct lws *past[64];
	size_t i, n;

	s->sweeping = false;
	do {
		n = web_bounds_past_share(&s->bounds, srv_now_ms(), past, sizeof past / sizeof past[0]);
		for (i = 0; i < n; i++)
			lws_set_timeout(past[i], PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
		if (n > 0)
			srv_log(s, LOG_LVL_INFO, "%zu connections dropped: their address held more than %d with their "
			        "request headers unfinished", n, WEB_HEADER_SHARE);
	} while (n == sizeof past / sizeof past[0]);
	srv_sweep_arm(s);
}

static void
srv_sweep_arm(struct web_server *s)
{
	if (s->sweeping || !web_bounds_over_share(&s->bounds))
		return;
	s->sweeping = true;
	lws_sul_schedule(s->ctx, 0, &s->sweep, srv_sweep, LWS_US_PER_SEC);
}

/* The connection's request headers are whole, or (done false) it waits for the next request's. */
static void
srv_headers(struct web_server *s, struct lws *wsi, bool done)
{
	web_bounds_headers(&s->bounds, wsi, done, srv_now_ms());
	srv_sweep_arm(s);
}

/* ------------------------------------------------------------------ sockets */

static void
conn_want(struct conn *c)
{
	if (c->want_since == 0)
		c->want_since = time(NULL);
	lws_callback_on_writable(c->wsi);
}

static void
conn_close(struct conn *c, int code, const char *why)
{
	if (c->closing)
		return;
	c->closing = true;
	c->close_code = code;
	snprintf(c->close_why, sizeof c->close_why, "%s", why);
	conn_want(c);
}

/* A slow reader: what waits for it has waited too long. */
static bool
conn_slow(struct web_server *s, struct conn *c)
{
	if (c->want_since == 0 || time(NULL) - c->want_since <= s->w->conf.slow_s)
		return false;
	/* no goodbye: it would wait behind the same full pipe */
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	c->closing = true;
	srv_log(s, LOG_LVL_INFO, "a slow reader dropped: a socket of table %lld took no update for %ld s",
	        (long long)c->table, (long)(time(NULL) - c->want_since));
	return true;
}

/* Under the lock: c is to send view (replacing an older one not sent). */
static void
conn_view(struct conn *c, struct web_blob *view)
{
	web_blob_unref(c->view);
	c->view = web_blob_ref(view);
}

static struct conn *
conn_new(struct web_server *s, struct lws *wsi, const struct ws_pss *p)
{
	struct conn *c = xcalloc(1, sizeof *c);
	struct web_table *t;

	c->wsi = wsi;
	c->story_round = -1;
	c->id = ++s->next_id;
	c->table = p->table;
	c->seat = p->seat;
	memcpy(c->hash, p->hash, sizeof c->hash);
	LIST_PUSH(s->conns, c);
	s->nconns++;
	pthread_mutex_lock(&s->w->lock);
	t = web_tables_get(&s->w->tables, c->table, false);
	if (t != NULL && c->seat >= -1 && t->view[c->seat + 1] != NULL)
		conn_view(c, t->view[c->seat + 1]);
	pthread_mutex_unlock(&s->w->lock);
	return c;
}

static void
conn_free(struct web_server *s, struct conn *c)
{
	int i;

	LIST_REMOVE(s->conns, c);
	s->nconns--;
	pthread_mutex_lock(&s->w->lock);
	web_blob_unref(c->view);
	for (i = 0; i < c->nanswers; i++)
		web_blob_unref(c->answers[i]);
	pthread_mutex_unlock(&s->w->lock);
	free(c->rx);
	free(c);
}

/* The items the loop sent: views, ends, dead links, answers. */
static void
srv_items(struct web_server *s)
{
	struct web_item *it, *next;
	struct conn *c, *cn;

	pthread_mutex_lock(&s->w->lock);
	it = web_queue_take(&s->w->to_thread);
	pthread_mutex_unlock(&s->w->lock);
	for (; it != NULL; it = next) {
		next = web_item_next(it);
		for (c = s->conns; c != NULL; c = cn) {
			cn = c->next;
			if (c->closing)
				continue;
			switch (it->kind) {
			case WEB_IT_VIEW:
			case WEB_IT_OVER:
				if (c->table != it->table || (it->kind == WEB_IT_VIEW && c->seat != it->seat))
					break;
				if (conn_slow(s, c))
					break;
				if (c->seat == it->seat) {
					pthread_mutex_lock(&s->w->lock);
					conn_view(c, it->blob);
					pthread_mutex_unlock(&s->w->lock);
				}
				if (it->kind == WEB_IT_OVER)
					conn_close(c, LWS_CLOSE_STATUS_NORMAL, it->code && c->seat < 0 ?
					           "the game is over: reload the page for its replay" : "the game is over");
				else
					conn_want(c);
				break;
			case WEB_IT_REVOKE:
				if (web_cap_equal(c->hash, it->hash))
					conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "this link was replaced");
				break;
			case WEB_IT_ANSWER:
				if (c->id != it->conn)
					break;
				if (c->acts > 0)
					c->acts--;
				if (c->nanswers < SRV_ANSWERS) {
					pthread_mutex_lock(&s->w->lock);
					c->answers[c->nanswers++] = web_blob_ref(it->blob);
					pthread_mutex_unlock(&s->w->lock);
					conn_want(c);
				}
				break;
			default:
				break;
			}
		}
		pthread_mutex_lock(&s->w->lock);
		web_blob_unref(it->blob);
		pthread_mutex_unlock(&s->w->lock);
		web_item_free(it);
	}
}

/* A frame from a page, whole. */
static void
conn_frame(struct web_server *s, struct conn *c)
{
	struct web_frame f;
	char why[128];
	struct web_item *it;

	if (web_frame_parse(c->rx != NULL ? c->rx : "", c->nrx, &f, why, sizeof why) < 0) {
		conn_close(c, LWS_CLOSE_STATUS_INVALID_PAYLOAD, "not a frame of this page");
		return;
	}
	if (f.type == WEB_FRAME_PING)
		return;
	if (c->seat < 0) {
		/* a spectator's page never acts: only a seat's link does */
		conn_close(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "a spectator's page cannot play");
		return;
	}
	if (c->acts >= SRV_ACTS)
		return;
	c->acts++;
	it = xcalloc(1, sizeof *it);
	it->kind = WEB_IT_ACT;
	it->table = c->table;
	it->seat = c->seat;
	it->conn = c->id;
	it->text = xstrdup(f.cmd);
	srv_post(s, it);
}

static int
conn_write(struct web_server *s, struct conn *c)
{
	struct web_blob *b = NULL;
	const struct web_blob *send;
	int i, r;

	pthread_mutex_lock(&s->w->lock);
	if (c->view != NULL) {
		b = c->view;
		c->view = NULL;
	} else if (c->nanswers > 0) {
		b = c->answers[0];
		for (i = 1; i < c->nanswers; i++)
			c->answers[i - 1] = c->answers[i];
		c->nanswers--;
	}
	pthread_mutex_unlock(&s->w->lock);
	if (b == NULL) {
		c->want_since = 0;
		if (c->closing) {
			lws_close_reason(c->wsi, (enum lws_close_status)c->close_code, (unsigned char *)c->close_why,
			                 strlen(c->close_why));
			return -1;
		}
		return 0;
	}
	/* a view: whole the first time, then with only the story's lines this page lacks */
	send = b->story_round >= 0 ? web_view_for(b, c->story_round, c->story_upto) : b;
	r = lws_write(c->wsi, send->data + LWS_PRE, send->len, LWS_WRITE_TEXT);
	if (b->story_round >= 0 && r >= 0) {
		c->story_round = b->story_round;
		c->story_upto = b->story_upto;
	}
	pthread_mutex_lock(&s->w->lock);
	web_blob_unref(b);
	pthread_mutex_unlock(&s->w->lock);
	if (r < 0)
		return -1;
	c->want_since = 0;
	conn_want(c);
	return 0;
}

/* ------------------------------------------------------------------ HTTP */

/* What a GET of the request's path answers, into rep. */
static void
http_route(struct web_server *s, struct lws *wsi, const char *path, struct web_reply *rep)
{
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
		/* only GET: nothing here takes a body */
		web_route(s->w, "\x01", rep);
	else
		web_route(s->w, path, rep);
}

static int
http_begin(struct web_server *s, struct lws *wsi, struct http_pss *p, const char *path)
{
	memset(p, 0, sizeof *p);
	p->active = true;
	http_route(s, wsi, path, &p->rep);
	if (web_answer_head(s->w, wsi, &p->rep))
		return 1;
	lws_callback_on_writable(wsi);
	return 0;
}

/* Before any upgrade: the WebSocket's version 13 only, and never h2c. */
static int
http_upgrade(struct web_server *s, struct lws *wsi, const char *to)
{
	char version[8];

	srv_headers(s, wsi, true);
	if (to != NULL && strcasecmp(to, "h2c") == 0) {
		/* answered as HTTP/1.1, as if it had not asked (RFC 9113 3.1 lets a server ignore it) */
		struct web_reply rep;
		char path[WEB_MAX_FRAME];
		int n = lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI);

		http_route(s, wsi, n > 0 ? path : "/", &rep);
		return web_answer_whole(s->w, wsi, &rep) < 0 ? -1 : 1;
	}
	if (lws_hdr_copy(wsi, version, sizeof version, WSI_TOKEN_VERSION) != 2 || strcmp(version, "13") != 0)
		/* RFC 6455 4.4: 426, naming the version this server speaks */
		return web_answer_version(wsi) < 0 ? -1 : 1;
	return 0;
}

static int
http_body(struct lws *wsi, struct http_pss *p)
{
	unsigned char buf[LWS_PRE + SRV_CHUNK];
	size_t n = p->rep.len - p->off;
	bool last;

	if (!p->active)
		return 0;
	if (n > SRV_CHUNK)
		n = SRV_CHUNK;
	last = p->off + n >= p->rep.len;
	memcpy(buf + LWS_PRE, p->rep.body + p->off, n);
	if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
		return 1;
	p->off += n;
	if (!last) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	p->active = false;
	if (lws_http_transaction_completed(wsi))
		return -1;
	/* kept alive: its next request's headers are unfinished until they come */
	srv_headers(lws_context_user(lws_get_context(wsi)), wsi, false);
	return 0;
}

static void
http_done(struct http_pss *p)
{
	if (p != NULL && p->rep.free_body)
		free((void *)p->rep.body);
	if (p != NULL)
		memset(p, 0, sizeof *p);
}

static int
on_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct web_server *s = lws_context_user(lws_get_context(wsi));
	struct http_pss *p = user;

	switch (reason) {
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
		return web_bounds_admit(&s->bounds, (int)(intptr_t)in, s->w->conf.max_conns, s->w->conf.max_per_addr) ? 0 : 1;
	case LWS_CALLBACK_WSI_CREATE:
		web_bounds_count(&s->bounds, wsi, srv_now_ms());
		srv_sweep_arm(s);
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		web_bounds_uncount(&s->bounds, wsi);
		return 0;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		/* a WebSocket without our subprotocol */
		return 1;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return http_upgrade(s, wsi, in);
	case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
		srv_headers(s, wsi, true);
		return 0;
	case LWS_CALLBACK_HTTP:
		http_done(p);
		return http_begin(s, wsi, p, in != NULL ? (const char *)in : "/");
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return p != NULL ? http_body(wsi, p) : 0;
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
	case LWS_CALLBACK_CLOSED_HTTP:
		http_done(p);
		return 0;
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		srv_items(s);
		return 0;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ------------------------------------------------------------------ WebSocket */

/* Before the upgrade: the page's Origin is ours, and its path a live link. */
static int
ws_filter(struct web_server *s, struct lws *wsi, struct ws_pss *p)
{
	char origin[300], uri[128];
	int n;

	n = lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
	if (n <= 0 || strcasecmp(origin, s->w->conf.origin) != 0) {
		srv_log(s, LOG_LVL_INFO, "a WebSocket from origin \"%.100s\" refused (not %s)", n > 0 ? origin : "",
		        s->w->conf.origin);
		return 1;
	}
	n = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
	if (n <= 0)
		/* a WebSocket over HTTP/2 names its path as :path */
		n = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_HTTP_COLON_PATH);
	if (n != 3 + WEB_TOKEN_CHARS || strncmp(uri, "/t/", 3) != 0 ||
	    web_cap_hash(uri + 3, WEB_TOKEN_CHARS, p->hash) < 0)
		return 1;
	pthread_mutex_lock(&s->w->lock);
	p->ok = web_tables_find(&s->w->tables, p->hash, &p->table, &p->seat) ||
	        web_finished_find(&s->w->fin, p->hash, &p->table, &p->seat) == 1;
	pthread_mutex_unlock(&s->w->lock);
	/* the bounds count sockets too: each is a connection of its own, under its address's */
	if (p->ok && !web_bounds_socket(&s->bounds, wsi, s->w->conf.max_per_addr))
		p->ok = false;
	return p->ok ? 0 : 1;
}

static int
on_ws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct web_server *s = lws_context_user(lws_get_context(wsi));
	struct ws_pss *p = user;
	struct conn *c = p != NULL ? p->c : NULL;

	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return ws_filter(s, wsi, p);
	case LWS_CALLBACK_ESTABLISHED:
		if (p == NULL || !p->ok)
			return -1;
		p->c = c = conn_new(s, wsi, p);
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_REASON_BASE, (int)s->w->conf.idle_s);
		if (c->view != NULL)
			conn_want(c);
		if (c->seat < -1) {
			/* a replay's or a room's page: the loop answers it from the store */
			struct web_item *it = xcalloc(1, sizeof *it);

			it->kind = WEB_IT_ASK;
			it->table = c->table;
			it->seat = c->seat;
			it->conn = c->id;
			srv_post(s, it);
		}
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (c == NULL || c->closing)
			return 0;
		/* a page that speaks is alive */
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_REASON_BASE, (int)s->w->conf.idle_s);
		if (lws_frame_is_binary(wsi)) {
			conn_close(c, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, "frames are text");
			return 0;
		}
		if (c->nrx + len > WEB_MAX_FRAME) {
			conn_close(c, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "a frame is 1024 bytes at most");
			return 0;
		}
		c->rx = xrealloc(c->rx, c->nrx + len + 1);
		memcpy(c->rx + c->nrx, in, len);
		c->nrx += len;
		if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
			conn_frame(s, c);
			free(c->rx);
			c->rx = NULL;
			c->nrx = 0;
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (c == NULL)
			return -1;
		return conn_write(s, c);
	case LWS_CALLBACK_CLOSED:
		if (c != NULL) {
			conn_free(s, c);
			p->c = NULL;
		}
		return 0;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols srv_protocols[] = {
	{ "http", on_http, sizeof(struct http_pss), 0, 0, NULL, 0 },
	{ SRV_PROTOCOL, on_ws, sizeof(struct ws_pss), WEB_MAX_FRAME, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

/* ------------------------------------------------------------------ the thread */

/* Listens, and serves on a thread of its own (lib/lwsserve). */
int
web_server_start(struct web *w, char *err, size_t errlen)
{
	struct web_server *s = xcalloc(1, sizeof *s);
	struct lws_context_creation_info info;
	static const lws_retry_bo_t idle = {
		.secs_since_valid_ping = 30,
		.secs_since_valid_hangup = 70,
	};

	s->w = w;
	web_bounds_init(&s->bounds);
	lwsserve_log();
	memset(&info, 0, sizeof info);
	info.port = w->conf.port;
	info.iface = w->conf.host;
	info.protocols = srv_protocols;
	info.user = s;
	info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND |
	               LWS_SERVER_OPTION_DISABLE_IPV6 * (strchr(w->conf.host, ':') == NULL);
	if (w->conf.cert[0] != '\0') {
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
		info.ssl_cert_filepath = w->conf.cert;
		info.ssl_private_key_filepath = w->conf.key;
		/* HTTP/1.1 only: the socket's upgrade is the plain one every browser and proxy knows */
		info.alpn = "http/1.1";
	}
	/* every input bounded before it is parsed: headers, their pool, idle sockets */
	info.max_http_header_data = 2048;
	/* a header buffer for every connection admitted: no one waits for one;
	 * what one address may hold of them is its share (bounds.c) */
	info.max_http_header_pool2 = (unsigned)(w->conf.max_conns + 16);
	info.timeout_secs = 10;
	info.keepalive_timeout = 10;
	info.fd_limit_per_thread = (unsigned)(w->conf.max_conns + 64);
	info.retry_and_idle_policy = &idle;
	info.server_string = "handfoot";
	if ((s->ctx = lws_create_context(&info)) == NULL) {
		snprintf(err, errlen, "cannot listen on %s:%d (libwebsockets)", w->conf.host, w->conf.port);
		free(s);
		return -1;
	}
	s->port = w->conf.port;
	if (s->port == 0) {
		struct lws_vhost *vh = lws_get_vhost_by_name(s->ctx, "default");

		if (vh != NULL)
			s->port = lws_get_vhost_listen_port(vh);
	}
	w->srv = s;
	if ((s->thread = lwsserve_start(s->ctx)) == NULL) {
		lws_context_destroy(s->ctx);
		w->srv = NULL;
		free(s);
		snprintf(err, errlen, "cannot start the web server's thread");
		return -1;
	}
	return 0;
}

void
web_server_wake(struct web *w)
{
	if (w->srv != NULL)
		lws_cancel_service(w->srv->ctx);
}

int
web_server_port(const struct web *w)
{
	return w->srv != NULL ? w->srv->port : w->conf.port;
}

void
web_server_stop(struct web *w)
{
	struct web_server *s = w->srv;

	if (s == NULL)
		return;
	serve_stop(s->thread);
	lws_context_destroy(s->ctx);
	while (s->conns != NULL)
		conn_free(s, s->conns);
	web_bounds_free(&s->bounds);
	free(s);
	w->srv = NULL;
}
