/* matrix.h: the Matrix adapter's internal header: text hygiene, the sync parser, the outbox, the client and its parts. */
#ifndef HF_MATRIX_INTERNAL_H
#define HF_MATRIX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>
#include <jansson.h>

#include "adapter.h"
#include "http.h"
#include "outq.h"
#include "rbuf.h"
#include "style.h"
#include "xmalloc.h"

struct loop;
struct http;

/* The longest plain body of one event we send (a longer message is cut in
 * several events, at line breaks first), and the longest we pass on to the bot. */
#define MATRIX_MAX_LINE    4000
#define MATRIX_MAX_IN      1000   /* bytes of a message body given to the bot */
#define MATRIX_MAX_NAME    64     /* bytes of a display name given to the bot */
#define MATRIX_MAX_ID      255    /* the spec's limit on user, room and event ids */

/* ---- text.c: ids and URLs (text from the server is cleaned by utf8_clean) ---- */

/* True if s is a plausible Matrix identifier with the given sigil ('@', '!',
 * '$', '#'; 0: any): printable ASCII, no spaces, 2..255 bytes. */
bool   matrix_text_id_ok(const char *s, char sigil);
/* True if the n bytes at s are printable ASCII with no space (ids, tokens, next_batch). */
bool   matrix_text_visible(const char *s, size_t n);
/* Percent-encodes s for a URL path segment into out; -1 if it does not fit. */
int    matrix_text_urlenc(const char *s, char *out, size_t outlen);

/* ---- html.c: the bot's styled text as Matrix HTML ---- */

/* Appends len bytes of styled text (lib/style.h) as org.matrix.custom.html:
 * <b>, <span data-mx-color> for the colour roles, <br> for line breaks, the text
 * escaped, commands with prefix before them. */
void   matrix_html(struct rbuf *out, const char *m, size_t len, const char *prefix);
/* The same, the first player span that reads name made a pill (a link to
 * https://matrix.to/#/user) for user; user NULL: none. */
void   matrix_html_pill(struct rbuf *out, const char *m, size_t len, const char *prefix, const char *user,
                        const char *name);

/* ---- sync.c: a /sync response in, a list of plain items out (pure: no I/O) ---- */

enum matrix_item_kind {
	MX_IT_MESSAGE = 1, /* room, user, name, text, event_id, ts, notice */
	MX_IT_JOIN,        /* room, user, name, event_id */
	MX_IT_LEAVE,       /* room, user, event_id: someone else left */
	MX_IT_RENAME,      /* room, user, text: new display name, event_id */
	MX_IT_NAME,        /* room, user, name: a display name learnt from room state */
	MX_IT_INVITE,      /* room, user: who invited us, direct: is_direct invite,
	                    * forged: the stripped state disagrees with the invite event */
	MX_IT_REMOVED,     /* room: we left, were kicked or banned */
	MX_IT_ENCRYPTED,   /* room: has m.room.encryption */
	MX_IT_DIRECT,      /* user, room: from the m.direct account data */
	MX_IT_JOINED,      /* room: a room we are in (each room of rooms.join) */
	MX_IT_POWER,       /* room, text: its moderators' ids, space separated (at most
	                    * MATRIX_POWER_MODS), everyone: every member is one; from
	                    * m.room.power_levels */
	MX_IT_MEMBER,      /* room, user, text: someone else's membership (join, invite,
	                    * knock, leave, ban) from the state or the timeline, history
	                    * included; a third-party invite: user its sender, text "invite" */
	MX_IT_JOIN_RULE,   /* room, text: m.room.join_rules' join_rule */
	MX_IT_HISTORY,     /* room, text: m.room.history_visibility's history_visibility */
	MX_IT_MADE,        /* room, user: a room we made as user's direct room (our
	                    * MATRIX_MADE_TYPE state event in it) */
	MX_IT_TOMBSTONE,   /* room, user: its sender, text: the replacement room (m.room.tombstone) */
	MX_IT_CREATE,      /* room, user: its creator, text: additional_creators (space separated),
	                    * everyone: a room version (12 on) whose creators have infinite power */
	MX_IT_NOTICE_ROOM, /* room, notice: whether its m.tag now holds m.server_notice (the
	                    * server notices room: resource limits, terms) */
	MX_IT_SERVER_NOTICE /* room, user, text, event_id, name: server_notice_type (or NULL): an
	                    * m.room.message of msgtype m.server_notice */
};

/* The state event the bot puts in the rooms it makes for hands, naming the
 * player: a createRoom that failed after it made the room (an answer lost, a
 * remote invite refused) leaves a room that is found again, not made twice. */
