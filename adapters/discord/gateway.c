/* gateway.c: the Discord Gateway's state machine: Hello, Identify/Resume, heartbeats, reconnects, close
 * codes (its state: gateway-state.h; when a connection starts: gateway-start.c; its actions: gateway-acts.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "backoff.h"
#include "gateway-state.h"
#include "secret.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ helpers */

unsigned
discord_gateway_intents(bool message_commands)
{
	unsigned i = DISCORD_INTENT_GUILDS;

	if (message_commands)
		i |= DISCORD_INTENT_GUILD_MESSAGES | DISCORD_INTENT_DIRECT_MESSAGES | DISCORD_INTENT_MESSAGE_CONTENT;
	return i;
}

static const struct {
	int code;
	bool fatal;
	const char *text;
} close_codes[] = {
	/* developers/topics/opcodes-and-status-codes.mdx, "Gateway Close Event Codes" */
	{ 4000, false, "unknown error" },
	{ 4001, false, "unknown opcode" },
	{ 4002, false, "decode error" },
	{ 4003, false, "not authenticated" },
	{ 4004, true, "authentication failed: the bot token was refused (check token_file)" },
	{ 4005, false, "already authenticated" },
	{ 4007, false, "invalid seq" },
	{ 4008, false, "rate limited" },
	{ 4009, false, "session timed out" },
	{ 4010, true, "invalid shard" },
	{ 4011, true, "sharding required: the bot is in too many guilds for one connection" },
	{ 4012, true, "invalid API version" },
	{ 4013, true, "invalid intents" },
	{ 4014, true, "disallowed intents: enable the Message Content intent in the Developer Portal, "
	              "or set message_commands = no" },
};

const char *
discord_gateway_close_text(int code)
{
	for (size_t i = 0; i < sizeof close_codes / sizeof close_codes[0]; i++)
		if (close_codes[i].code == code)
			return close_codes[i].text;
	return code == 0 || code == 1006 ? "connection lost" : "closed";
}

bool
discord_gateway_close_fatal(int code)
{
	for (size_t i = 0; i < sizeof close_codes / sizeof close_codes[0]; i++)
		if (close_codes[i].code == code)
			return close_codes[i].fatal;
	return false;
}

/* Codes after which the session cannot be resumed: a new one is needed. */
static bool
close_ends_session(int code)
{
	return code == 4003 || code == 4007 || code == 4009;
}

/* Delay before a reconnect after fails failures in a row: up to 1 s the
 * first time, then 1, 2, 4 ... 60 s, each cut by a random 0-50 % so that
 * many clients dropped together do not come back together. */
static int64_t
backoff(struct discord_gateway *g)
{
	static const struct backoff after_fails = { .first_ms = 1000, .max_ms = DISCORD_GW_BACKOFF_MAX, .jitter_pct = 50 };

	if (g->fails == 0)
		return (int64_t)(gw_rand01(g) * 1000);
	return backoff_delay(&after_fails, g->fails, g->random != NULL ? g->random(g->random_ctx) : UINT32_C(1) << 31);
}

static void
forget_session(struct discord_gateway *g)
{
	g->session[0] = '\0';
	g->resume_url[0] = '\0';
	g->seq = -1;
	g->resume_fails = 0;
}

static void
say_down(struct discord_gateway *g)
{
	if (g->up) {
		g->up = false;
		gw_push(g, DISCORD_GW_DOWN, 0, NULL, NULL);
	}
}

/* Reconnects after delay ms (0: now), resuming if a session is kept. */
static void
reconnect_after(struct discord_gateway *g, int64_t delay, int64_t now)
{
	g->hb_due = NOT_DUE;
	g->deadline = NOT_DUE;
	if (delay <= 0) {
		gw_connect_now(g, now);
		return;
	}
	g->phase = DISCORD_GW_PH_WAIT_RETRY;
	g->retry_due = now + delay;
}

/* Closes the socket with code; once it is closed, plan with delay. */
static void
close_then(struct discord_gateway *g, int code, enum plan plan, int64_t delay, int64_t now)
{
	say_down(g);
	g->phase = DISCORD_GW_PH_CLOSING;
	g->plan = plan;
	g->plan_delay = delay;
	g->hb_due = NOT_DUE;
	g->deadline = now + DISCORD_GW_CLOSE_TIMEOUT;
	gw_push(g, DISCORD_GW_CLOSE, code, NULL, NULL);
}

