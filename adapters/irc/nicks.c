/* nicks.c: nick-keyed ids across the bot's own reconnects: the renames it saw, remembered in the adapter's state, bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"

/* Nick-keyed ids across our own reconnects: a user whose nick is not the one
 * their id is made of (a rename, or "~N") is remembered as "nick/<nick>" ->
 * "<first> <unix ms>" while we see them, so that after a reconnect the same
 * nick is the same player.  Forgotten when they rename again or leave. */
static void
nicks_key(char *buf, size_t len, const char *key)
{
	snprintf(buf, len, "nick/%s", key);
}

void
irc_nicks_remember(struct irc *c, const struct irc_user *u)
{
	char k[80], v[96];
	struct timespec ts;

	if (u->account[0] != '\0' || strcmp(u->first, u->key) == 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	nicks_key(k, sizeof k, u->key);
	snprintf(v, sizeof v, "%s %lld", u->first, (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	if (adapter_state_set(c->a, k, v) == 0 && ++c->nick_saved > IRC_NICK_KEEP)
		irc_nicks_prune(c);
}

void
irc_nicks_forget(struct irc *c, const struct irc_user *u)
{
	char k[80];

	if (strcmp(u->first, u->key) == 0)
		return;
	nicks_key(k, sizeof k, u->key);
	if (adapter_state_del(c->a, k) == 0 && c->nick_saved > 0)
		c->nick_saved--;
}

struct nicks_ent {
	char key[80];
	long long ms;
};

struct nicks_list {
	struct nicks_ent *v;
	size_t n, cap;
};

static void
nicks_collect(void *ctx, const char *key, const char *value)
{
	struct nicks_list *l = ctx;
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
nicks_older(const void *a, const void *b)
{
	const struct nicks_ent *x = a, *y = b;

	return (x->ms > y->ms) - (x->ms < y->ms);
}

void
irc_nicks_prune(struct irc *c)
{
	struct nicks_list l = { 0 };
	size_t drop = 0;

	if (adapter_state_each(c->a, "nick/", nicks_collect, &l) != 0) {
		free(l.v);
		c->nick_saved = 0;
		return;
	}
	/* down to three quarters: a flood of renames prunes once in a while, not at each */
	if (l.n > IRC_NICK_KEEP) {
		drop = l.n - IRC_NICK_KEEP * 3 / 4;
		qsort(l.v, l.n, sizeof *l.v, nicks_older);
		for (size_t i = 0; i < drop; i++)
			adapter_state_del(c->a, l.v[i].key);
	}
	c->nick_saved = (long)(l.n - drop);
	free(l.v);
}

const char *
irc_nicks_first(struct irc *c, const char *nick, char *buf, size_t len)
{
	char key[64], k[80];

	irc_parse_casefold(key, sizeof key, nick);
	nicks_key(k, sizeof k, key);
	if (adapter_state_get(c->a, k, buf, len) != 0)
		return NULL;
	buf[strcspn(buf, " ")] = '\0';
	return buf;
}
