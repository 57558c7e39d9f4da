/* ws.c: the Gateway's WebSocket: libwebsockets serviced in its own thread, queues both ways, an eventfd to the loop. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "adapter.h"
#include "fifo.h"
#include "loop.h"
#include "lwsserve.h"
#include "secret.h"
#include "serve.h"
#include "wakefd.h"
#include "ws.h"
#include "xmalloc.h"

/* A command to the thread, or an event from it. */
struct item {
	struct fifo_link link;  /* first: the queues are fifos */
	int kind;              /* CMD_* or DISCORD_WS_* */
	unsigned gen;          /* the connection it is about */
	int code;
	char *text;            /* CONNECT: url; SEND: LWS_PRE bytes then the message; events: the text */
	size_t len;
};

enum { CMD_CONNECT = 100, CMD_SEND, CMD_CLOSE };

/* One libwebsockets connection. Kept on the thread's list until both it is
 * gone for us and libwebsockets has destroyed its wsi, so that no callback
 * ever sees freed memory. */
struct conn {
	struct discord_ws *w;
	struct lws *wsi;       /* NULL once libwebsockets destroyed it */
	unsigned gen;
	bool gone;             /* replaced or reported closed: nothing more is said of it */
	bool open;
	int close_code;        /* ours, to send once writable */
	int peer_code;         /* theirs, from the close frame */
	struct fifo out;
	size_t nout;           /* bytes in out */
	char *rx;
	size_t nrx;
	bool rx_too_big;
	struct conn *next;
};

struct discord_ws {
	struct loop *loop;
	discord_ws_fn *fn;
	void *ctx;
	int efd;
	bool delivering;       /* inside on_events: a free waits for its end */
	bool free_later;
	bool closing;          /* main thread: a close was asked of the current connection, not reported yet */
	unsigned gen;          /* main thread: the current connection's */

	struct serve *thread;
	pthread_mutex_t lock;
	struct fifo cmds;     /* main -> thread */
	struct fifo evs;      /* thread -> main */
	size_t cmds_bytes, evs_bytes;   /* what each holds, capped at DISCORD_WS_MAX_QUEUE */

	/* the thread's own */
	struct lws_context *lws;
	struct conn *conns;    /* every connection not yet freed */
	struct conn *cur;
};

/* ------------------------------------------------------------------ queues */

static struct item *
item_next(const struct item *it)
{
	return (struct item *)it->link.next;
}

static void
q_push(struct fifo *q, struct item *it)
{
	fifo_push(q, &it->link);
}

static struct item *
q_take_all(struct fifo *q)
{
	return (struct item *)fifo_take_all(q);
}

static void
item_free(struct item *it)
{
	if (it->text != NULL && it->kind == CMD_SEND)
		/* a gateway payload may hold the token */
		secret_wipe(it->text, it->len + LWS_PRE);
	free(it->text);
	free(it);
}

static void
items_free(struct item *it)
{
	while (it != NULL) {
		struct item *n = item_next(it);

		item_free(it);
		it = n;
	}
}

static struct item *
item_new(int kind, unsigned gen, int code, const char *text, size_t len, size_t pre)
{
	struct item *it = xcalloc(1, sizeof *it);

	it->kind = kind;
	it->gen = gen;
	it->code = code;
	if (text != NULL) {
		it->text = xmalloc(pre + len + 1);
		memcpy(it->text + pre, text, len);
		it->text[pre + len] = '\0';
		it->len = len;
	}
	return it;
}

/* ------------------------------------------------------------------ thread -> main */

/* Thread side: hands an event to the loop; false (nothing queued) if a
 * message of len would take the queue past DISCORD_WS_MAX_QUEUE bytes: the
 * loop has fallen that far behind the gateway (a hostile one's big
 * dispatches once grew the daemon past 500 MiB in 30 s). */
