/* members.c: who is where: JOIN, PART, KICK, QUIT, NICK, ACCOUNT and NAMES keep the users table, and tell the bot. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "hash.h"
#include "loop.h"

/* A short tag of an address, for the id of a stranger wearing a player's
 * nick: the same stranger comes back as the same id. */
static void
members_tag(const char *addr, char *tag, size_t len)
{
	uint32_t h = hash_fnv32_str(HASH_FNV32_INIT, addr);

	snprintf(tag, len, "%06x", (unsigned)(h & 0xffffff));
}

/* Who u is (see nicks.c): the first nick their id is made of, from what is
 * remembered and their address; unsure while the address is unknown. */
static void
members_resolve(struct irc *c, struct irc_user *u)
{
	char first[80], was[200], tag[16];

	u->unsure = false;
	/* a player who renamed before a gap, if this is the same person */
	if (irc_nicks_first(c, u->nick, first, sizeof first, was, sizeof was) != NULL) {
		if (u->addr[0] == '\0') {
			irc_users_set_first(&c->users, u, first, NULL);
			u->unsure = true;
			return;
		}
		if (irc_nicks_same_person(was, u->addr)) {
			irc_users_set_first(&c->users, u, first, NULL);
			return;
		}
	}
	/* the nick's own player, whose private lines went to a known address */
	if (irc_nicks_seen(c, u->key, was, sizeof was) != NULL) {
		if (u->addr[0] == '\0') {
			irc_users_set_first(&c->users, u, u->key, NULL);
			u->unsure = true;
			return;
		}
		if (!irc_nicks_same_person(was, u->addr)) {
			members_tag(u->addr, tag, sizeof tag);
			irc_users_set_first(&c->users, u, u->key, tag);
			return;
		}
	} else if (u->account[0] == '\0' && irc_nicks_seated(c, u->key)) {
		/* a seated player's nick and no record of where her lines went:
		 * nothing tells the wearer is her, so not her seat */
		if (u->addr[0] == '\0') {
			irc_users_set_first(&c->users, u, u->key, NULL);
			u->unsure = true;
			return;
		}
		members_tag(u->addr, tag, sizeof tag);
		irc_users_set_first(&c->users, u, u->key, tag);
		return;
	}
	irc_users_set_first(&c->users, u, u->key, NULL);
}

/* u, the same person, now shows addr (CHGHOST, or a fake QUIT and JOIN):
 * the same id; their address is recorded again with their next private line. */
static void
members_rehost(struct irc *c, struct irc_user *u, const char *addr)
{
	(void)c;
	irc_text_copy(u->addr, sizeof u->addr, addr);
	u->rehost_at = 0;
	u->bound = false;
}

/* The user with that nick (addr: "user@host" if the line tells it, else
 * NULL), or a new one, resolved. */
static struct irc_user *
members_get(struct irc *c, const char *nick, const char *addr)
{
	struct irc_user *u = irc_users_find(&c->users, nick);

	if (u != NULL && addr != NULL && u->rehost_at != 0 && u->addr[0] != '\0' && strcmp(u->addr, addr) != 0 &&
	    loop_now(c->a->loop) - u->rehost_at < IRC_REHOST_MS) {
		/* the same person under a new host (a cloak as they identified) */
		members_rehost(c, u, addr);
		return u;
	}
	if (u != NULL && addr != NULL && u->addr[0] != '\0' && strcmp(u->addr, addr) != 0) {
		/* someone else wears the nick: the one we knew left without our seeing it */
		irc_nicks_forget(c, u);
		irc_users_remove(&c->users, u);
		u = NULL;
	}
	if (u != NULL) {
		u->heard = ++c->users.clock;
		if (addr != NULL && u->addr[0] == '\0') {
			irc_text_copy(u->addr, sizeof u->addr, addr);
			if (u->unsure) {
				members_resolve(c, u);
				irc_nicks_remember(c, u);
			}
		}
		return u;
	}
	if ((u = irc_users_get(&c->users, nick)) == NULL)
		return NULL;
	if (addr != NULL)
		irc_text_copy(u->addr, sizeof u->addr, addr);
	members_resolve(c, u);
	irc_nicks_remember(c, u);
	return u;
}

struct irc_user *
irc_members_holder(struct irc *c, const char *id)
{
	char want[80];

	if (strncmp(id, "acct:", 5) == 0) {
		irc_parse_casefold(want, sizeof want, id + 5);
		for (size_t i = 0; i < c->users.n; i++)
			if (strcmp(c->users.v[i].account, want) == 0)
				return &c->users.v[i];
		return NULL;
	}
	if (strncmp(id, "nick:", 5) != 0)
		return NULL;
	irc_parse_casefold(want, sizeof want, id + 5);
	for (size_t i = 0; i < c->users.n; i++) {
		struct irc_user *u = &c->users.v[i];

		/* an account holder is never a nick-keyed player, and an unsure one not yet */
		if (u->account[0] == '\0' && !u->unsure && strcmp(u->first, want) == 0)
			return u;
	}
	return NULL;
}

