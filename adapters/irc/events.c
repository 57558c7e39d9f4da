/* events.c: what the server tells us (JOIN, PART, KICK, QUIT, NICK, PRIVMSG, NOTICE, CTCP...) turned into bot events. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "loop.h"

#define IRC_VERSION     "handfoot IRC adapter 0.1"

void
irc_events_emit(struct irc *c, enum bot_event_type type, const char *room, struct irc_user *u,
     const char *text, bool direct, bool notice, int64_t ts)
{
	struct bot_event ev;
	char id[80], name[64], clean[IRC_MAX_LINE + 1];

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.room = room;
	if (u != NULL) {
		irc_users_id(u, id, sizeof id);
		irc_text_in(name, sizeof name, u->nick);
		ev.user_id = id;
		ev.user_name = name;
	}
	if (text != NULL) {
		irc_text_unformat(clean, sizeof clean, text);
		ev.text = clean;
	}
	ev.direct = direct;
	ev.notice = notice;
	ev.ts_ms = ts;
	adapter_emit(c->a, &ev);
}

static void
set_up(struct irc *c)
{
	if (c->up)
		return;
	c->up = true;
	c->attempts = 0;
	adapter_log(c->a, LOG_LVL_NOTICE, "connected to %s:%ld as %s", c->server, c->port, c->cur_nick);
	irc_events_emit(c, BOT_EV_UP, NULL, NULL, NULL, false, false, 0);
	irc_send_flush(c);
}

void
irc_events_check_up(struct irc *c, bool force)
{
	if (c->up || !c->welcomed)
		return;
	for (int i = 0; i < c->nchans && !force; i++)
		if (!c->chans[i].joined && !c->chans[i].failed)
			return;
	set_up(c);
}

/* Nick-keyed ids across our own reconnects: a user whose nick is not the one
 * their id is made of (a rename, or "~N") is remembered as "nick/<nick>" ->
 * "<first> <unix ms>" while we see them, so that after a reconnect the same
 * nick is the same player.  Forgotten when they rename again or leave. */
static void
nick_state_key(char *buf, size_t len, const char *key)
{
	snprintf(buf, len, "nick/%s", key);
}

