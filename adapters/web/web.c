/* web.c: the web table adapter: its section, the views and links the core hands it, actions from pages to the core. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "adapter.h"
#include "loop.h"
#include "rbuf.h"
#include "style.h"
#include "wakefd.h"
#include "web.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ configuration */

/* "host:port", "[v6]:port", or ":port" / "port" (loopback). */
static int
web_listen(struct adapter_cfg *cfg, const char *v, struct web_conf *c, char *err, size_t errlen)
{
	const char *colon = strrchr(v, ':'), *host = v;
	size_t hl;
	char *end;
	long port;

	if (colon == NULL) {
		colon = v - 1;
		host = "127.0.0.1";
		hl = strlen(host);
	} else if (v[0] == '[') {
		host = v + 1;
		hl = (size_t)(colon - v);
		if (hl < 2 || colon[-1] != ']')
			goto bad;
		hl -= 2;
	} else
		hl = (size_t)(colon - v);
	if (hl == 0) {
		host = "127.0.0.1";
		hl = strlen(host);
	}
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (errno != 0 || end == colon + 1 || *end != '\0' || port < 0 || port > 65535 || hl >= sizeof c->host)
		goto bad;
	memcpy(c->host, host, hl);
	c->host[hl] = '\0';
	c->port = (int)port;
	return 0;
bad:
	adapter_cfg_error(cfg, "listen", err, errlen, "\"%s\" is not ADDRESS:PORT (such as 127.0.0.1:8088)", v);
	return -1;
}

/* base_url: http(s)://authority/path/; the origin a page's socket must come from. */
static int
web_base(struct adapter_cfg *cfg, struct web_conf *c, char *err, size_t errlen)
{
	const char *v = adapter_cfg_get(cfg, "base_url", NULL), *auth, *slash;
	size_t n;

	if (v == NULL || v[0] == '\0') {
		bool v6 = strchr(c->host, ':') != NULL;

		snprintf(c->base_url, sizeof c->base_url, "%s://%s%s%s:%d/", c->cert[0] ? "https" : "http", v6 ? "[" : "",
		         c->host, v6 ? "]" : "", c->port);
	} else {
		if (strlen(v) + 2 >= sizeof c->base_url || strpbrk(v, " \t\"'<>\\") != NULL ||
		    (strncasecmp(v, "http://", 7) != 0 && strncasecmp(v, "https://", 8) != 0)) {
			adapter_cfg_error(cfg, "base_url", err, errlen,
			                  "\"%s\" is not an http:// or https:// URL (such as https://cards.example.org/)", v);
			return -1;
		}
		snprintf(c->base_url, sizeof c->base_url, "%s%s", v, v[strlen(v) - 1] == '/' ? "" : "/");
	}
	auth = strstr(c->base_url, "://") + 3;
	slash = strchr(auth, '/');
	n = (size_t)(slash - c->base_url);
	if (slash == auth || n >= sizeof c->origin) {
		adapter_cfg_error(cfg, "base_url", err, errlen, "\"%s\" names no host", c->base_url);
		return -1;
	}
	memcpy(c->origin, c->base_url, n);
	c->origin[n] = '\0';
	return 0;
}

static int
web_conf_read(struct adapter_cfg *cfg, struct web_conf *c, char *err, size_t errlen)
{
	const char *cert, *key;

	memset(c, 0, sizeof *c);
	if (web_listen(cfg, adapter_cfg_get(cfg, "listen", "127.0.0.1:8088"), c, err, errlen) < 0)
		return -1;
	cert = adapter_cfg_get(cfg, "tls_cert_file", "");
	key = adapter_cfg_get(cfg, "tls_key_file", "");
	if ((cert[0] == '\0') != (key[0] == '\0')) {
		adapter_cfg_error(cfg, cert[0] ? "tls_key_file" : "tls_cert_file", err, errlen,
		                  "tls_cert_file and tls_key_file go together");
		return -1;
	}
	if (strlen(cert) >= sizeof c->cert || strlen(key) >= sizeof c->key) {
		adapter_cfg_error(cfg, "tls_cert_file", err, errlen, "too long a path");
		return -1;
	}
	snprintf(c->cert, sizeof c->cert, "%s", cert);
	snprintf(c->key, sizeof c->key, "%s", key);
	if (web_base(cfg, c, err, errlen) < 0)
		return -1;
	if (adapter_cfg_int(cfg, "max_connections", 2000, 1, 100000, &c->max_conns, err, errlen) < 0 ||
	    adapter_cfg_int(cfg, "max_per_address", 20, 1, 100000, &c->max_per_addr, err, errlen) < 0 ||
	    adapter_cfg_int(cfg, "idle_timeout", 90, 10, 86400, &c->idle_s, err, errlen) < 0 ||
	    adapter_cfg_int(cfg, "slow_timeout", 30, 2, 3600, &c->slow_s, err, errlen) < 0 ||
	    adapter_cfg_int(cfg, "replay_days", 30, 0, 3650, &c->replay_days, err, errlen) < 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ the loop's side */

static void
web_answer(struct web *w, const struct web_item *act, const char *styled)
{
	struct web_item *it = xcalloc(1, sizeof *it);
	struct rbuf plain = { 0 };
	json_t *o;
	char *s;

	style_plain(&plain, styled, strlen(styled), "!");
	o = json_pack("{s:i, s:s, s:s, s:s}", "v", 1, "type", "answer", "cmd", act->text,
	              "text", plain.s != NULL ? plain.s : "");
	s = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	rbuf_free(&plain);
	if (s == NULL) {
		free(it);
		return;
	}
	it->kind = WEB_IT_ANSWER;
	it->conn = act->conn;
	it->blob = web_blob_new(s, strlen(s));
	free(s);
	pthread_mutex_lock(&w->lock);
	web_queue_push(&w->to_thread, it);
	pthread_mutex_unlock(&w->lock);
	web_server_wake(w);
}

/* A page's action as a command: its name, then its cards (frame.c checked
 * the shape: a command a page offers, then card names, ',' and ':'). */
static void
web_command(const char *text, struct command *cmd)
{
	size_t n = strcspn(text, " ");
	char name[COMMAND_NAME_MAX + 1];

	snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), text);
	command_init(cmd, name);
	command_args(cmd, text + n, true);
}

