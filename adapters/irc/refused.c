/* refused.c: a private line the server refused (target limits, the player's +g or +R, a missing nick): the player told how to get it, a target-limited line sent again when a slot frees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "loop.h"

#define SENT_KEEP_MS   30000            /* a refusal answers a line sent this recently */
#define TARGET_WAIT_MS 60000            /* Solanum frees one target slot a minute */
#define RETRY_TRIES    3                /* a target-limited line is sent again this often at most */

/* The target of a private line "PRIVMSG nick :..." into nick; false for a channel or another command. */
static bool
private_target(const struct irc *c, const char *line, char *nick, size_t len)
{
	const char *t;
	size_t n;

	if (strncmp(line, "PRIVMSG ", 8) == 0)
		t = line + 8;
	else if (strncmp(line, "NOTICE ", 7) == 0)
		t = line + 7;
	else
		return false;
	n = strcspn(t, " ");
	/* a status message ("@#chan") is a channel's */
	if (n == 0 || n >= len || irc_chan_is(t) || irc_chan_typed(c, t) ||
	    (strchr(c->statusmsg[0] != '\0' ? c->statusmsg : c->prefix_chars, t[0]) != NULL && irc_chan_is(t + 1)))
		return false;
	memcpy(nick, t, n);
	nick[n] = '\0';
	return true;
}

void
irc_refused_for(struct irc *c, const char *nick, const char *user_id, const char *room, bool must)
{
	struct irc_refused *r = &c->refused;
	int i, slot = -1;

	for (i = 0; i < IRC_REFUSED_WHO; i++) {
		if (r->who[i].nick[0] != '\0' && irc_parse_same(r->who[i].nick, nick)) {
			slot = i;
			break;
		}
		if (slot < 0 && r->who[i].nick[0] == '\0')
			slot = i;
	}
	if (slot < 0)
		slot = (int)(r->who_next++ % IRC_REFUSED_WHO);
	irc_text_copy(r->who[slot].nick, sizeof r->who[slot].nick, nick);
	irc_text_copy(r->who[slot].id, sizeof r->who[slot].id, user_id);
	irc_text_copy(r->who[slot].room, sizeof r->who[slot].room, room != NULL ? room : "");
	r->who[slot].must = must;
}

/* Whether nick's private lines must be delivered (the last queued for them was a hand, not an answer). */
static bool
refused_must(const struct irc *c, const char *nick)
{
	for (int i = 0; i < IRC_REFUSED_WHO; i++)
		if (c->refused.who[i].nick[0] != '\0' && irc_parse_same(c->refused.who[i].nick, nick))
			return c->refused.who[i].must;
	return false;
}

/* nick's place among the targets that cost no slot; -1 if not there. */
static int
ok_find(const struct irc_refused *r, const char *nick)
{
	for (int i = 0; i < IRC_REFUSED_OK; i++)
		if (r->ok[i][0] != '\0' && irc_parse_same(r->ok[i], nick))
			return i;
	return -1;
}

/* nick was written to: the most recent target (true) or not one (false: refused). */
static void
ok_set(struct irc_refused *r, const char *nick, bool ok)
{
	int i = ok_find(r, nick);

	if (i < 0)
		i = IRC_REFUSED_OK - 1;
	memmove(r->ok[1], r->ok[0], (size_t)i * sizeof r->ok[0]);
	irc_text_copy(r->ok[0], sizeof r->ok[0], nick);
	if (!ok) {
		memmove(r->ok[0], r->ok[1], (IRC_REFUSED_OK - 1) * sizeof r->ok[0]);
		r->ok[IRC_REFUSED_OK - 1][0] = '\0';
	}
}

/* A free retry entry for line to nick, due then with tries so far; false if none is free. */
static bool
retry_add(struct irc *c, const char *nick, const char *line, int tries, int64_t due)
{
	struct irc_refused *r = &c->refused;
	bool must = refused_must(c, nick);

	for (int i = 0; i < 2 * IRC_REFUSED_RETRY; i++) {
		struct irc_retry *q = &r->retry[i % IRC_REFUSED_RETRY];

		/* full: a hand takes the place of an answer */
		if (i >= IRC_REFUSED_RETRY && must && !q->must && !q->queued) {
			adapter_log(c->a, LOG_LVL_INFO, "a private line to %s dropped for a hand (target limit)", q->nick);
			q->due = 0;
		}
		if (q->due != 0 || q->queued)
			continue;
		irc_text_copy(q->line, sizeof q->line, line);
		irc_text_copy(q->nick, sizeof q->nick, nick);
		q->tries = tries;
		q->due = due;
		q->must = must;
		return true;
	}
	adapter_log(c->a, LOG_LVL_WARNING, "a private line to %s dropped: too many waiting for the target limit", nick);
	return false;
}

