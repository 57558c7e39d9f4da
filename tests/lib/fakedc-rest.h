/* fakedc-rest.h: the Discord adapter's REST queue (adapters/discord/rest.h) on a test's own loop, talking to the fake Discord with a token the fake takes. */
#ifndef HF_TEST_FAKEDC_REST_H
#define HF_TEST_FAKEDC_REST_H

#include "discord/rest.h"
#include "fakedc.h"
#include "http.h"
#include "loop.h"

struct fakedc_rest {
	struct fakedc fake;
	struct loop *loop;
	struct http *http;
	struct discord_restio *io;
	struct discord_rest *rest;
};

/* Starts the fake and configures it to take token (noted as a secret:
 * e2e_secret_note), then a loop, HTTP and the REST queue to the fake's
 * API with token.  -1 if the fake does not start (nothing else made). */
int  fakedc_rest_start(struct fakedc_rest *r, const char *token);
/* Frees the queue and all fakedc_rest_start made; stops the fake. */
void fakedc_rest_stop(struct fakedc_rest *r);

#endif
