/* gateway-state.h: the Gateway state machine's private state, shared by its files: gateway.c (the
 * payloads, closes and timers), gateway-start.c (when and where a connection starts: the URL, the
 * Identify budget) and gateway-acts.c (the queue of actions the host drains). Not for the host:
 * it sees gateway.h. */
#ifndef HF_DISCORD_GATEWAY_STATE_H
#define HF_DISCORD_GATEWAY_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "fifo.h"
#include "gateway.h"

#define NOT_DUE (-1)

/* Where a reconnect goes once the socket is closed. */
enum plan { PLAN_NONE, PLAN_RESUME, PLAN_IDENTIFY, PLAN_STOP };

struct discord_gateway {
	char token[256];
	unsigned intents;
	char url[DISCORD_GW_MAX_URL];         /* from GET /gateway/bot */
	char resume_url[DISCORD_GW_MAX_URL];  /* from READY */
	char session[DISCORD_GW_MAX_SESSION];
	int64_t seq;                          /* last non-null s, -1 if none */
	uint32_t (*random)(void *ctx);
	void *random_ctx;

	enum discord_gw_phase phase;
	bool up;                              /* READY/RESUMED said, DOWN not yet */
	bool resuming;                        /* the current connection is a Resume */
	enum plan plan;                       /* after CLOSING */
	int64_t plan_delay;

	int64_t interval;                     /* heartbeat_interval, 0 before Hello */
	int64_t hb_due;                       /* next heartbeat, or NOT_DUE */
	bool acked;                           /* the last heartbeat has its ACK */
	int64_t deadline;                     /* Hello / READY / close timeout, or NOT_DUE */
	int64_t retry_due;                    /* WAIT_RETRY: when to connect */

	int fails;                            /* connects in a row that never got up */
	int resume_fails;

	/* The Identify budget (gateway.mdx, Session Start Limit): from GET /gateway/bot */
	bool budgeted;                        /* the host gives it before every Identify */
	bool budget_fresh;                    /* given since the last Identify */
	int shard_id, shard_count;
	int64_t remaining, total, reset_at;   /* reset_at on the caller's clock */
	int64_t wall_offset;                  /* wall seconds = (now / 1000) + this */
	int max_conc;
	int64_t last_identify;                /* NOT_DUE: none yet */
	int start_fails;                      /* Identifys in a row that got no session */
	int64_t start_after;                  /* no Identify before this (backoff), or NOT_DUE */
	int64_t identify_at;                  /* when the current Identify went */
	int late_acks;                        /* heartbeat ACKs while READY is awaited */
	bool late_logged, late_probed;

	struct fifo acts;                     /* for discord_gateway_next, oldest first */
};

/* gateway-acts.c: an action queued for the host; a log line; a payload sent (and freed). */
void gw_push(struct discord_gateway *g, enum discord_gw_act_kind kind, int code, const char *text, json_t *d);
void gw_log(struct discord_gateway *g, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void gw_send(struct discord_gateway *g, json_t *p);

/* gateway-start.c: a random number in [0, 1) (0.5 without a source); an Identify that got no
 * session (the next one backs off); a connection now: a Resume, or an Identify when the budget
 * and the backoff allow (else a wait, or a FETCH_URL first). */
double gw_rand01(struct discord_gateway *g);
/* A Gateway URL fit to connect to: ws:// or wss://, short, no space or quote. */
bool gw_url_ok(const char *url);
void gw_start_failed(struct discord_gateway *g, int64_t now);
void gw_connect_now(struct discord_gateway *g, int64_t now);

#endif