static void schedule_retry(struct irc *c);

/* The tries of line if it is one sent again (its entry freed), else 0. */
static int
retry_tries(struct irc_refused *r, const char *line)
{
	for (int i = 0; i < IRC_REFUSED_RETRY; i++)
		if (r->retry[i].queued && strcmp(r->retry[i].line, line) == 0) {
			int tries = r->retry[i].tries;

			memset(&r->retry[i], 0, sizeof r->retry[i]);
			return tries;
		}
	return 0;
}

bool
irc_refused_defer(struct irc *c, const char *line, size_t len)
{
	struct irc_refused *r = &c->refused;
	char nick[64], copy[IRC_MAX_LINE + 1];

	if (r->gate_until <= loop_now(c->a->loop) || len >= sizeof copy || !private_target(c, line, nick, sizeof nick) ||
	    ok_find(r, nick) >= 0)
		return false;
	memcpy(copy, line, len);
	copy[len] = '\0';
	/* waiting for a slot costs no try: only a refusal does */
	if (retry_add(c, nick, copy, retry_tries(r, copy), r->gate_until))
		schedule_retry(c);
	return true;
}

void
irc_refused_sent(struct irc *c, const char *line, size_t len)
{
	struct irc_refused *r = &c->refused;
	char nick[64];
	struct irc_sent *s;

	if (!private_target(c, line, nick, sizeof nick) || len >= sizeof s->line)
		return;
	s = &r->sent[r->sent_next++ % IRC_REFUSED_SENT];
	/* a line sent again: its tries go on counting */
	s->tries = retry_tries(r, line);
	ok_set(r, nick, true);
	irc_text_copy(s->nick, sizeof s->nick, nick);
	memcpy(s->line, line, len);
	s->line[len] = '\0';
	s->at = loop_now(c->a->loop);
	s->live = true;
}

/* The oldest line sent lately to nick that no refusal answered yet: the one this refusal is about. */
static struct irc_sent *
sent_to(struct irc *c, const char *nick)
{
	struct irc_refused *r = &c->refused;
	int64_t now = loop_now(c->a->loop);
	struct irc_sent *best = NULL;

	for (int i = 0; i < IRC_REFUSED_SENT; i++) {
		struct irc_sent *s = &r->sent[i];

		if (s->live && now - s->at <= SENT_KEEP_MS && irc_parse_same(s->nick, nick) &&
		    (best == NULL || s->at < best->at))
			best = s;
	}
	return best;
}

/* Tells the core that nick's private line was refused, and why and what to do. */
static void
refused_tell(struct irc *c, const char *nick, const char *why)
{
	struct irc_refused *r = &c->refused;
	struct bot_event ev;
	char id[96], name[64], key[64];
	const char *room = NULL;
	struct irc_user *u;

	irc_text_in(name, sizeof name, nick);
	if ((u = irc_users_find(&c->users, name)) != NULL)
		irc_users_id(u, id, sizeof id);
	else {
		irc_parse_casefold(key, sizeof key, name);
		snprintf(id, sizeof id, "nick:%s", key);
	}
	for (int i = 0; i < IRC_REFUSED_WHO; i++)
		if (r->who[i].nick[0] != '\0' && irc_parse_same(r->who[i].nick, nick)) {
			irc_text_copy(id, sizeof id, r->who[i].id);
			room = r->who[i].room[0] != '\0' ? r->who[i].room : NULL;
			break;
		}
	adapter_log(c->a, LOG_LVL_INFO, "a private line to %s was refused: %s", name, why);
	ev = (struct bot_event){ .type = BOT_EV_SEND_FAILED, .room = room, .user_id = id, .user_name = name, .text = why };
	adapter_emit(c->a, &ev);
}

/* The seconds a 439 asks us to wait ("... Please wait 12 seconds"); TARGET_WAIT_MS if it says none. */
static int64_t
wait_asked(const char *text)
{
	const char *p = strstr(text, "wait ");
	long s;

	if (p == NULL || (s = strtol(p + 5, NULL, 10)) <= 0 || s > 3600)
		return TARGET_WAIT_MS;
	return s * 1000;
}

/* ERR_TARGCHANGE (Solanum 707), ERR_TARGETTOOFAST (UnrealIRCd 439): too
 * many new targets; the line is dropped by the server.  It goes again when
 * a slot frees; the player hears why once, and that a line to the bot
 * lets it answer them at once (a reply costs no slot). */
