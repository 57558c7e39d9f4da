/* client.h: one running Discord adapter: its parts (link, REST, answers), what it remembers, and the three files that share it. */
#ifndef HF_DISCORD_CLIENT_H
#define HF_DISCORD_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "adapter.h"
#include "outq.h"
#include "again.h"
#include "config.h"
#include "recent.h"
#include "rest.h"

#define DISCORD_DOWN_GRACE_MS 5000   /* a link back within this (a Resume) is not reported down */
#define DISCORD_DM_FALLBACK_MS (10 * 60 * 1000) /* "I cannot DM you" said at most this often per player */
#define DISCORD_REFUSED_MAX 64   /* channels remembered as refusing the bot's lines */
#define DISCORD_PROMPTS_MAX 256  /* channels whose latest turn line number is kept */
/* An interaction delivered this long after it was made (a Resume's replay)
 * is not acted on: it could not be answered within Discord's 3 s anyway. */
#define DISCORD_IA_MAX_AGE_MS 2500

struct discord_prompt {
	char channel[DISCORD_ID_LEN];
	unsigned n;
};

struct discord_out;
struct discord_dm;

/* A REST request the client waits for the answer of (freed with the client
 * if it never comes: discord_rest_free calls no callback). */
enum discord_req_kind {
	DISCORD_REQ_GATEWAY = 1,   /* GET /gateway/bot */
	DISCORD_REQ_REGISTER,      /* PUT .../commands */
	DISCORD_REQ_ANSWER,        /* an interaction's answer, follow-up, edit, delete or channel line */
	DISCORD_REQ_ROOM,          /* a room's line */
	DISCORD_REQ_DM_OPEN,       /* POST /users/@me/channels */
	DISCORD_REQ_DM_POST        /* a private line in a DM */
};

struct discord_req {
	struct discord_client *c;
	enum discord_req_kind kind;
	uint64_t ref;              /* ANSWER: the interaction */
	int ans_kind;              /* ANSWER: enum discord_answer_kind */
	char channel[DISCORD_ID_LEN]; /* ANSWER, ROOM: the channel its lines show in (pending) */
	char user[DISCORD_ID_LEN];    /* DM_*: the player */
	int shard;                    /* GATEWAY: the shard's index, -1 for the count at start */
	char room[DISCORD_ID_LEN];    /* DM_*: the room of the game, for the fallback */
	char guild[DISCORD_ID_LEN];   /* REGISTER: the guild, "" for global */
	bool clear;                   /* REGISTER: an empty list, taking stale commands away */
	char key[DISCORD_AGAIN_KEY];  /* ROOM: an answer's supersede key, "" for what must be delivered */
	int64_t deadline;             /* ANSWER: no retry past it (discord_rest_call_by) */
	struct discord_req *prev, *next;
};

struct discord_client {
	struct adapter *a;
	struct loop *loop;
	struct discord_config cfg;          /* the token kept till free: the shards start once their count is known */
	struct discord_restio *io;
	struct discord_rest *rest;
	/* the shards this process runs (gateway.mdx, Sharding); each its own link */
	struct discord_shard {
		struct discord_client *c;
		int id;
		struct discord_link *link;
		bool fetching;            /* its GET /gateway/bot is on its way */
		long long timer;          /* a retry of it, or its turn for max_concurrency */
		json_t *held;             /* an answer held until that turn */
	} shards[DISCORD_SHARDS_MAX];
	size_t nshards;
	int shard_count;                    /* the total, in every process */
	bool sharding;                      /* the first GET /gateway/bot (the count) is on its way */
	bool stopped;                       /* stop came: no shard is started after it */
	bool resharded;                     /* a 4011 made it start over with Discord's count once */
	int64_t key_next[DISCORD_SHARDS_MAX]; /* per rate_limit_key: the next Identify's earliest time */
	struct discord_answer *ans;         /* from READY on (it needs the application id) */
	struct discord_recent *recent;
	struct discord_again *again;        /* ephemeral answers, to say again (again.h) */
	char app_id[DISCORD_ID_LEN];
	char self_id[DISCORD_ID_LEN];
	char self_name[DISCORD_MAX_NAME + 1];
	bool up, said_up, told_down, registered, fatal, fetching;
	long long down_timer, url_timer, answer_timer, batch_timer;
	int64_t answer_due;
	int url_tries;
	struct discord_out *batch, **batch_tail;
	struct outq *lanes;                 /* channel lines waiting their turn (lib/outq), NULL until one */
	long long lanes_timer;              /* an answer waits for its channel's bucket to reset */
	int64_t lanes_wake;                 /* the shortest such wait met by the last pump (ms), 0: none */
	struct discord_dm *dms;
	struct discord_req *reqs;
	uint64_t nonce;                     /* channel posts' nonces: a retried request never posts twice */
	/* the interaction being handled: whether its user moderates its channel (is_moderator) */
	char cur_user[DISCORD_ID_LEN], cur_channel[DISCORD_ID_LEN];
	bool cur_moderator;
	/* channels that refused a line (403/404): nothing more is posted there (refused.c) */
	char refused[DISCORD_REFUSED_MAX][DISCORD_ID_LEN];
	size_t nrefused;
	/* the latest turn line's number per channel (prompt.c); numbers start at the start's clock */
	struct discord_prompt prompts[DISCORD_PROMPTS_MAX];
	size_t nprompts;
	unsigned prompt_seq;
	/* the smallest delay seen from an interaction's snowflake to its arrival: the clocks' skew */
	int64_t ia_skew;
	bool ia_skew_set;
};

