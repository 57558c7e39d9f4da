/* matrix.h: the Matrix adapter's internal header: text hygiene, the sync parser, the outbox, the client. */
#ifndef HF_MATRIX_INTERNAL_H
#define HF_MATRIX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"

struct loop;
struct http;

/* Longest message body the bot hands us, and the longest we pass on to it. */
#define MATRIX_MAX_LINE    4000
#define MATRIX_MAX_IN      1000   /* bytes of a message body given to the bot */
#define MATRIX_MAX_NAME    64     /* bytes of a display name given to the bot */
#define MATRIX_MAX_ID      255    /* the spec's limit on user, room and event ids */

/* ---- text.c: every string from the server goes through here ---- */

/* Copies at most max bytes of valid UTF-8 from in (len bytes) to out
 * (outlen >= max + 1): invalid sequences dropped, control characters
 * (C0, DEL, C1, CR/LF, U+2028/9) turned into spaces, cut on a character
 * boundary, trimmed. Returns the length written. */
size_t matrix_text_clean(const char *in, size_t len, char *out, size_t outlen, size_t max);
/* True if s is a plausible Matrix identifier with the given sigil ('@', '!',
 * '$', '#'; 0: any): printable ASCII, no spaces, 2..255 bytes. */
bool   matrix_text_id_ok(const char *s, char sigil);
/* Percent-encodes s for a URL path segment into out; -1 if it does not fit. */
int    matrix_text_urlenc(const char *s, char *out, size_t outlen);

/* ---- sync.c: a /sync response in, a list of plain items out (pure: no I/O) ---- */

enum matrix_item_kind {
	MX_IT_MESSAGE = 1, /* room, user, name, text, event_id, ts, notice */
	MX_IT_JOIN,        /* room, user, name, event_id */
	MX_IT_LEAVE,       /* room, user, event_id: someone else left */
	MX_IT_RENAME,      /* room, user, text: new display name, event_id */
	MX_IT_NAME,        /* user, name: a display name learnt from room state */
	MX_IT_INVITE,      /* room, user: who invited us, direct: is_direct invite */
	MX_IT_REMOVED,     /* room: we left, were kicked or banned */
	MX_IT_ENCRYPTED,   /* room: has m.room.encryption */
	MX_IT_DIRECT       /* user, room: from the m.direct account data */
};

struct matrix_item {
	enum matrix_item_kind kind;
	char *room, *user, *name, *text, *event_id;
	int64_t ts;
	bool notice, direct;
};

struct matrix_sync {
	char *next_batch;
	struct matrix_item *items;
	size_t nitems, capitems;
	bool has_direct;        /* the response carried m.direct account data */
};

#define MATRIX_SYNC_MAX_ITEMS 5000
#define MATRIX_SYNC_MAX_BYTES (8u << 20)

/* Parses a sync response. self: our user id (our own events are skipped).
 * initial: the first sync without a since token: the timelines are history,
 * so no message, join, leave or rename is reported (state still is).
 * Returns 0, or -1 with why set if the text is not a sync response. */
int  matrix_sync_parse(const char *json, size_t len, const char *self, bool initial,
                       struct matrix_sync *out, const char **why);
void matrix_sync_free(struct matrix_sync *s);

/* ---- outbox.c: queued messages, their txn ids, retries, one in flight per room ---- */

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
	char *body, *html;
	char **mentions;
	size_t nmentions;
	int tries;
	int64_t not_before;    /* loop time before which it is not retried */
	bool in_flight;
	struct matrix_out *next;
};

struct matrix_outbox;

/* Loads the persisted entries (after a restart they are sent again with
 * their old txn ids, which the server de-duplicates). */
struct matrix_outbox *matrix_outbox_new(const struct matrix_store *st);
void   matrix_outbox_free(struct matrix_outbox *o);
/* Queues and persists one message before it is ever tried. room may be NULL
 * for a private message whose direct room is not known yet. */
struct matrix_out *matrix_outbox_add(struct matrix_outbox *o, const char *room, const char *user,
                                     const char *context, const char *body, const char *html,
                                     const char *const *mentions, size_t nmentions);
/* The next message that may go now: the oldest of its room, not in flight,
 * not waiting, with a room. NULL if none; *wait_ms then says when to look
 * again (-1: nothing is waiting). */
struct matrix_out *matrix_outbox_next(struct matrix_outbox *o, int64_t now, int64_t *wait_ms);
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

/* ---- client.c: the account: login, sync, joins, direct rooms, sends ---- */

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
	char user[256];            /* @bot:example.org or bot */
	char password[512];        /* from password_file */
	char token[1024];          /* from token_file */
	char ca_file[512];
	char allow[1024];          /* space or comma separated: @user:server, server */
	bool auto_join;
	long sync_timeout_ms;
};

struct matrix_client;

struct matrix_client *matrix_client_new(const struct matrix_config *cfg, const struct matrix_host *host,
                                        struct loop *l, struct http *h);
int  matrix_client_start(struct matrix_client *c);
int  matrix_client_send(struct matrix_client *c, const struct adapter_msg *m);
void matrix_client_stop(struct matrix_client *c);
void matrix_client_free(struct matrix_client *c);
/* True if inviter (a user id) may invite us, per the allow list. */
bool matrix_client_allowed(const char *allow, const char *inviter);

#endif
