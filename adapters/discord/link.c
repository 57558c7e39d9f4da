/* link.c: runs the Gateway state machine's actions on the WebSocket thread and its timers on the loop. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "adapter.h"
#include "link.h"
#include "loop.h"
#include "ws.h"
#include "xmalloc.h"
#include "xorshift.h"

struct discord_link {
	struct loop *loop;
	struct discord_gateway *gw;
	struct discord_ws *ws;
	struct discord_link_host host;
	long long timer;
	int64_t timer_due;
	uint64_t rng;            /* xorshift64*, when the caller gives no random source */
	int depth;               /* nested runs: a free waits for the outermost */
	bool free_later;
};

static void run(struct discord_link *k);

static uint32_t
link_random(void *ctx)
{
	struct discord_link *k = ctx;

	return xorshift_next32(&k->rng);
}

static void
on_timer(void *data)
{
	struct discord_link *k = data;

	k->timer_due = -1;
	discord_gateway_tick(k->gw, loop_now(k->loop));
	run(k);
}

/* Keeps one loop timer at the state machine's next due time. */
static void
arm(struct discord_link *k)
{
	loop_once_at(k->loop, &k->timer, &k->timer_due, discord_gateway_due(k->gw), on_timer, k);
}

static void
destroy(struct discord_link *k)
{
	if (k->timer != 0)
		loop_timer_del(k->loop, k->timer);
	discord_ws_free(k->ws);
	discord_gateway_free(k->gw);
	free(k);
}

/* Carries out the state machine's actions until there are none. */
static void
run(struct discord_link *k)
{
	struct discord_gw_act a;

	k->depth++;
	while (!k->free_later && discord_gateway_next(k->gw, &a)) {
		switch (a.kind) {
		case DISCORD_GW_CONNECT:
			if (discord_ws_connect(k->ws, a.text) < 0)
				discord_gateway_closed(k->gw, 0, loop_now(k->loop));
			break;
		case DISCORD_GW_SEND:
			discord_ws_send(k->ws, a.text, strlen(a.text));
			break;
		case DISCORD_GW_CLOSE:
			discord_ws_close(k->ws, a.code);
			break;
		case DISCORD_GW_FETCH_URL:
			if (k->host.fetch_url != NULL)
				k->host.fetch_url(k->host.ctx);
			break;
		case DISCORD_GW_LOG:
			if (k->host.log != NULL)
				k->host.log(k->host.ctx, a.code, a.text);
			break;
		default:
			k->host.event(k->host.ctx, a.kind, a.code, a.text, a.d);
		}
		discord_gateway_act_free(&a);
	}
	k->depth--;
	if (k->depth == 0 && k->free_later) {
		destroy(k);
		return;
	}
	if (!k->free_later)
		arm(k);
}

static void
on_ws(void *ctx, enum discord_ws_ev ev, int code, const char *text, size_t len)
{
	struct discord_link *k = ctx;
	int64_t now = loop_now(k->loop);
	char line[400];

	switch (ev) {
	case DISCORD_WS_OPEN:
		/* nothing to do until Hello */
		return;
	case DISCORD_WS_TEXT:
		discord_gateway_received(k->gw, text, len, now);
		break;
	case DISCORD_WS_CLOSED:
		if (k->host.log != NULL) {
			snprintf(line, sizeof line, "gateway: socket closed (%d): %s", code, text);
			k->host.log(k->host.ctx, LOG_LVL_DEBUG, line);
		}
		discord_gateway_closed(k->gw, code, now);
		break;
	case DISCORD_WS_LOG:
		if (k->host.log != NULL)
			k->host.log(k->host.ctx, code, text);
		return;
	}
	run(k);
}

struct discord_link *
discord_link_new(struct loop *l, const struct discord_gw_config *cfg, const char *ca_file,
                 const struct discord_link_host *host, char *err, size_t errlen)
{
	struct discord_link *k = xcalloc(1, sizeof *k);
	struct discord_gw_config c = *cfg;

	k->loop = l;
	k->host = *host;
	k->timer_due = -1;
	if (c.random == NULL) {
		if (getrandom(&k->rng, sizeof k->rng, 0) != (ssize_t)sizeof k->rng)
			k->rng = (uint64_t)loop_now(l);
		k->rng = xorshift_seed(k->rng);
		c.random = link_random;
		c.random_ctx = k;
	}
	if ((k->gw = discord_gateway_new(&c)) == NULL) {
		snprintf(err, errlen, "the token or gateway URL is too long");
		free(k);
		return NULL;
	}
	if ((k->ws = discord_ws_new(l, ca_file, on_ws, k, err, errlen)) == NULL) {
		discord_gateway_free(k->gw);
		free(k);
		return NULL;
	}
	return k;
}

void
discord_link_start(struct discord_link *k)
{
	discord_gateway_start(k->gw, loop_now(k->loop));
	run(k);
}

void
discord_link_set_url(struct discord_link *k, const char *url)
{
	discord_gateway_set_url(k->gw, url, loop_now(k->loop));
	run(k);
}

int
discord_link_set_bot(struct discord_link *k, json_t *body)
{
	int r = discord_gateway_set_bot(k->gw, body, (int64_t)time(NULL), loop_now(k->loop));

	run(k);
	return r;
}

void
discord_link_stop(struct discord_link *k)
{
	discord_gateway_stop(k->gw, loop_now(k->loop));
	run(k);
}

void
discord_link_free(struct discord_link *k)
{
	if (k == NULL)
		return;
	if (k->depth > 0) {
		k->free_later = true;
		return;
	}
	destroy(k);
}

enum discord_gw_phase
discord_link_phase(const struct discord_link *k)
{
	return discord_gateway_phase(k->gw);
}