#define MATRIX_MADE_TYPE "org.handfoot.direct"

struct matrix_item {
	enum matrix_item_kind kind;
	char *room, *user, *name, *text, *event_id;
	int64_t ts;
	bool notice, direct, forged, everyone;
	bool widget;       /* POWER: we may set the room widget (MATRIX_WIDGET_TYPE) */
	bool stale;        /* MESSAGE: its room's timeline was cut (limited): older events
	                    * skipped, so it is out of context */
	char *thread;      /* MESSAGE: the root of the thread it was said in, or NULL */
};

/* A room's moderators: users whose power level reaches the room's kick or
 * redact level (each 50 unless the room says otherwise).  At most this many
 * are kept per room; a hostile server cannot grow us with a long list. */
#define MATRIX_POWER_MODS 64

struct matrix_sync {
	char *next_batch;
	struct matrix_item *items;
	size_t nitems, capitems;
	bool has_direct;        /* the response carried m.direct account data */
	size_t limited;         /* rooms whose timeline the server cut (older events skipped) */
};

#define MATRIX_SYNC_MAX_ITEMS 5000
/* A /sync answer over this is dropped and asked for again with less in it
 * (poll.c); events are at most 64 KiB, and the normal filter asks for at
 * most MATRIX_SYNC_TIMELINE of them per room. */
#define MATRIX_SYNC_MAX_BYTES (8u << 20)
#define MATRIX_SYNC_TIMELINE  20

/* Parses a sync response. self: our user id (our own events are skipped).
 * initial: the first sync without a since token: the timelines are history,
 * so no message, join, leave or rename is reported (state still is).
 * Returns 0, or -1 with why set if the text is not a sync response. */
int  matrix_sync_parse(const char *json, size_t len, const char *self, bool initial,
                       struct matrix_sync *out, const char **why);
void matrix_sync_free(struct matrix_sync *s);

/* ---- outbox.c: queued messages, their txn ids, retries; lanes per room, one send in flight ---- */

/* Where the outbox keeps its entries (the adapter's state store). */
struct matrix_store {
	void *ctx;
	int (*get)(void *ctx, const char *key, char *buf, size_t len);
	int (*set)(void *ctx, const char *key, const char *value);
	int (*del)(void *ctx, const char *key);
	int (*each)(void *ctx, const char *prefix,
	            void (*fn)(void *fctx, const char *key, const char *value), void *fctx);
};

struct matrix_out {
	uint64_t seq;
	char *txn;             /* the transaction id, fixed when queued */
	char *room;            /* target room; NULL until a private message's direct room is known */
	char *user;            /* MSG_PRIVATE: the player */
	char *context;         /* MSG_PRIVATE: the game room, to report failures in */
	char *lane;            /* the room whose turn it waits: its own, or its game's (context) */
	char *key;             /* an answer's key (adapter_msg.supersede), NULL if it must be delivered */
	char *asker;           /* an answer: whose command (adapter_msg.asker); with key NULL, not the
	                        * room's story (matrix_outbox_count_told does not count it) */
	char *body, *html;
	char **mentions;
	size_t nmentions;
	int tries;
	int64_t not_before;    /* loop time before which it is not retried */
	bool in_flight;
	bool player;           /* an answer to a seated player (adapter_msg.player): its lane goes first */
	bool ping;             /* a prompt (adapter_msg.prompt_user): m.text, which notifies, not m.notice */
	char *thread, *reply;  /* an answer to a command said in a thread: its root, and the command */
	struct matrix_out *next, *prev;    /* every message, in order */
	struct outq_item *it;               /* its place in its lane (lib/outq) */
};

struct matrix_outbox;

/* A lane holds at most MATRIX_OUTBOX_LANE messages (one room, or one asker,
 * cannot crowd the others out), the outbox MATRIX_OUTBOX_MAX. */
#define MATRIX_OUTBOX_LANE 200
#define MATRIX_OUTBOX_MAX  10000

/* Loads the persisted entries (after a restart they are sent again with
 * their old txn ids, which the server de-duplicates). */
struct matrix_outbox *matrix_outbox_new(const struct matrix_store *st);
void   matrix_outbox_free(struct matrix_outbox *o);
/* Queues and persists one message before it is ever tried, in the lane of
 * context (its game's room) if given, else of its room (or user). room may
 * be NULL for a private message whose direct room is not known yet.  NULL
 * if it cannot be queued: its lane or the outbox is full. */
