/* invite.c: invitations: to a configured channel always taken; to another only with join_on_invite, from a channel operator or someone on the allow list, and up to a cap. */
#include <stdio.h>
#include <string.h>

#include "client.h"

/* Whether name is one of the configured channels (kept even after a kick removed it from c->chans). */
static bool
invite_configured(const struct irc *c, const char *name)
{
	char list[sizeof c->conf_chans], *tok, *save = NULL;

	memcpy(list, c->conf_chans, sizeof list);
	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
		if (irc_parse_same(tok, name))
			return true;
	return false;
}

/* Whether the inviter (nick, account if known) is on invite_from: a nick, or "acct:NAME". */
static bool
invite_allowed(const struct irc *c, const char *nick, const char *account)
{
	char list[sizeof c->invite_from], *tok, *save = NULL;

	memcpy(list, c->invite_from, sizeof list);
	for (tok = strtok_r(list, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		if (strncmp(tok, "acct:", 5) == 0) {
			if (account != NULL && account[0] != '\0' && irc_parse_same(tok + 5, account))
				return true;
		} else if (irc_parse_same(tok, nick)) {
			return true;
		}
	}
	return false;
}

static int
invite_count(const struct irc *c)
{
	int n = 0;

	for (int i = 0; i < c->nchans; i++)
		n += !c->chans[i].configured;
	return n;
}

/* INVITE "me #chan" from someone. */
void
irc_invite_got(struct irc *c, const struct irc_msg *m)
{
	const char *name, *from = m->nick != NULL ? m->nick : "?";
	struct irc_user *u;
	int i;

	if (m->nparams < 2 || !irc_parse_same_as(m->params[0], c->cur_nick, c->ascii_casemap) ||
	    !irc_chan_valid(m->params[1]) || !irc_chan_typed(c, m->params[1]))
		return;
	name = m->params[1];
	if ((i = irc_chan_find(c, name)) >= 0 && c->chans[i].in)
		return;
	/* our own channel (+i refused us, or we were kicked): the invitation is the way back in */
	if ((i >= 0 && c->chans[i].configured) || invite_configured(c, name)) {
		if ((i = irc_chan_add(c, name, true)) < 0)
			return;
		c->chans[i].configured = true;
		c->chans[i].failed = false;
		adapter_log(c->a, LOG_LVL_NOTICE, "invited to %s (configured) by %s: joining", c->chans[i].name, from);
		irc_chan_join(c, i);
		return;
	}
	if (!c->join_on_invite || i >= 0)
		return;
	if (invite_count(c) >= c->invite_max) {
		adapter_log(c->a, LOG_LVL_NOTICE, "invited to %s by %s: ignored, %d invited channels already (invite_max)",
		            name, from, c->invite_max);
		return;
	}
	if ((i = irc_chan_add(c, name, false)) < 0)
		return;
	u = m->nick != NULL ? irc_users_find(&c->users, m->nick) : NULL;
	irc_text_copy(c->chans[i].inviter, sizeof c->chans[i].inviter, from);
	c->chans[i].inviter_ok = invite_allowed(c, from, u != NULL ? u->account : NULL);
	/* remembered, so that a restart joins it again */
	adapter_state_set(c->a, c->chans[i].name, "invited");
	adapter_log(c->a, LOG_LVL_NOTICE, "invited to %s by %s", c->chans[i].name, from);
	irc_chan_join(c, i);
}

/* Channel i's members are known: an invitation from someone who holds no
 * operator mode there (and is not on invite_from) is not taken; we leave. */
void
irc_invite_check(struct irc *c, int i)
{
	struct irc_chan *ch = &c->chans[i];
	struct irc_user *u;
	bool op = false;

	if (ch->configured || ch->inviter[0] == '\0')
		return;
	if ((u = irc_users_find(&c->users, ch->inviter)) != NULL && ((u->chans >> i) & 1))
		for (int k = 0; k < IRC_MOD_LEVELS; k++)
			op |= (u->mod[k] >> i) & 1;
	if (!op && !ch->inviter_ok) {
		adapter_log(c->a, LOG_LVL_NOTICE, "leaving %s: %s, who invited me, is no operator there", ch->name,
		            ch->inviter);
		adapter_state_del(c->a, ch->name);
		irc_send_paced(c, "PART %s :invitations are taken from channel operators", ch->name);
	}
	ch->inviter[0] = '\0';
}
