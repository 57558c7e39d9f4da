/* reply.c: the reply queue and its flush, the one writer: everything the bot says goes through here to an adapter. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telling.h"
#include "hash.h"
#include "loop.h"
#include "outq.h"

void
reply_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room, const char *user_id,
            const char *styled, const char *mention, enum adapter_private private_as)
{
	reply_answer_queue(b, ad, kind, room, user_id, styled, NULL, private_as);
	if (mention != NULL)
		b->replies.v[b->replies.n - 1].mention = xstrdup(mention);
}

/* A new slot at the end of the queue, its contents the caller's. */
static struct reply *
reply_push(struct replies *q)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->v = xreallocarray(q->v, q->cap, sizeof *q->v);
	}
	return &q->v[q->n++];
}

void
reply_answer_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
                   const char *user_id, const char *styled, const char *key, enum adapter_private private_as)
{
	struct replies *q = &b->replies;
	struct reply *r = reply_push(q);

	memset(r, 0, sizeof *r);
	r->ad = ad;
	r->kind = kind;
	r->room = xstrdup(room);
	r->user_id = xstrdup(user_id);
	r->styled = xstrdup(styled);
	r->key = xstrdup(key);
	r->private_as = private_as;
	/* a reply to the event being handled says so, on the adapter it came from */
	r->reply_to = ad == q->event_ad ? q->event_ref : 0;
	if (q->collect != NULL && kind == MSG_PRIVATE && ad == q->collect->ad && user_id != NULL &&
	    strcmp(user_id, q->collect->user_id) == 0 && styled != NULL)
		rbuf_printf(q->collect->text, "%s%s", q->collect->text->len ? "\n" : "", styled);
}

void
reply_table(struct bot *b, struct session *s, const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	tell_flush(b, s, false);   /* what the room was still to hear comes first */
	reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, line, NULL, PRIVATE_DEFAULT);
}

void
reply_prompt(struct bot *b, struct session *s, const char *styled, const char *user_id, const char *const *actions,
             size_t nactions)
{
	struct reply *r;

	tell_flush(b, s, false);
	reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, styled, user_id, PRIVATE_DEFAULT);
	r = &b->replies.v[b->replies.n - 1];
	r->prompt = true;
	r->actions = actions;
	r->nactions = nactions;
}

void
reply_seat(struct bot *b, struct session *s, int seat, const char *styled)
{
	struct seat *st = &s->seats[seat];

	if (st->ai >= 0)
		return;
	reply_queue(b, s->ad, MSG_PRIVATE, s->room, st->user_id, styled, NULL, st->private_as);
}

/* A hand as a number: what was last sent to a seat, to send it again only when it changed. */
uint32_t
reply_hand_hash(const struct hf_view *v)
{
	const struct hf_seat_view *me = &v->seats[v->seat];
	uint32_t h = HASH_FNV32_INIT;
	size_t i;

	for (i = 0; i < HF_NCARD; i++)
		h = hash_fnv32_add(h, v->hand[i]);
	h = hash_fnv32_add(h, me->in_foot);
	h = hash_fnv32_add(h, (uint32_t)me->foot_count);
	h = hash_fnv32_add(h, (uint32_t)v->round);
	return h | 1;   /* 0: nothing sent yet */
}

void
reply_hand_step(struct bot *b, struct session *s, int seat, const char *before, const char *key)
{
	struct seat *st = &s->seats[seat];
	struct hf_view v;
	struct rbuf out = { 0 };

	if (s->g == NULL || st->ai >= 0)
		return;
	hf_game_view(s->g, seat, &v);
	if (before != NULL && before[0] != '\0')
		rbuf_printf(&out, "%s · ", before);
	render_hand(&out, &v);
	/* the first private line of a game says where such lines land, and how
	 * to have them elsewhere, to whoever has not chosen */
	if (st->hand_told == 0 && st->private_as == PRIVATE_DEFAULT && s->ad->ops->private_note != NULL)
		rbuf_printf(&out, " (%s)", s->ad->ops->private_note);
	/* a hand the game sends goes after what the room was told before it (key
	 * NULL); one asked for is an answer */
	reply_answer_queue(b, s->ad, MSG_PRIVATE, s->room, st->user_id, out.s, key, st->private_as);
	b->replies.v[b->replies.n - 1].player = true;
	st->hand_told = reply_hand_hash(&v);
	rbuf_free(&out);
}

