/* users.c: the users an IRC connection can see, and their stable ids (services account, else first nick). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find.h"
#include "irc.h"

static void
copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* Nicks fold as the server's CASEMAPPING says: under ascii (InspIRCd 4's
 * default) "x[y" and "x{y" are two people, and must be two users here. */
static void
fold(const struct irc_users *u, char *dst, size_t len, const char *src)
{
	irc_parse_fold(dst, len, src, u->ascii);
}

void
irc_users_casemap(struct irc_users *u, bool ascii)
{
	if (u->ascii == ascii)
		return;
	u->ascii = ascii;
	/* the ids (first nicks) stay: they are what the tables know a person by */
	for (size_t i = 0; i < u->n; i++)
		fold(u, u->v[i].key, sizeof u->v[i].key, u->v[i].nick);
}

struct irc_user *
irc_users_find(struct irc_users *u, const char *nick)
{
	char key[64];

	fold(u, key, sizeof key, nick);
	return FIND_STR(u->v, u->n, key, key);
}

/* With IRC_MAX_LOOSE users in no channel of ours, forgets the one heard
 * from longest ago (they are found again, by address, if they speak). */
static void
users_make_room(struct irc_users *u)
{
	size_t loose = 0, oldest = 0;

	for (size_t i = 0; i < u->n; i++) {
		if (u->v[i].chans != 0)
			continue;
		if (loose++ == 0 || u->v[i].heard < u->v[oldest].heard)
			oldest = i;
	}
	if (loose >= IRC_MAX_LOOSE)
		irc_users_remove(u, &u->v[oldest]);
}

struct irc_user *
irc_users_get(struct irc_users *u, const char *nick)
{
	return irc_users_get_as(u, nick, NULL);
}

struct irc_user *
irc_users_get_as(struct irc_users *u, const char *nick, const char *first)
{
	struct irc_user *p;

	if ((p = irc_users_find(u, nick)) != NULL) {
		p->heard = ++u->clock;
		return p;
	}
	users_make_room(u);
	if (u->n == u->cap) {
		u->cap = u->cap ? u->cap * 2 : 64;
		u->v = xreallocarray(u->v, u->cap, sizeof *u->v);
	}
	p = &u->v[u->n++];
	memset(p, 0, sizeof *p);
	p->heard = ++u->clock;
	copy(p->nick, sizeof p->nick, nick);
	fold(u, p->key, sizeof p->key, nick);
	irc_users_set_first(u, p, first != NULL && first[0] != '\0' ? first : p->key, NULL);
	return p;
}

static bool
users_first_taken(const struct irc_users *u, const struct irc_user *p, const char *first)
{
	for (size_t i = 0; i < u->n; i++)
		if (&u->v[i] != p && strcmp(u->v[i].first, first) == 0)
			return true;
	return false;
}

void
irc_users_set_first(struct irc_users *u, struct irc_user *p, const char *first, const char *tag)
{
	char base[64], folded[80];

	/* '#' never appears in a nick: "<nick>#<tag>" is never anyone's plain
	 * nick, and case-folding leaves it alone (a '~' became '^', and such ids
	 * were never found again) */
	fold(u, base, sizeof base, first);
	base[strcspn(base, "#")] = '\0';
	if (tag != NULL) {
		snprintf(folded, sizeof folded, "%.40s#%.16s", base, tag);
		fold(u, p->first, sizeof p->first, folded);
	} else {
		copy(p->first, sizeof p->first, first);
	}
	/* a newcomer wearing the first nick of someone still here must not pass for them */
	for (unsigned n = 2; users_first_taken(u, p, p->first) && n < 100000; n++)
		snprintf(p->first, sizeof p->first, "%.40s#%u", base, n);
}

void
irc_users_remove(struct irc_users *u, struct irc_user *p)
{
	size_t i = (size_t)(p - u->v);

	if (i >= u->n)
		return;
	u->v[i] = u->v[--u->n];
}

void
irc_users_rename(struct irc_users *u, struct irc_user *p, const char *newnick)
{
	struct irc_user *other = irc_users_find(u, newnick);

	/* a stale entry for the new nick (missed QUIT) gives way */
	if (other != NULL && other != p) {
		size_t pi = (size_t)(p - u->v);

		irc_users_remove(u, other);
		/* the removal may have moved p into other's slot */
		if (pi == u->n)
			p = other;
	}
	copy(p->nick, sizeof p->nick, newnick);
	fold(u, p->key, sizeof p->key, newnick);
}

void
irc_users_set_account(struct irc_user *p, const char *account)
{
	if (account == NULL || strcmp(account, "*") == 0 || strcmp(account, "0") == 0)
		account = "";
	irc_parse_casefold(p->account, sizeof p->account, account);
}

void
irc_users_id(const struct irc_user *p, char *buf, size_t len)
{
	if (p->account[0] != '\0')
		snprintf(buf, len, "acct:%s", p->account);
	else
		snprintf(buf, len, "nick:%s", p->first);
}

const char *
irc_users_nick_for(struct irc_users *u, const char *id)
{
	char key[64];

	if (strncmp(id, "acct:", 5) == 0) {
		irc_parse_casefold(key, sizeof key, id + 5);
		for (size_t i = 0; i < u->n; i++)
			if (strcmp(u->v[i].account, key) == 0)
				return u->v[i].nick;
		return NULL;
	}
	if (strncmp(id, "nick:", 5) == 0) {
		char want[80];

		fold(u, want, sizeof want, id + 5);
		for (size_t i = 0; i < u->n; i++)
			if (u->v[i].account[0] == '\0' && strcmp(u->v[i].first, want) == 0)
				return u->v[i].nick;
	}
	return NULL;
}

void
irc_users_part_all(struct irc_users *u, int chan)
{
	for (size_t i = 0; i < u->n;) {
		u->v[i].chans &= ~(UINT64_C(1) << chan);
		irc_modes_forget(&u->v[i], chan);
		if (u->v[i].chans == 0)
			irc_users_remove(u, &u->v[i]);
		else
			i++;
	}
}

void
irc_users_clear(struct irc_users *u)
{
	free(u->v);
	memset(u, 0, sizeof *u);
}
