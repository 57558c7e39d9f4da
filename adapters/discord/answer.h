/* answer.h: answering interactions within Discord's 3 s: the first reply as the answer, the rest as follow-ups, a defer when slow. Pure. */
#ifndef HF_DISCORD_ANSWER_H
#define HF_DISCORD_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* receiving-and-responding.mdx: an initial response within 3 s, then the
 * token serves follow-ups for 15 minutes. */
#define DISCORD_ANSWER_DEFER_MS   1200              /* no reply by then: defer (well inside 3 s) */
#define DISCORD_ANSWER_SETTLE_MS  5000              /* a deferred "thinking..." nobody filled is deleted after */
#define DISCORD_ANSWER_TOKEN_MS   (15 * 60 * 1000)
#define DISCORD_ANSWER_MAX        4096              /* interactions remembered at once */
#define DISCORD_ANSWER_PER_USER   64                /* of them one user's */
#define DISCORD_ANSWER_IDLE_MS    60000             /* an answered one is forgotten after this long idle */
#define DISCORD_ANSWER_LIFE_MS    3000              /* the initial response's deadline */

/* What to send, in order: method and path below api_url, and the body (may be NULL). */
enum discord_answer_kind {
	DISCORD_ANS_CALLBACK = 1,  /* POST /interactions/{id}/{token}/callback: the initial response */
	DISCORD_ANS_FOLLOWUP,      /* POST /webhooks/{app}/{token}: one more message */
	DISCORD_ANS_EDIT,          /* PATCH /webhooks/{app}/{token}/messages/@original: fills a deferred answer */
	DISCORD_ANS_DELETE,        /* DELETE /webhooks/{app}/{token}/messages/@original: an unfilled defer */
	DISCORD_ANS_CHANNEL,       /* POST /channels/{id}/messages: a public reply the interaction cannot carry */
	DISCORD_ANS_UNDELIVERED    /* a private reply that can no longer go privately: the caller decides (a DM?) */
};

struct discord_answer_op {
	enum discord_answer_kind kind;
	uint64_t ref;
	char method[8];
	char path[800];
	json_t *body;              /* owned by the op */
	bool private;              /* a private reply: only ever ephemeral, or UNDELIVERED (discord_answer_safe) */
	int64_t deadline;          /* past this (the caller's clock) it is refused: not retried after; 0 none */
};

struct discord_answer;

struct discord_answer *discord_answer_new(const char *app_id);
void discord_answer_free(struct discord_answer *a);

/* An interaction to answer, by user_id; ref is the caller's handle for it
 * (bot_event.ref).  One answered and idle for DISCORD_ANSWER_IDLE_MS is
 * forgotten (a late reply goes another way); at DISCORD_ANSWER_PER_USER of
 * the user's, or DISCORD_ANSWER_MAX in all, the oldest settled one (the
 * user's, then anyone's) makes room.  -1 if refused: a repeat, bad ids, or
 * all of the user's (or everyone's) still waiting for their first answer. */
int  discord_answer_begin(struct discord_answer *a, uint64_t ref, const char *id, const char *token,
                          const char *channel_id, const char *user_id, bool button, int64_t now);
/* A button press answered at once with UPDATE_MESSAGE (type 7): data (taken)
 * replaces what of the pressed message it says (its components: the turn
 * line's moves go away); what the bot says then follows up. -1 if ref is
 * unknown, not a button or already answered (data freed). */
int  discord_answer_update(struct discord_answer *a, uint64_t ref, json_t *data, int64_t now);
/* A reply to interaction ref: msg is a message body (content, components,
 * allowed_mentions...), taken; private: only the user who used it sees it.
 * -1 if ref is unknown or expired (msg is freed: send it another way). */
int  discord_answer_say(struct discord_answer *a, uint64_t ref, bool private, json_t *msg, int64_t now);
/* The answer to an op of kind for ref: the HTTP status (0: none), and Discord's JSON error code if any. */
void discord_answer_result(struct discord_answer *a, uint64_t ref, enum discord_answer_kind kind, long status,
                           int code, int64_t now);
/* Defers what is about to miss 3 s, deletes unfilled defers, forgets old and idle interactions. */
void discord_answer_tick(struct discord_answer *a, int64_t now);
/* When discord_answer_tick should run next (absolute ms), or -1. */
int64_t discord_answer_due(const struct discord_answer *a);

/* Takes the next op (caller frees it with discord_answer_op_free); false if none. */
bool discord_answer_next(struct discord_answer *a, struct discord_answer_op *out);
void discord_answer_op_free(struct discord_answer_op *op);
/* False if op would show a private reply to anyone but its user: a private
 * op as a channel post, or an answer or follow-up without the ephemeral flag.
 * The adapter refuses such an op (it never happens; this is the guarantee). */
bool discord_answer_safe(const struct discord_answer_op *op);
size_t discord_answer_count(const struct discord_answer *a);

#endif