void
reply_hand(struct bot *b, struct session *s, int seat)
{
	reply_hand_step(b, s, seat, NULL, NULL);
}

/* ---- a command's answers (struct cmd_ctx): where the command came from */

/* How many lines of room's story are still to go out: queued here, or in
 * the adapter.  Another's answer said in the room ("bob steps away") is
 * not the story. */
static size_t
reply_story_unsent(struct bot *b, struct adapter *ad, const char *room)
{
	const struct replies *q = &b->replies;
	size_t n = 0;

	for (size_t i = 0; i < q->n; i++)
		n += q->v[i].ad == ad && q->v[i].kind == MSG_ROOM && q->v[i].key == NULL && q->v[i].asker == NULL &&
		     q->v[i].room != NULL && strcmp(q->v[i].room, room) == 0;
	return n + (ad->ops->pending != NULL ? ad->ops->pending(ad, room, PENDING_ROOM) : 0);
}

/* An answer about a table never waits for its room's story (docs/OUTQ.md):
 * it describes what the room was handed (tell_shown), and while some of
 * that is still on its way it says so, in a few words, so that it never
 * reads as a contradiction of what the room shows yet. */
static void
reply_on_its_way(struct cmd_ctx *c, char *line, size_t len, bool mine, const char *key)
{
	size_t n, at = strlen(line);

	if (key == NULL || mine || c->s == NULL || c->room == NULL || c->s->ad != c->ad ||
	    strcmp(c->s->room, c->room) != 0 || c->entry == NULL || !(c->entry->flags & CMD_STARTED) ||
	    c->ad->ops->pending == NULL || (n = reply_story_unsent(c->bot, c->ad, c->room)) == 0)
		return;
	snprintf(line + at, len - at, " (%zu line%s of the table still on %s way to the room)", n, n == 1 ? "" : "s",
	         n == 1 ? "its" : "their");
}

/* key: NULL for what must be delivered, else the answer's key; mine: the key
 * is the asker's own (their refusals), so another user's never replaces it. */
static void
reply_vcmd(struct cmd_ctx *c, bool priv, const char *key, bool mine, const char *fmt, va_list ap)
{
	char line[4096], k[160];
	enum adapter_private as = PRIVATE_DEFAULT;

	vsnprintf(line, sizeof line, fmt, ap);
	reply_on_its_way(c, line, sizeof line, mine, key);
	if (c->s != NULL && c->seat >= 0)
		as = c->s->seats[c->seat].private_as;
	/* a refusal is keyed by its command too: refusals of different commands
	 * sent at once are all answered, a flood of one queues one */
	if (key != NULL && mine) {
		snprintf(k, sizeof k, "%s/%s/%s", key, c->entry != NULL ? c->entry->name : "?", c->user_id);
		key = k;
	}
	if (priv || c->room == NULL)
		reply_answer_queue(c->bot, c->ad, MSG_PRIVATE, c->room, c->user_id, line, key, as);
	else
		reply_answer_queue(c->bot, c->ad, MSG_ROOM, c->room, NULL, line, key, PRIVATE_DEFAULT);
	c->bot->replies.v[c->bot->replies.n - 1].asker = xstrdup(c->user_id);
	c->bot->replies.v[c->bot->replies.n - 1].asker_name = xstrdup(c->user_name);
	/* a player's answers go with the game's lines, before strangers' */
	c->bot->replies.v[c->bot->replies.n - 1].player = c->s != NULL && c->seat >= 0;
	/* it goes at once, in its asker's lane (the adapter's outq): it never
	 * waits for the room's story, nor delays the computer's turns */
}

void
reply_answer(struct cmd_ctx *c, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, c->direct, key, false, fmt, ap);
	va_end(ap);
}

void
reply_answer_private(struct cmd_ctx *c, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, true, key, false, fmt, ap);
	va_end(ap);
}

void
reply_refuse(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	/* A player at this table hears it alone (an opponent must not learn
	 * what their hand lacks); anyone else where they spoke, by name. */
	va_start(ap, fmt);
	reply_vcmd(c, c->direct || c->seat >= 0, "refused", true, fmt, ap);
	va_end(ap);
}

void
reply(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, c->direct, NULL, false, fmt, ap);
	va_end(ap);
}