/* The connection failed before the link was up (or went down): count it. */
static void
failed(struct discord_gateway *g)
{
	if (g->resuming && ++g->resume_fails >= DISCORD_GW_RESUME_TRIES) {
		gw_log(g, LOG_LVL_NOTICE, "gateway: %d resumes failed; starting a new session", g->resume_fails);
		forget_session(g);
	}
	g->fails++;
	if (!g->resuming && g->fails % DISCORD_GW_URL_TRIES == 0)
		/* the cached URL may be stale: gateway.mdx says to ask again when it fails */
		gw_push(g, DISCORD_GW_FETCH_URL, 0, NULL, NULL);
}

/* ------------------------------------------------------------------ life */

struct discord_gateway *
discord_gateway_new(const struct discord_gw_config *cfg)
{
	struct discord_gateway *g;

	if (cfg->token == NULL || strlen(cfg->token) >= sizeof g->token ||
	    (cfg->url != NULL && strlen(cfg->url) >= sizeof g->url))
		return NULL;
	g = xcalloc(1, sizeof *g);
	snprintf(g->token, sizeof g->token, "%s", cfg->token);
	if (cfg->url != NULL)
		snprintf(g->url, sizeof g->url, "%s", cfg->url);
	g->intents = cfg->intents;
	g->random = cfg->random;
	g->random_ctx = cfg->random_ctx;
	g->budgeted = cfg->budgeted;
	g->shard_id = cfg->shard_id;
	g->shard_count = cfg->shard_count;
	g->last_identify = g->start_after = NOT_DUE;
	g->seq = -1;
	g->hb_due = g->deadline = g->retry_due = NOT_DUE;
	g->acked = true;
	return g;
}

void
discord_gateway_free(struct discord_gateway *g)
{
	struct discord_gw_act a;

	if (g == NULL)
		return;
	while (discord_gateway_next(g, &a))
		discord_gateway_act_free(&a);
	secret_wipe(g->token, sizeof g->token);
	free(g);
}

void
discord_gateway_start(struct discord_gateway *g, int64_t now)
{
	if (g->phase != DISCORD_GW_PH_IDLE)
		return;
	gw_connect_now(g, now);
}

void
discord_gateway_stop(struct discord_gateway *g, int64_t now)
{
	(void)now;
	if (g->phase == DISCORD_GW_PH_STOPPED || g->phase == DISCORD_GW_PH_FATAL)
		return;
	if (g->phase == DISCORD_GW_PH_CONNECTING || g->phase == DISCORD_GW_PH_IDENTIFYING ||
	    g->phase == DISCORD_GW_PH_RESUMING || g->phase == DISCORD_GW_PH_CONNECTED ||
	    g->phase == DISCORD_GW_PH_CLOSING)
		/* 1000: the session ends and the bot shows offline (gateway.mdx, Initiating a Disconnect) */
		gw_push(g, DISCORD_GW_CLOSE, 1000, NULL, NULL);
	g->phase = DISCORD_GW_PH_STOPPED;
	g->up = false;
	g->hb_due = g->deadline = g->retry_due = NOT_DUE;
	forget_session(g);
}

/* ------------------------------------------------------------------ heartbeats */

static void
heartbeat(struct discord_gateway *g)
{
	gw_send(g, json_pack("{s:i,s:o}", "op", 1, "d", g->seq >= 0 ? json_integer(g->seq) : json_null()));
	g->acked = false;
}

/* ------------------------------------------------------------------ payloads */

