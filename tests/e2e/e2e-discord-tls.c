/* e2e-discord-tls.c: the Gateway (wss://) and REST (https://) over TLS against the fake, trusting it only through ca_file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "loop.h"
#include "loopwait.h"
#include "discord/link.h"
#include "discord/rest.h"
#include "fakedc.h"
#include "e2e.h"

#define TOKEN "e2e-discord-tls-token"

struct h {
	struct fakedc fake;
	char dir[128], cert[256], key[256], other[256];
	struct loop *loop;
	struct http *http;
	struct discord_link *link;
	int ready, done, logs_tls;
	long status;
};

static void
h_event(void *ctx, enum discord_gw_act_kind kind, int code, const char *name, json_t *d)
{
	struct h *h = ctx;

	(void)code;
	(void)name;
	(void)d;
	if (kind == DISCORD_GW_READY)
		h->ready++;
}

static void
h_log(void *ctx, int level, const char *msg)
{
	struct h *h = ctx;

	(void)level;
	if (strstr(msg, "socket closed") != NULL)
		h->logs_tls++;
	if (getenv("HF_VERBOSE") != NULL)
		fprintf(stderr, "%s\n", msg);
}

static void
on_done(void *ctx, long status, json_t *body)
{
	struct h *h = ctx;

	(void)body;
	h->status = status;
	h->done++;
}

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);
	char out[2048];

	if (h == NULL || e2e_tmpdir(h->dir, sizeof h->dir, "dctls") < 0)
		return -1;
	snprintf(h->cert, sizeof h->cert, "%s/cert.pem", h->dir);
	snprintf(h->key, sizeof h->key, "%s/key.pem", h->dir);
	snprintf(h->other, sizeof h->other, "%s/other.pem", h->dir);
	/* a self-signed certificate for 127.0.0.1, and another CA that did not sign it */
	if (e2e_sh(out, sizeof out, "cd %s && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
	           "-addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem && "
	           "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other -keyout okey.pem -out other.pem",
	           h->dir) != 0 || fakedc_start_tls(&h->fake, h->cert, h->key) < 0) {
		fprintf(stderr, "%s\n", out);
		free(h);
		return -1;
	}
	e2e_secret_note(TOKEN);
	h->loop = loop_new();
	h->http = http_new(h->loop);
	assert_int_equal(fakedc_ctl(&h->fake, "config", "{\"token\":\"%s\"}", TOKEN), 0);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;
	char out[256];

	if (h->link != NULL)
		discord_link_free(h->link);
	http_free(h->http);
	loop_free(h->loop);
	fakedc_stop(&h->fake);
	e2e_sh(out, sizeof out, "rm -rf %s", h->dir);
	free(h);
	return 0;
}

static void
link_up(struct h *h, const char *ca_file)
{
	struct discord_gw_config cfg = { .token = TOKEN, .intents = 1, .url = h->fake.gateway_url };
	struct discord_link_host host = { .ctx = h, .event = h_event, .log = h_log };
	char err[256];

	h->link = discord_link_new(h->loop, &cfg, ca_file, &host, err, sizeof err);
	assert_non_null(h->link);
	discord_link_start(h->link);
}

static void
test_gateway_over_tls_with_ca_file(void **state)
{
	struct h *h = *state;

	assert_int_equal(strncmp(h->fake.gateway_url, "wss://", 6), 0);
	link_up(h, h->cert);
	assert_true(loopwait_until(h->loop, &h->ready, 1, 15000));
}

static void
test_gateway_refuses_an_untrusted_certificate(void **state)
{
	struct h *h = *state;
	json_t *s;

	/* another CA: the handshake fails, no session; the link keeps trying (backed off) */
	link_up(h, h->other);
	assert_false(loopwait_until(h->loop, &h->ready, 1, 3000));
	assert_true(h->logs_tls >= 1);
	s = fakedc_state(&h->fake);
	/* no Identify ever reached the fake */
	assert_int_equal(json_object_size(json_object_get(s, "sessions")), 0);
	json_decref(s);
}

static void
rest_get(struct h *h, const char *ca_file)
{
	struct discord_restio *io = discord_restio_new(h->http, ca_file);
	struct discord_rest_io ops;
	struct discord_rest *r;

	discord_restio_ops(io, &ops);
	r = discord_rest_new(h->loop, h->fake.api, TOKEN, &ops);
	h->done = 0;
	assert_int_equal(discord_rest_call(r, "GET", "/gateway/bot", NULL, 0, on_done, h), 0);
	assert_true(loopwait_until(h->loop, &h->done, 1, 30000));
	discord_rest_free(r);
	discord_restio_free(io);
}

static void
test_rest_over_tls_with_ca_file(void **state)
{
	struct h *h = *state;

	rest_get(h, h->cert);
	assert_int_equal(h->status, 200);
	/* the wrong CA: no answer (network errors are retried, then given up) */
	rest_get(h, h->other);
	assert_int_equal(h->status, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gateway_over_tls_with_ca_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gateway_refuses_an_untrusted_certificate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rest_over_tls_with_ca_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
