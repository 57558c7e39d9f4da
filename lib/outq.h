/* outq.h: the one outbound scheduler of every adapter that queues: who speaks when (lanes, games first, the quick turn of a lone stranger, supersede, caps, counts), decided from the facts of each item; the adapter keeps only its pacing. */
#ifndef HF_OUTQ_H
#define HF_OUTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The policy is told once, with the why, in docs/OUTQ.md: lanes (a room's,
 * with the private lines about its game; one per asker for answers),
 * served round-robin, the first-class ones first (OUTQ_FIRST_RUN in a row
 * at most while the rest wait), a lone stranger's quick turn (while no
 * more than OUTQ_FEW_RESTS wait), a newer answer replacing an older one,
 * caps that drop strangers' answers first, and counts.  An adapter hands
 * outq the facts of an item (struct outq_msg); outq alone decides its
 * lane, its class and which older answer it replaces.  No clock: an
 * adapter whose items wait for a time (a retry) says so through the ready
 * callback of outq_next. */

#define OUTQ_FIRST_RUN 3
#define OUTQ_FEW_RESTS 2

struct outq;
struct outq_item;

/* 0: no limit. */
struct outq_limits {
	size_t lane_items, lane_bytes;   /* per lane */
	size_t items, bytes;             /* in all */
};

/* One item to queue: its facts, never its class (outq_push decides that).
 * Strings are copied. */
struct outq_msg {
	const char *room;       /* the room whose lane it waits in (a private line about its game), or NULL */
	const char *target;     /* where it goes: the room, or the user (required) */
	const char *key;        /* an answer's supersede key; NULL: it must be delivered, in its order */
	const char *asker;      /* an answer: whose question it answers (NULL: target); with key NULL, an
	                         * answer that must be delivered (someone steps away): in its room's
	                         * lane, in order, but not the room's story (outq_pending_room) */
	bool player;            /* the asker is seated at a table */
	bool piece;             /* the next piece of the message pushed just before it (a long
	                         * answer split into wire lines): it replaces nothing */
	bool again;             /* an answer that only points at the same answer given a moment
	                         * ago ("the same as 20 s ago, above"): it replaces nothing, and
	                         * where the answer it points at still waits, that one stands for
	                         * it (outq_push) */
	uint64_t event;         /* the event it answers when that event is owed an answer of its own
	                         * (a Discord interaction, which shows "thinking..." until answered);
	                         * 0: none */
	bool stranger;          /* must be delivered, yet no game's line nor a player's (a CTCP reply) */
	const char *lane;       /* NULL: the lane outq_lane_name gives; else this one, as is (a name
	                         * case-folded or persisted by the adapter, a protocol queue): a name only */
	size_t bytes;           /* its size, for the byte caps */
	void *payload;          /* the adapter's: never looked into */
};

/* What the ready callback of outq_next says of a lane's item. */
enum outq_ready {
	OUTQ_GO = 0,            /* it may go now */
	OUTQ_SKIP,              /* not yet, but the lane's next may (a DM whose channel is being opened) */
	OUTQ_WAIT               /* not yet, and the lane waits with it (a retry's delay) */
};

/* drop frees a payload that outq drops itself (superseded, evicted by a
 * cap, a lane or target dropped, cleared); it must not call outq. */
struct outq *outq_new(const struct outq_limits *lim, void (*drop)(void *ctx, void *payload), void *ctx);
/* Drops every item, taken ones too, and frees q. */
void outq_free(struct outq *q);

/* The lane m waits in, into buf (NUL-terminated, cut to len). */
void outq_lane_name(const struct outq_msg *m, char *buf, size_t len);
/* Queues m at the end of its lane; the item, or NULL if the caps refuse it
 * (and no answer could make room).  An answer (key, neither a piece nor
 * again) first drops the answers with its key to its target still waiting
 * (not taken) in its lane: the newer replaces them, except one owed to an
 * event (event != 0), which only a newer answer to that event replaces.
 * A pointer (again) at an answer with its key to its target still waiting
 * there is not queued: that answer stands for it, and its item is returned
 * (outq_payload tells it from m's; m's payload stays the caller's).  Its
 * class: first-class if it must be delivered (not to a stranger) or
 * answers a seated player. */
struct outq_item *outq_push(struct outq *q, const struct outq_msg *m);

/* The item to send next, NULL if none may go.  ready (NULL: every item
 * may) is asked about a lane's items in order until one may go or the lane
 * waits; a taken item makes its lane wait.  The item's lane is served (to
 * the back); the adapter then takes it (outq_take: in flight, it stays
 * counted) or removes it (outq_remove: sent). */
struct outq_item *outq_next(struct outq *q, enum outq_ready (*ready)(void *ctx, void *payload), void *ctx);
void *outq_payload(const struct outq_item *it);
/* In flight: never superseded nor evicted, nor dropped with its lane. */
void outq_take(struct outq *q, struct outq_item *it);
/* Back to waiting (a retry). */
void outq_untake(struct outq *q, struct outq_item *it);
/* Out of the queue (sent, or given up); its payload, which the adapter frees. */
void *outq_remove(struct outq *q, struct outq_item *it);

/* Items that must be delivered waiting (or taken) in lane: a room's count. */
size_t outq_pending(const struct outq *q, const char *lane);
/* Of those, the room's story: what an answer about its table says is on its way.
 * Not the private lines about its game (pushed with room set), nor the
 * answers that must be delivered (pushed with an asker). */
size_t outq_pending_room(const struct outq *q, const char *lane);
/* Items waiting (or taken) in lane. */
size_t outq_count(const struct outq *q, const char *lane);
/* Every item, taken or not. */
size_t outq_queued(const struct outq *q);
/* Lanes with items. */
size_t outq_lanes(const struct outq *q);

/* Drops the items of lane that are not taken (a room whose sends are
 * refused, an asker gone); how many. */
size_t outq_drop_lane(struct outq *q, const char *lane);
/* Drops every item to target that is not taken, in any lane (a user who
 * quit, a channel left); how many. */
size_t outq_drop_target(struct outq *q, const char *target);
/* Drops every item that is not taken (a connection lost for good); how many. */
size_t outq_drop_all(struct outq *q);
/* Passes every item not taken to fn in lane order: keep it (0), drop it
 * (< 0), or it was changed (> 0: fn may have replaced *payload, *bytes and
 * the target, into target[targetlen]).  Lanes left empty go.  How many
 * dropped or changed. */
size_t outq_rewrite(struct outq *q, int (*fn)(void *ctx, void **payload, size_t *bytes, char *target,
                                             size_t targetlen), void *ctx);

#endif