static bool
post_capped(struct discord_ws *w, int kind, unsigned gen, int code, const char *text, size_t len)
{
	struct item *it;

	pthread_mutex_lock(&w->lock);
	if (kind == DISCORD_WS_TEXT && w->evs_bytes + len > DISCORD_WS_MAX_QUEUE) {
		pthread_mutex_unlock(&w->lock);
		return false;
	}
	w->evs_bytes += len;
	pthread_mutex_unlock(&w->lock);
	it = item_new(kind, gen, code, text, len, 0);
	pthread_mutex_lock(&w->lock);
	q_push(&w->evs, it);
	pthread_mutex_unlock(&w->lock);
	wakefd_ring(w->efd);
	return true;
}

/* The same for what is small and must be said (open, closed, a log line). */
static void
post(struct discord_ws *w, int kind, unsigned gen, int code, const char *text, size_t len)
{
	(void)post_capped(w, kind, gen, code, text, len);
}

static void post_log(struct discord_ws *w, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
post_log(struct discord_ws *w, int level, const char *fmt, ...)
{
	char line[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	post(w, DISCORD_WS_LOG, 0, level, line, strlen(line));
}

static void ws_destroy(struct discord_ws *w);

/* Main side: delivers the events of the current connection. */
static void
on_events(struct loop *l, int fd, int mask, void *data)
{
	struct discord_ws *w = data;
	struct item *it, *next;

	(void)l;
	(void)mask;
	wakefd_drain(fd);
	pthread_mutex_lock(&w->lock);
	it = q_take_all(&w->evs);
	w->evs_bytes = 0;
	pthread_mutex_unlock(&w->lock);
	w->delivering = true;
	for (; it != NULL; it = next) {
		next = item_next(it);
		/* the callback may replace the connection (gen) or free us: check each time */
		if (it->kind == DISCORD_WS_CLOSED && it->gen == w->gen)
			w->closing = false;
		if (!w->free_later && (it->kind == DISCORD_WS_LOG || it->gen == w->gen))
			w->fn(w->ctx, (enum discord_ws_ev)it->kind, it->code, it->text != NULL ? it->text : "", it->len);
		item_free(it);
	}
	w->delivering = false;
	if (w->free_later)
		ws_destroy(w);
}

/* ------------------------------------------------------------------ main -> thread */

static int
command(struct discord_ws *w, int kind, int code, const char *text, size_t len, size_t pre)
{
	struct item *it;

	pthread_mutex_lock(&w->lock);
	/* the thread has stopped taking them: refused, never piled up */
	if (kind == CMD_SEND && w->cmds_bytes + len > DISCORD_WS_MAX_QUEUE) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	w->cmds_bytes += len;
	pthread_mutex_unlock(&w->lock);
	it = item_new(kind, w->gen, code, text, len, pre);
	pthread_mutex_lock(&w->lock);
	q_push(&w->cmds, it);
	pthread_mutex_unlock(&w->lock);
	lws_cancel_service(w->lws);
	return 0;
}

/* ------------------------------------------------------------------ the thread */

int
discord_ws_parse_url(const char *url, bool *tls, char *host, size_t hostlen, int *port, char *path, size_t pathlen)
{
	char buf[1024];
	const char *prot, *ads, *p;
	int w;

	if (strlen(url) >= sizeof buf || strpbrk(url, " \t\r\n") != NULL)
		return -1;
	snprintf(buf, sizeof buf, "%s", url);
	if (lws_parse_uri(buf, &prot, &ads, port, &p) != 0)
		return -1;
	if (strcmp(prot, "wss") == 0)
		*tls = true;
	else if (strcmp(prot, "ws") == 0)
		*tls = false;
	else
		return -1;
	if (ads[0] == '\0' || ads[0] == '+' || *port <= 0 || *port > 65535)
		return -1;
	w = snprintf(host, hostlen, "%s", ads);
	if (w < 0 || (size_t)w >= hostlen)
		return -1;
	/* lws_parse_uri drops the path's leading '/' */
	w = snprintf(path, pathlen, "/%s", p);
	return w < 0 || (size_t)w >= pathlen ? -1 : 0;
}

static void
conn_drop(struct conn *c)
{
	c->gone = true;
	items_free(q_take_all(&c->out));
	c->nout = 0;
	free(c->rx);
	c->rx = NULL;
	c->nrx = 0;
}

/* Reports c closed (once) and forgets it as the current connection. */
static void
conn_closed(struct discord_ws *w, struct conn *c, int code, const char *why)
{
	if (c->gone)
		return;
	post(w, DISCORD_WS_CLOSED, c->gen, code, why, strlen(why));
	conn_drop(c);
	if (w->cur == c)
		w->cur = NULL;
}

/* Frees the connections that are done with on both sides. */
static void
conns_sweep(struct discord_ws *w, bool all)
{
	for (struct conn **p = &w->conns; *p != NULL;) {
		struct conn *c = *p;

		if (all || (c->gone && c->wsi == NULL)) {
			*p = c->next;
			conn_drop(c);
			if (c->wsi != NULL)
				lws_set_wsi_user(c->wsi, NULL);
			free(c);
		} else
			p = &c->next;
	}
}

static void
t_connect(struct discord_ws *w, struct item *it)
{
	struct lws_client_connect_info i;
	char host[256], path[768];
	struct conn *c;
	bool tls;
	int port;

	if (w->cur != NULL) {
		/* replaced: dropped without a word (the gateway asked to close it first, or gave up on that) */
		struct conn *old = w->cur;

		conn_drop(old);
		w->cur = NULL;
		if (old->wsi != NULL)
			lws_set_timeout(old->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	}
	if (discord_ws_parse_url(it->text, &tls, host, sizeof host, &port, path, sizeof path) < 0) {
		post(w, DISCORD_WS_CLOSED, it->gen, 0, "not a ws:// or wss:// URL", 25);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->w = w;
	c->gen = it->gen;
	c->next = w->conns;
	w->conns = c;
	w->cur = c;
	memset(&i, 0, sizeof i);
	i.context = w->lws;
	i.address = host;
	i.port = port;
	i.path = path;
	i.host = host;
	i.origin = host;
	i.ssl_connection = tls ? LCCSCF_USE_SSL : 0;
	/* no subprotocol; plain HTTP/1.1 for the Upgrade */
	i.protocol = NULL;
	i.local_protocol_name = "discord-gateway";
	i.alpn = "http/1.1";
	i.userdata = c;
	i.pwsi = &c->wsi;
	if (lws_client_connect_via_info(&i) == NULL) {
		/* libwebsockets set c->wsi back to NULL: nothing of it is left */
		c->wsi = NULL;
		conn_closed(w, c, 0, "could not start the connection");
	}
}

static void
t_command(struct discord_ws *w, struct item *it)
{
	struct conn *c = w->cur;

	switch (it->kind) {
	case CMD_CONNECT:
		t_connect(w, it);
		break;
	case CMD_SEND:
		if (c == NULL || c->gone || it->gen != c->gen)
			break;
		if (c->nout + it->len > DISCORD_WS_MAX_QUEUE) {
			/* the socket takes nothing more: a link this stuck is closed */
			conn_closed(w, c, 0, "the gateway takes nothing more");
			if (c->wsi != NULL)
				lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
			break;
		}
		c->nout += it->len;
		q_push(&c->out, it);
		it = NULL;
		break;
	case CMD_CLOSE:
		if (c == NULL || c->gone || it->gen != c->gen)
			break;
		c->close_code = it->code;
		if (!c->open) {
			/* still connecting: nothing to say goodbye on */
			conn_closed(w, c, 0, "closed while connecting");
			if (c->wsi != NULL)
				lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
		}
		break;
	}
	if (it != NULL)
		item_free(it);
}

static const struct lws_protocols protocols[];

/* long: one case per libwebsockets callback reason, each a few lines that
 * read and write the same connection; split, the protocol's order scatters. */
static int
on_lws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct lws_context *ctx = lws_get_context(wsi);
	struct discord_ws *w = lws_context_user(ctx);
	struct conn *c = lws_wsi_user(wsi);
	struct item *cmds, *next, *m;

	(void)user;
	switch (reason) {
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		pthread_mutex_lock(&w->lock);
		cmds = q_take_all(&w->cmds);
		w->cmds_bytes = 0;
		pthread_mutex_unlock(&w->lock);
		for (; cmds != NULL; cmds = next) {
			next = item_next(cmds);
			t_command(w, cmds);
		}
		conns_sweep(w, false);
		if (w->cur != NULL && w->cur->open && !w->cur->gone)
			/* a send or a close is waiting for the socket */
			lws_callback_on_writable_all_protocol(ctx, &protocols[0]);
		break;

	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		if (c == NULL || c->gone)
			return -1;
		c->open = true;
		post(w, DISCORD_WS_OPEN, c->gen, 0, NULL, 0);
		lws_callback_on_writable(wsi);
		break;

	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (c == NULL || c->gone)
			return -1;
		if (lws_frame_is_binary(wsi)) {
			/* JSON encoding only: binary frames are not ours */
			c->rx_too_big = true;
		} else if (!c->rx_too_big) {
			if (c->nrx + len > DISCORD_WS_MAX_MSG) {
				c->rx_too_big = true;
			} else {
				c->rx = xrealloc(c->rx, c->nrx + len + 1);
				memcpy(c->rx + c->nrx, in, len);
				c->nrx += len;
			}
		}
		if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
			if (c->rx_too_big)
				post_log(w, LOG_LVL_WARNING, "gateway: a message over %u bytes or in binary was dropped",
				         DISCORD_WS_MAX_MSG);
			else if (!post_capped(w, DISCORD_WS_TEXT, c->gen, 0, c->rx != NULL ? c->rx : "", c->nrx)) {
				/* the loop is behind: the link goes (a Resume replays what
				 * was lost), the daemon does not grow */
				post_log(w, LOG_LVL_WARNING, "gateway: over %u bytes waiting for the loop: link closed",
				         DISCORD_WS_MAX_QUEUE);
				lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, NULL, 0);
				conn_closed(w, c, 0, "the daemon fell behind the gateway");
				return -1;
			}
			free(c->rx);
			c->rx = NULL;
			c->nrx = 0;
			c->rx_too_big = false;
		}
		break;

	case LWS_CALLBACK_CLIENT_WRITEABLE:
		if (c == NULL || c->gone)
			return -1;
		if (c->close_code != 0) {
			lws_close_reason(wsi, (enum lws_close_status)c->close_code, NULL, 0);
			/* our own close: report it now with our code (the peer's echo is not waited for) */
			conn_closed(w, c, c->close_code, "closed by us");
			return -1;
		}
		if ((m = (struct item *)fifo_pop(&c->out)) != NULL) {
			c->nout -= m->len;
			if (lws_write(wsi, (unsigned char *)m->text + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len) {
				item_free(m);
				conn_closed(w, c, 0, "write failed");
				return -1;
			}
			item_free(m);
			if (c->out.head != NULL)
				lws_callback_on_writable(wsi);
		}
		break;

	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (c != NULL && len >= 2) {
			const unsigned char *p = in;

			c->peer_code = p[0] << 8 | p[1];
		}
		break;

	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		if (c != NULL) {
			char why[200];

			snprintf(why, sizeof why, "%s", in != NULL ? (const char *)in : "connection failed");
			conn_closed(w, c, 0, why);
		}
		break;

	case LWS_CALLBACK_CLIENT_CLOSED:
		if (c != NULL)
			conn_closed(w, c, c->peer_code, c->peer_code != 0 ? "closed by the server" : "connection lost");
		break;

	case LWS_CALLBACK_WSI_DESTROY:
		if (c != NULL) {
			conn_closed(w, c, c->peer_code, "connection lost");
			c->wsi = NULL;
			lws_set_wsi_user(wsi, NULL);
		}
		break;

	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "discord-gateway", on_lws, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

/* ------------------------------------------------------------------ public */

struct discord_ws *
discord_ws_new(struct loop *l, const char *ca_file, discord_ws_fn *fn, void *ctx, char *err, size_t errlen)
{
	struct discord_ws *w = xcalloc(1, sizeof *w);
	struct lws_context_creation_info info;

	w->loop = l;
	w->fn = fn;
	w->ctx = ctx;
	pthread_mutex_init(&w->lock, NULL);
	if ((w->efd = wakefd_open()) < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		goto fail;
	}
	lwsserve_log();
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.fd_limit_per_thread = 16;
	info.user = w;
	if (ca_file != NULL && ca_file[0] != '\0')
		info.client_ssl_ca_filepath = ca_file;
	if ((w->lws = lws_create_context(&info)) == NULL) {
		snprintf(err, errlen, "libwebsockets: cannot create a context");
		goto fail;
	}
	if (loop_watch(l, w->efd, LOOP_READ, on_events, w) < 0) {
		snprintf(err, errlen, "cannot watch the WebSocket thread's eventfd");
		goto fail;
	}
	if ((w->thread = lwsserve_start(w->lws)) == NULL) {
		loop_unwatch(l, w->efd);
		snprintf(err, errlen, "cannot start the WebSocket thread");
		goto fail;
	}
	return w;
fail:
	if (w->lws != NULL)
		lws_context_destroy(w->lws);
	if (w->efd >= 0)
		close(w->efd);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return NULL;
}

int
discord_ws_connect(struct discord_ws *w, const char *url)
{
	bool tls;
	char host[256], path[768];
	int port;

	if (discord_ws_parse_url(url, &tls, host, sizeof host, &port, path, sizeof path) < 0)
		return -1;
	w->gen++;
	w->closing = false;
	return command(w, CMD_CONNECT, 0, url, strlen(url), 0);
}

int
discord_ws_send(struct discord_ws *w, const char *text, size_t len)
{
	return command(w, CMD_SEND, 0, text, len, LWS_PRE);
}

void
discord_ws_close(struct discord_ws *w, int code)
{
	w->closing = true;
	command(w, CMD_CLOSE, code, NULL, 0, 0);
}

/* True once the thread has reported the current connection closed. */
static bool
closed_reported(struct discord_ws *w)
{
	bool done = false;

	pthread_mutex_lock(&w->lock);
	for (struct item *it = (struct item *)w->evs.head; it != NULL && !done; it = item_next(it))
		done = it->kind == DISCORD_WS_CLOSED && it->gen == w->gen;
	pthread_mutex_unlock(&w->lock);
	return done;
}

static void
ws_destroy(struct discord_ws *w)
{
	/* A close asked just before (the bot stopping): give the thread a moment
	 * to send the close frame, so that Discord ends the session at once and
	 * the bot shows offline, rather than after the session times out. */
	for (int waited = 0; w->closing && waited < DISCORD_WS_LINGER_MS && !closed_reported(w); waited += 10) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	serve_stop(w->thread);
	/* the thread is gone: destroying the context closes what is open (its callbacks run here) */
	lws_context_destroy(w->lws);
	conns_sweep(w, true);
	loop_unwatch(w->loop, w->efd);
	close(w->efd);
	items_free(q_take_all(&w->cmds));
	items_free(q_take_all(&w->evs));
	pthread_mutex_destroy(&w->lock);
	free(w);
}

void
discord_ws_free(struct discord_ws *w)
{
	if (w == NULL)
		return;
	if (w->delivering) {
		/* from inside the callback: done once the delivery loop ends */
		w->free_later = true;
		return;
	}
	ws_destroy(w);
}
