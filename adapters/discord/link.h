/* link.h: the Gateway link: the state machine (gateway.h) driven by the loop's clock over the WebSocket thread (ws.h). */
#ifndef HF_DISCORD_LINK_H
#define HF_DISCORD_LINK_H

#include <stddef.h>

#include <jansson.h>

#include "gateway.h"

struct loop;

/* What the link tells its host, on the loop's thread. */
struct discord_link_host {
	void *ctx;
	/* READY (d: READY's data), RESUMED, DOWN, DISPATCH (name, d), FATAL (code, name: why).
	 * d is only valid during the call (json_incref to keep it). */
	void (*event)(void *ctx, enum discord_gw_act_kind kind, int code, const char *name, json_t *d);
	void (*log)(void *ctx, int level, const char *msg);
	/* The Gateway URL is needed (at start without one, or the cached one keeps
	 * failing): ask GET {api_url}/gateway/bot and give it to discord_link_set_url. */
	void (*fetch_url)(void *ctx);
};

struct discord_link;

/* cfg->random may be NULL: the link then uses its own, seeded from getrandom(2). */
struct discord_link *discord_link_new(struct loop *l, const struct discord_gw_config *cfg, const char *ca_file,
                                      const struct discord_link_host *host, char *err, size_t errlen);
void discord_link_start(struct discord_link *k);
void discord_link_set_url(struct discord_link *k, const char *url);
/* GET /gateway/bot's answer (URL and session_start_limit): discord_gateway_set_bot. */
int  discord_link_set_bot(struct discord_link *k, json_t *body);
/* Closes with 1000 (the session ends); nothing more is said. */
void discord_link_stop(struct discord_link *k);
/* From inside a host callback too. */
void discord_link_free(struct discord_link *k);
enum discord_gw_phase discord_link_phase(const struct discord_link *k);

#endif