static void
on_hello(struct discord_gateway *g, json_t *d, int64_t now)
{
	json_t *iv = json_object_get(d, "heartbeat_interval");
	json_int_t ms = json_is_integer(iv) ? json_integer_value(iv) : 0;

	if (g->phase != DISCORD_GW_PH_CONNECTING) {
		gw_log(g, LOG_LVL_DEBUG, "gateway: Hello out of turn ignored");
		return;
	}
	if (ms < 1 || ms > 600000) {
		gw_log(g, LOG_LVL_WARNING, "gateway: Hello without a usable heartbeat_interval");
		failed(g);
		close_then(g, DISCORD_GW_ZOMBIE_CLOSE, g->resuming ? PLAN_RESUME : PLAN_IDENTIFY, backoff(g), now);
		return;
	}
	g->interval = ms;
	/* gateway.mdx: the first heartbeat after interval * jitter, jitter in [0, 1) */
	g->hb_due = now + (int64_t)(gw_rand01(g) * (double)ms);
	g->acked = true;
	g->deadline = now + DISCORD_GW_READY_TIMEOUT;
	if (g->resuming) {
		gw_send(g, json_pack("{s:i,s:{s:s,s:s,s:I}}", "op", 6, "d", "token", g->token,
		                       "session_id", g->session, "seq", (json_int_t)(g->seq >= 0 ? g->seq : 0)));
		g->phase = DISCORD_GW_PH_RESUMING;
	} else {
		json_t *id = json_pack("{s:s,s:I,s:{s:s,s:s,s:s}}", "token", g->token, "intents", (json_int_t)g->intents,
		                       "properties", "os", "linux", "browser", "handfoot", "device", "handfoot");

		if (id != NULL && g->shard_count > 0)
			json_object_set_new(id, "shard", json_pack("[i,i]", g->shard_id, g->shard_count));
		gw_send(g, json_pack("{s:i,s:o}", "op", 2, "d", id));
		g->phase = DISCORD_GW_PH_IDENTIFYING;
		g->last_identify = g->identify_at = now;
		g->late_acks = 0;
		g->late_logged = g->late_probed = false;
		if (g->budgeted) {
			g->budget_fresh = false;
			g->remaining--;
		}
	}
}

static bool
snowflake_ok(json_t *v)
{
	const char *s = json_string_value(v);
	size_t n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 20)
		return false;
	return strspn(s, "0123456789") == n;
}

static void
on_ready(struct discord_gateway *g, json_t *d, int64_t now)
{
	const char *sid = json_string_value(json_object_get(d, "session_id"));
	const char *rurl = json_string_value(json_object_get(d, "resume_gateway_url"));

	if (g->phase != DISCORD_GW_PH_IDENTIFYING) {
		gw_log(g, LOG_LVL_DEBUG, "gateway: READY out of turn ignored");
		return;
	}
	if (sid == NULL || sid[0] == '\0' || strlen(sid) >= sizeof g->session || strpbrk(sid, "\"\\") != NULL ||
	    rurl == NULL || !gw_url_ok(rurl) ||
	    /* no downgrade: a TLS gateway's resume URL must be TLS too */
	    (strncmp(g->url, "wss://", 6) == 0 && strncmp(rurl, "wss://", 6) != 0) ||
	    !snowflake_ok(json_object_get(json_object_get(d, "user"), "id")) ||
	    !snowflake_ok(json_object_get(json_object_get(d, "application"), "id"))) {
		gw_log(g, LOG_LVL_WARNING, "gateway: READY without a usable session, resume URL, user or application");
		failed(g);
		gw_start_failed(g, now);
		close_then(g, DISCORD_GW_ZOMBIE_CLOSE, PLAN_IDENTIFY, backoff(g), now);
		return;
	}
	snprintf(g->session, sizeof g->session, "%s", sid);
	snprintf(g->resume_url, sizeof g->resume_url, "%s", rurl);
	g->phase = DISCORD_GW_PH_CONNECTED;
	g->deadline = NOT_DUE;
	g->fails = 0;
	g->resume_fails = 0;
	g->start_fails = 0;
	g->start_after = NOT_DUE;
	g->up = true;
	gw_push(g, DISCORD_GW_READY, 0, NULL, json_incref(d));
}

static void
on_dispatch(struct discord_gateway *g, const char *t, json_t *d, int64_t now)
{
	if (strcmp(t, "READY") == 0) {
		on_ready(g, d, now);
		return;
	}
	if (strcmp(t, "RESUMED") == 0) {
		if (g->phase != DISCORD_GW_PH_RESUMING)
			return;
		g->phase = DISCORD_GW_PH_CONNECTED;
		g->deadline = NOT_DUE;
		g->fails = 0;
		g->resume_fails = 0;
		g->up = true;
		gw_push(g, DISCORD_GW_RESUMED, 0, NULL, NULL);
		return;
	}
	/* events replayed during a Resume come before RESUMED: pass them on */
	if (g->phase != DISCORD_GW_PH_CONNECTED && g->phase != DISCORD_GW_PH_RESUMING)
		return;
	gw_push(g, DISCORD_GW_DISPATCH, 0, t, json_incref(d));
}

