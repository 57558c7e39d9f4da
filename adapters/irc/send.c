/* send.c: what goes out: protocol lines first, then messages encoded and split to fit, paced and round-robin per target. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "client.h"
#include "loop.h"

static int64_t
on_flush_timer(struct loop *l, long long id, void *data)
{
	struct irc *c = data;

	(void)l;
	(void)id;
	c->flush_timer = 0;
	irc_send_flush(c);
	return LOOP_NOMORE;
}

static void
schedule_flush(struct irc *c, int64_t ms)
{
	if (c->flush_timer != 0)
		return;
	c->flush_timer = loop_timer_add(c->a->loop, ms, on_flush_timer, c);
}

/* Writes what it can: the pending line, then protocol lines, then paced messages. */
void
irc_send_flush(struct irc *c)
{
	if (c->easy == NULL || c->fd < 0)
		return;
	for (;;) {
		char line[IRC_MAX_LINE + 1];
		size_t n;

		if (c->woff < c->wlen) {
			size_t sent = 0;
			CURLcode rc = curl_easy_send(c->easy, c->wbuf + c->woff, c->wlen - c->woff, &sent);

			if (rc == CURLE_AGAIN) {
				irc_conn_watch(c, true);
				return;
			}
			if (rc != CURLE_OK) {
				irc_conn_disconnect(c, curl_easy_strerror(rc));
				return;
			}
			c->woff += sent;
			if (c->woff < c->wlen)
				continue;
			c->woff = c->wlen = 0;
			irc_conn_watch(c, false);
		}
		if ((n = irc_queue_pop(&c->proto, line, sizeof line)) == 0) {
			int64_t wait;

			if (c->state != IRC_READY || c->out.lines == 0)
				return;
			if ((wait = irc_bucket_wait(&c->bucket, loop_now(c->a->loop))) > 0) {
				schedule_flush(c, wait);
				return;
			}
			n = irc_queue_pop(&c->out, line, sizeof line);
		}
		/* protocol lines skip the wait but still spend a token */
		irc_bucket_take(&c->bucket, loop_now(c->a->loop));
		irc_conn_log(c, ">", line);
		memcpy(c->wbuf, line, n);
		memcpy(c->wbuf + n, "\r\n", 2);
		c->wlen = n + 2;
		c->woff = 0;
	}
}

/* Queues a protocol line (printf-style); it goes before any message. */
void __attribute__((format(printf, 2, 3)))
irc_send_proto(struct irc *c, const char *fmt, ...)
{
	char line[IRC_MAX_LINE + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > IRC_MAX_LINE - 2)
		n = IRC_MAX_LINE - 2;
	/* nothing from the server reaches here unchecked, but be sure */
	for (int i = 0; i < n; i++)
		if (line[i] == '\r' || line[i] == '\n' || line[i] == '\0')
			line[i] = ' ';
	if (irc_queue_push(&c->proto, "", line, (size_t)n) != 0)
		adapter_log(c->a, LOG_LVL_WARNING, "protocol queue full: line dropped");
	irc_send_flush(c);
}

/* The longest text in "CMD target :text" that the server can relay with our prefix. */
static size_t
text_room(struct irc *c, const char *cmd, const char *target)
{
	size_t prefix = 1 + strlen(c->cur_nick) + 1 + 1;   /* ":" nick "!" ... " " */
	size_t fixed;

	prefix += c->userhost[0] != '\0' ? strlen(c->userhost) : 10 + 1 + 63;
	fixed = prefix + strlen(cmd) + 1 + strlen(target) + 2 + 2;   /* " :" and CR LF */
	return fixed + 16 < IRC_MAX_LINE ? IRC_MAX_LINE - fixed : 16;
}

/* One message on its way out: its pieces become lines to target. */
struct irc_out {
	struct irc *c;
	const char *cmd, *target, *prefix;
	int rc;
};

static void
irc_send_encode(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct irc_out *o = ctx;

	irc_format(out, m, len, o->prefix, o->c->colors);
}

static void
irc_send_piece(void *ctx, const char *m, size_t len, const char *text, size_t textlen)
{
	struct irc_out *o = ctx;
	struct irc *c = o->c;
	char line[IRC_MAX_LINE + 1];
	int w;

	(void)m;
	(void)len;
	(void)textlen;
	if (o->rc < 0)
		return;     /* the queue is full: the rest of the message would be cut anyway */
	w = snprintf(line, sizeof line, "%s %s :%s", o->cmd, o->target, text);
	if (w < 0 || irc_queue_push(&c->out, o->target, line, (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) != 0) {
		/* once a minute at most: a flood must not flood the log too */
		if (loop_now(c->a->loop) - c->drop_logged > 60000) {
			c->drop_logged = loop_now(c->a->loop);
			adapter_log(c->a, LOG_LVL_WARNING, "output queue for %s full: dropping lines", o->target);
		}
		o->rc = -1;
	}
}

/* Queues a styled message to target: one line per line of it, each cut to
 * what the server relays after our prefix, in mIRC codes or plain. */
static int
queue_styled(struct irc *c, const char *cmd, const char *target, const struct adapter_msg *m)
{
	struct irc_out o = { .c = c, .cmd = cmd, .target = target, .prefix = m->prefix ? m->prefix : "" };

	style_split(m->styled, strlen(m->styled), text_room(c, cmd, target), true, irc_send_encode, &o,
	            irc_send_piece, &o);
	irc_send_flush(c);
	return o.rc;
}

int
irc_send(struct adapter *a, const struct adapter_msg *m)
{
	struct irc *c = a->priv;
	const char *target, *cmd = "PRIVMSG";

	if (m->styled == NULL)
		return -1;
	if (m->kind == MSG_ROOM) {
		if (m->room == NULL || irc_chan_find(c, m->room) < 0)
			return -1;
		target = c->chans[irc_chan_find(c, m->room)].name;
	} else {
		if (m->user_id == NULL)
			return -1;
		target = irc_users_nick_for(&c->users, m->user_id);
		/* a nick-keyed player we have not seen on this connection: the nick itself,
		 * unless someone else wears it now */
		if (target == NULL && strncmp(m->user_id, "nick:", 5) == 0 && strchr(m->user_id, '~') == NULL) {
			struct irc_user *u = irc_users_find(&c->users, m->user_id + 5);

			if (u == NULL || u->account[0] == '\0')
				target = m->user_id + 5;
		}
		if (target == NULL || strchr(target, ' ') != NULL || target[0] == '\0') {
			adapter_log(a, LOG_LVL_INFO, "no user %s on this network now: private message dropped", m->user_id);
			return -1;
		}
		/* the player's choice wins; the section's "private" key is for the rest */
		if (m->private_as == PRIVATE_NOTICE || (m->private_as == PRIVATE_DEFAULT && c->private_notice))
			cmd = "NOTICE";
	}
	return queue_styled(c, cmd, target, m);
}

/* Lines waiting for a channel: the bot's computer seats wait for 0, so the 40-line cap never drops a game's lines. */
size_t
irc_send_pending(struct adapter *a, const char *room)
{
	struct irc *c = a->priv;
	int i = irc_chan_find(c, room);

	return i < 0 ? 0 : irc_queue_count(&c->out, c->chans[i].name);
}
