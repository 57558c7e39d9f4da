/* answer.c: each interaction's answer: the first reply as the response, follow-ups after it, a defer before 3 s pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "fifo.h"
#include "secret.h"
#include "text.h"
#include "xmalloc.h"

#define EPHEMERAL 64     /* message flag 1 << 6 */
#define NOT_DUE   (-1)

enum state {
	ST_NEW,          /* not answered yet */
	ST_ACKING,       /* the initial response is on its way; replies wait for it */
	ST_ANSWERED,     /* answered with a message (or a button's silent defer): follow-ups go as themselves */
	ST_DEFERRED,     /* a command deferred as "thinking..." only its user sees */
	ST_CLEARING,     /* that "thinking..." is being deleted for a room's line: replies wait for it */
	ST_FAILED        /* the response was refused (too late...): public replies go to the channel */
};

struct waiting {
	bool private;
	json_t *msg;
	struct waiting *next;
};

struct ans {
	uint64_t ref;
	char id[21], token[601], channel[21], user[21];
	bool button;
	int64_t created, last;
	enum state st;
	bool acking_defer;   /* the response on its way is a defer */
	bool loading;        /* ST_DEFERRED: the "thinking..." message is not filled yet */
	struct waiting *wait, **wait_tail;
	struct ans *next;
};

struct op_node {
	struct fifo_link link;          /* first: the node is cast back from it */
	struct discord_answer_op op;
};

struct discord_answer {
	char app[21];
	struct ans *list;
	size_t n;
	struct fifo ops;                /* for discord_answer_next, oldest first */
};

/* ------------------------------------------------------------------ ops */

/* private: the body is a private reply (a hand): the caller may check that it goes nowhere public. */
static void
push(struct discord_answer *a, enum discord_answer_kind kind, const struct ans *x, json_t *body, bool private)
{
	struct op_node *n = xcalloc(1, sizeof *n);
	static const char *const methods[] = { "", "POST", "POST", "PATCH", "DELETE", "POST", "" };

	n->op.kind = kind;
	n->op.ref = x->ref;
	n->op.body = body;
	n->op.private = private;
	/* a retry past these only earns a 404 (10062, 10015) */
	n->op.deadline = kind == DISCORD_ANS_CALLBACK ? x->created + DISCORD_ANSWER_LIFE_MS :
	                 kind == DISCORD_ANS_CHANNEL || kind == DISCORD_ANS_UNDELIVERED ? 0 :
	                 x->created + DISCORD_ANSWER_TOKEN_MS;
	snprintf(n->op.method, sizeof n->op.method, "%s", methods[kind]);
	switch (kind) {
	case DISCORD_ANS_CALLBACK:
		snprintf(n->op.path, sizeof n->op.path, "/interactions/%s/%s/callback", x->id, x->token);
		break;
	case DISCORD_ANS_FOLLOWUP:
		snprintf(n->op.path, sizeof n->op.path, "/webhooks/%s/%s", a->app, x->token);
		break;
	case DISCORD_ANS_EDIT:
	case DISCORD_ANS_DELETE:
		snprintf(n->op.path, sizeof n->op.path, "/webhooks/%s/%s/messages/@original", a->app, x->token);
		break;
	case DISCORD_ANS_CHANNEL:
		snprintf(n->op.path, sizeof n->op.path, "/channels/%s/messages", x->channel);
		break;
	case DISCORD_ANS_UNDELIVERED:
		break;
	}
	fifo_push(&a->ops, &n->link);
}

bool
discord_answer_next(struct discord_answer *a, struct discord_answer_op *out)
{
	struct op_node *n = (struct op_node *)fifo_pop(&a->ops);

	if (n == NULL)
		return false;
	*out = n->op;
	free(n);
	return true;
}

void
discord_answer_op_free(struct discord_answer_op *op)
{
	json_decref(op->body);
	op->body = NULL;
}