void
discord_gateway_received(struct discord_gateway *g, const char *text, size_t len, int64_t now)
{
	json_error_t e;
	json_t *p, *op, *s, *d;
	const char *t;

	if (g->phase != DISCORD_GW_PH_CONNECTING && g->phase != DISCORD_GW_PH_IDENTIFYING &&
	    g->phase != DISCORD_GW_PH_RESUMING && g->phase != DISCORD_GW_PH_CONNECTED)
		return;
	p = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	op = json_object_get(p, "op");
	if (!json_is_object(p) || !json_is_integer(op)) {
		gw_log(g, LOG_LVL_WARNING, "gateway: a payload that is not a gateway event was ignored");
		json_decref(p);
		return;
	}
	d = json_object_get(p, "d");
	s = json_object_get(p, "s");
	switch (json_integer_value(op)) {
	case 0:
		t = json_string_value(json_object_get(p, "t"));
		if (t == NULL || !json_is_integer(s) || json_integer_value(s) < 0) {
			gw_log(g, LOG_LVL_WARNING, "gateway: a dispatch without a name or sequence was ignored");
			break;
		}
		/* gateway.mdx: cache the most recent non-null s, for heartbeats and Resume */
		g->seq = json_integer_value(s);
		on_dispatch(g, t, d, now);
		break;
	case 1:
		/* a heartbeat asked for: send one now, keeping the interval */
		if (g->interval > 0)
			heartbeat(g);
		break;
	case 7:
		gw_log(g, LOG_LVL_INFO, "gateway: Discord asked to reconnect (op 7)");
		close_then(g, DISCORD_GW_ZOMBIE_CLOSE, PLAN_RESUME, 0, now);
		break;
	case 9:
		if (json_is_true(d)) {
			gw_log(g, LOG_LVL_INFO, "gateway: session invalid but resumable (op 9)");
			close_then(g, DISCORD_GW_ZOMBIE_CLOSE, PLAN_RESUME, 0, now);
		} else {
			/* a new session after 1-5 s: also what an Identify over the concurrency limit gets;
			 * right after an Identify it is a failed start: back off, do not loop */
			gw_log(g, LOG_LVL_INFO, "gateway: session invalid (op 9): identifying again");
			if (g->phase == DISCORD_GW_PH_IDENTIFYING) {
				failed(g);
				gw_start_failed(g, now);
			}
			forget_session(g);
			close_then(g, DISCORD_GW_ZOMBIE_CLOSE, PLAN_IDENTIFY, 1000 + (int64_t)(gw_rand01(g) * 4000), now);
		}
		break;
	case 10:
		on_hello(g, d, now);
		break;
	case 11:
		g->acked = true;
		if (g->phase == DISCORD_GW_PH_IDENTIFYING)
			g->late_acks++;
		break;
	default:
		gw_log(g, LOG_LVL_DEBUG, "gateway: opcode %d ignored", (int)json_integer_value(op));
	}
	json_decref(p);
}

void
discord_gateway_closed(struct discord_gateway *g, int code, int64_t now)
{
	switch (g->phase) {
	case DISCORD_GW_PH_CLOSING:
		g->deadline = NOT_DUE;
		if (g->plan == PLAN_IDENTIFY)
			forget_session(g);
		reconnect_after(g, g->plan_delay, now);
		return;
	case DISCORD_GW_PH_CONNECTING:
	case DISCORD_GW_PH_IDENTIFYING:
	case DISCORD_GW_PH_RESUMING:
	case DISCORD_GW_PH_CONNECTED:
		break;
	default:
		return;
	}
	say_down(g);
	if (discord_gateway_close_fatal(code)) {
		g->phase = DISCORD_GW_PH_FATAL;
		g->hb_due = g->deadline = g->retry_due = NOT_DUE;
		forget_session(g);
		gw_push(g, DISCORD_GW_FATAL, code, discord_gateway_close_text(code), NULL);
		return;
	}
	if (g->phase != DISCORD_GW_PH_CONNECTED)
		failed(g);
	if (g->phase == DISCORD_GW_PH_IDENTIFYING)
		gw_start_failed(g, now);
	if (close_ends_session(code))
		forget_session(g);
	gw_log(g, LOG_LVL_INFO, "gateway: closed (%d, %s); %s", code, discord_gateway_close_text(code),
	       g->session[0] != '\0' ? "resuming" : "identifying");
	reconnect_after(g, backoff(g), now);
}

