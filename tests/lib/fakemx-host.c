/* fakemx-host.c: a Matrix client's surroundings against the fake homeserver, shared by the adapter's end-to-end tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fakemx-host.h"

void
fakemx_host_init(struct fakemx_host *m, char *tok, size_t len)
{
	char own[128];

	if (tok == NULL) {
		tok = own;
		len = sizeof own;
	}
	m->verbose = getenv("HF_VERBOSE") != NULL;
	m->loop = loop_new();
	m->http = http_new(m->loop);
	m->st = memstore_new();
	fakemx_user(&m->fake, "bot", "botpw", tok, len);
	snprintf(m->cfg.homeserver, sizeof m->cfg.homeserver, "%s", m->fake.base);
	snprintf(m->cfg.user, sizeof m->cfg.user, "bot");
	snprintf(m->cfg.password, sizeof m->cfg.password, "botpw");
	m->cfg.auto_join = true;
	m->cfg.sync_timeout_ms = 2000;
}

void
fakemx_host_client_up(struct fakemx_host *m, void *ctx, void (*emit)(void *ctx, const struct bot_event *ev),
                      void (*log)(void *ctx, int level, const char *msg))
{
	struct matrix_host mh = {
		.ctx = ctx, .emit = emit, .log = log,
		.store = { m->st, memstore_get, memstore_set, memstore_del, memstore_each },
	};

	m->c = matrix_client_new(&m->cfg, &mh, m->loop, m->http);
	assert_non_null(m->c);
	assert_int_equal(matrix_client_start(m->c), 0);
}

void
fakemx_host_client_down(struct fakemx_host *m)
{
	matrix_client_stop(m->c);
	matrix_client_free(m->c);
	m->c = NULL;
}

void
fakemx_host_free(struct fakemx_host *m)
{
	if (m->c != NULL)
		fakemx_host_client_down(m);
	http_free(m->http);
	loop_free(m->loop);
	memstore_free(m->st);
	fakemx_stop(&m->fake);
}