/* client.c */
struct discord_client *discord_client_new(struct adapter *a, const struct discord_config *cfg);
int  discord_client_start(struct discord_client *c);
void discord_client_stop(struct discord_client *c);
void discord_client_free(struct discord_client *c);
/* A request with a context the client keeps until its answer; body taken. */
int  discord_client_call(struct discord_client *c, const char *method, const char *path, json_t *body,
                         struct discord_req *req, discord_rest_done_fn *done);
struct discord_req *discord_client_req(struct discord_client *c, enum discord_req_kind kind);
void discord_client_req_done(struct discord_req *req);
/* Logs through the adapter. */
void discord_client_log(struct discord_client *c, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* refused.c: channels that refused the bot's lines. mark: once per channel,
 * BOT_EV_SEND_FAILED with the room (the core tells the table's owner), the
 * channel's queued lines dropped; clear: an interaction there says the bot may post again. */
void discord_refused_mark(struct discord_client *c, const char *channel, long status, long long code);
bool discord_refused_has(const struct discord_client *c, const char *channel);
void discord_refused_clear(struct discord_client *c, const char *channel);

/* prompt.c: next numbers a new turn line in channel; current is the latest (0: none) */
unsigned discord_prompt_next(struct discord_client *c, const char *channel);
unsigned discord_prompt_current(struct discord_client *c, const char *channel);

/* commands.c: the slash commands, registered once per start (and stale ones cleared) */
void discord_commands_register(struct discord_client *c);

/* events.c: what Discord tells the bot */
void discord_events_dispatch(struct discord_client *c, const char *name, json_t *d);
/* Whether player ("discord:<id>") moderates channel room, as the interaction being handled says. */
bool discord_events_moderator(const struct discord_client *c, const char *room, const char *player);

/* outbox.c: what the bot tells Discord */
int    discord_outbox_send(struct discord_client *c, const struct adapter_msg *m);
size_t discord_outbox_pending(struct discord_client *c, const char *room);
/* Everything still to go out, every room and person (a stop waits for 0). */
size_t discord_outbox_queued(struct discord_client *c);
/* lanes.c calls these: post msg (a channel message of the batch) now, or
 * free it unsent (a newer answer replaced it, a lane dropped). */
void   discord_outbox_post(struct discord_client *c, void *msg);
void   discord_outbox_discard(void *msg);
/* dm.c calls these: a message body (content, its one ping or none) and
 * POST /channels/{channel}/messages with it (owned; kind names the lane). */
#define DISCORD_SUPPRESS_EMBEDS 4   /* message flag 1 << 2: a name that looks like a URL grows no preview */
json_t *discord_outbox_body(const char *content, size_t n, const char *ping);
void   discord_outbox_channel(struct discord_client *c, enum discord_req_kind kind, const char *channel,
                              const char *user, json_t *body, const char *key);

/* lanes.c: channel messages take turns in lib/outq's lanes (docs/OUTQ.md:
 * the games' and seated players' before strangers' answers, a newer answer
 * replacing one still waiting); a message is handed to REST only when its
 * request would start at once (nothing of its channel ahead of it, its
 * bucket open), so outq alone says whose line goes next in a channel (a
 * game's next line waits behind the one in flight, not a flooder's
 * backlog in the channel's bucket), and REST never holds an answer that a
 * newer one should have replaced. */
/* Queues msg (outbox.c's) for channel with its facts (lib/outq's: key, an
 * answer's supersede key, NULL: it must be delivered; asker its lane;
 * again: it only points at the same answer said a moment ago: where that
 * one still waits, msg is freed, that one says it).  -1 if the lanes are
 * full. */
int    discord_lanes_add(struct discord_client *c, const char *channel, const struct outq_msg *facts, void *msg);
/* Hands REST what may go now (after a send, a request done, a timer). */
void   discord_lanes_pump(struct discord_client *c);
/* What must be delivered waiting in room's lane; everything waiting. */
size_t discord_lanes_pending(const struct discord_client *c, const char *room);
size_t discord_lanes_queued(const struct discord_client *c);
/* Drops the messages still waiting for channel (its posts refused), or
 * every one with channel NULL (the token refused); how many.  What REST
 * holds already is REST's. */
size_t discord_lanes_drop(struct discord_client *c, const char *channel);
void   discord_lanes_free(struct discord_client *c);
/* Runs the answers' ops and re-arms their timer (after begin, say, result). */
void   discord_outbox_answers(struct discord_client *c);
/* After the bot had interaction ref from user in channel (its command line): if it
 * said nothing privately to it (flood control dropped it), says again the
 * answer it gave the same question less than a minute ago (again.h). */
void   discord_outbox_again(struct discord_client *c, uint64_t ref, const char *user, const char *channel,
                            const char *line);
/* A private reply to an interaction, at once (the pressed button is not theirs...). */
void   discord_outbox_say_private(struct discord_client *c, uint64_t ref, const char *content);
/* A player's DMs refused the bot (50007): no DM is tried until reopen (they chose DMs again). */
bool   discord_dm_closed(struct discord_client *c, const char *user);
void   discord_dm_reopen(struct discord_client *c, const char *user);
void   discord_outbox_free(struct discord_client *c);

#endif
