/* members.c: who is where: JOIN, PART, KICK, QUIT, NICK, ACCOUNT and NAMES keep the users table, and tell the bot. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "client.h"

/* The user with that nick, or a new one: remembered under a nick of theirs? */
static struct irc_user *
members_get(struct irc *c, const char *nick)
{
	struct irc_user *u = irc_users_find(&c->users, nick);
	char v[96];

	if (u != NULL)
		return u;
	if ((u = irc_users_get_as(&c->users, nick, irc_nicks_first(c, nick, v, sizeof v))) != NULL)
		irc_nicks_remember(c, u);
	return u;
}

bool
irc_members_from_us(struct irc *c, const struct irc_msg *m)
{
	return m->nick != NULL && irc_parse_same(m->nick, c->cur_nick);
}

/* The user a message is from, with the account its tags tell (NULL for servers). */
struct irc_user *
irc_members_source(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	const char *acct;

	if (m->nick == NULL || m->user == NULL || m->host == NULL)
		return NULL;
	if ((u = members_get(c, m->nick)) == NULL)
		return NULL;
	irc_text_copy(u->nick, sizeof u->nick, m->nick);
	/* with account-tag, a message without the tag comes from someone logged out */
	if (c->cap_account_tag) {
		acct = irc_parse_tag(m, "account");
		irc_users_set_account(u, acct);
	}
	return u;
}

void
irc_members_join(struct irc *c, const struct irc_msg *m)
{
	int i;
	struct irc_user *u;

	if (m->nparams < 1 || m->nick == NULL)
		return;
	if (irc_members_from_us(c, m)) {
		if ((i = irc_chan_add(c, m->params[0], false)) < 0)
			return;
		c->chans[i].joined = true;
		c->chans[i].failed = false;
		if (m->user != NULL && m->host != NULL)
			snprintf(c->userhost, sizeof c->userhost, "%.63s@%.120s", m->user, m->host);
		irc_events_check_up(c, false);
		return;
	}
	if ((i = irc_chan_find(c, m->params[0])) < 0 || (u = irc_members_source(c, m)) == NULL)
		return;
	if (c->cap_extjoin && m->nparams >= 2)
		irc_users_set_account(u, m->params[1]);
	u->chans |= UINT64_C(1) << i;
	irc_events_emit(c, BOT_EV_JOIN, c->chans[i].name, u, NULL, false, false, 0);
}

static void
members_left(struct irc *c, int i, const char *nick)
{
	struct irc_user *u = irc_users_find(&c->users, nick);

	if (u == NULL)
		return;
	irc_events_emit(c, BOT_EV_LEAVE, c->chans[i].name, u, NULL, false, false, 0);
	u->chans &= ~(UINT64_C(1) << i);
	if (u->chans == 0) {
		irc_nicks_forget(c, u);
		irc_users_remove(&c->users, u);
	}
}

static void
members_we_left(struct irc *c, int i)
{
	adapter_log(c->a, LOG_LVL_NOTICE, "left %s", c->chans[i].name);
	if (!c->chans[i].configured)
		adapter_state_del(c->a, c->chans[i].name);
	irc_chan_remove(c, i);
}

void
irc_members_part(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 1 || m->nick == NULL || (i = irc_chan_find(c, m->params[0])) < 0)
		return;
	if (irc_members_from_us(c, m))
		members_we_left(c, i);
	else
		members_left(c, i, m->nick);
}

void
irc_members_kick(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[0])) < 0)
		return;
	/* kicked: we respect it and do not rejoin until restarted or invited */
	if (irc_parse_same(m->params[1], c->cur_nick)) {
		adapter_log(c->a, LOG_LVL_WARNING, "kicked from %s", c->chans[i].name);
		members_we_left(c, i);
	} else {
		members_left(c, i, m->params[1]);
	}
}

void
irc_members_quit(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	if (m->nick == NULL || (u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	irc_events_emit(c, BOT_EV_LEAVE, NULL, u, NULL, false, false, 0);
	irc_nicks_forget(c, u);
	irc_users_remove(&c->users, u);
}

void
irc_members_nick(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u, *other;
	char newnick[64];

	if (m->nparams < 1 || m->nick == NULL)
		return;
	irc_text_in(newnick, sizeof newnick, m->params[0]);
	if (irc_members_from_us(c, m)) {
		irc_text_copy(c->cur_nick, sizeof c->cur_nick, newnick);
		adapter_set_self(c->a, c->cur_nick); /* "NewNick: draw" addresses the bot */
		return;
	}
	if ((u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	irc_nicks_forget(c, u);
	if ((other = irc_users_find(&c->users, newnick)) != NULL && other != u)
		irc_nicks_forget(c, other); /* a stale entry, about to go */
	irc_users_rename(&c->users, u, newnick);
	if ((u = irc_users_find(&c->users, newnick)) != NULL) {
		irc_nicks_remember(c, u);
		irc_events_emit(c, BOT_EV_RENAME, NULL, u, newnick, false, false, 0);
	}
}

void
irc_members_names(struct irc *c, const struct irc_msg *m)
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
		tok[strcspn(tok, "!")] = '\0'; /* userhost-in-names */
		if (*tok == '\0' || irc_parse_same(tok, c->cur_nick) || (u = members_get(c, tok)) == NULL)
			continue;
		u->chans |= UINT64_C(1) << i;
	}
}

void
irc_members_account(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	/* account-notify: a login or logout, "*" for logged out */
	if (m->nick != NULL && m->nparams > 0 && (u = irc_users_find(&c->users, m->nick)) != NULL)
		irc_users_set_account(u, m->params[0]);
}