static void
nick_remember(struct irc *c, const struct irc_user *u)
{
	char k[80], v[96];
	struct timespec ts;

	if (u->account[0] != '\0' || strcmp(u->first, u->key) == 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	nick_state_key(k, sizeof k, u->key);
	snprintf(v, sizeof v, "%s %lld", u->first, (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	if (adapter_state_set(c->a, k, v) == 0 && ++c->nick_saved > IRC_NICK_KEEP)
		irc_events_nick_prune(c);
}

static void
nick_forget(struct irc *c, const struct irc_user *u)
{
	char k[80];

	if (strcmp(u->first, u->key) == 0)
		return;
	nick_state_key(k, sizeof k, u->key);
	if (adapter_state_del(c->a, k) == 0 && c->nick_saved > 0)
		c->nick_saved--;
}

struct nick_ent {
	char key[80];
	long long ms;
};

struct nick_list {
	struct nick_ent *v;
	size_t n, cap;
};

static void
nick_collect(void *ctx, const char *key, const char *value)
{
	struct nick_list *l = ctx;
	const char *sp = strchr(value, ' ');

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	irc_text_copy(l->v[l->n].key, sizeof l->v[l->n].key, key);
	l->v[l->n].ms = sp != NULL ? strtoll(sp + 1, NULL, 10) : 0;
	l->n++;
}

static int
nick_older(const void *a, const void *b)
{
	const struct nick_ent *x = a, *y = b;

	return (x->ms > y->ms) - (x->ms < y->ms);
}

void
irc_events_nick_prune(struct irc *c)
{
	struct nick_list l = { 0 };
	size_t drop = 0;

	if (adapter_state_each(c->a, "nick/", nick_collect, &l) != 0) {
		free(l.v);
		c->nick_saved = 0;
		return;
	}
	/* down to three quarters: a flood of renames prunes once in a while, not at each */
	if (l.n > IRC_NICK_KEEP) {
		drop = l.n - IRC_NICK_KEEP * 3 / 4;
		qsort(l.v, l.n, sizeof *l.v, nick_older);
		for (size_t i = 0; i < drop; i++)
			adapter_state_del(c->a, l.v[i].key);
	}
	c->nick_saved = (long)(l.n - drop);
	free(l.v);
}

/* The user with that nick, or a new one: remembered under a nick of theirs? */
static struct irc_user *
user_get(struct irc *c, const char *nick)
{
	struct irc_user *u = irc_users_find(&c->users, nick);
	char key[64], k[80], v[96];

	if (u != NULL)
		return u;
	irc_parse_casefold(key, sizeof key, nick);
	nick_state_key(k, sizeof k, key);
	if (adapter_state_get(c->a, k, v, sizeof v) == 0)
		v[strcspn(v, " ")] = '\0';
	else
		v[0] = '\0';
	if ((u = irc_users_get_as(&c->users, nick, v)) != NULL)
		nick_remember(c, u);
	return u;
}

static bool
from_us(struct irc *c, const struct irc_msg *m)
{
	return m->nick != NULL && irc_parse_same(m->nick, c->cur_nick);
}

/* The user a message is from, with the account its tags tell (NULL for servers). */
static struct irc_user *
source_user(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	const char *acct;

	if (m->nick == NULL || m->user == NULL || m->host == NULL)
		return NULL;
	if ((u = user_get(c, m->nick)) == NULL)
		return NULL;
	irc_text_copy(u->nick, sizeof u->nick, m->nick);
	/* with account-tag, a message without the tag comes from someone logged out */
	if (c->cap_account_tag) {
		acct = irc_parse_tag(m, "account");
		irc_users_set_account(u, acct);
	}
	return u;
}

static bool
in_history_batch(struct irc *c, const struct irc_msg *m)
{
	const char *ref = irc_parse_tag(m, "batch");

	if (ref == NULL)
		return false;
	for (int i = 0; i < 8; i++)
		if (c->history_batches[i][0] != '\0' && strcmp(c->history_batches[i], ref) == 0)
			return true;
	return false;
}

static void
on_batch(struct irc *c, const struct irc_msg *m)
{
	const char *ref;

	if (m->nparams < 1 || strlen(m->params[0]) < 2)
		return;
	ref = m->params[0] + 1;
	if (m->params[0][0] == '+' && m->nparams >= 2 &&
	    (strcmp(m->params[1], "chathistory") == 0 || strcmp(m->params[1], "draft/chathistory") == 0)) {
		for (int i = 0; i < 8; i++)
			if (c->history_batches[i][0] == '\0') {
				irc_text_copy(c->history_batches[i], sizeof c->history_batches[i], ref);
				break;
			}
	} else if (m->params[0][0] == '-') {
		for (int i = 0; i < 8; i++)
			if (strcmp(c->history_batches[i], ref) == 0)
				c->history_batches[i][0] = '\0';
	}
}

static void
ctcp(struct irc *c, struct irc_user *u, const char *text)
{
	char cmd[16], arg[64];
	size_t n = strcspn(text + 1, " \001");

	if (n == 0 || n >= sizeof cmd)
		return;
	memcpy(cmd, text + 1, n);
	cmd[n] = '\0';
	irc_text_in(arg, sizeof arg, text[1 + n] == ' ' ? text + 2 + n : "");
	arg[strcspn(arg, "\001")] = '\0';
	/* one pending CTCP answer per user: a CTCP flood cannot fill our queues */
	if (irc_queue_count(&c->out, u->nick) > 0)
		return;
	if (strcmp(cmd, "VERSION") == 0)
		snprintf(arg, sizeof arg, "%s", IRC_VERSION);
	else if (strcmp(cmd, "PING") != 0)
		return;
	{
		char line[IRC_MAX_LINE];
		int w = snprintf(line, sizeof line, "NOTICE %s :\001%s %s\001", u->nick, cmd, arg);

		if (w > 0 && irc_queue_push(&c->out, u->nick, line, (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) == 0)
			irc_send_flush(c);
	}
}

static void
on_message(struct irc *c, const struct irc_msg *m, bool notice)
{
	struct irc_user *u;
	const char *target, *text;
	int64_t ts = 0;
	const char *t;
	bool direct;

	if (m->nparams < 2 || in_history_batch(c, m) || from_us(c, m))
		return;
	if ((u = source_user(c, m)) == NULL)
		return;     /* server notices */
	target = m->params[0];
	text = m->params[1];
	/* STATUSMSG targets (@#chan) are channel messages too */
	while (*target != '\0' && strchr(c->prefix_chars, *target) != NULL && !irc_chan_is(target))
		target++;
	direct = !irc_chan_is(target);
	if (text[0] == '\001') {
		if (!notice && direct)
			ctcp(c, u, text);
		return;     /* CTCP (ACTION included) is never a command */
	}
	if (!direct && irc_chan_find(c, target) < 0)
		return;
	if (c->cap_server_time && (t = irc_parse_tag(m, "time")) != NULL)
		ts = irc_parse_time(t);
	irc_events_emit(c, BOT_EV_MESSAGE, direct ? NULL : c->chans[irc_chan_find(c, target)].name, u, text, direct, notice, ts);
}

static void
on_join(struct irc *c, const struct irc_msg *m)
{
	int i;
	struct irc_user *u;

	if (m->nparams < 1 || m->nick == NULL)
		return;
	if (from_us(c, m)) {
		if ((i = irc_chan_add(c, m->params[0], false)) < 0)
			return;
		c->chans[i].joined = true;
		c->chans[i].failed = false;
		if (m->user != NULL && m->host != NULL)
			snprintf(c->userhost, sizeof c->userhost, "%.63s@%.120s", m->user, m->host);
		irc_events_check_up(c, false);
		return;
	}
	if ((i = irc_chan_find(c, m->params[0])) < 0 || (u = source_user(c, m)) == NULL)
		return;
	if (c->cap_extjoin && m->nparams >= 2)
		irc_users_set_account(u, m->params[1]);
	u->chans |= UINT64_C(1) << i;
	irc_events_emit(c, BOT_EV_JOIN, c->chans[i].name, u, NULL, false, false, 0);
}

static void
user_left(struct irc *c, int i, const char *nick)
{
	struct irc_user *u = irc_users_find(&c->users, nick);

	if (u == NULL)
		return;
	irc_events_emit(c, BOT_EV_LEAVE, c->chans[i].name, u, NULL, false, false, 0);
	u->chans &= ~(UINT64_C(1) << i);
	if (u->chans == 0) {
		nick_forget(c, u);
		irc_users_remove(&c->users, u);
	}
}

static void
we_left(struct irc *c, int i)
{
	adapter_log(c->a, LOG_LVL_NOTICE, "left %s", c->chans[i].name);
	if (!c->chans[i].configured)
		adapter_state_del(c->a, c->chans[i].name);
	irc_chan_remove(c, i);
}

static void
on_part(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 1 || m->nick == NULL || (i = irc_chan_find(c, m->params[0])) < 0)
		return;
	if (from_us(c, m))
		we_left(c, i);
	else
		user_left(c, i, m->nick);
}

static void
on_kick(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[0])) < 0)
		return;
	/* kicked: we respect it and do not rejoin until restarted or invited */
	if (irc_parse_same(m->params[1], c->cur_nick)) {
		adapter_log(c->a, LOG_LVL_WARNING, "kicked from %s", c->chans[i].name);
		we_left(c, i);
	} else {
		user_left(c, i, m->params[1]);
	}
}