struct matrix_out *matrix_outbox_add(struct matrix_outbox *o, const char *room, const char *user,
                                     const char *context, const char *body, const char *html,
                                     const char *const *mentions, size_t nmentions);
/* What a message answers, as the adapter knows it (lib/outq decides from
 * it the class and which older answer it replaces). */
struct matrix_answer {
	const char *key;        /* its supersede key (adapter_msg.supersede); NULL: it must be delivered */
	const char *asker;      /* whose question it answers (NULL: nobody's) */
	bool player;            /* the asker is seated at a table (not kept across restarts: an answer
	                         * is then said as a stranger's) */
	bool piece;             /* the next piece of the message added just before it */
	bool again;             /* it only points at the same answer said a moment ago
	                         * (adapter_msg.again): it replaces nothing, and where that answer
	                         * still waits, that one is returned instead: it says it */
};
/* The same for an answer (a NULL: as matrix_outbox_add): with a key, it
 * waits in its asker's lane (apart from every room's), and replaces the
 * same answer to the same target still waiting there. */
struct matrix_out *matrix_outbox_add_key(struct matrix_outbox *o, const char *room, const char *user,
                                         const char *context, const char *body, const char *html,
                                         const char *const *mentions, size_t nmentions,
                                         const struct matrix_answer *a);
/* m asks someone to act (a turn prompt, a reminder): sent as m.text, since
 * the default push rule .m.rule.suppress_notices silences every m.notice
 * before .m.rule.is_user_mention is reached (persisted). */
void matrix_outbox_ping(struct matrix_outbox *o, struct matrix_out *m);
/* m answers a command said in the thread of root: it goes in that thread,
 * in reply to the command (persisted). */
void matrix_outbox_thread(struct matrix_outbox *o, struct matrix_out *m, const char *root, const char *reply);
/* The next message that may go now: nothing while one is in flight or the
 * account is paused; else the lanes in turn (round-robin), each its oldest
 * message with a room, unless that one waits for a retry; the rooms' lanes
 * (and the players' answers) first, but never more than
 * MATRIX_OUTBOX_FIRST_RUN in a row while a stranger's answer may go;
 * while no more than MATRIX_OUTBOX_FEW_RESTS strangers' lanes wait, one
 * with a single question (no backlog) goes after one room message.
 * O(lanes).  NULL if none; *wait_ms then says when to look again (-1:
 * nothing is waiting). */
#define MATRIX_OUTBOX_FIRST_RUN OUTQ_FIRST_RUN
#define MATRIX_OUTBOX_FEW_RESTS OUTQ_FEW_RESTS
struct matrix_out *matrix_outbox_next(struct matrix_outbox *o, int64_t now, int64_t *wait_ms);
/* m's send has started: nothing else goes until it is done or retried. */
void   matrix_outbox_flying(struct matrix_outbox *o, struct matrix_out *m);
/* Whether a send is in flight. */
bool   matrix_outbox_busy(const struct matrix_outbox *o);
/* Until when a 429 makes every send wait (0: never paused). */
int64_t matrix_outbox_paused_until(const struct matrix_outbox *o);
/* The server limits the account, not a room (a 429): no send before until. */
void   matrix_outbox_pause(struct matrix_outbox *o, int64_t until);
/* Takes room from every private message routed to it and not in flight:
 * they wait for a direct room again (persisted). */
void   matrix_outbox_unresolve(struct matrix_outbox *o, const char *room);
/* Gives every unresolved message of user the room (and persists it). */
void   matrix_outbox_resolve(struct matrix_outbox *o, const char *user, const char *room);
/* First message waiting for a direct room with user NULL, or the first unresolved one. */
struct matrix_out *matrix_outbox_unresolved(struct matrix_outbox *o, const char *user);
/* Done (sent, or given up): removes it from the queue and the store. */
void   matrix_outbox_done(struct matrix_outbox *o, struct matrix_out *m);
/* Failed for now: retried after retry_ms if >= 0, else after a backoff. */
void   matrix_outbox_retry(struct matrix_outbox *o, struct matrix_out *m, int64_t now, int64_t retry_ms);
/* The backoff after tries failures: 0.5 s, 1 s, 2 s ... at most 30 s. */
int64_t matrix_outbox_backoff(int tries);
/* The JSON content of the m.room.message event (caller frees). */
char  *matrix_outbox_content(const struct matrix_out *m);
size_t matrix_outbox_count(const struct matrix_outbox *o);
/* Drops the messages waiting for target (a room whose sends are refused, a
 * user gone), or every one with target NULL, from the queue and the store;
 * the one in flight stays.  How many. */
