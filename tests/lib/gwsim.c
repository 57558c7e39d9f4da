/* gwsim.c: the Gateway state machine through a simulated Discord outage on a fake clock (Identifys counted). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "discord/gateway.h"
#include "gwsim.h"

static uint32_t
sim_random(void *ctx)
{
	uint32_t *x = ctx;

	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

void
gwsim_run(enum gwsim_outage kind, int64_t ms, int budget, uint32_t seed, struct gwsim_result *out)
{
	uint32_t rng = seed != 0 ? seed : 1;
	struct discord_gw_config cfg = { .token = "sim-token", .intents = 1, .budgeted = true,
	                                 .random = sim_random, .random_ctx = &rng };
	struct discord_gateway *g = discord_gateway_new(&cfg);
	struct discord_gw_act a;
	int64_t now = 0, due;
	int left = budget;

	memset(out, 0, sizeof *out);
	discord_gateway_start(g, now);
	while (now <= ms) {
		while (discord_gateway_next(g, &a)) {
			if (a.kind == DISCORD_GW_FETCH_URL) {
				json_t *bot = json_pack("{s:s,s:i,s:{s:i,s:i,s:i,s:i}}", "url", "wss://gateway.example",
				                        "shards", 1, "session_start_limit", "total", 1000,
				                        "remaining", left > 0 ? left : 0, "reset_after", 86400000,
				                        "max_concurrency", 1);

				discord_gateway_set_bot(g, bot, 1700000000, now);
				json_decref(bot);
			} else if (a.kind == DISCORD_GW_CONNECT) {
				const char *hello = "{\"op\":10,\"d\":{\"heartbeat_interval\":41250}}";

				out->connects++;
				discord_gateway_received(g, hello, strlen(hello), now);
			} else if (a.kind == DISCORD_GW_SEND && strstr(a.text, "\"op\":2") != NULL) {
				out->identifies++;
				out->past_budget += left <= 0;
				left--;
				if (kind == GWSIM_INVALID)
					discord_gateway_received(g, "{\"op\":9,\"d\":false}", 18, now);
				else if (kind == GWSIM_REFUSED)
					discord_gateway_closed(g, 4000, now);
			} else if (a.kind == DISCORD_GW_SEND && strstr(a.text, "\"op\":1") != NULL) {
				discord_gateway_received(g, "{\"op\":11}", 9, now);
			} else if (a.kind == DISCORD_GW_CLOSE) {
				discord_gateway_closed(g, a.code, now);
			}
			discord_gateway_act_free(&a);
		}
		due = discord_gateway_due(g);
		if (due < 0)
			break;
		now = due > now ? due : now + 1;
		discord_gateway_tick(g, now);
	}
	discord_gateway_free(g);
}