void
discord_gateway_tick(struct discord_gateway *g, int64_t now)
{
	if (g->phase == DISCORD_GW_PH_WAIT_RETRY && g->retry_due != NOT_DUE && now >= g->retry_due) {
		gw_connect_now(g, now);
		return;
	}
	if (g->deadline != NOT_DUE && now >= g->deadline) {
		g->deadline = NOT_DUE;
		if (g->phase == DISCORD_GW_PH_CLOSING) {
			/* the socket never said it closed: go on as if it had */
			discord_gateway_closed(g, 0, now);
			return;
		}
		if (g->phase == DISCORD_GW_PH_IDENTIFYING && g->late_acks > 0 &&
		    now - g->identify_at < DISCORD_GW_READY_PATIENCE) {
			/* gateway.mdx: in an outage keep heartbeating; Discord issues the
			 * session once it can. A new Identify would only spend the budget. */
			if (!g->late_logged)
				gw_log(g, LOG_LVL_NOTICE, "gateway: READY is late but Discord answers heartbeats: "
				       "keeping the link (up to %d min) rather than identifying again",
				       DISCORD_GW_READY_PATIENCE / 60000);
			g->late_logged = true;
			g->late_acks = 0;
			/* at least one heartbeat falls in the next wait */
			g->deadline = now + g->interval + DISCORD_GW_PROBE_TIMEOUT;
			return;
		}
		if (g->phase == DISCORD_GW_PH_IDENTIFYING && !g->late_probed && g->interval > 0) {
			/* no heartbeat yet (the first may come after the deadline): ask now
			 * whether Discord is there before giving the Identify up */
			g->late_probed = true;
			heartbeat(g);
			g->deadline = now + DISCORD_GW_PROBE_TIMEOUT;
			return;
		}
		if (g->phase == DISCORD_GW_PH_IDENTIFYING)
			gw_start_failed(g, now);
		gw_log(g, LOG_LVL_NOTICE, "gateway: no %s in time; reconnecting",
		       g->phase == DISCORD_GW_PH_CONNECTING ? "Hello" : g->resuming ? "RESUMED" : "READY");
		failed(g);
		close_then(g, DISCORD_GW_ZOMBIE_CLOSE, g->session[0] != '\0' ? PLAN_RESUME : PLAN_IDENTIFY,
		           backoff(g), now);
		return;
	}
	if (g->hb_due != NOT_DUE && now >= g->hb_due) {
		if (!g->acked) {
			/* gateway.mdx: no ACK between two heartbeats is a zombie link: close
			 * with a code other than 1000/1001 (the session stays) and Resume */
			gw_log(g, LOG_LVL_NOTICE, "gateway: no heartbeat ACK; the link is dead, resuming");
			close_then(g, DISCORD_GW_ZOMBIE_CLOSE, g->session[0] != '\0' ? PLAN_RESUME : PLAN_IDENTIFY, 0, now);
			return;
		}
		heartbeat(g);
		g->hb_due = now + g->interval;
	}
}

int64_t
discord_gateway_due(const struct discord_gateway *g)
{
	int64_t due = NOT_DUE;
	int64_t c[3] = { g->phase == DISCORD_GW_PH_WAIT_RETRY ? g->retry_due : NOT_DUE, g->deadline, g->hb_due };

	for (int i = 0; i < 3; i++)
		if (c[i] != NOT_DUE && (due == NOT_DUE || c[i] < due))
			due = c[i];
	return due;
}

enum discord_gw_phase
discord_gateway_phase(const struct discord_gateway *g)
{
	return g->phase;
}

const char *
discord_gateway_phase_name(enum discord_gw_phase p)
{
	static const char *const names[] = {
		"idle", "wait-url", "wait-retry", "connecting", "identifying", "resuming",
		"connected", "closing", "stopped", "fatal",
	};

	return (size_t)p < sizeof names / sizeof names[0] ? names[p] : "?";
}

const char *
discord_gateway_session(const struct discord_gateway *g)
{
	return g->session;
}

int64_t
discord_gateway_seq(const struct discord_gateway *g)
{
	return g->seq;
}
