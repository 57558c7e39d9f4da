/* message.c: what users say (PRIVMSG, NOTICE), CTCP answered, history batches skipped, and a private message that found nobody. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "version.h"

/* the daemon's version, the same string as --version gives */
#define IRC_VERSION "handfoot " HF_VERSION

static bool
message_in_history(struct irc *c, const struct irc_msg *m)
{
	const char *ref = irc_parse_tag(m, "batch");

	if (ref == NULL)
		return false;
	for (int i = 0; i < 8; i++)
		if (c->history_batches[i][0] != '\0' && strcmp(c->history_batches[i], ref) == 0)
			return true;
	return false;
}

void
irc_message_batch(struct irc *c, const struct irc_msg *m)
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
message_ctcp(struct irc *c, struct irc_user *u, const char *text)
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

		/* behind the games' lines, as a stranger's answer: 50 nicks asking
		 * VERSION must not put a turn behind 50 replies */
		if (w > 0 && irc_queue_push_facts(&c->out, u->nick, &(struct irc_qfacts){ .stranger = true }, line,
		                                  (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) == 0)
			irc_send_flush(c);
	}
}

static void
message_said(struct irc *c, const struct irc_msg *m, bool notice)
{
	struct irc_user *u;
	const char *target, *text;
	int64_t ts = 0;
	const char *t;
	char nick[64];
	bool direct;

	if (m->nparams < 2 || message_in_history(c, m) || irc_members_from_us(c, m))
		return;
	if ((u = irc_members_source(c, m)) == NULL)
		return; /* server notices */
	target = m->params[0];
	text = m->params[1];
	/* STATUSMSG targets (@#chan) are channel messages too */
	while (*target != '\0' && strchr(c->prefix_chars, *target) != NULL && !irc_chan_is(target))
		target++;
	direct = !irc_chan_is(target);
	if (text[0] == '\001') {
		if (!notice && direct)
			message_ctcp(c, u, text);
		return; /* CTCP (ACTION included) is never a command */
	}
	if (!direct && irc_chan_find(c, target) < 0)
		return;
	if (c->cap_server_time && (t = irc_parse_tag(m, "time")) != NULL)
		ts = irc_parse_time(t);
	irc_text_copy(nick, sizeof nick, u->nick);
	irc_events_emit(c, BOT_EV_MESSAGE, direct ? NULL : c->chans[irc_chan_find(c, target)].name, u, text, direct,
	                notice, ts);
	/* one who just sat down (!join, !play) is a player now: where their
	 * lines go is recorded from here on (nicks.c), before any gap */
	if ((u = irc_users_find(&c->users, nick)) != NULL)
		irc_nicks_bind(c, u);
}

void
irc_message_privmsg(struct irc *c, const struct irc_msg *m)
{
	message_said(c, m, false);
}

void
irc_message_notice(struct irc *c, const struct irc_msg *m)
{
	message_said(c, m, true);
}

void
irc_message_no_such_nick(struct irc *c, const struct irc_msg *m)
{
	struct bot_event ev;
	char id[96], name[64];
	struct irc_user *u;

	if (m->nparams < 2 || irc_chan_is(m->params[1]))
		return;
	irc_text_in(name, sizeof name, m->params[1]);
	if ((u = irc_users_find(&c->users, name)) != NULL) {
		irc_users_id(u, id, sizeof id);
		irc_nicks_forget(c, u);
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
