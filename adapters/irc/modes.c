/* modes.c: who moderates a channel (owner, admin, operator or half-op), from ISUPPORT, NAMES and MODE, for the bot's is_moderator. */
#include <stdint.h>
#include <string.h>

#include "client.h"

/* RFC 2811's modes with a parameter, and the usual prefixes, until the
 * server's RPL_ISUPPORT says otherwise. */
void
irc_modes_reset(struct irc_modes *md)
{
	memset(md, 0, sizeof *md);
	strcpy(md->letters, "qaohv");
	strcpy(md->symbols, "~&@%+");
	strcpy(md->always, "beIk");
	strcpy(md->when_set, "l");
}

/* The moderating level of prefix mode letter (index in PREFIX, from the
 * highest), or -1: half-op and everything above it moderate; voice and
 * anything below half-op (or op, where there is no half-op) do not. */
static int
modes_level(const struct irc_modes *md, char letter)
{
	const char *at = strchr(md->letters, letter), *cut = strchr(md->letters, 'h');
	int k;

	if (letter == '\0' || at == NULL)
		return -1;
	if (cut == NULL)
		cut = strchr(md->letters, 'o');
	if (cut == NULL || at > cut)
		return -1;
	k = (int)(at - md->letters);
	return k < IRC_MOD_LEVELS ? k : IRC_MOD_LEVELS - 1;
}

void
irc_modes_forget(struct irc_user *u, int chan)
{
	for (int k = 0; k < IRC_MOD_LEVELS; k++)
		u->mod[k] &= ~(UINT64_C(1) << chan);
}

void
irc_modes_move(struct irc_user *u, int from, int to)
{
	for (int k = 0; k < IRC_MOD_LEVELS; k++) {
		bool had = (u->mod[k] >> from) & 1;

		u->mod[k] &= ~((UINT64_C(1) << from) | (UINT64_C(1) << to));
		if (had)
			u->mod[k] |= UINT64_C(1) << to;
	}
}

static void
modes_set(struct irc_user *u, int level, int chan, bool on)
{
	if (level < 0)
		return;
	if (on)
		u->mod[level] |= UINT64_C(1) << chan;
	else
		u->mod[level] &= ~(UINT64_C(1) << chan);
}

static void
modes_copy(char *dst, size_t len, const char *src, size_t n)
{
	size_t k = 0;

	/* mode letters and prefix symbols are printable ASCII; commas part CHANMODES' groups */
	for (size_t i = 0; i < n && k + 1 < len; i++)
		if (src[i] > 0x20 && src[i] < 0x7f && src[i] != ',')
			dst[k++] = src[i];
	dst[k] = '\0';
}

/* PREFIX=(qaohv)~&@%+ and CHANMODES=A,B,C,D: a token of RPL_ISUPPORT. */
void
irc_modes_isupport(struct irc *c, const struct irc_msg *m)
{
	struct irc_modes *md = &c->modes;

	for (int i = 1; i + 1 < m->nparams; i++) {
		const char *t = m->params[i];

		if (strncmp(t, "PREFIX=", 7) == 0) {
			const char *open = t + 7, *close = strchr(open, ')');
			size_t n;

			if (*open == '\0') {          /* PREFIX= alone: no prefixes at all */
				md->letters[0] = md->symbols[0] = '\0';
				continue;
			}
			if (*open != '(' || close == NULL)
				continue;
			n = (size_t)(close - open - 1);
			if (n != strlen(close + 1))   /* a letter for each symbol, or nothing learnt */
				continue;
			modes_copy(md->letters, sizeof md->letters, open + 1, n);
			modes_copy(md->symbols, sizeof md->symbols, close + 1, n);
		} else if (strncmp(t, "CHANMODES=", 10) == 0) {
			const char *a = t + 10, *b = strchr(a, ','), *cc = b ? strchr(b + 1, ',') : NULL;
			const char *d = cc ? strchr(cc + 1, ',') : NULL;

			if (b == NULL || cc == NULL)
				continue;
			modes_copy(md->always, sizeof md->always, a, (size_t)(cc - a));   /* A and B */
			modes_copy(md->when_set, sizeof md->when_set, cc + 1, d ? (size_t)(d - cc - 1) : strlen(cc + 1));
		}
	}
}

/* "353 ... :@+alice": the symbols in front of a nick, all of them with multi-prefix. */
void
irc_modes_names(struct irc *c, struct irc_user *u, int i, const char *symbols, size_t n)
{
	irc_modes_forget(u, i);
	for (size_t j = 0; j < n; j++) {
		const char *at = strchr(c->modes.symbols, symbols[j]);

		if (symbols[j] != '\0' && at != NULL)
			modes_set(u, modes_level(&c->modes, c->modes.letters[at - c->modes.symbols]), i, true);
	}
}

/* ":alice!a@h MODE #cards +oh-v bob carol dave": each letter, with the
 * parameters taken in order by the modes that take one. */
void
irc_modes_mode(struct irc *c, const struct irc_msg *m)
{
	const struct irc_modes *md = &c->modes;
	int i, arg = 2;
	bool on = true;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[0])) < 0)
		return;
	for (const char *p = m->params[1]; *p != '\0'; p++) {
		struct irc_user *u;
		const char *nick;

		if (*p == '+' || *p == '-') {
			on = *p == '+';
			continue;
		}
		if (strchr(md->letters, *p) != NULL) {
			if (arg >= m->nparams)
				return;
			nick = m->params[arg++];
			if ((u = irc_users_find(&c->users, nick)) != NULL && (u->chans >> i) & 1)
				modes_set(u, modes_level(md, *p), i, on);
		} else if (strchr(md->always, *p) != NULL || (on && strchr(md->when_set, *p) != NULL))
			arg++;
	}
}

bool
irc_modes_is_moderator(struct adapter *a, const char *room, const char *user_id)
{
	struct irc *c = a->priv;
	struct irc_user *u;
	const char *nick;
	int i;

	if (c == NULL || (i = irc_chan_find(c, room)) < 0 || (nick = irc_users_nick_for(&c->users, user_id)) == NULL ||
	    (u = irc_users_find(&c->users, nick)) == NULL || !((u->chans >> i) & 1))
		return false;
	for (int k = 0; k < IRC_MOD_LEVELS; k++)
		if ((u->mod[k] >> i) & 1)
			return true;
	return false;
}