size_t matrix_outbox_drop(struct matrix_outbox *o, const char *target);
/* Messages that must be delivered still waiting in room's lane (not answers,
 * not hands): the bot paces computer seats on it. */
size_t matrix_outbox_count_room(struct matrix_outbox *o, const char *room);
/* Of those, the room's story (not the private lines of its game, nor
 * answers): an answer about its table says they are on their way. */
size_t matrix_outbox_count_told(struct matrix_outbox *o, const char *room);

/* ---- client.c: the account's public face; its parts are below ---- */

/* What the client needs from its host (the bot, or a test). */
struct matrix_host {
	void *ctx;
	void (*emit)(void *ctx, const struct bot_event *ev);
	void (*log)(void *ctx, int level, const char *msg);
	/* Optional: our own user id (after whoami), then our display name when known. */
	void (*self)(void *ctx, const char *name);
	struct matrix_store store;
};

struct matrix_config {
	char homeserver[512];      /* https://matrix.example.org, no trailing slash */
	char server_name[256];     /* homeserver given as a bare server name: discovered with .well-known */
	char user[256];            /* @bot:example.org or bot */
	char password[512];        /* from password_file */
	char token[1024];          /* from token_file */
	char refresh[1024];        /* from refresh_token_file: renews the token of token_file */
	char ca_file[512];
	char allow[1024];          /* space or comma separated: @user:server, server, *; empty: our server */
	bool auto_join;
	long sync_timeout_ms;
	long max_rooms;            /* no invite is taken while in this many rooms (0: MATRIX_MAX_ROOMS) */
	size_t max_encrypted;      /* encrypted rooms remembered (0: MATRIX_MAX_ENCRYPTED) */
};

/* An invite storm must not grow the account without bound. */
#define MATRIX_MAX_ROOMS     200   /* the default of max_rooms */
#define MATRIX_MAX_ENCRYPTED 256   /* beyond it an encrypted room is left, not remembered */

struct matrix_client;

struct matrix_client *matrix_client_new(const struct matrix_config *cfg, const struct matrix_host *host,
                                        struct loop *l, struct http *h);
int  matrix_client_start(struct matrix_client *c);
int  matrix_client_send(struct matrix_client *c, const struct adapter_msg *m);
size_t matrix_client_pending(struct matrix_client *c, const char *room, enum adapter_pending what);
void matrix_client_stop(struct matrix_client *c);
/* True once the client stopped: while the adapter runs, an account a
 * refused login stopped for good (matrix_login_fatal). */
bool matrix_client_stopped(const struct matrix_client *c);
void matrix_client_free(struct matrix_client *c);
/* True if inviter (a user id) may invite us, per the allow list; an empty
 * list allows the users of our own homeserver (self: our user id). */
bool matrix_client_allowed(const char *allow, const char *self, const char *inviter);
/* True if url is plain http:// to a host other than loopback: the password
 * or token would cross the network unencrypted. */
bool matrix_client_insecure(const char *url);
/* adapter_ops.is_moderator: user's power level in room reaches its kick or redact level. */
bool matrix_client_is_moderator(struct matrix_client *c, const char *room, const char *user);

/* ---- the client's parts: one file per concept, sharing struct matrix_client ---- */

#define MATRIX_API          "/_matrix/client/v3"
#define MATRIX_SEEN_MEM     1024   /* event ids remembered in memory */
#define MATRIX_NAMES        1024   /* (room, user) display names remembered */
#define MATRIX_MAX_BODY     (64u << 10)
#define MATRIX_ROOMS_MAX_BODY (4u << 20)  /* /joined_rooms: max_rooms of 255-byte ids, with room to spare */
#define MATRIX_REQ_TIMEOUT  60000L

enum matrix_phase { MX_PH_IDLE, MX_PH_LOGIN, MX_PH_WHOAMI, MX_PH_FILTER, MX_PH_ROOMS, MX_PH_SYNC, MX_PH_STOPPED };

struct matrix_name { char *room, *user, *name; };  /* room NULL: not tied to a room */
/* has_levels: an m.room.power_levels was seen; creators: the room's creators,
 * each a moderator if privileged (room version 12 on) or while the room has
 * no power levels (the spec's default: the creator at 100). */
struct matrix_power {
	char *room;
	bool everyone, has_levels, privileged;
	bool widget;               /* our level reaches MATRIX_WIDGET_TYPE's (widget.c) */
	char *widget_url;          /* the table page our widget shows now, or NULL */
	bool widget_due;           /* widget_url is not yet what the room holds: a PUT is due (widget.c) */
	bool widget_flying;        /* that PUT is in flight */
	char **mods;
	size_t nmods;
	char **creators;
	size_t ncreators;
};
struct matrix_direct { char *user, *room; bool joined; };  /* joined: the player is in it: hands may go */

