/* nicks.c: what a nick-keyed player is across gaps (our reconnects, their quits): renames and addresses remembered, checked, expiring. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"

/* On a network without services a player's id is the nick they were first
 * seen with ("nick:<first>").  While the bot watches, that is enough: a
 * rename keeps the id, a QUIT ends it.  Across a gap it is not: the bot was
 * away, or the player quit and someone else took the nick.  So two things
 * are remembered in the adapter's state, each with the address (user@host)
 * of the person and when, and trusted for IRC_NICK_TTL_MS only:
 *   "nick/<nick>" -> "<first> <user@host> <ms>"  a renamed user wears <nick>;
 *   "seen/<first>" -> "<user@host> <ms>"          the person <first>'s
 *                                                 private lines went to.
 * After a gap, the nick is the same player only from the same host (or
 * cloak).  A stranger wearing the nick gets an id of their own and never
 * the seat's hands; a player whose address changed meanwhile (a mobile
 * network) is a stranger too: on a network without services nothing else
 * tells them apart.
 *
 * The "seen" records are written for seated players only (adapter_seated),
 * and neither kind is pruned while its player is seated: strangers can
 * neither grow them nor flush a player's out of them (a flood of private
 * questions from rotating nicks once pushed a quit player's record out, and
 * whoever took her nick next was given her seat).  A seated player's nick
 * with no record at all is worn by an unknown person: members.c gives the
 * wearer a tagged id of their own, never the seat. */

