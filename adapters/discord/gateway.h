/* gateway.h: the Discord Gateway's state machine: pure (no I/O), time and randomness given by the caller. */
#ifndef HF_DISCORD_GATEWAY_H
#define HF_DISCORD_GATEWAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Gateway intents (developers/events/gateway.mdx, "List of Intents"). */
#define DISCORD_INTENT_GUILDS          (1u << 0)
#define DISCORD_INTENT_GUILD_MESSAGES  (1u << 9)
#define DISCORD_INTENT_DIRECT_MESSAGES (1u << 12)
#define DISCORD_INTENT_MESSAGE_CONTENT (1u << 15)   /* privileged */

/* Only what the bot needs: GUILDS always (GUILD_CREATE: the guilds and
 * channels); messages and their content only for !draw-style commands. */
unsigned discord_gateway_intents(bool message_commands);

/* Limits and delays, in ms unless said. */
#define DISCORD_GW_HELLO_TIMEOUT   20000   /* from CONNECT to Hello */
#define DISCORD_GW_READY_TIMEOUT   30000   /* from Identify/Resume to READY/RESUMED */
#define DISCORD_GW_CLOSE_TIMEOUT   10000   /* from our CLOSE to the socket reported closed */
#define DISCORD_GW_BACKOFF_MAX     60000
#define DISCORD_GW_RESUME_TRIES    3       /* failed Resume attempts before a new session */
#define DISCORD_GW_URL_TRIES       3       /* failed connects before GET /gateway/bot is asked again */
#define DISCORD_GW_ZOMBIE_CLOSE    4000    /* our close code for a dead link: not 1000/1001, so the session stays */
#define DISCORD_GW_PROBE_TIMEOUT   10000   /* READY late: a heartbeat's ACK awaited this long */
#define DISCORD_GW_READY_PATIENCE  600000  /* READY late but heartbeats ACKed: keep the link this long */
#define DISCORD_GW_START_WINDOW    5000    /* max_concurrency Identifys per this (gateway.mdx) */
#define DISCORD_GW_START_BACKOFF   5000    /* after a failed start: this, x3 each time, up to ... */
#define DISCORD_GW_START_BACKOFF_MAX 900000
#define DISCORD_GW_MAX_URL         512
#define DISCORD_GW_MAX_SESSION     128

enum discord_gw_phase {
	DISCORD_GW_PH_IDLE = 0,
	DISCORD_GW_PH_WAIT_URL,      /* FETCH_URL asked; discord_gateway_set_url continues */
	DISCORD_GW_PH_WAIT_RETRY,    /* a reconnect is due later */
	DISCORD_GW_PH_CONNECTING,    /* CONNECT asked; waiting for Hello */
	DISCORD_GW_PH_IDENTIFYING,   /* Identify sent; waiting for READY */
	DISCORD_GW_PH_RESUMING,      /* Resume sent; waiting for RESUMED */
	DISCORD_GW_PH_CONNECTED,
	DISCORD_GW_PH_CLOSING,       /* CLOSE asked; waiting for the socket to report closed */
	DISCORD_GW_PH_STOPPED,
	DISCORD_GW_PH_FATAL       /* a close code forbids retrying: nothing more happens */
};

/* What the caller must do, in order (discord_gateway_next). */
enum discord_gw_act_kind {
	DISCORD_GW_CONNECT = 1,   /* text: the URL to open (any open socket is dropped first) */
	DISCORD_GW_SEND,          /* text: one payload for the open socket; holds the token: never log it */
	DISCORD_GW_CLOSE,         /* code: close the socket with it, then call discord_gateway_closed */
	DISCORD_GW_FETCH_URL,     /* ask GET /gateway/bot, then call discord_gateway_set_url */
	DISCORD_GW_READY,         /* a new session is up: d is READY's data (user, application, guilds) */
	DISCORD_GW_RESUMED,       /* the session is up again; missed events came before this */
	DISCORD_GW_DOWN,          /* the link that was up is lost (said once per up) */
	DISCORD_GW_DISPATCH,      /* text: the event name, d: its data */
	DISCORD_GW_FATAL,         /* code: the close code; text: why, for the log; then nothing more */
	DISCORD_GW_LOG            /* code: a LOG_LVL_*; text: the line */
};

struct discord_gw_act {
	enum discord_gw_act_kind kind;
	int code;
	char *text;
	json_t *d;
};

struct discord_gw_config {
	const char *token;            /* copied; sent only in Identify and Resume */
	unsigned intents;
	/* The host gives GET /gateway/bot's answer (discord_gateway_set_bot) before
	 * every Identify: FETCH_URL is asked each time a new session is needed, and
	 * the Identify waits for the budget and the concurrency it says. */
	bool budgeted;
	int shard_id, shard_count;    /* shard_count 0: no shard field in Identify */
	const char *url;              /* from GET /gateway/bot; NULL: asked with FETCH_URL first */
	/* Uniform 32-bit random numbers (heartbeat and reconnect jitter). */
	uint32_t (*random)(void *ctx);
	void *random_ctx;
};

struct discord_gateway;

struct discord_gateway *discord_gateway_new(const struct discord_gw_config *cfg);
void discord_gateway_free(struct discord_gateway *g);

/* Inputs: each may queue actions. now is the caller's clock in ms. */
void discord_gateway_start(struct discord_gateway *g, int64_t now);
void discord_gateway_set_url(struct discord_gateway *g, const char *url, int64_t now);
/* GET /gateway/bot's answer: its url and session_start_limit (total, remaining,
 * reset_after, max_concurrency); wall is the wall clock in seconds at now (for
 * the log's "until"). Returns -1 (and logs) if it has no usable URL. */
int discord_gateway_set_bot(struct discord_gateway *g, json_t *body, int64_t wall, int64_t now);
/* A payload received on the open socket (a text frame). */
void discord_gateway_received(struct discord_gateway *g, const char *text, size_t len, int64_t now);
/* The socket closed or could not open; code is the close code received, 0 if none (an abnormal close). */
void discord_gateway_closed(struct discord_gateway *g, int code, int64_t now);
/* Runs what is due at now (heartbeats, timeouts, reconnects). */
void discord_gateway_tick(struct discord_gateway *g, int64_t now);
/* Closes with 1000 (the session ends) and does nothing more. */
void discord_gateway_stop(struct discord_gateway *g, int64_t now);

/* When discord_gateway_tick should run next (absolute ms), or -1 if nothing is due. */
int64_t discord_gateway_due(const struct discord_gateway *g);
/* Takes the next action (caller frees it with discord_gateway_act_free); false if none. */
bool discord_gateway_next(struct discord_gateway *g, struct discord_gw_act *out);
void discord_gateway_act_free(struct discord_gw_act *a);

enum discord_gw_phase discord_gateway_phase(const struct discord_gateway *g);
const char *discord_gateway_phase_name(enum discord_gw_phase p);
/* The session (empty if none) and the last sequence number (-1 if none). */
const char *discord_gateway_session(const struct discord_gateway *g);
int64_t discord_gateway_seq(const struct discord_gateway *g);
/* The URL a connection is made to: base + "/?v=10&encoding=json"; -1 if it does not fit. */
int discord_gateway_url(const char *base, char *out, size_t outlen);
/* Text for a close code ("Authentication failed"...), and whether it forbids reconnecting. */
const char *discord_gateway_close_text(int code);
bool discord_gateway_close_fatal(int code);

#endif
