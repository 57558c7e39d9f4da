/* send.c: what goes out: protocol lines first, then messages encoded and split to fit, paced and round-robin per target. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "client.h"
#include "hash.h"
#include "loop.h"

static void
on_flush_timer(void *data)
{
	irc_send_flush(data);
}

/* A flush already pending is soon enough. */
static void
schedule_flush(struct irc *c, int64_t ms)
{
	if (c->flush_timer == 0)
		loop_once(c->a->loop, &c->flush_timer, ms, on_flush_timer, c);
}

/* A message to a channel: plain text where colours are refused, and kept
 * to go again if they turn out to be (chan.c). */
static void
send_to_channel(struct irc *c, char *line, size_t *n)
{
	char target[64];
	size_t len;
	int i;

	if (strncmp(line, "PRIVMSG ", 8) != 0 && strncmp(line, "NOTICE ", 7) != 0)
		return;
	len = strcspn(line + (line[0] == 'P' ? 8 : 7), " ");
	if (len == 0 || len >= sizeof target)
		return;
	memcpy(target, line + (line[0] == 'P' ? 8 : 7), len);
	target[len] = '\0';
	if (irc_chan_is(target) && (i = irc_chan_find(c, target)) >= 0)
		irc_chan_outgoing(c, i, line, n);
}

/* A line taken from the queues to be written now (line and *n may change). */
void
irc_send_written(struct irc *c, char *line, size_t *n)
{
	send_to_channel(c, line, n);
	irc_refused_sent(c, line, *n);
	irc_conn_log(c, ">", line);
}

/* The channel a message line goes to (PRIVMSG/NOTICE #chan), its index; -1 if none of ours. */
static int
line_channel(struct irc *c, const char *line)
{
	char target[64];
	size_t skip = strncmp(line, "PRIVMSG ", 8) == 0 ? 8 : strncmp(line, "NOTICE ", 7) == 0 ? 7 : 0;
	size_t len;

	if (skip == 0 || (len = strcspn(line + skip, " ")) == 0 || len >= sizeof target)
		return -1;
	memcpy(target, line + skip, len);
	target[len] = '\0';
	return irc_chan_is(target) ? irc_chan_find(c, target) : -1;
}

/* The next paced line into line (its length; 0: none may go yet, a flush is
 * scheduled): paced protocol lines and messages in turn, each channel's
 * lines no faster than its own bucket allows (a line that must wait for
 * it is held, and everything waits behind it: a lane's order is kept). */
static size_t
next_paced(struct irc *c, char *line, size_t size)
{
	int64_t now = loop_now(c->a->loop), wait;
	size_t n;
	int i;

	if (c->state != IRC_READY || (c->out.lines == 0 && c->paced.lines == 0 && c->held_len == 0))
		return 0;
	if ((wait = irc_bucket_wait(&c->bucket, now)) > 0) {
		schedule_flush(c, wait);
		return 0;
	}
	if (c->held_len == 0) {
		/* paced protocol lines and messages take turns: 20 channels'
		 * WHOs must not hold a game back for 40 s, nor it them */
		c->paced_turn = !c->paced_turn;
		if ((c->paced_turn || c->out.lines == 0) && (n = irc_queue_pop(&c->paced, line, size)) > 0)
			return n;
		/* a private line to a new target waits while the network's
		 * target limit holds (refused.c), and costs no token */
		do {
			if ((n = irc_queue_pop(&c->out, line, size)) == 0)
				return 0;
		} while (irc_refused_defer(c, line, n));
		memcpy(c->held, line, n + 1);
		c->held_len = n;
	}
	if ((i = line_channel(c, c->held)) >= 0) {
		if ((wait = irc_bucket_wait(&c->chans[i].bucket, now)) > 0) {
			schedule_flush(c, wait);
			return 0;
		}
		irc_bucket_take(&c->chans[i].bucket, now);
	}
	n = c->held_len < size ? c->held_len : size - 1;
	memcpy(line, c->held, n);
	line[n] = '\0';
	c->held_len = 0;
	return n;
}

/* The line to write now, if any: a protocol line, else a paced one whose
 * time has come (a flush is scheduled for the next); its length, 0 if none. */
size_t
irc_send_next(struct irc *c, char *line, size_t size)
{
	size_t n;

	if ((n = irc_queue_pop(&c->proto, line, size)) == 0 && (n = next_paced(c, line, size)) == 0)
		return 0;
	/* protocol lines skip the wait but still spend a token */
	irc_bucket_take(&c->bucket, loop_now(c->a->loop));
	irc_send_written(c, line, &n);
	return n;
}