/* What the thread says: actions from pages (each a command the seat gives), log lines. */
static void
web_on_items(struct loop *l, int fd, int mask, void *data)
{
	struct web *w = data;
	struct web_item *it, *next;
	char answer[WEB_ANSWER_MAX];
	struct command cmd;

	(void)l;
	(void)mask;
	wakefd_drain(fd);
	pthread_mutex_lock(&w->lock);
	it = web_queue_take(&w->to_loop);
	pthread_mutex_unlock(&w->lock);
	for (; it != NULL; it = next) {
		next = web_item_next(it);
		if (it->kind == WEB_IT_ACT) {
			web_command(it->text, &cmd);
			adapter_act(w->a, it->table, it->seat, &cmd, answer, sizeof answer);
			web_answer(w, it, answer);
		} else if (it->kind == WEB_IT_ASK)
			web_ask(w, it);
		else if (it->kind == WEB_IT_LOG)
			adapter_log(w->a, it->code, "%s", it->text);
		web_item_free(it);
	}
}

/* ------------------------------------------------------------------ ops */

static int
web_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	struct web *w = xcalloc(1, sizeof *w);

	if (web_conf_read(cfg, &w->conf, err, errlen) < 0) {
		free(w);
		return -1;
	}
	w->a = a;
	w->efd = -1;
	pthread_mutex_init(&w->lock, NULL);
	a->priv = w;
	return 0;
}

static int
web_start(struct adapter *a)
{
	struct web *w = a->priv;
	char err[256];

	if ((w->efd = wakefd_open()) < 0) {
		adapter_log(a, LOG_LVL_ERR, "eventfd: %s", strerror(errno));
		return -1;
	}
	if (loop_watch(a->loop, w->efd, LOOP_READ, web_on_items, w) < 0 || web_server_start(w, err, sizeof err) < 0) {
		adapter_log(a, LOG_LVL_ERR, "%s", w->srv == NULL ? err : "cannot watch the web thread's eventfd");
		w->failed = true;
		loop_unwatch(a->loop, w->efd);
		close(w->efd);
		w->efd = -1;
		return -1;
	}
	w->started = true;
	web_links_load(w);
	web_replays_load(w);
	adapter_log(a, LOG_LVL_NOTICE, "web tables at %s (listening on %s port %d)", w->conf.base_url, w->conf.host,
	            web_server_port(w));
	return 0;
}

/* The web has no room of its own: what the core says goes to the chat rooms, not here. */
static int
web_send(struct adapter *a, const struct adapter_msg *m)
{
	(void)a;
	(void)m;
	return 0;
}

static void
web_stop(struct adapter *a, const char *quit)
{
	struct web *w = a->priv;

	(void)quit;
	if (w == NULL || !w->started)
		return;
	web_server_stop(w);
	web_replays_stop(w);
	loop_unwatch(a->loop, w->efd);
	close(w->efd);
	w->efd = -1;
	w->started = false;
}

static void
web_free(struct adapter *a)
{
	struct web *w = a->priv;
	struct web_item *it, *next;

	if (w == NULL)
		return;
	web_stop(a, NULL);
	for (int q = 0; q < 2; q++)
		for (it = web_queue_take(q ? &w->to_loop : &w->to_thread); it != NULL; it = next) {
			next = web_item_next(it);
			web_blob_unref(it->blob);
			web_item_free(it);
		}
	web_tables_free(&w->tables);
	web_finished_free(&w->fin);
	pthread_mutex_destroy(&w->lock);
	free(w);
	a->priv = NULL;
}