void
irc_refused_target(struct irc *c, const struct irc_msg *m)
{
	struct irc_refused *r = &c->refused;
	struct irc_sent *s;
	char why[256];

	if (m->nparams < 2 || irc_chan_is(m->params[1]))
		return;
	/* no new target until a slot frees: lines to new targets wait (irc_refused_defer) */
	r->gate_until = loop_now(c->a->loop) +
	                (strcmp(m->command, "439") == 0 && m->nparams > 2 ? wait_asked(m->params[2]) : TARGET_WAIT_MS);
	ok_set(r, m->params[1], false);
	if ((s = sent_to(c, m->params[1])) != NULL) {
		s->live = false;
		/* a hand goes again until it is delivered (or its player leaves); an answer three times */
		if (s->tries < RETRY_TRIES || refused_must(c, s->nick)) {
			if (retry_add(c, s->nick, s->line, s->tries + 1, r->gate_until))
				schedule_retry(c);
		} else {
			adapter_log(c->a, LOG_LVL_INFO, "a private line to %s dropped: refused %d times (target limit)", s->nick,
			            s->tries + 1);
		}
	}
	snprintf(why, sizeof why, "the network limits whom I may message: it comes again within a minute, or "
	         "/msg %s hand", c->cur_nick);
	refused_tell(c, m->params[1], why);
}

/* ERR_TARGUMODEG (716): the player's +g (caller id) refuses us.
 * RPL_TARGNOTIFY (717) only says they were told: nothing to do. */
void
irc_refused_callerid(struct irc *c, const struct irc_msg *m)
{
	char why[256];

	if (m->nparams < 2 || irc_chan_is(m->params[1]))
		return;
	if (strcmp(m->command, "717") == 0)
		return;
	snprintf(why, sizeof why, "your +g mode refuses it: /accept %s", c->cur_nick);
	if (sent_to(c, m->params[1]) != NULL)
		sent_to(c, m->params[1])->live = false;
	refused_tell(c, m->params[1], why);
}

/* ERR_NONONREG (486), InspIRCd's ERR_NEEDREGGEDNICK with a nick (477) and
 * ERR_CANTSENDTOUSER (531): the player takes private lines only from
 * identified users, or refuses ours; 477 with a channel is a refused join. */
void
irc_refused_registered(struct irc *c, const struct irc_msg *m)
{
	char why[256];

	if (m->nparams < 2)
		return;
	if (irc_chan_is(m->params[1])) {
		if (strcmp(m->command, ERR_NEEDREGGEDNICK) == 0)
			irc_chan_join_failed(c, m);
		return;
	}
	if (sent_to(c, m->params[1]) != NULL)
		sent_to(c, m->params[1])->live = false;
	if (strcmp(m->command, "531") == 0)
		snprintf(why, sizeof why, "your user modes refuse my private messages: allow them, or ask for !hand");
	else
		snprintf(why, sizeof why, "you take private messages from identified users only (+R): /mode %s -R",
		         m->params[1]);
	refused_tell(c, m->params[1], why);
}

/* Target-limited lines whose wait is over go again, behind what the
 * player waits for: those that must be delivered (hands) first, so that
 * a freed slot goes to a hand before an answer; a line whose player is
 * gone is dropped. */
static void
on_retry(void *data)
{
	struct irc *c = data;
	struct irc_refused *r = &c->refused;
	int64_t now = loop_now(c->a->loop);

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < IRC_REFUSED_RETRY; i++) {
			struct irc_retry *q = &r->retry[i];

			if (q->due == 0 || q->due > now || q->must != (pass == 0))
				continue;
			q->due = 0;
			if (irc_users_find(&c->users, q->nick) == NULL) {
				adapter_log(c->a, LOG_LVL_INFO, "a private line to %s dropped: they left", q->nick);
				continue;
			}
			/* the queue keeps no tries: irc_refused_sent finds them here by the line */
			q->queued = irc_queue_push(&c->out, q->nick, q->line, strlen(q->line)) == 0;
			if (!q->queued)
				adapter_log(c->a, LOG_LVL_WARNING, "a private line to %s could not be queued again", q->nick);
		}
	schedule_retry(c);
	irc_send_flush(c);
}

/* The timer for the first line due to go again, if any. */
static void
schedule_retry(struct irc *c)
{
	struct irc_refused *r = &c->refused;
	int64_t first = 0;

	for (int i = 0; i < IRC_REFUSED_RETRY; i++)
		if (r->retry[i].due != 0 && (first == 0 || r->retry[i].due < first))
			first = r->retry[i].due;
	loop_once_at(c->a->loop, &r->timer, NULL, first != 0 ? first : -1, on_retry, c);
}

/* A new connection (or none): nothing sent on the old one can be refused now; lines waiting to go again are dropped. */
void
irc_refused_reset(struct irc *c)
{
	loop_once_cancel(c->a->loop, &c->refused.timer);
	memset(&c->refused, 0, sizeof c->refused);
}