/* Writes what it can: the pending line, then protocol lines, then paced lines. */
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
		if ((n = irc_send_next(c, line, sizeof line)) == 0)
			return;
		memcpy(c->wbuf, line, n);
		memcpy(c->wbuf + n, "\r\n", 2);
		c->wlen = n + 2;
		c->woff = 0;
	}
}

/* A protocol line (printf-style) into q, and a flush. */
static void
send_line(struct irc *c, struct irc_queue *q, const char *fmt, va_list ap)
{
	char line[IRC_MAX_LINE + 1];
	int n = vsnprintf(line, sizeof line, fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n > IRC_MAX_LINE - 2)
		n = IRC_MAX_LINE - 2;
	/* nothing from the server reaches here unchecked, but be sure */
	for (int i = 0; i < n; i++)
		if (line[i] == '\r' || line[i] == '\n' || line[i] == '\0')
			line[i] = ' ';
	if (irc_queue_push(q, "", line, (size_t)n) != 0)
		adapter_log(c->a, LOG_LVL_WARNING, "protocol queue full: line dropped");
	irc_send_flush(c);
}

/* Queues a protocol line (printf-style); it goes before any message, at
 * once: what registration and keep-alive need (it still spends a token). */
void __attribute__((format(printf, 2, 3)))
irc_send_proto(struct irc *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	send_line(c, &c->proto, fmt, ap);
	va_end(ap);
}

/* Queues a protocol line that waits for the bucket like a message, before
 * any message: Solanum quits a client past 20 unread lines ("Excess
 * Flood"), and 20 channels' JOINs and WHOs at once were more. */
