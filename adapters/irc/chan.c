/* chan.c: the channels the adapter is in or wants to be in, what a channel name is, invitations and refused joins. */
#include <stdint.h>
#include <string.h>

#include "client.h"

bool
irc_chan_is(const char *s)
{
	return s[0] == '#' || s[0] == '&' || s[0] == '+' || s[0] == '!';
}

bool
irc_chan_valid(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || n > 50 || !irc_chan_is(s))
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == 7)
			return false;
	return true;
}

int
irc_chan_find(struct irc *c, const char *name)
{
	for (int i = 0; i < c->nchans; i++)
		if (irc_parse_same(c->chans[i].name, name))
			return i;
	return -1;
}

int
irc_chan_add(struct irc *c, const char *name, bool configured)
{
	int i = irc_chan_find(c, name);

	if (i >= 0)
		return i;
	if (c->nchans == IRC_MAX_CHANS || !irc_chan_valid(name))
		return -1;
	i = c->nchans++;
	memset(&c->chans[i], 0, sizeof c->chans[i]);
	irc_text_copy(c->chans[i].name, sizeof c->chans[i].name, name);
	c->chans[i].configured = configured;
	return i;
}

void
irc_chan_remove(struct irc *c, int i)
{
	/* users' channel bits follow the array: clear bit i, move the last one down */
	irc_users_part_all(&c->users, i);
	c->nchans--;
	if (i != c->nchans) {
		uint64_t from = UINT64_C(1) << c->nchans, to = UINT64_C(1) << i;

		c->chans[i] = c->chans[c->nchans];
		for (size_t u = 0; u < c->users.n; u++)
			if (c->users.v[u].chans & from)
				c->users.v[u].chans = (c->users.v[u].chans & ~from) | to;
	}
}

void
irc_chan_invited(struct irc *c, const struct irc_msg *m)
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

void
irc_chan_join_failed(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[1])) < 0)
		return;
	adapter_log(c->a, LOG_LVL_WARNING, "cannot join %s: %s", c->chans[i].name,
	            m->nparams > 2 ? m->params[2] : m->command);
	c->chans[i].failed = true;
	irc_events_check_up(c, false);
}