static void
on_quit(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	if (m->nick == NULL || (u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	irc_events_emit(c, BOT_EV_LEAVE, NULL, u, NULL, false, false, 0);
	nick_forget(c, u);
	irc_users_remove(&c->users, u);
}

static void
on_nick(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u, *other;
	char newnick[64];

	if (m->nparams < 1 || m->nick == NULL)
		return;
	irc_text_in(newnick, sizeof newnick, m->params[0]);
	if (from_us(c, m)) {
		irc_text_copy(c->cur_nick, sizeof c->cur_nick, newnick);
		adapter_set_self(c->a, c->cur_nick);   /* "NewNick: draw" addresses the bot */
		return;
	}
	if ((u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	nick_forget(c, u);
	if ((other = irc_users_find(&c->users, newnick)) != NULL && other != u)
		nick_forget(c, other);     /* a stale entry, about to go */
	irc_users_rename(&c->users, u, newnick);
	if ((u = irc_users_find(&c->users, newnick)) != NULL) {
		nick_remember(c, u);
		irc_events_emit(c, BOT_EV_RENAME, NULL, u, newnick, false, false, 0);
	}
}

static void
on_names(struct irc *c, const struct irc_msg *m)
{
	char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;
	int i;

	/* 353 me = #chan :@op +voice nick */
	if (m->nparams < 4 || (i = irc_chan_find(c, m->params[2])) < 0)
		return;
	irc_text_copy(buf, sizeof buf, m->params[3]);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		struct irc_user *u;

		while (*tok != '\0' && (strchr(c->prefix_chars, *tok) != NULL || strchr("~&@%+", *tok) != NULL))
			tok++;
		tok[strcspn(tok, "!")] = '\0';     /* userhost-in-names */
		if (*tok == '\0' || irc_parse_same(tok, c->cur_nick) || (u = user_get(c, tok)) == NULL)
			continue;
		u->chans |= UINT64_C(1) << i;
	}
}

static void
on_invite(struct irc *c, const struct irc_msg *m)
{
	if (m->nparams < 2 || !irc_parse_same(m->params[0], c->cur_nick) || !c->join_on_invite)
		return;
	if (irc_chan_find(c, m->params[1]) >= 0 || !irc_chan_valid(m->params[1]))
		return;
	if (irc_chan_add(c, m->params[1], false) < 0)
		return;
	/* remembered, so that a restart joins it again */
	adapter_state_set(c->a, c->chans[irc_chan_find(c, m->params[1])].name, "invited");
	adapter_log(c->a, LOG_LVL_NOTICE, "invited to %s", m->params[1]);
	irc_send_proto(c, "JOIN %s", m->params[1]);
}

static void
on_join_failed(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[1])) < 0)
		return;
	adapter_log(c->a, LOG_LVL_WARNING, "cannot join %s: %s", c->chans[i].name,
	            m->nparams > 2 ? m->params[2] : m->command);
	c->chans[i].failed = true;
	irc_events_check_up(c, false);
}