void __attribute__((format(printf, 2, 3)))
irc_send_paced(struct irc *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	send_line(c, &c->paced, fmt, ap);
	va_end(ap);
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

/* One message on its way out: its pieces become lines to target, queued in lane. */
struct irc_out {
	struct irc *c;
	const char *cmd, *target, *prefix, *lane;
	struct irc_qfacts facts; /* what its lines are (lib/outq decides their class) */
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
	if (w < 0 || irc_queue_push_facts(&c->out, o->lane, &o->facts, line,
	                                  (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) != 0) {
		/* once a minute at most: a flood must not flood the log too */
		if (loop_now(c->a->loop) - c->drop_logged > 60000) {
			c->drop_logged = loop_now(c->a->loop);
			adapter_log(c->a, LOG_LVL_WARNING, "output queue for %s full: dropping lines", o->target);
		}
		o->rc = -1;
	}
	o->facts.piece = true;   /* the message's next lines continue it */
}

/* An answer's key: its target and supersede key (0: none, it must be delivered). */
static uint64_t
answer_key(const char *target, const char *supersede)
{
	char folded[64];

	if (supersede == NULL)
		return 0;
	irc_parse_casefold(folded, sizeof folded, target);
	return hash_fnv64_str(hash_fnv64_add(hash_fnv64_str(HASH_FNV64_INIT, folded), 0x1f), supersede) | 1;
}

/* Queues a styled message to target in lane: its parts joined into as few
 * lines as fit (computer turns share a line where they can), each line cut
 * to what the server relays after our prefix, in mIRC codes or plain.  Its
 * lines go with their facts: lib/outq replaces an older answer and decides
 * their class. */
static int
queue_styled(struct irc *c, const char *cmd, const char *target, const char *lane, bool about_room,
             const struct adapter_msg *m)
{
	struct irc_out o = { .c = c, .cmd = cmd, .target = target, .lane = lane, .prefix = m->prefix ? m->prefix : "",
	                     .facts = { .key = answer_key(target, m->supersede), .asker = m->asker,
	                                .player = m->player, .about_room = about_room, .again = m->again } };
	size_t room = text_room(c, cmd, target);
	struct rbuf packed = { 0 };

	style_pack(&packed, m->styled, strlen(m->styled), room, " | ", irc_send_encode, &o);
	style_split(packed.s, packed.len, room, true, irc_send_encode, &o, irc_send_piece, &o);
	rbuf_free(&packed);
	irc_send_flush(c);
	return o.rc;
}

int
irc_send(struct adapter *a, const struct adapter_msg *m)
{
	struct irc *c = a->priv;
	const char *target, *lane, *cmd = "PRIVMSG";
	char answers[IRC_QUEUE_LANE];
	bool about_room;

	if (m->styled == NULL)
		return -1;
	if (m->kind == MSG_ROOM) {
		if (m->room == NULL || irc_chan_find(c, m->room) < 0)
			return -1;
		lane = target = c->chans[irc_chan_find(c, m->room)].name;
	} else {
		if (m->user_id == NULL)
			return -1;
		struct irc_user *u = irc_members_holder(c, m->user_id);

		/* Only to the person who holds the id now, as far as we can see:
		 * never to a nick we do not see, nor to whoever wears the player's
		 * nick with another id (nicks.c), whose hand it is not. */
		if (u == NULL || u->nick[0] == '\0' || strchr(u->nick, ' ') != NULL) {
			adapter_log(a, LOG_LVL_INFO, "nobody holds %s on this network now: private message dropped",
			            m->user_id);
			return -1;
		}
		target = u->nick;
		irc_nicks_bind(c, u);
		irc_refused_for(c, target, m->user_id, m->room, m->supersede == NULL);
		/* the player's choice wins; the section's "private" key is for the
		 * rest.  PRIVATE_QUIET is a NOTICE, PRIVATE_CONVERSATION a query (PRIVMSG) */
		/* where a +g user's NOTICE is dropped without a word (Solanum,
		 * CALLERID in ISUPPORT), "auto" sends PRIVMSG, which is answered 716 */
		if (m->private_as == PRIVATE_QUIET ||
		    (m->private_as == PRIVATE_DEFAULT && c->private_notice && !(c->private_auto && c->notice_silent)))
			cmd = "NOTICE";
		/* a line about a game waits behind what that channel was told before
		 * it (a round's end before the next round's hand) */
		lane = m->room != NULL && irc_chan_find(c, m->room) >= 0 ? c->chans[irc_chan_find(c, m->room)].name : target;
	}
	/* the lane (lib/outq): the room's, or, for an answer, its asker's */
	{
		struct outq_msg om = { .room = m->kind == MSG_PRIVATE && lane != target ? lane : NULL,
		                       .target = target, .key = m->supersede, .asker = m->asker };

		outq_lane_name(&om, answers, sizeof answers);
		lane = answers;
		about_room = om.room != NULL;
	}
	return queue_styled(c, cmd, target, lane, about_room, m);
}

/* Lines that must be delivered waiting in a channel's lane: the bot's
 * computer seats wait for 0, so the 40-line cap never drops a game's lines
 * (answers are dropped first, and not waited for); or only the channel's
 * own lines, not its players' hands. */
size_t
irc_send_pending(struct adapter *a, const char *room, enum adapter_pending what)
{
	struct irc *c = a->priv;
	int i = irc_chan_find(c, room);
	size_t n;

	if (i < 0)
		return 0;
	n = what == PENDING_ROOM ? irc_queue_count_room(&c->out, c->chans[i].name)
	                         : irc_queue_count_keep(&c->out, c->chans[i].name);
	/* a line held for the channel's pace is still to go */
	return n + (c->held_len > 0 && line_channel(c, c->held) == i);
}

/* A private line's rewrite (irc_send_forget): nick NULL for every private line. */
struct irc_forget {
	struct irc *c;
	const char *nick, *newnick;
};

static int
forget_line(void *ctx, const char *line, size_t len, char *buf, size_t buflen)
{
	struct irc_forget *f = ctx;
	const char *cmd = strncmp(line, "PRIVMSG ", 8) == 0 ? "PRIVMSG" : strncmp(line, "NOTICE ", 7) == 0 ? "NOTICE" : NULL;
	const char *target, *text;
	char nick[64];
	size_t tlen;
	int w;

	if (cmd == NULL)
		return 0;
	target = line + strlen(cmd) + 1;
	tlen = strcspn(target, " ");
	if (tlen == 0 || tlen >= sizeof nick || irc_chan_is(target))
		return 0;
	memcpy(nick, target, tlen);
	nick[tlen] = '\0';
	if (f->nick != NULL && !irc_parse_same(nick, f->nick))
		return 0;
	text = target + tlen;
	if (f->newnick == NULL || strncmp(text, " :", 2) != 0)
		return -1;
	text += 2;
	/* the same person under a new nick: theirs still, if it fits after our prefix */
	if (strlen(text) > text_room(f->c, cmd, f->newnick))
		return -1;
	w = snprintf(buf, buflen, "%s %s :%s", cmd, f->newnick, text);
	(void)len;
	return w > 0 && (size_t)w < buflen ? w : -1;
}

void
irc_send_forget(struct irc *c, const char *nick, const char *newnick)
{
	struct irc_forget f = { .c = c, .nick = nick, .newnick = newnick };
	size_t n = irc_queue_rewrite(&c->out, forget_line, &f);

	if (n > 0 && newnick == NULL)
		adapter_log(c->a, LOG_LVL_INFO, "%zu private line%s for %s dropped: %s", n, n == 1 ? "" : "s",
		            nick != NULL ? nick : "players", nick != NULL ? "gone before they were sent" : "disconnected");
}