static int64_t
nicks_now_ms(void)
{
	struct timespec ts;

	/* wall time: entries outlive the process */
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
nicks_key(char *buf, size_t len, const char *prefix, const char *key)
{
	snprintf(buf, len, "%s/%s", prefix, key);
}

bool
irc_nicks_seated(struct irc *c, const char *first)
{
	char id[96];

	snprintf(id, sizeof id, "nick:%s", first);
	return adapter_seated(c->a, id);
}

bool
irc_nicks_same_person(const char *a, const char *b)
{
	const char *ha = strchr(a, '@'), *hb = strchr(b, '@');

	/* The host, not the user name: a client that sets none sends the nick
	 * as user name, so a stranger taking the nick often has the player's. */
	return ha != NULL && hb != NULL && ha[1] != '\0' && strcmp(ha + 1, hb + 1) == 0;
}

void
irc_nicks_remember(struct irc *c, const struct irc_user *u)
{
	char k[96], v[300];

	if (u->account[0] != '\0' || u->unsure || strcmp(u->first, u->key) == 0)
		return;
	nicks_key(k, sizeof k, "nick", u->key);
	snprintf(v, sizeof v, "%s %s %lld", u->first, u->addr[0] != '\0' ? u->addr : "-",
	         (long long)nicks_now_ms());
	if (adapter_state_set(c->a, k, v) == 0 && ++c->nick_saved > 2 * IRC_NICK_KEEP)
		irc_nicks_prune(c);
}

void
irc_nicks_forget(struct irc *c, const struct irc_user *u)
{
	char k[96];

	if (strcmp(u->first, u->key) == 0)
		return;
	nicks_key(k, sizeof k, "nick", u->key);
	if (adapter_state_del(c->a, k) == 0 && c->nick_saved > 0)
		c->nick_saved--;
}

void
irc_nicks_bind(struct irc *c, struct irc_user *u)
{
	char k[96], v[200], was[200];

	if (u->bound || u->unsure || u->account[0] != '\0' || u->addr[0] == '\0' || !irc_nicks_seated(c, u->first))
		return;
	u->bound = true;
	nicks_key(k, sizeof k, "seen", u->first);
	if (adapter_state_get(c->a, k, was, sizeof was) == 0 && strncmp(was, u->addr, strlen(u->addr)) == 0 &&
	    was[strlen(u->addr)] == ' ') {
		long long at = strtoll(was + strlen(u->addr) + 1, NULL, 10);

		/* written less than a day ago: good for the week to come */
		if (nicks_now_ms() - at < 86400LL * 1000)
			return;
	}
	snprintf(v, sizeof v, "%s %lld", u->addr, (long long)nicks_now_ms());
	if (adapter_state_set(c->a, k, v) == 0 && ++c->nick_saved > 2 * IRC_NICK_KEEP)
		irc_nicks_prune(c);
}

/* Splits a value of n fields and the time, "<a> <b> <ms>" or "<a> <ms>",
 * into fields (room for n + 1); false when expired or malformed. */
static bool
nicks_fresh(char *value, char **fields, int n)
{
	char *save = NULL, *tok;
	int i = 0;

	for (tok = strtok_r(value, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if (i == n + 1)
			return false;
		fields[i++] = tok;
	}
	if (i != n + 1)
		return false;
	return nicks_now_ms() - strtoll(fields[n], NULL, 10) < IRC_NICK_TTL_MS;
}

const char *
irc_nicks_first(struct irc *c, const char *nick, char *buf, size_t len, char *addr, size_t addrlen)
{
	char key[64], k[96], v[300], *f[3];

	irc_parse_casefold(key, sizeof key, nick);
	nicks_key(k, sizeof k, "nick", key);
	/* an entry of the old form ("<first> <ms>", no address) fails here: it cannot be checked */
	if (adapter_state_get(c->a, k, v, sizeof v) != 0 || !nicks_fresh(v, f, 2))
		return NULL;
	snprintf(buf, len, "%s", f[0]);
	snprintf(addr, addrlen, "%s", strcmp(f[1], "-") == 0 ? "" : f[1]);
	return buf;
}

const char *
irc_nicks_seen(struct irc *c, const char *first, char *buf, size_t len)
{
	char k[96], v[200], *f[2];

	nicks_key(k, sizeof k, "seen", first);
	if (adapter_state_get(c->a, k, v, sizeof v) != 0 || !nicks_fresh(v, f, 1))
		return NULL;
	snprintf(buf, len, "%s", f[0]);
	return buf;
}

struct nicks_ent {
	char key[96];
	long long ms;
};

struct nicks_list {
	struct irc *c;
	struct nicks_ent *v;
	size_t n, cap;
	size_t seated;          /* entries of seated players: kept, not listed */
};

/* Whether a record (key "seen/<first>" or "nick/<nick>" -> "<first> ...")
 * is a seated player's. */
static bool
nicks_of_seated(struct irc *c, const char *key, const char *value)
{
	char first[80];

	if (strncmp(key, "seen/", 5) == 0)
		return irc_nicks_seated(c, key + 5);
	irc_text_copy(first, sizeof first, value);
	first[strcspn(first, " ")] = '\0';
	return irc_nicks_seated(c, first);
}

static void
nicks_collect(void *ctx, const char *key, const char *value)
{
	struct nicks_list *l = ctx;
	const char *sp = strrchr(value, ' ');

	if (nicks_of_seated(l->c, key, value)) {
		l->seated++;
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	irc_text_copy(l->v[l->n].key, sizeof l->v[l->n].key, key);
	l->v[l->n].ms = sp != NULL ? strtoll(sp + 1, NULL, 10) : 0;
	l->n++;
}

static int
nicks_older(const void *a, const void *b)
{
	const struct nicks_ent *x = a, *y = b;

	return (x->ms > y->ms) - (x->ms < y->ms);
}

/* Drops the expired entries under prefix and, above IRC_NICK_KEEP, the
 * oldest, never a seated player's; the number kept. */
static size_t
nicks_prune_prefix(struct irc *c, const char *prefix)
{
	struct nicks_list l = { .c = c };
	size_t drop = 0, i;
	int64_t now = nicks_now_ms();

	if (adapter_state_each(c->a, prefix, nicks_collect, &l) != 0) {
		free(l.v);
		return 0;
	}
	/* qsort's base may not be NULL, even for no element (UBSan says so at start) */
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, nicks_older);
	/* down to three quarters: a flood of renames prunes once in a while, not at each */
	if (l.n > IRC_NICK_KEEP)
		drop = l.n - IRC_NICK_KEEP * 3 / 4;
	while (drop < l.n && now - l.v[drop].ms >= IRC_NICK_TTL_MS)
		drop++;
	for (i = 0; i < drop; i++)
		adapter_state_del(c->a, l.v[i].key);
	free(l.v);
	return l.n - drop + l.seated;
}

void
irc_nicks_prune(struct irc *c)
{
	c->nick_saved = (long)(nicks_prune_prefix(c, "nick/") + nicks_prune_prefix(c, "seen/"));
}