static void
on_no_such_nick(struct irc *c, const struct irc_msg *m)
{
	struct bot_event ev;
	char id[80], name[64];
	struct irc_user *u;

	if (m->nparams < 2 || irc_chan_is(m->params[1]))
		return;
	irc_text_in(name, sizeof name, m->params[1]);
	if ((u = irc_users_find(&c->users, name)) != NULL) {
		irc_users_id(u, id, sizeof id);
		nick_forget(c, u);
		irc_users_remove(&c->users, u);
	} else {
		char key[64];

		irc_parse_casefold(key, sizeof key, name);
		snprintf(id, sizeof id, "nick:%s", key);
	}
	memset(&ev, 0, sizeof ev);
	ev.type = BOT_EV_SEND_FAILED;
	ev.user_id = id;
	ev.user_name = name;
	ev.text = "no such nick";
	adapter_emit(c->a, &ev);
}

void
irc_events_line(struct irc *c, char *line, size_t len)
{
	struct irc_msg m;
	const char *cmd;

	if (irc_parse(line, len, &m) != 0)
		return;
	cmd = m.command;
	if (strcmp(cmd, "PING") == 0) {
		irc_send_proto(c, "PONG :%s", m.nparams > 0 ? m.params[0] : "");
	} else if (strcmp(cmd, "PONG") == 0) {
		c->ping_sent = 0;
	} else if (strcmp(cmd, "PRIVMSG") == 0 || strcmp(cmd, "NOTICE") == 0) {
		on_message(c, &m, cmd[0] == 'N');
	} else if (strcmp(cmd, "JOIN") == 0) {
		on_join(c, &m);
	} else if (strcmp(cmd, "PART") == 0) {
		on_part(c, &m);
	} else if (strcmp(cmd, "KICK") == 0) {
		on_kick(c, &m);
	} else if (strcmp(cmd, "QUIT") == 0) {
		on_quit(c, &m);
	} else if (strcmp(cmd, "NICK") == 0) {
		on_nick(c, &m);
	} else if (strcmp(cmd, "ACCOUNT") == 0) {
		struct irc_user *u;

		if (m.nick != NULL && m.nparams > 0 && (u = irc_users_find(&c->users, m.nick)) != NULL)
			irc_users_set_account(u, m.params[0]);
	} else if (strcmp(cmd, "INVITE") == 0) {
		on_invite(c, &m);
	} else if (strcmp(cmd, "BATCH") == 0) {
		on_batch(c, &m);
	} else if (strcmp(cmd, "CAP") == 0) {
		irc_register_cap(c, &m);
	} else if (strcmp(cmd, "AUTHENTICATE") == 0) {
		if (m.nparams > 0 && strcmp(m.params[0], "+") == 0)
			irc_register_sasl(c);
	} else if (strcmp(cmd, "ERROR") == 0) {
		char why[200];

		irc_text_in(why, sizeof why, m.nparams > 0 ? m.params[0] : "");
		adapter_log(c->a, LOG_LVL_WARNING, "server closed the link: %s", why);
	} else if (strcmp(cmd, "001") == 0) {
		if (m.nparams > 0)
			irc_text_in(c->cur_nick, sizeof c->cur_nick, m.params[0]);
		adapter_set_self(c->a, c->cur_nick);
		c->cap_ended = true;     /* a server that ignored CAP registers us all the same */
	} else if (strcmp(cmd, "005") == 0) {
		irc_register_isupport(c, &m);
	} else if (strcmp(cmd, "376") == 0 || strcmp(cmd, "422") == 0) {
		irc_register_welcome_done(c);
	} else if (strcmp(cmd, "396") == 0) {
		if (m.nparams > 1 && c->userhost[0] != '\0') {
			char *at = strchr(c->userhost, '@');

			if (at != NULL)
				snprintf(at + 1, sizeof c->userhost - (size_t)(at + 1 - c->userhost), "%.120s", m.params[1]);
		}
	} else if (strcmp(cmd, "353") == 0) {
		on_names(c, &m);
	} else if (strcmp(cmd, "900") == 0) {
		adapter_log(c->a, LOG_LVL_INFO, "logged in to services");
	} else if (strcmp(cmd, "903") == 0) {
		c->sasl_ok = true;
		irc_register_cap_end(c);
	} else if (strcmp(cmd, "902") == 0 || strcmp(cmd, "904") == 0 || strcmp(cmd, "905") == 0 ||
	           strcmp(cmd, "906") == 0 || strcmp(cmd, "908") == 0) {
		if (strcmp(cmd, "908") != 0) {
			adapter_log(c->a, LOG_LVL_WARNING, "SASL %s failed (%s); going on without it", c->sasl_mech, cmd);
			irc_register_cap_end(c);
		}
	} else if (strcmp(cmd, "432") == 0 || strcmp(cmd, "433") == 0 || strcmp(cmd, "436") == 0 ||
	           strcmp(cmd, "437") == 0) {
		if (c->state == IRC_REGISTERING && c->nick_try < 8)
			irc_register_next_nick(c);
	} else if (strcmp(cmd, "401") == 0) {
		on_no_such_nick(c, &m);
	} else if (strcmp(cmd, "403") == 0 || strcmp(cmd, "405") == 0 || strcmp(cmd, "471") == 0 ||
	           strcmp(cmd, "473") == 0 || strcmp(cmd, "474") == 0 || strcmp(cmd, "475") == 0 ||
	           strcmp(cmd, "477") == 0 || strcmp(cmd, "489") == 0) {
		on_join_failed(c, &m);
	}
}