void
reply_private(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, true, NULL, false, fmt, ap);
	va_end(ap);
}

void
reply_room(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, false, NULL, false, fmt, ap);
	va_end(ap);
}

/* ---- the flush */

static void
reply_clear(struct reply *r)
{
	free(r->room);
	free(r->user_id);
	free(r->styled);
	free(r->mention);
	free(r->key);
	free(r->asker);
	free(r->asker_name);
}

static uint64_t
reply_hash(uint64_t h, const char *s)
{
	return hash_fnv64_add(hash_fnv64_str(h, s), 0xff);
}

/* Where an answer goes: its adapter, kind and target. */
static uint64_t
reply_target(const struct adapter *ad, enum adapter_msg_kind kind, const char *target)
{
	uint64_t h = HASH_FNV64_INIT;

	h = reply_hash(h, ad->id);
	h = reply_hash(h, kind == MSG_ROOM ? "room" : "private");
	return reply_hash(h, target) | 1;
}

/* The answer's identity: its target and key (and how a private one goes). */
static uint64_t
reply_ident(const struct reply *r)
{
	uint64_t h = reply_target(r->ad, r->kind, r->kind == MSG_ROOM ? r->room : r->user_id);

	/* a player who changes how private lines reach them is answered anew */
	h = hash_fnv64_add(h, (uint64_t)r->private_as);
	return reply_hash(h, r->key) | 1;
}

/* Marks an answer of the flush that a newer one replaces: its text goes. */
static void
reply_replaced(void *ctx, void *payload)
{
	struct reply *r = payload;

	(void)ctx;
	free(r->styled);
	r->styled = NULL;
}

/* Which answers of this flush a newer one replaces: lib/outq decides, from
 * the facts (key, where it goes, and the event owed its own answer: a
 * Discord interaction shows its asker "thinking..." until answered, so
 * each of a burst is owed its own), as every paced adapter's queue does
 * (docs/OUTQ.md).  The flush is one lane, drained at once: nothing is
 * reordered, and what must be delivered is never handed to it. */
static void
reply_supersede(struct replies *q)
{
	struct outq *oq = NULL;
	struct outq_item *it;
	char target[512];

	for (size_t i = 0; i < q->n; i++) {
		struct reply *r = &q->v[i];

		if (r->key == NULL)
			continue;
		if (oq == NULL)
			oq = outq_new(NULL, reply_replaced, NULL);
		/* one target per adapter, kind, place and way a private line goes
		 * (a player who changes it is answered anew) */
		snprintf(target, sizeof target, "%s\x1f%s\x1f%s\x1f%d", r->ad->id, r->kind == MSG_ROOM ? "room" : "private",
		         r->kind == MSG_ROOM ? r->room : r->user_id, (int)r->private_as);
		outq_push(oq, &(struct outq_msg){ .lane = "flush", .target = target, .key = r->key, .asker = r->asker,
		                                  .player = r->player, .event = r->reply_to, .payload = r });
	}
	if (oq == NULL)
		return;
	while ((it = outq_next(oq, NULL, NULL)) != NULL)
		outq_remove(oq, it);
	outq_free(oq);
}

/* Whether r says again, to the same place, what it said less than
 * REPLY_SAME_MS ago: how long ago (ms), else -1, and r's answer is
 * remembered. */
static int64_t
reply_repeated(struct bot *b, const struct reply *r, uint64_t ident)
{
	struct reply_said *sd = &b->replies.said[ident % REPLY_SAID];
	uint64_t text = reply_hash(HASH_FNV64_INIT, r->styled);
	int64_t now = loop_now(b->loop);

	if (sd->ident == ident && sd->text == text && now - sd->at < REPLY_SAME_MS)
		return now - sd->at;
	sd->ident = ident;
	sd->text = text;
	sd->target = reply_target(r->ad, r->kind, r->kind == MSG_ROOM ? r->room : r->user_id);
	sd->at = now;
	return -1;
}

/* A repeated answer, shortened: a person who asks is always answered, but
 * a long room answer said a moment ago is pointed at, not said again (a
 * room's budget is everyone's): whether it was.  A short one is said again whole. */