bool
irc_members_from_us(struct irc *c, const struct irc_msg *m)
{
	return m->nick != NULL && irc_parse_same_as(m->nick, c->cur_nick, c->ascii_casemap);
}

/* The user a message is from, with the account its tags tell (NULL for servers). */
struct irc_user *
irc_members_source(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	const char *acct;

	char addr[200];

	if (m->nick == NULL || m->user == NULL || m->host == NULL)
		return NULL;
	snprintf(addr, sizeof addr, "%.63s@%.120s", m->user, m->host);
	if ((u = members_get(c, m->nick, addr)) == NULL)
		return NULL;
	irc_text_copy(u->nick, sizeof u->nick, m->nick);
	/* with account-tag, a message without the tag comes from someone logged out */
	if (c->cap_account_tag) {
		acct = irc_parse_tag(m, "account");
		irc_users_set_account(u, acct);
	}
	return u;
}

/* Who is who in channel i: every member's address (and account, with
 * WHOX), so that hands go to the right people from the first line on; the
 * channel counts as joined when the list ends. */
void
irc_members_who_send(struct irc *c, int i)
{
	c->chans[i].who_wait = true;
	if (c->whox)
		irc_send_paced(c, "WHO %s %%tcuhnfa,77", c->chans[i].name);
	else
		irc_send_paced(c, "WHO %s", c->chans[i].name);
}

