/* reply.c: the reply queue and its flush, the one writer: everything the bot says goes through here to an adapter. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

void
reply_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room, const char *user_id,
            const char *styled, const char *mention, enum adapter_private private_as)
{
	struct replies *q = &b->replies;
	struct reply *r;

	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->v = xreallocarray(q->v, q->cap, sizeof *q->v);
	}
	r = &q->v[q->n++];
	memset(r, 0, sizeof *r);
	r->ad = ad;
	r->kind = kind;
	r->room = xstrdup(room);
	r->user_id = xstrdup(user_id);
	r->styled = xstrdup(styled);
	r->mention = xstrdup(mention);
	r->private_as = private_as;
	/* a reply to the event being handled says so, on the adapter it came from */
	r->reply_to = ad == q->event_ad ? q->event_ref : 0;
}

void
reply_table(struct bot *b, struct session *s, const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, line, NULL, PRIVATE_DEFAULT);
}

void
reply_prompt(struct bot *b, struct session *s, const char *styled, const char *user_id, const char *const *actions,
             size_t nactions)
{
	struct reply *r;

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

void
reply_hand(struct bot *b, struct session *s, int seat)
{
	struct hf_view v;
	struct rbuf out = { 0 };

	if (s->g == NULL || s->seats[seat].ai >= 0)
		return;
	hf_game_view(s->g, seat, &v);
	render_hand(&out, &v);
	reply_seat(b, s, seat, out.s);
	rbuf_free(&out);
}

/* ---- a command's answers (struct cmd_ctx): where the command came from */

static void
reply_vcmd(struct cmd_ctx *c, bool priv, const char *fmt, va_list ap)
{
	char line[2048];
	enum adapter_private as = PRIVATE_DEFAULT;

	vsnprintf(line, sizeof line, fmt, ap);
	if (c->s != NULL && c->seat >= 0)
		as = c->s->seats[c->seat].private_as;
	if (priv || c->room == NULL)
		reply_queue(c->bot, c->ad, MSG_PRIVATE, c->room, c->user_id, line, NULL, as);
	else
		reply_queue(c->bot, c->ad, MSG_ROOM, c->room, NULL, line, NULL, PRIVATE_DEFAULT);
}

void
reply(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, c->direct, fmt, ap);
	va_end(ap);
}

void
reply_private(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, true, fmt, ap);
	va_end(ap);
}

void
reply_room(struct cmd_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reply_vcmd(c, false, fmt, ap);
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
}

void
reply_flush(struct bot *b)
{
	struct replies *q = &b->replies;
	struct adapter_msg m;
	const char *mentions[1];
	size_t i;

	/* Sending may queue more (an adapter reporting a failure): loop by index. */
	for (i = 0; i < q->n; i++) {
		struct reply *r = &q->v[i];

		memset(&m, 0, sizeof m);
		m.kind = r->kind;
		m.room = r->room;
		m.user_id = r->user_id;
		m.styled = r->styled;
		m.prefix = bot_adapter_of(r->ad)->prefix;
		m.reply_to = r->reply_to;
		m.private_as = r->private_as;
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
		if (r->ad->ops->send(r->ad, &m) < 0)
			log_msg(LOG_LVL_WARNING, "%s: a message could not be queued", r->ad->id);
		reply_clear(&q->v[i]);
	}
	q->n = 0;
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
