/* gateway-start.c: when and where the Gateway's next connection starts: the URL (GET /gateway/bot),
 * the Identify budget (its session_start_limit) and the backoff after Identifys that got no session;
 * a Resume goes at once to the session's resume URL. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "adapter.h"
#include "gateway-state.h"

int
discord_gateway_url(const char *base, char *out, size_t outlen)
{
	size_t n = strlen(base);
	int w;

	/* the same version and encoding on every connection, Resume included */
	w = snprintf(out, outlen, "%s%s?v=10&encoding=json", base, n > 0 && base[n - 1] == '/' ? "" : "/");
	return w < 0 || (size_t)w >= outlen ? -1 : 0;
}

double
gw_rand01(struct discord_gateway *g)
{
	return g->random != NULL ? (double)g->random(g->random_ctx) / 4294967296.0 : 0.5;
}

/* An Identify that got no session (op 9 false, no READY, a close before it):
 * the next waits 5 s, 15 s, 45 s ... up to 15 min, plus up to a quarter, so an
 * outage costs a handful of the 1000 daily Identifys, not one every few seconds. */
void
gw_start_failed(struct discord_gateway *g, int64_t now)
{
	int64_t d = DISCORD_GW_START_BACKOFF;

	for (int i = 0; i < g->start_fails && d < DISCORD_GW_START_BACKOFF_MAX; i++)
		d *= 3;
	if (d > DISCORD_GW_START_BACKOFF_MAX)
		d = DISCORD_GW_START_BACKOFF_MAX;
	g->start_fails++;
	g->start_after = now + d + (int64_t)(gw_rand01(g) * (double)d / 4);
}

static void
log_wait(struct discord_gateway *g, const char *why, int64_t until, int64_t now)
{
	char when[40];
	time_t t = (time_t)(until / 1000 + g->wall_offset);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(when, sizeof when, "later");
	gw_log(g, LOG_LVL_NOTICE, "gateway: %s; waiting until %s (%lld s) before the next Identify", why, when,
	       (long long)((until - now + 999) / 1000));
}

/* When the next Identify may go: the budget, its spreading when low, the
 * concurrency window, the backoff after failed starts. */
static int64_t
identify_gate(struct discord_gateway *g, int64_t now)
{
	int64_t at = now;
	char why[160];

	if (g->remaining <= 0) {
		/* ask again once it has reset: Discord resets the token past it */
		g->budget_fresh = false;
		at = g->reset_at > now + DISCORD_GW_START_WINDOW ? g->reset_at : now + DISCORD_GW_START_WINDOW;
		snprintf(why, sizeof why, "the daily Identify budget is spent (0 of %lld left; past it Discord "
		         "resets the token)", (long long)g->total);
		log_wait(g, why, at, now);
		return at;
	}
	if (g->last_identify != NOT_DUE && g->last_identify + DISCORD_GW_START_WINDOW > at)
		at = g->last_identify + DISCORD_GW_START_WINDOW;
	if (g->start_after != NOT_DUE && g->start_after > at) {
		at = g->start_after;
		snprintf(why, sizeof why, "%d Identify%s in a row got no session", g->start_fails,
		         g->start_fails == 1 ? "" : "s");
		log_wait(g, why, at, now);
	}
	return at;
}