/* A table opened from a direct message (tableroom.c): its room (NULL while
 * being made), the command and its words but the ids, the players named and
 * those of them who joined; opened: the table is open there. */
struct matrix_tableroom {
	char *room, *opener, *command, *args, *name;
	char **named, **joined;
	size_t nnamed, njoined;
	bool opened;
};

struct matrix_req;

struct matrix_client {
	struct matrix_config cfg;
	struct matrix_host host;
	struct loop *loop;
	struct http *http;
	enum matrix_phase phase;

	char self[MATRIX_MAX_ID + 1];
	char device[128];
	char token[1024];
	char refresh[1024];             /* the refresh token, if the server gave one */
	bool stored_tried;              /* the stored access token was tried (login.c) */
	bool discovered, versions_ok;   /* .well-known read (or not needed), /versions checked (discover.c) */
	char notice_room[MATRIX_MAX_ID + 1];   /* the server notices room, "" if none known (notices.c) */
	char filter[128];
	char *since;
	int sync_level;                 /* 0: the normal filter; more: an answer was too big (poll.c) */
	bool up, said_down;
	int fails;                      /* consecutive failures of the login/sync chain */
	struct matrix_req *sync_req;
	long long sync_timer, out_timer;
	int64_t out_due;                /* when out_timer fires */
	int64_t create_after;           /* no createRoom before (after a 429 or 5xx) */
	int create_fails;

	struct matrix_outbox *out;
	struct matrix_req *reqs;        /* everything in flight, freed on stop */
	struct {
		struct matrix_req *head, *tail;
	} waiting[2];                   /* for a place (req.c): [0] first, then [1] (declines) */
	size_t nactive, nqueued;        /* in flight (but the chain and sync), waiting */

	char *seen[MATRIX_SEEN_MEM];
	size_t seen_at;
	struct matrix_name names[MATRIX_NAMES];
	size_t names_at;
	struct matrix_direct *directs;
	size_t ndirects;
	char **creating;                /* users whose direct room is being created */
	size_t ncreating;
	char **joined_enc;              /* encrypted rooms already told */
	size_t nenc;
	char **joining;                 /* rooms with a join in flight */
	size_t njoining;
	char **joined;                  /* rooms we are in: /joined_rooms, then the sync */
	size_t njoined;
	bool said_full;                 /* max_rooms refused an invite since the last join */
	struct matrix_ref {             /* commands said in threads (bot_event.ref), the newest kept */
		uint64_t ref;
		char *room, *thread, *event_id;
	} refs[64];
	uint64_t next_ref;
	char **checking;                /* rooms whose state is being read to make them a direct room */
	size_t nchecking;
	char **denied;                  /* rooms never again a direct room (private.c), persisted */
	size_t ndenied;
	char **told_enc;                /* players told that the server encrypts every new room */
	size_t ntold_enc;
	bool server_encrypts;           /* a room we made came encrypted: no more are made */
	char **stale_rooms;             /* rooms told this batch that their gap's commands were not applied */
	size_t nstale_rooms;
	char **rejoin;                  /* "tries room inviter direct": joins to try again (rooms.c) */
	size_t nrejoin;
	long long rejoin_timer;
	char **moved;                   /* "new old": replacement rooms to join, and the rooms they replace */
	size_t nmoved;
	char **made;                    /* "room user": rooms we made for user (MX_IT_MADE), at most 64 */
	size_t nmade;
	struct matrix_power *powers;    /* the moderators of each room (power.c), at most max_rooms */
	size_t npowers;

	struct matrix_tableroom *tablerooms; /* tables opened from a direct message (tableroom.c) */
	size_t ntablerooms;

	/* m.direct is read, merged and written back, one round at a time */
	bool mdirect_busy, mdirect_again;
	int mdirect_fails;
	long long mdirect_timer;
};

