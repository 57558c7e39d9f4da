/* fakedc-rest.c: a REST queue to the fake Discord, shared by the REST and answer end-to-end tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "e2e.h"
#include "fakedc-rest.h"

int
fakedc_rest_start(struct fakedc_rest *r, const char *token)
{
	struct discord_rest_io io;

	if (fakedc_start(&r->fake) < 0)
		return -1;
	e2e_secret_note(token);
	r->loop = loop_new();
	r->http = http_new(r->loop);
	r->io = discord_restio_new(r->http, NULL);
	discord_restio_ops(r->io, &io);
	r->rest = discord_rest_new(r->loop, r->fake.api, token, &io);
	assert_non_null(r->rest);
	assert_int_equal(fakedc_ctl(&r->fake, "config", "{\"token\":\"%s\"}", token), 0);
	return 0;
}

void
fakedc_rest_stop(struct fakedc_rest *r)
{
	discord_rest_free(r->rest);
	discord_restio_free(r->io);
	http_free(r->http);
	loop_free(r->loop);
	fakedc_stop(&r->fake);
}