static bool
web_needs_restart(struct adapter *a, struct adapter_cfg *cfg)
{
	struct web *w = a->priv;
	struct web_conf c;
	char err[256];

	if (web_conf_read(cfg, &c, err, sizeof err) < 0)
		return false;
	return memcmp(&c, &w->conf, sizeof c) != 0;
}

static struct web_item *
web_push(struct web *w, enum web_item_kind kind, int64_t table, int seat, struct web_blob *blob, const uint8_t *hash)
{
	struct web_item *it = xcalloc(1, sizeof *it);

	it->kind = kind;
	it->table = table;
	it->seat = seat;
	it->blob = blob;
	if (hash != NULL)
		memcpy(it->hash, hash, WEB_HASH_BYTES);
	web_queue_push(&w->to_thread, it);
	return it;
}

static void
web_view(struct adapter *a, const struct adapter_view *v)
{
	struct web *w = a->priv;
	struct web_table *t;
	struct web_blob *b;
	bool gone = false, replay = false;
	char token[WEB_TOKEN_CHARS + 1];

	if (v->seat < -1 || v->seat >= WEB_MAX_SEATS)
		return;
	/* read before the lock: the thread's sockets need not wait for it */
	b = web_view_blob(v->json, v->len);
	pthread_mutex_lock(&w->lock);
	/* a table no link opens is not kept: nobody can see it here */
	if ((t = web_tables_get(&w->tables, v->table, false)) == NULL) {
		web_blob_unref(b);
		pthread_mutex_unlock(&w->lock);
		return;
	}
	if (v->over) {
		/* its links die now: a page opened later gets the error page */
		struct web_item *it = web_push(w, WEB_IT_OVER, v->table, v->seat, b, NULL);

		/* played to its end: the table's public link opens its replay from now on (its pages are told) */
		if (v->finished && t->has_public && w->conf.replay_days > 0) {
			replay = true;
			it->code = 1;
			memcpy(token, t->public_token, sizeof token);
		}
		web_tables_del(&w->tables, v->table);
		gone = true;
	} else {
		web_blob_unref(t->view[v->seat + 1]);
		t->view[v->seat + 1] = web_blob_ref(b);
		web_push(w, WEB_IT_VIEW, v->table, v->seat, b, NULL);
	}
	pthread_mutex_unlock(&w->lock);
	web_server_wake(w);
	if (gone)
		web_links_forget(w, v->table);
	if (replay)
		web_replays_ended(w, v->table, token, v->ended);
}

static int
web_link(struct adapter *a, int64_t table, int seat, bool renew, char *url, size_t len)
{
	struct web *w = a->priv;
	struct web_table *t;
	char token[WEB_TOKEN_CHARS + 1];
	uint8_t hash[WEB_HASH_BYTES];
	bool revoke = false;
	uint8_t old[WEB_HASH_BYTES];
	char row[WEB_LINKS_VALUE];

	/* links are made from init on (a table may deal before this adapter starts), not after a failed start */
	if (w == NULL || w->failed || seat < -1 || seat >= WEB_MAX_SEATS)
		return -1;
	pthread_mutex_lock(&w->lock);
	t = web_tables_get(&w->tables, table, true);
	if (seat < 0) {
		/* the table's link is public (it is in the room's line): the same each time */
		bool made = !t->has_public;

		if (made) {
			if (web_cap_new(t->public_token, t->public_hash) < 0)
				goto fail;
			t->has_public = true;
			web_links_value(t, row, sizeof row);
		}
		snprintf(url, len, "%st/%s", w->conf.base_url, t->public_token);
		pthread_mutex_unlock(&w->lock);
		if (made)
			web_links_save(w, row, table);
		return 0;
	}
	if (t->has_seat[seat] && !renew) {
		pthread_mutex_unlock(&w->lock);
		return 1;
	}
	if (web_cap_new(token, hash) < 0)
		goto fail;
	if (t->has_seat[seat]) {
		revoke = true;
		memcpy(old, t->seat_hash[seat], sizeof old);
		web_push(w, WEB_IT_REVOKE, table, seat, NULL, old);
	}
	memcpy(t->seat_hash[seat], hash, sizeof hash);
	t->has_seat[seat] = true;
	web_links_value(t, row, sizeof row);
	pthread_mutex_unlock(&w->lock);
	/* the new hash replaces the old in the store too: the old link stays dead after a restart */
	web_links_save(w, row, table);
	snprintf(url, len, "%st/%s", w->conf.base_url, token);
	explicit_bzero(token, sizeof token);
	if (revoke)
		web_server_wake(w);
	return 0;
fail:
	pthread_mutex_unlock(&w->lock);
	adapter_log(a, LOG_LVL_ERR, "the system's random source failed: no link made");
	return -1;
}

ADAPTER_OPS(web,
	.view = web_view,
	.link = web_link,
	.room_link = web_rooms_link);