#define REPLY_SHORT 120
static bool
reply_shorten(struct reply *r, int64_t ago_ms)
{
	struct rbuf out = { 0 };
	int s = (int)((ago_ms + 999) / 1000);

	/* a private answer is said whole: its lines are the asker's alone, and
	 * who asks for their hand again has most likely lost it */
	if (strlen(r->styled) <= REPLY_SHORT || r->kind != MSG_ROOM)
		return false;
	/* named as people see them (an IRC id is "nick:carol") */
	rbuf_printf(&out, ST_PLAYER "%s" ST_END ": the same as %d s ago, above.",
	            r->asker_name != NULL ? r->asker_name : r->asker != NULL ? r->asker : "", s);
	free(r->styled);
	r->styled = out.s;
	return true;
}

void
reply_forget(struct bot *b, struct adapter *ad, const char *room, const char *user_id)
{
	uint64_t t1 = room != NULL ? reply_target(ad, MSG_ROOM, room) : 0;
	uint64_t t2 = user_id != NULL ? reply_target(ad, MSG_PRIVATE, user_id) : 0;

	for (size_t i = 0; i < REPLY_SAID; i++) {
		struct reply_said *sd = &b->replies.said[i];

		if (sd->target != 0 && (sd->target == t1 || sd->target == t2))
			memset(sd, 0, sizeof *sd);
	}
}

static void
reply_send_all(struct bot *b)
{
	struct replies *q = &b->replies;
	struct adapter_msg m;
	const char *mentions[1];
	char watch[512];
	size_t i;

	reply_supersede(q);
	/* Sending may queue more (an adapter reporting a failure): loop by index. */
	for (i = 0; i < q->n; i++) {
		struct reply *r = &q->v[i];

		bool again = false;

		if (r->key != NULL) {
			uint64_t ident = reply_ident(r);

			if (r->styled == NULL) {
				/* a newer answer of this flush replaces it */
				reply_clear(r);
				continue;
			}
			/* An answer to an event with its own handle (a Discord
			 * interaction) is always given whole: the service shows the
			 * asker "thinking..." until it is, and it spends no shared
			 * budget; nor is one shortened where nothing limits lines (an
			 * adapter with no paced queue, the console). */
			int64_t ago;

			if (r->reply_to == 0 && r->ad->ops->pending != NULL && (ago = reply_repeated(b, r, ident)) >= 0) {
				log_msg(LOG_LVL_DEBUG, "%s: the answer \"%s\" to %s said again: unchanged (asked by %s), %lld ms after",
				        r->ad->id, r->key, r->kind == MSG_ROOM ? r->room : r->user_id,
				        r->asker != NULL ? r->asker : "nobody", (long long)ago);
				again = reply_shorten(r, ago);
			}
		}

		memset(&m, 0, sizeof m);
		m.kind = r->kind;
		m.room = r->room;
		m.user_id = r->user_id;
		m.styled = r->styled;
		m.prefix = bot_adapter_of(r->ad)->prefix;
		m.reply_to = r->reply_to;
		m.private_as = r->private_as;
		m.supersede = r->key;
		m.asker = r->asker;
		m.player = r->player;
		m.again = again;
		if (r->mention != NULL) {
			mentions[0] = r->mention;
			m.mentions = mentions;
			m.nmentions = 1;
		}
		if (r->prompt) {
			m.prompt_user = r->mention;
			m.actions = r->actions;
			m.nactions = r->nactions;
		}
		if (view_watch_url(b, r->ad, r->room, watch, sizeof watch) >= 0)
			m.watch_url = watch;
		if (r->ad->ops->send(r->ad, &m) < 0)
			log_msg(LOG_LVL_WARNING, "%s: a message could not be queued", r->ad->id);
		reply_clear(&q->v[i]);
	}
	q->n = 0;
}

void
reply_flush(struct bot *b)
{
	reply_send_all(b);
}

void
reply_free(struct bot *b)
{
	struct replies *q = &b->replies;
	size_t i;

	for (i = 0; i < q->n; i++)
		reply_clear(&q->v[i]);
	free(q->v);
	memset(q, 0, sizeof *q);
}

/* "alice: usage: !meld CARDS" */
void
reply_usage(struct cmd_ctx *c)
{
	reply_refuse(c, "%s: usage: " ST_COMMAND "%s" ST_END "%s%s", c->user_name, c->entry->name,
	             c->entry->usage[0] ? " " : "", c->entry->usage);
}
