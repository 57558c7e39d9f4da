/* webtable.h: the setup the web table's browser tests share: a table on ngircd with the web view on, and a headless Chromium to look at it. */
#ifndef HF_TEST_WEBTABLE_H
#define HF_TEST_WEBTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "cdp.h"
#include "ircclient.h"
#include "proc.h"
#include "world.h"

struct webtable {
	struct world fx;          /* its daemon is daemon, not fx.d */
	struct proc daemon;
	struct cdp browser;
	char base[64];            /* http://127.0.0.1:PORT */
	char shots[512];          /* where screenshots go: $HANDFOOT_SHOTS (docs/, to refresh them), else BUILD/screens */
	int port;
};

/* ngircd and the daemon's config (#cards, no flood pacing, no colours, [web test] on a free
 * port; bot_extra the [bot] lines), then Chromium; the daemon is the test's to start.
 * -1 (the group setup fails) without chromium or when a server does not start. */
int  webtable_setup(struct webtable *t, const char *bot_extra);
/* The same without a browser of its own (t->browser stays unstarted; teardown is the same). */
int  webtable_server(struct webtable *t, const char *bot_extra);
void webtable_teardown(struct webtable *t);
/* The link (base and its /t/ path) on the first line of c's from index on holding a and b;
 * fails the test if none comes within 20 s. */
void webtable_find_link(const struct webtable *t, struct ircclient *c, size_t from, const char *a, const char *b,
                        char *url, size_t len);
/* alice and bob (not yet connected) join #cards, the daemon starts, alice opens a duel, bob
 * sits and alice sends !start: alice's line count before the !start (where the deal's links
 * are to be found from).  Fails the test if a step does not come. */
size_t webtable_duel(struct webtable *t, struct ircclient *alice, struct ircclient *bob);
/* A turn typed on IRC by c, whose nick is nick: !draw, then !discard the first natural card of
 * the hand the bot shows; fails the test if the draw or the room's line of the discard does not come. */
void webtable_irc_turn(struct ircclient *c, const char *nick);
/* Whether the page's expression is true. */
bool webtable_eval_true(struct webtable *t, const char *expr);
/* A screenshot at that size, as name in t->shots. */
void webtable_shot(struct webtable *t, const char *name, int w, int h, bool mobile);

/* The console's table of four (classic) served on a free port, its computer players a minute
 * slow to move: w (a world_none) with its daemon run on tag, web_extra the [web test] lines after
 * listen; *port, origin (http://127.0.0.1:PORT) and pub (the table's public path, from the log)
 * set. -1 if it does not come up (the group setup fails). */
int  webtable_console(struct world *w, const char *tag, const char *web_extra, int *port, char *origin, size_t olen,
                      char *pub, size_t plen);

#endif