void
gw_connect_now(struct discord_gateway *g, int64_t now)
{
	char url[DISCORD_GW_MAX_URL + 32];
	const char *base;

	g->resuming = g->session[0] != '\0' && g->resume_url[0] != '\0';
	base = g->resuming ? g->resume_url : g->url;
	if (!g->resuming && (g->budgeted || g->start_after != NOT_DUE)) {
		int64_t at;

		if (g->budgeted && !g->budget_fresh) {
			/* gateway.mdx: read session_start_limit before every Identify */
			g->phase = DISCORD_GW_PH_WAIT_URL;
			gw_push(g, DISCORD_GW_FETCH_URL, 0, NULL, NULL);
			return;
		}
		at = g->budgeted ? identify_gate(g, now) : g->start_after;
		if (at > now) {
			g->phase = DISCORD_GW_PH_WAIT_RETRY;
			g->hb_due = g->deadline = NOT_DUE;
			g->retry_due = at;
			return;
		}
	}
	if (base[0] == '\0') {
		g->phase = DISCORD_GW_PH_WAIT_URL;
		gw_push(g, DISCORD_GW_FETCH_URL, 0, NULL, NULL);
		return;
	}
	if (discord_gateway_url(base, url, sizeof url) < 0) {
		/* cannot happen: both are checked when stored */
		g->phase = DISCORD_GW_PH_WAIT_URL;
		gw_push(g, DISCORD_GW_FETCH_URL, 0, NULL, NULL);
		return;
	}
	g->phase = DISCORD_GW_PH_CONNECTING;
	g->interval = 0;
	g->hb_due = NOT_DUE;
	g->acked = true;
	g->deadline = now + DISCORD_GW_HELLO_TIMEOUT;
	g->retry_due = NOT_DUE;
	gw_push(g, DISCORD_GW_CONNECT, 0, url, NULL);
}

bool
gw_url_ok(const char *url)
{
	return (strncmp(url, "wss://", 6) == 0 || strncmp(url, "ws://", 5) == 0) &&
	       strlen(url) < DISCORD_GW_MAX_URL && strpbrk(url, " \t\r\n\"") == NULL;
}

void
discord_gateway_set_url(struct discord_gateway *g, const char *url, int64_t now)
{
	if (url == NULL || !gw_url_ok(url)) {
		gw_log(g, LOG_LVL_WARNING, "gateway: GET /gateway/bot gave no usable URL");
		return;
	}
	snprintf(g->url, sizeof g->url, "%s", url);
	if (g->phase == DISCORD_GW_PH_WAIT_URL)
		gw_connect_now(g, now);
}

static json_int_t
int_in(json_t *o, const char *key, json_int_t lo, json_int_t hi, json_int_t dflt)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return dflt;
	return json_integer_value(v);
}

int
discord_gateway_set_bot(struct discord_gateway *g, json_t *body, int64_t wall, int64_t now)
{
	const char *url = json_string_value(json_object_get(body, "url"));
	json_t *ssl = json_object_get(body, "session_start_limit");

	if (url == NULL || !gw_url_ok(url)) {
		gw_log(g, LOG_LVL_WARNING, "gateway: GET /gateway/bot gave no usable URL");
		return -1;
	}
	g->wall_offset = wall - now / 1000;
	if (json_is_object(ssl)) {
		g->total = int_in(ssl, "total", 1, 1000000000, 1000);
		g->remaining = int_in(ssl, "remaining", 0, g->total, 0);
		g->reset_at = now + int_in(ssl, "reset_after", 0, 86400000LL * 7, 86400000);
		g->max_conc = (int)int_in(ssl, "max_concurrency", 1, 4096, 1);
	} else {
		/* not said: assume the smallest budget, one Identify now */
		gw_log(g, LOG_LVL_WARNING, "gateway: GET /gateway/bot gave no session_start_limit");
		g->total = 1000;
		g->remaining = 1;
		g->reset_at = now + 86400000;
		g->max_conc = 1;
	}
	if (g->remaining > 0 && g->remaining * 10 < g->total)
		/* low: say so while there is time to look (the backoff after failed starts spreads the rest) */
		gw_log(g, LOG_LVL_WARNING, "gateway: the Identify budget is low: %lld of %lld left for the next %lld min",
		       (long long)g->remaining, (long long)g->total, (long long)((g->reset_at - now) / 60000));
	g->budget_fresh = true;
	snprintf(g->url, sizeof g->url, "%s", url);
	if (g->phase == DISCORD_GW_PH_WAIT_URL)
		gw_connect_now(g, now);
	return 0;
}