bool
discord_answer_safe(const struct discord_answer_op *op)
{
	json_t *msg = op->body;

	if (!op->private)
		return true;
	switch (op->kind) {
	case DISCORD_ANS_CALLBACK:
		if (json_integer_value(json_object_get(op->body, "type")) != 4)
			return false;
		msg = json_object_get(op->body, "data");
		/* fall through */
	case DISCORD_ANS_FOLLOWUP:
		return (json_integer_value(json_object_get(msg, "flags")) & EPHEMERAL) != 0;
	case DISCORD_ANS_EDIT:
		/* fills the "thinking..." of a defer, which is always ephemeral (discord_answer_tick) */
		return true;
	case DISCORD_ANS_UNDELIVERED:
		/* the caller's to send privately, or not at all */
		return true;
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ life */

struct discord_answer *
discord_answer_new(const char *app_id)
{
	struct discord_answer *a;

	if (!discord_text_snowflake(app_id))
		return NULL;
	a = xcalloc(1, sizeof *a);
	snprintf(a->app, sizeof a->app, "%s", app_id);
	return a;
}

static void
ans_free(struct ans *x)
{
	while (x->wait != NULL) {
		struct waiting *w = x->wait;

		x->wait = w->next;
		json_decref(w->msg);
		free(w);
	}
	/* the token answers for 15 minutes: leave nothing of it */
	secret_wipe(x->token, sizeof x->token);
	free(x);
}

void
discord_answer_free(struct discord_answer *a)
{
	struct discord_answer_op op;

	if (a == NULL)
		return;
	while (a->list != NULL) {
		struct ans *x = a->list;

		a->list = x->next;
		ans_free(x);
	}
	while (discord_answer_next(a, &op))
		discord_answer_op_free(&op);
	free(a);
}

size_t
discord_answer_count(const struct discord_answer *a)
{
	return a->n;
}

static struct ans *
find(struct discord_answer *a, uint64_t ref)
{
	for (struct ans *x = a->list; x != NULL; x = x->next)
		if (x->ref == ref)
			return x;
	return NULL;
}

static void forget(struct discord_answer *a, struct ans *x);

/* Answered, and nothing more on its way: what can be forgotten without
 * leaving anyone "thinking..." or an answer unsent. */
static bool
settled(const struct ans *x)
{
	return x->st != ST_NEW && x->st != ST_ACKING && !x->loading && x->wait == NULL;
}

/* Makes room by forgetting the settled interaction idle longest, of user
 * (NULL: anyone's); false if none is settled. */
static bool
evict_oldest(struct discord_answer *a, const char *user)
{
	struct ans *old = NULL;

	for (struct ans *x = a->list; x != NULL; x = x->next)
		if (settled(x) && (user == NULL || strcmp(x->user, user) == 0) && (old == NULL || x->last <= old->last))
			old = x;
	if (old == NULL)
		return false;
	forget(a, old);
	return true;
}

static size_t
count_of(const struct discord_answer *a, const char *user)
{
	size_t n = 0;

	for (const struct ans *x = a->list; x != NULL; x = x->next)
		n += strcmp(x->user, user) == 0;
	return n;
}

int
discord_answer_begin(struct discord_answer *a, uint64_t ref, const char *id, const char *token,
                     const char *channel_id, const char *user_id, bool button, int64_t now)
{
	struct ans *x;
	size_t tn = strlen(token);

	if (ref == 0 || find(a, ref) != NULL || !discord_text_snowflake(id) || !discord_text_snowflake(user_id) ||
	    !discord_text_snowflake(channel_id) || tn == 0 || tn >= sizeof x->token ||
	    strspn(token, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~") != tn)
		return -1;
	/* one member's flood never fills the table against the others: their
	 * own answered ones make room, else they wait for them */
	if (count_of(a, user_id) >= DISCORD_ANSWER_PER_USER && !evict_oldest(a, user_id))
		return -1;
	if (a->n >= DISCORD_ANSWER_MAX && !evict_oldest(a, NULL))
		return -1;
	x = xcalloc(1, sizeof *x);
	x->ref = ref;
	snprintf(x->user, sizeof x->user, "%s", user_id);
	snprintf(x->id, sizeof x->id, "%s", id);
	memcpy(x->token, token, tn + 1);
	snprintf(x->channel, sizeof x->channel, "%s", channel_id);
	x->button = button;
	x->created = x->last = now;
	x->wait_tail = &x->wait;
	x->next = a->list;
	a->list = x;
	a->n++;
	return 0;
}

int
discord_answer_update(struct discord_answer *a, uint64_t ref, json_t *data, int64_t now)
{
	struct ans *x = find(a, ref);

	if (x == NULL || !x->button || x->st != ST_NEW || !json_is_object(data)) {
		json_decref(data);
		return -1;
	}
	x->last = now;
	/* receiving-and-responding.mdx: type 7, for components only; not a message of its own */
	push(a, DISCORD_ANS_CALLBACK, x, json_pack("{s:i,s:o}", "type", 7, "data", data), false);
	x->st = ST_ACKING;
	x->acking_defer = false;
	return 0;
}

static void
forget(struct discord_answer *a, struct ans *x)
{
	for (struct ans **p = &a->list; *p != NULL; p = &(*p)->next)
		if (*p == x) {
			*p = x->next;
			a->n--;
			ans_free(x);
			return;
		}
}

/* ------------------------------------------------------------------ replies */

/* msg with the ephemeral flag set or cleared (other flags kept). */
static json_t *
with_flags(json_t *msg, bool ephemeral)
{
	json_int_t f = json_integer_value(json_object_get(msg, "flags"));

	f = ephemeral ? (f | EPHEMERAL) : (f & ~(json_int_t)EPHEMERAL);
	if (f != 0)
		json_object_set_new(msg, "flags", json_integer(f));
	else
		json_object_del(msg, "flags");
	return msg;
}

static void
say(struct discord_answer *a, struct ans *x, bool private, json_t *msg)
{
	struct waiting *w;

	switch (x->st) {
	case ST_NEW:
		/* the first reply is the answer: "Ada used /draw" above it, seen by all or by Ada alone */
		push(a, DISCORD_ANS_CALLBACK, x, json_pack("{s:i,s:o}", "type", 4, "data", with_flags(msg, private)),
		     private);
		x->st = ST_ACKING;
		x->acking_defer = false;
		return;
	case ST_ACKING:
	case ST_CLEARING:
		/* a follow-up before the response lands is refused (Unknown Webhook), and one
		 * before the private "thinking..." is gone would only fill it: wait */
		w = xcalloc(1, sizeof *w);
		w->private = private;
		w->msg = msg;
		*x->wait_tail = w;
		x->wait_tail = &w->next;
		return;
	case ST_ANSWERED:
		push(a, DISCORD_ANS_FOLLOWUP, x, with_flags(msg, private), private);
		return;
	case ST_DEFERRED:
		if (!private && x->loading) {
			/* the defer was ephemeral and a follow-up right after it would
			 * only fill it (receiving-and-responding.mdx): the "thinking..."
			 * goes first, then the room's line follows up through the
			 * interaction (no channel permission needed) */
			push(a, DISCORD_ANS_DELETE, x, NULL, false);
			x->loading = false;
			x->st = ST_CLEARING;
			say(a, x, private, msg);
		} else if (!private) {
			push(a, DISCORD_ANS_FOLLOWUP, x, with_flags(msg, false), false);
		} else if (x->loading) {
			json_object_del(msg, "flags");
			push(a, DISCORD_ANS_EDIT, x, msg, true);
			x->loading = false;
		} else
			push(a, DISCORD_ANS_FOLLOWUP, x, with_flags(msg, true), true);
		return;
	case ST_FAILED:
		if (private)
			push(a, DISCORD_ANS_UNDELIVERED, x, msg, true);
		else
			push(a, DISCORD_ANS_CHANNEL, x, with_flags(msg, false), false);
		return;
	}
}

int
discord_answer_say(struct discord_answer *a, uint64_t ref, bool private, json_t *msg, int64_t now)
{
	struct ans *x = find(a, ref);

	if (x == NULL || now - x->created >= DISCORD_ANSWER_TOKEN_MS || !json_is_object(msg)) {
		json_decref(msg);
		return -1;
	}
	x->last = now;
	say(a, x, private, msg);
	return 0;
}

void
discord_answer_result(struct discord_answer *a, uint64_t ref, enum discord_answer_kind kind, long status, int code,
                      int64_t now)
{
	struct ans *x = find(a, ref);
	struct waiting *w;
	bool ok = status >= 200 && status < 300;

	if (x == NULL)
		return;
	x->last = now;
	if (kind != DISCORD_ANS_CALLBACK) {
		/* the token is gone (expired, or the interaction unknown): no more follow-ups */
		if (status == 404 && (code == 10015 || code == 10062))
			x->st = ST_FAILED;
		else if (kind == DISCORD_ANS_DELETE && x->st == ST_CLEARING)
			/* the "thinking..." is gone (or was already): follow-ups are messages of their own */
			x->st = ST_ANSWERED;
		if (x->st == ST_FAILED || x->st == ST_ANSWERED) {
			while ((w = x->wait) != NULL) {
				x->wait = w->next;
				say(a, x, w->private, w->msg);
				free(w);
			}
			x->wait_tail = &x->wait;
		}
		return;
	}
	if (x->st != ST_ACKING)
		return;
	/* 40060 "already acknowledged": a retried response whose first try had landed */
	if (ok || code == 40060) {
		if (x->acking_defer && !x->button) {
			x->st = ST_DEFERRED;
			x->loading = true;
		} else
			x->st = ST_ANSWERED;
	} else
		x->st = ST_FAILED;
	while ((w = x->wait) != NULL) {
		x->wait = w->next;
		say(a, x, w->private, w->msg);
		free(w);
	}
	x->wait_tail = &x->wait;
}

void
discord_answer_tick(struct discord_answer *a, int64_t now)
{
	struct ans *x, *next;

	for (x = a->list; x != NULL; x = next) {
		next = x->next;
		if (now - x->created >= DISCORD_ANSWER_TOKEN_MS || (settled(x) && now - x->last >= DISCORD_ANSWER_IDLE_MS)) {
			forget(a, x);
			continue;
		}
		if (x->st == ST_NEW && now - x->created >= DISCORD_ANSWER_DEFER_MS) {
			/* nothing to say yet: acknowledge before 3 s pass. A command
			 * shows "thinking..." to its user only; a button shows nothing */
			if (x->button)
				push(a, DISCORD_ANS_CALLBACK, x, json_pack("{s:i}", "type", 6), false);
			else
				push(a, DISCORD_ANS_CALLBACK, x,
				     json_pack("{s:i,s:{s:i}}", "type", 5, "data", "flags", EPHEMERAL), false);
			x->st = ST_ACKING;
			x->acking_defer = true;
		} else if (x->st == ST_DEFERRED && x->loading && now - x->last >= DISCORD_ANSWER_SETTLE_MS) {
			/* nobody filled it: no "thinking..." left forever */
			push(a, DISCORD_ANS_DELETE, x, NULL, false);
			x->loading = false;
		}
	}
}

int64_t
discord_answer_due(const struct discord_answer *a)
{
	int64_t due = NOT_DUE;

	for (const struct ans *x = a->list; x != NULL; x = x->next) {
		int64_t d = x->created + DISCORD_ANSWER_TOKEN_MS;

		if (x->st == ST_NEW && x->created + DISCORD_ANSWER_DEFER_MS < d)
			d = x->created + DISCORD_ANSWER_DEFER_MS;
		if (x->st == ST_DEFERRED && x->loading && x->last + DISCORD_ANSWER_SETTLE_MS < d)
			d = x->last + DISCORD_ANSWER_SETTLE_MS;
		if (settled(x) && x->last + DISCORD_ANSWER_IDLE_MS < d)
			d = x->last + DISCORD_ANSWER_IDLE_MS;
		if (due == NOT_DUE || d < due)
			due = d;
	}
	return due;
}