void
irc_members_join(struct irc *c, const struct irc_msg *m)
{
	int i;
	struct irc_user *u;

	if (m->nparams < 1 || m->nick == NULL)
		return;
	if (irc_members_from_us(c, m)) {
		/* only a channel we asked for: a forward (+f, 470) or a join we
		 * never sent is left at once, never adopted */
		if ((i = irc_chan_find(c, m->params[0])) < 0) {
			adapter_log(c->a, LOG_LVL_NOTICE, "put in %s, which I did not ask for: leaving", m->params[0]);
			irc_send_paced(c, "PART %s :not a channel I asked for", m->params[0]);
			return;
		}
		c->chans[i].in = true;
		c->chans[i].failed = false;
		c->chans[i].retry_at = 0;
		c->chans[i].join_tries = 0;
		c->chans[i].refused_told = false;
		if (m->user != NULL && m->host != NULL)
			snprintf(c->userhost, sizeof c->userhost, "%.63s@%.120s", m->user, m->host);
		irc_members_who_send(c, i);
		return;
	}
	if ((i = irc_chan_find(c, m->params[0])) < 0 || (u = irc_members_source(c, m)) == NULL)
		return;
	if (c->cap_extjoin && m->nparams >= 2)
		irc_users_set_account(u, m->params[1]);
	u->chans |= UINT64_C(1) << i;
	irc_modes_forget(u, i);   /* one joins with no mode; MODE gives them */
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
	irc_modes_forget(u, i);
	if (u->chans == 0) {
		irc_send_forget(c, u->nick, NULL);
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
	if (irc_parse_same_as(m->params[1], c->cur_nick, c->ascii_casemap)) {
		adapter_log(c->a, LOG_LVL_WARNING, "kicked from %s", c->chans[i].name);
		members_we_left(c, i);
	} else {
		members_left(c, i, m->params[1]);
	}
}

/* u left the network: the bot is told, what was queued for them goes. */
static void
members_quit(struct irc *c, struct irc_user *u)
{
	irc_events_emit(c, BOT_EV_LEAVE, NULL, u, NULL, false, false, 0);
	/* what was queued for them must not reach whoever takes the nick next */
	irc_send_forget(c, u->nick, NULL);
	irc_nicks_forget(c, u);
	irc_users_remove(&c->users, u);
}

void
irc_members_quit(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	if (m->nick == NULL)
		return;
	irc_regain_freed(c, m->nick);
	if ((u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	/* Solanum without chghost: a QUIT "Changing host" and JOINs under the
	 * new host: no quit at all; what is queued for them stays theirs */
	if (m->nparams > 0 && strcmp(m->params[0], "Changing host") == 0) {
		u->rehost_at = loop_now(c->a->loop);
		return;
	}
	members_quit(c, u);
}

/* Once a second: a "Changing host" QUIT whose JOIN never came was a quit after all. */
void
irc_members_tick(struct irc *c, int64_t now)
{
	for (size_t i = 0; i < c->users.n; i++)
		if (c->users.v[i].rehost_at != 0 && now - c->users.v[i].rehost_at >= IRC_REHOST_MS) {
			members_quit(c, &c->users.v[i]);
			return;     /* the table moved: one a tick is plenty */
		}
}

/* CHGHOST "newuser newhost": someone's address changed (a cloak); they stay who they are. */
void
irc_members_chghost(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	char addr[200];

	if (m->nparams < 2 || m->nick == NULL)
		return;
	snprintf(addr, sizeof addr, "%.63s@%.120s", m->params[0], m->params[1]);
	if (irc_members_from_us(c, m)) {
		irc_text_copy(c->userhost, sizeof c->userhost, addr);
		return;
	}
	if ((u = irc_users_find(&c->users, m->nick)) != NULL)
		members_rehost(c, u, addr);
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
		if (irc_parse_same_as(c->cur_nick, c->nick, c->ascii_casemap))
			irc_regain_ours(c);
		return;
	}
	irc_regain_freed(c, m->nick);
	if ((u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	irc_nicks_forget(c, u);
	if ((other = irc_users_find(&c->users, newnick)) != NULL && other != u) {
		irc_send_forget(c, newnick, NULL);
		irc_nicks_forget(c, other); /* a stale entry, about to go */
	}
	/* their private lines still queued follow them, and leave the old nick */
	irc_send_forget(c, m->nick, newnick);
	irc_users_rename(&c->users, u, newnick);
	if ((u = irc_users_find(&c->users, newnick)) != NULL) {
		irc_nicks_remember(c, u);
		irc_events_emit(c, BOT_EV_RENAME, NULL, u, newnick, false, false, 0);
	}
}

void
irc_members_names(struct irc *c, const struct irc_msg *m)
{
	char buf[IRC_MAX_LINE + 1], *tok, *save = NULL, *addr;
	int i;

	/* 353 me = #chan :@op +voice nick */
	if (m->nparams < 4 || (i = irc_chan_find(c, m->params[2])) < 0)
		return;
	irc_text_copy(buf, sizeof buf, m->params[3]);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		struct irc_user *u;
		char *symbols = tok;
		size_t nsym;

		while (*tok != '\0' && (strchr(c->prefix_chars, *tok) != NULL || strchr("~&@%+", *tok) != NULL))
			tok++;
		nsym = (size_t)(tok - symbols);
		/* userhost-in-names: "nick!user@host", the address without a WHO */
		addr = strchr(tok, '!');
		if (addr != NULL)
			*addr++ = '\0';
		if (*tok == '\0' || irc_parse_same_as(tok, c->cur_nick, c->ascii_casemap) ||
		    (u = members_get(c, tok, addr != NULL && strchr(addr, '@') != NULL ? addr : NULL)) == NULL)
			continue;
		u->chans |= UINT64_C(1) << i;
		irc_modes_names(c, u, i, symbols, nsym);
	}
}

/* RPL_WHOREPLY "me #chan user host server nick flags :hops realname", or
 * WHOX's RPL_WHOSPCRPL "me 77 #chan user host nick flags account". */
void
irc_members_who(struct irc *c, const struct irc_msg *m)
{
	const char *chan, *user, *host, *nick, *account = NULL;
	char addr[200];
	struct irc_user *u;
	int i;

	if (strcmp(m->command, RPL_WHOSPCRPL) == 0) {
		if (m->nparams < 8 || strcmp(m->params[1], "77") != 0)
			return;
		chan = m->params[2];
		user = m->params[3];
		host = m->params[4];
		nick = m->params[5];
		account = m->params[7];
	} else {
		if (m->nparams < 6)
			return;
		chan = m->params[1];
		user = m->params[2];
		host = m->params[3];
		nick = m->params[5];
	}
	if (irc_parse_same_as(nick, c->cur_nick, c->ascii_casemap))
		return;
	snprintf(addr, sizeof addr, "%.63s@%.120s", user, host);
	if ((u = members_get(c, nick, addr)) == NULL)
		return;
	irc_text_copy(u->nick, sizeof u->nick, nick);
	if (account != NULL)
		irc_users_set_account(u, account);
	if ((i = irc_chan_find(c, chan)) >= 0)
		u->chans |= UINT64_C(1) << i;
}

/* RPL_ENDOFWHO "me #chan :End of WHO list": the channel's members are known. */
void
irc_members_who_end(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[1])) < 0 || !c->chans[i].in)
		return;
	c->chans[i].joined = true;
	c->chans[i].who_wait = false;
	irc_invite_check(c, i);
	irc_events_check_up(c, false);
}

void
irc_members_account(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	/* account-notify: a login or logout, "*" for logged out */
	if (m->nick != NULL && m->nparams > 0 && (u = irc_users_find(&c->users, m->nick)) != NULL)
		irc_users_set_account(u, m->params[0]);
}