/* client.c: logging and the state store, for the parts */
void matrix_client_log(struct matrix_client *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int  matrix_client_get(struct matrix_client *c, const char *key, char *buf, size_t len);
void matrix_client_set(struct matrix_client *c, const char *key, const char *value);
void matrix_client_del(struct matrix_client *c, const char *key);

/* strlist.c: small sets of strings (rooms, users) */
bool matrix_strlist_has(char **list, size_t n, const char *s);
void matrix_strlist_add(char ***list, size_t *n, const char *s);
void matrix_strlist_del(char **list, size_t *n, const char *s);
void matrix_strlist_free(char **list, size_t n);

/* req.c: HTTP requests to the homeserver, on the bot's curl multi */
typedef void matrix_req_done_fn(struct matrix_client *c, struct matrix_req *r, long status, json_t *body);

struct matrix_req {
	struct matrix_client *c;
	CURL *easy;                     /* NULL while it waits in the queue */
	char *url, *body;               /* until it starts */
	char method[8];
	long timeout_ms;
	bool now;                       /* the login chain or the sync: never waits */
	struct curl_slist *hdrs;
	struct http_body in;            /* the response body, up to in.max bytes */
	char what[128];                 /* method and path without the query, for logs */
	matrix_req_done_fn *done;
	struct matrix_out *msg;         /* a send */
	char *arg;                      /* a room or user, per request */
	char *user;                     /* a join: who invited us; a members check: whose direct room */
	bool direct;                    /* a join: the invite said is_direct */
	int tries;                      /* a join: tries before this one */
	int64_t retry_ms;               /* from a 429: retry_after_ms or Retry-After */
	const char *errcode;            /* the Matrix errcode; with status 0, why there was no answer */
	struct matrix_req *next;
};

/* At most MATRIX_REQS_MAX requests are in flight at once (one connection
 * each, at most) besides the login chain and the sync; more wait in a queue
 * of at most MATRIX_REQS_QUEUED, in order, so that an invite storm cannot
 * open a connection per room. */
#define MATRIX_REQS_MAX    8
#define MATRIX_REQS_QUEUED 2048

/* Starts (or queues) a request: path below the homeserver (with its query),
 * an optional JSON body. The response comes to done with its HTTP status (0:
 * no answer, r->errcode says why; r->in.too_big if it was over max bytes).
 * NULL if it cannot be started or queued. */
struct matrix_req *matrix_req_start(struct matrix_client *c, const char *method, const char *path,
                                    const char *json, matrix_req_done_fn *done, long timeout_ms, size_t max);
/* The same, never queued: for the login chain and the sync, which everything
 * else waits for (one at a time). */
struct matrix_req *matrix_req_start_now(struct matrix_client *c, const char *method, const char *path,
                                        const char *json, matrix_req_done_fn *done, long timeout_ms, size_t max);
/* The same, after everything else waiting: declining invites and leaving
 * rooms must not hold the players' messages back in a storm. */
struct matrix_req *matrix_req_start_later(struct matrix_client *c, const char *method, const char *path,
                                          const char *json, matrix_req_done_fn *done, long timeout_ms, size_t max);
/* Cancels and frees everything in flight (no callbacks). */
void matrix_req_cancel_all(struct matrix_client *c);
/* Longest wait a server may ask for: a hostile one must not park the account
 * for ever, nor make now + wait overflow. */
#define MATRIX_RETRY_MAX_MS 300000
/* The wait a 429 asks for: retry_after_ms from body, else Retry-After (after
 * seconds, -1: none), at most MATRIX_RETRY_MAX_MS; -1 if neither is given
 * (or says 0): the caller waits a backoff. */
int64_t matrix_req_wait_ms(json_t *body, curl_off_t after);

/* login.c: the chain login -> whoami -> filter -> sync, and its retries */
void matrix_login_start(struct matrix_client *c);
/* The chain failed: says DOWN once, retries the current phase after a backoff. */
void matrix_login_failed(struct matrix_client *c, const char *what, long status, const char *errcode,
                         int64_t retry_ms);
/* Starts a step of the chain (discovery, login, whoami, filter) as its one
 * request, c->sync_req, never queued; one that cannot start fails the chain
 * (matrix_login_failed, named what). */
void matrix_login_step(struct matrix_client *c, const char *method, const char *path, const char *json,
                       matrix_req_done_fn *done, const char *what);
/* The access token was refused (a 401 to whoami or the sync; soft: the
 * server says soft_logout): refreshed if we can, else a new login after a
 * backoff with the password, else (token_file alone) the account stops. */
void matrix_login_refused(struct matrix_client *c, const char *what, const char *errcode, bool soft);
/* The account stops for good, with one log line saying why (and BOT_EV_DOWN if it was up). */
void matrix_login_fatal(struct matrix_client *c, const char *why);

/* notices.c: the server notices room (m.server_notice tag): its messages
 * are logged at warning with their text and never handed to the bot */
void matrix_notices_restore(struct matrix_client *c);
/* MX_IT_NOTICE_ROOM: the room is (or is no longer) the server notices room. */
void matrix_notices_room(struct matrix_client *c, const struct matrix_item *it);
/* True if it is the server's word (logged, or an m.server_notice elsewhere,
 * ignored as the spec says) and goes no further. */
bool matrix_notices_take(struct matrix_client *c, const struct matrix_item *it);

/* discover.c: before the first login: the homeserver's base URL from
 * https://SERVER/.well-known/matrix/client when the configuration gave a
 * bare server name, then GET /_matrix/client/versions; the account stops
 * if the server speaks none of our versions, else matrix_login_start. */
void matrix_discover_start(struct matrix_client *c);
/* True if versions (the /versions answer's array) holds one the adapter speaks: v1.1 or a later v1.x. */
bool matrix_discover_versions_ok(json_t *versions);

/* poll.c: the /sync long-poll, event ids already seen, events to the bot */
extern const char matrix_poll_filter[];   /* what the long-poll asks for (uploaded by login.c) */
void matrix_poll_start(struct matrix_client *c);
/* Restores next_batch and the seen event ids from the store. */
void matrix_poll_restore(struct matrix_client *c);
void matrix_poll_free(struct matrix_client *c);

/* send.c: drives the outbox: one PUT at a time for the account, a 429 pausing every room, retries, direct rooms resolved */
void matrix_send_kick(struct matrix_client *c);
/* Wakes matrix_send_kick in ms, or sooner if it is already due sooner. */
void matrix_send_arm(struct matrix_client *c, int64_t ms);

/* direct.c: each player's direct room, and the account's m.direct map */
const char *matrix_direct_room(struct matrix_client *c, const char *user);
const char *matrix_direct_user(struct matrix_client *c, const char *room);
/* Records room as user's direct room; joined: the player is in it (hands may go). */
void matrix_direct_set(struct matrix_client *c, const char *user, const char *room, bool joined, bool persist);
/* The player has joined their direct room: their queued hands may go. */
void matrix_direct_joined(struct matrix_client *c, const char *room);
bool matrix_direct_is_joined(struct matrix_client *c, const char *user);
/* Tells the game room that user's hand cannot reach them (why, and how to get
 * it), once per reason, and drops what was queued for them. */
void matrix_direct_failed(struct matrix_client *c, const char *user, const char *why);
void matrix_direct_forget(struct matrix_client *c, const char *room);
void matrix_direct_create(struct matrix_client *c, const char *user);
/* A room we made for user, seen in the sync: found again before another is made. */
void matrix_direct_made(struct matrix_client *c, const struct matrix_item *it);
/* createRoom is retried at most this many times in a row, then the player is told. */
#define MATRIX_CREATE_TRIES 5
void matrix_direct_restore(struct matrix_client *c);
/* Makes sure the account's m.direct lists each of our direct rooms:
 * reads it, merges ours in (every other entry kept), writes it back. */
void matrix_direct_publish(struct matrix_client *c);
void matrix_direct_stop(struct matrix_client *c);
void matrix_direct_free(struct matrix_client *c);

/* rooms.c: invites, joins, being removed, encrypted rooms, the rooms we are in */
void matrix_rooms_invited(struct matrix_client *c, const struct matrix_item *it);
void matrix_rooms_joined(struct matrix_client *c, const char *room);
/* Lists the rooms the account is in (GET /joined_rooms): rooms no longer in
 * it count as left. chain: a step of the login chain, the sync follows. */
void matrix_rooms_list(struct matrix_client *c, bool chain);
void matrix_rooms_removed(struct matrix_client *c, const struct matrix_item *it);
void matrix_rooms_encrypted(struct matrix_client *c, const struct matrix_item *it);
bool matrix_rooms_is_encrypted(struct matrix_client *c, const char *room);
void matrix_rooms_restore(struct matrix_client *c);
/* Cancels the joins waiting to be tried again (at stop). */
void matrix_rooms_stop(struct matrix_client *c);
/* Leaves room (after everything else waiting). */
void matrix_rooms_leave(struct matrix_client *c, const char *room);
/* m.room.tombstone: the replacement room is joined (via the server of the
 * tombstone's sender) and, once in, the core told (BOT_EV_ROOM_MOVED); a
 * direct room upgraded is dropped. */
void matrix_rooms_tombstone(struct matrix_client *c, const struct matrix_item *it);

/* tableroom.c: "play @bob:hs @cy:hs" (or "new PRESET @bob:hs ...") said by
 * a player in their direct chat with the bot (or any room it reads: an
 * Element direct chat shares its history, so it is no direct room for
 * hands, yet it is where players write): a room made for the table (unencrypted,
 * invite only, no history before one joined), the opener and the named
 * invited; true if the message was this form (answered here, never
 * emitted). */
bool matrix_tableroom_said(struct matrix_client *c, const struct matrix_item *it);
/* user joined room: the opener's join opens the table there (the command
 * run as theirs), each named player's seats them, the last one's deals. */
void matrix_tableroom_joined(struct matrix_client *c, const char *room, const char *user);
/* Restores the tables still waiting for their players (kept in the store). */
void matrix_tableroom_restore(struct matrix_client *c);
void matrix_tableroom_free(struct matrix_client *c);

/* What a player hears when the server encrypts every room the bot makes. */
#define MATRIX_ENCRYPTED_WHY "this server encrypts every new room and I cannot write encrypted messages. " \
	"Start a direct chat with me with encryption turned off, then ask for your hand again"

/* private.c: a hand goes only to a room of two: the bot and its player
 * joined, no one else joined, invited or knocking, join rule invite, history
 * hidden from later members (joined or invited), not encrypted. */
/* Reads room's state (GET /state) and makes it user's direct room if it is
 * one; created: a room we made for user (who may be invited only yet). */
void matrix_private_check(struct matrix_client *c, const char *room, const char *user, bool created);
/* A change to a direct room (or one being checked): drops it if it is no
 * longer private; the player's join lets their hands go. */
void matrix_private_item(struct matrix_client *c, const struct matrix_item *it);
/* Whether a room is being checked for user: no other is made meanwhile. */
bool matrix_private_checking(struct matrix_client *c, const char *user);
/* Whether an item is about a room's privacy (members, rules, encryption). */
bool matrix_private_kind(enum matrix_item_kind k);
/* Drops room for good (denied, out of m.direct, left); queued hands are
 * routed anew, or (player_gone) failed: the player left or refused it. */
void matrix_private_drop(struct matrix_client *c, const char *room, const char *why, bool player_gone);
bool matrix_private_denied(struct matrix_client *c, const char *room);
void matrix_private_restore(struct matrix_client *c);
void matrix_private_free(struct matrix_client *c);

/* power.c: each room's moderators (m.room.power_levels), kept across restarts */
void matrix_power_set(struct matrix_client *c, const struct matrix_item *it);
/* MX_IT_CREATE: the room's creators (kept across restarts). */
void matrix_power_creators(struct matrix_client *c, const struct matrix_item *it);
void matrix_power_forget(struct matrix_client *c, const char *room);
void matrix_power_restore(struct matrix_client *c);
bool matrix_power_is_moderator(struct matrix_client *c, const char *room, const char *user);
void matrix_power_free(struct matrix_client *c);
/* room's entry (its levels, creators, widget); NULL: a room we know nothing of. */
struct matrix_power *matrix_power_find(struct matrix_client *c, const char *room);
/* The first room whose widget change is due and not in flight; NULL if none. */
struct matrix_power *matrix_power_widget_due(struct matrix_client *c);

/* widget.c: the web table's page as the room's widget, where we may set it */
#define MATRIX_WIDGET_TYPE "im.vector.modular.widgets"
#define MATRIX_WIDGET_KEY  "handfoot-table"
/* A room line's adapter_msg.watch_url (NULL: no table dealt there): a new
 * page sets the widget (if our power level lets us), none removes ours. */
void matrix_widget_room(struct matrix_client *c, const char *room, const char *watch_url);
/* A state event draws on the account's message allowance (Synapse's
 * rc_message): a due widget change is PUT only when no send is in flight and
 * no 429's wait runs, one at a time, and a 429 to it makes every send wait.
 * True while one is in flight (no message may go then). */
bool matrix_widget_kick(struct matrix_client *c, int64_t now);
/* The client stops: a change in flight is due again. */
void matrix_widget_stop(struct matrix_client *c);

/* names.c: display names per (room, user), from member events */
void matrix_names_set(struct matrix_client *c, const char *room, const char *user, const char *name);
/* Restores the names kept in the store. */
void matrix_names_restore(struct matrix_client *c);
/* The name in room if known ("" there: removed, the localpart), else in any
 * room, else the localpart ("@ann:hs" -> "ann"); "Ann (@ann:hs)" when
 * another member of room goes by the same name (buf holds it). */
const char *matrix_names_of(struct matrix_client *c, const char *room, const char *user, char *buf, size_t len);
void matrix_names_free(struct matrix_client *c);

#endif
