/* routes.c: what each GET answers, as a table: the page of a live link, its files, an error page for anything else. */
#include <stdio.h>
#include <string.h>

#include "web.h"

/* The error page: plain, no script, the same stylesheet. */
static const char route_gone[] =
	"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	"<title>No table here</title><link rel=\"stylesheet\" href=\"/s/app.css\">"
	"<link rel=\"icon\" href=\"/s/favicon.svg\" type=\"image/svg+xml\"></head>"
	"<body class=\"gone\"><main><h1>No table here</h1>"
	"<p>This link does not open a table: the game is over, the link was replaced "
	"(<code>!web new</code>), or it was never one. Ask in the room: <code>!watch</code> "
	"gives the table's link, <code>!web</code> your own.</p></main></body></html>\n";

/* A replay past its days: said so, plainly. */
static const char route_replay_gone[] =
	"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	"<title>Replay gone</title><link rel=\"stylesheet\" href=\"/s/app.css\">"
	"<link rel=\"icon\" href=\"/s/favicon.svg\" type=\"image/svg+xml\"></head>"
	"<body class=\"gone\"><main><h1>This replay is gone</h1>"
	"<p>This link was a finished game's table; its replay was kept for a number of days after the game "
	"ended, and that time is over. <code>!watch</code> in the room gives the room's page, with its recent "
	"games.</p></main></body></html>\n";

static const char route_home_page[] =
	"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	"<title>Hand and Foot</title><link rel=\"stylesheet\" href=\"/s/app.css\">"
	"<link rel=\"icon\" href=\"/s/favicon.svg\" type=\"image/svg+xml\"></head>"
	"<body class=\"gone\"><main><h1>Hand and Foot</h1>"
	"<p>Tables are played in chat rooms. In a room with a game, <code>!watch</code> gives the "
	"table's page, and each player gets their own page privately.</p></main></body></html>\n";

static const char route_bad_method[] =
	"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not here</title></head>"
	"<body><p>Only GET is served here.</p></body></html>\n";

static void
route_static(struct web_reply *r, int status, const char *type, const char *body)
{
	r->status = status;
	r->type = type;
	r->body = (const unsigned char *)body;
	r->len = strlen(body);
	r->no_store = true;
}

static void
route_home(struct web *w, const char *rest, struct web_reply *r)
{
	(void)w;
	(void)rest;
	route_static(r, 200, "text/html; charset=utf-8", route_home_page);
}

/* /t/TOKEN: the page, if the link is live; the socket then asks for the table. */
static void
route_table(struct web *w, const char *rest, struct web_reply *r)
{
	uint8_t hash[WEB_HASH_BYTES];
	const struct web_asset *page = web_asset_find("index.html");
	int64_t table;
	int seat, finished = 0;
	bool live = false;

	if (web_cap_hash(rest, strlen(rest), hash) == 0) {
		pthread_mutex_lock(&w->lock);
		live = web_tables_find(&w->tables, hash, &table, &seat);
		finished = live ? 0 : web_finished_find(&w->fin, hash, &table, &seat);
		pthread_mutex_unlock(&w->lock);
	}
	if (finished == 2) {
		route_static(r, 410, "text/html; charset=utf-8", route_replay_gone);
		return;
	}
	if (finished == 1)
		page = web_asset_find(seat == WEB_SEAT_ROOM ? "room.html" : "replay.html");
	if ((!live && finished != 1) || page == NULL) {
		route_static(r, 404, "text/html; charset=utf-8", route_gone);
		return;
	}
	r->status = 200;
	r->type = "text/html; charset=utf-8";
	r->body = page->data;
	r->len = page->len;
	r->no_store = true;
	/* what the room sees, with nothing to press: a Matrix client may show it as the room's widget */
	r->framable = seat == -1;
}

static const char *
route_type(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (dot == NULL)
		return "application/octet-stream";
	if (strcmp(dot, ".css") == 0)
		return "text/css; charset=utf-8";
	if (strcmp(dot, ".js") == 0)
		return "text/javascript; charset=utf-8";
	if (strcmp(dot, ".svg") == 0)
		return "image/svg+xml";
	if (strcmp(dot, ".html") == 0)
		return "text/html; charset=utf-8";
	return "application/octet-stream";
}

/* /s/NAME: the page's own files, from the binary. */
static void
route_asset(struct web *w, const char *rest, struct web_reply *r)
{
	const struct web_asset *a = web_asset_find(rest);

	(void)w;
	if (a == NULL || strcmp(rest, "index.html") == 0 || strcmp(rest, "replay.html") == 0 ||
	    strcmp(rest, "room.html") == 0) {
		route_static(r, 404, "text/html; charset=utf-8", route_gone);
		return;
	}
	r->status = 200;
	r->type = route_type(a->name);
	r->body = a->data;
	r->len = a->len;
}

static const struct route {
	const char *path;
	bool prefix;               /* path is a prefix; the rest goes to fn */
	void (*fn)(struct web *w, const char *rest, struct web_reply *r);
} routes[] = {
	{ "/", false, route_home },
	{ "/t/", true, route_table },
	{ "/s/", true, route_asset },
};

void
web_route(struct web *w, const char *path, struct web_reply *r)
{
	size_t i, n;

	memset(r, 0, sizeof *r);
	if (path[0] == '\x01') {
		route_static(r, 405, "text/html; charset=utf-8", route_bad_method);
		return;
	}
	for (i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		n = strlen(routes[i].path);
		if (routes[i].prefix ? strncmp(path, routes[i].path, n) == 0 : strcmp(path, routes[i].path) == 0) {
			routes[i].fn(w, path + (routes[i].prefix ? n : 0), r);
			return;
		}
	}
	route_static(r, 404, "text/html; charset=utf-8", route_gone);
}

size_t
web_csp(const struct web *w, char *buf, size_t len, bool framable)
{
	const char *o = w->conf.origin;
	bool tls = strncmp(o, "https://", 8) == 0;
	int n;

	/* connect-src names the socket's own origin: 'self' covers ws: only in newer browsers */
	n = snprintf(buf, len,
	             "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
	             "connect-src 'self' %s%s; base-uri 'none'; form-action 'none'%s",
	             tls ? "wss://" : "ws://", o + (tls ? 8 : 7), framable ? "" : "; frame-ancestors 'none'");
	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

const struct web_asset *
web_asset_find(const char *name)
{
	size_t i;

	for (i = 0; i < web_nassets; i++)
		if (strcmp(web_assets[i].name, name) == 0)
			return &web_assets[i];
	return NULL;
}
