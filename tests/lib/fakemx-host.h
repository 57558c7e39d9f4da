/* fakemx-host.h: what a Matrix client (adapters/matrix) runs in when a test drives it alone against the fake homeserver: the fake, a loop, an HTTP client, a memory store and a configuration for the bot's account. */
#ifndef HF_TEST_FAKEMX_HOST_H
#define HF_TEST_FAKEMX_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "fakemx.h"
#include "http.h"
#include "loop.h"
#include "matrix/matrix.h"
#include "memstore.h"

struct fakemx_host {
	struct fakemx fake;
	struct loop *loop;
	struct http *http;
	struct memstore *st;
	struct matrix_client *c;        /* NULL while no client runs */
	struct matrix_config cfg;
	bool verbose;                   /* HF_VERBOSE is set: the test echoes the client's log */
};

/* Around a started fake (m->fake): the loop, HTTP and the store, the bot's
 * account (bot, password botpw; a token of it in tok if not NULL) and a
 * configuration for it (auto_join, 2 s syncs). */
void fakemx_host_init(struct fakemx_host *m, char *tok, size_t len);
/* A client on m->cfg and the store, started; emit and log get ctx. */
void fakemx_host_client_up(struct fakemx_host *m, void *ctx, void (*emit)(void *ctx, const struct bot_event *ev),
                           void (*log)(void *ctx, int level, const char *msg));
/* The client stopped and freed. */
void fakemx_host_client_down(struct fakemx_host *m);
/* The client if it runs, then all fakemx_host_init made, then the fake. */
void fakemx_host_free(struct fakemx_host *m);

#endif
