/* action.c: actions as one line of text, parsed and formatted canonically. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "game-internal.h"

static const struct { const char *word; int type; } verbs[] = {
	{ "draw", HF_ACT_DRAW }, { "pickup", HF_ACT_PICKUP }, { "pick", HF_ACT_PICKUP }, { "take", HF_ACT_PICKUP },
	{ "meld", HF_ACT_MELD }, { "discard", HF_ACT_DISCARD }, { "out", HF_ACT_OUT }, { "yes", HF_ACT_YES },
	{ "no", HF_ACT_NO },
};

/* Canonical order of cards in a group: high to low, wilds last. */
static const int order[] = { HF_ACE, HF_KING, HF_QUEEN, HF_JACK, HF_TEN, HF_NINE, HF_EIGHT, HF_SEVEN, HF_SIX,
                             HF_FIVE, HF_FOUR, HF_RED3, HF_BLACK3, HF_TWO, HF_JOKER };

static bool
is_times(const char *s, size_t len, size_t *skip)
{
	if (len >= 1 && (s[0] == 'x' || s[0] == 'X')) {
		*skip = 1;
		return true;
	}
	if (len >= 2 && (unsigned char)s[0] == 0xc3 && (unsigned char)s[1] == 0x97) {
		*skip = 2;
		return true;
	}
	return false;
}

static int
number(const char *s, size_t len)
{
	int n = 0;
	if (len == 0 || len > 3)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	return n;
}

/* One token: "K", "Kx3", "K×3", or "x3" (repeats the previous card). */
static enum hf_err
token(struct hf_group *grp, const char *t, size_t len, int *last, char *why, size_t wl)
{
	size_t skip;
	int card, n = 1;
	if (is_times(t, len, &skip) && number(t + skip, len - skip) > 0) {
		n = number(t + skip, len - skip);
		if (*last == 0)
			return hf_fail(HF_E_SYNTAX, why, wl, "x%d must follow a card", n);
		card = *last;
		n -= 1;
	} else {
		size_t cut = len;
		for (size_t i = 1; i < len; i++)
			if (is_times(t + i, len - i, &skip) && number(t + i + skip, len - i - skip) > 0) {
				n = number(t + i + skip, len - i - skip);
				cut = i;
				break;
			}
		card = hf_card_parse(t, cut);
		if (card == HF_NOCARD)
			return hf_fail(HF_E_SYNTAX, why, wl, "\"%.*s\" is not a card (A K Q J 10..4 3 3h 2 JK)",
			               (int)(len > 20 ? 20 : len), t);
	}
	if (grp->count[card] + n > 200)
		return hf_fail(HF_E_SYNTAX, why, wl, "too many cards");
	grp->count[card] = (uint8_t)(grp->count[card] + n);
	*last = card;
	return HF_OK;
}

static enum hf_err
group(struct hf_group *grp, const char *s, size_t len, char *why, size_t wl)
{
	const char *colon = memchr(s, ':', len);
	int last = 0;
	memset(grp, 0, sizeof *grp);
	if (colon != NULL) {
		const char *a = s, *b = colon;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		int t = hf_card_parse(a, (size_t)(b - a));
		if (t == HF_NOCARD)
			return hf_fail(HF_E_SYNTAX, why, wl, "\"%.*s:\" does not name a meld", (int)(b - a > 20 ? 20 : b - a), a);
		grp->target = (uint8_t)t;
		len -= (size_t)(colon + 1 - s);
		s = colon + 1;
	}
	size_t i = 0;
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		size_t j = i;
		while (j < len && !isspace((unsigned char)s[j]))
			j++;
		if (j > i) {
			enum hf_err e = token(grp, s + i, j - i, &last, why, wl);
			if (e != HF_OK)
				return e;
		}
		i = j;
	}
	return HF_OK;
}

static enum hf_err
groups(struct hf_action *a, const char *s, char *why, size_t wl)
{
	bool pickup = a->type == HF_ACT_PICKUP;
	while (*s && isspace((unsigned char)*s))
		s++;
	if (*s == '\0') {
		if (pickup)
			return HF_OK;
		return hf_fail(HF_E_SYNTAX, why, wl, "name the cards to meld: meld 9 9 2, K K K");
	}
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		if (a->ngroups >= HF_MAX_GROUPS)
			return hf_fail(HF_E_SYNTAX, why, wl, "at most %d melds in one move", HF_MAX_GROUPS);
		struct hf_group *g = &a->groups[a->ngroups];
		enum hf_err e = group(g, s, len, why, wl);
		if (e != HF_OK)
			return e;
		/* a pickup's first group may name only the meld its top card goes on: "pickup 9:" */
		if (cards_total(g->count) == 0 && g->target && !(pickup && a->ngroups == 0))
			return hf_fail(HF_E_SYNTAX, why, wl, "name the cards to put on the %s", card_plural(g->target));
		if (cards_total(g->count) == 0 && !(pickup && a->ngroups == 0))
			return hf_fail(HF_E_SYNTAX, why, wl, "an empty meld between commas");
		a->ngroups++;
		if (end == NULL)
			break;
		s = end + 1;
	}
	if (pickup && a->ngroups == 1 && cards_total(a->groups[0].count) == 0 && !a->groups[0].target)
		a->ngroups = 0;
	return HF_OK;
}

enum hf_err
hf_action_parse(struct hf_action *a, const char *text, char *why, size_t wl)
{
	memset(a, 0, sizeof *a);
	if (text == NULL)
		return hf_fail(HF_E_SYNTAX, why, wl, "say a move: draw, pickup, meld, discard, out, yes, no");
	while (*text == '!' || isspace((unsigned char)*text))
		text++;
	size_t n = 0;
	while (text[n] && !isspace((unsigned char)text[n]))
		n++;
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
		if (strlen(verbs[i].word) != n || strncasecmp(text, verbs[i].word, n) != 0)
			continue;
		const char *rest = text + n;
		a->type = (uint8_t)verbs[i].type;
		while (*rest && isspace((unsigned char)*rest))
			rest++;
		switch (a->type) {
		case HF_ACT_MELD:
		case HF_ACT_PICKUP:
			return groups(a, rest, why, wl);
		case HF_ACT_DISCARD: {
			size_t k = strlen(rest);
			while (k > 0 && isspace((unsigned char)rest[k - 1]))
				k--;
			a->card = (uint8_t)hf_card_parse(rest, k);
			if (a->card == HF_NOCARD)
				return hf_fail(HF_E_SYNTAX, why, wl, "discard one card, as in: discard 7");
			return HF_OK;
		}
		default:
			if (*rest)
				return hf_fail(HF_E_SYNTAX, why, wl, "%s takes nothing after it", verbs[i].word);
			return HF_OK;
		}
	}
	memset(a, 0, sizeof *a);
	return hf_fail(HF_E_SYNTAX, why, wl, "say a move: draw, pickup, meld, discard, out, yes, no");
}

struct sb { char *buf; size_t len, n; };

static void
sb_put(struct sb *b, const char *s)
{
	size_t k = strlen(s);
	if (b->n < b->len)
		snprintf(b->buf + b->n, b->len - b->n, "%s", s);
	b->n += k;
}

static void
fmt_group(struct sb *b, const struct hf_group *g)
{
	bool first = true;
	char tmp[16];
	if (g->target) {
		sb_put(b, hf_card_name(g->target));
		sb_put(b, ":");
		first = false;
	}
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		int c = order[i], n = g->count[c];
		if (n == 0)
			continue;
		if (n > 3) {
			snprintf(tmp, sizeof tmp, "%s%sx%d", first ? "" : " ", hf_card_name(c), n);
			sb_put(b, tmp);
			first = false;
			continue;
		}
		for (int k = 0; k < n; k++) {
			if (!first)
				sb_put(b, " ");
			sb_put(b, hf_card_name(c));
			first = false;
		}
	}
}

size_t
hf_action_format(const struct hf_action *a, char *buf, size_t len)
{
	struct sb b = { buf, len, 0 };
	if (len > 0)
		buf[0] = '\0';
	switch (a->type) {
	case HF_ACT_DRAW: sb_put(&b, "draw"); break;
	case HF_ACT_OUT: sb_put(&b, "out"); break;
	case HF_ACT_YES: sb_put(&b, "yes"); break;
	case HF_ACT_NO: sb_put(&b, "no"); break;
	case HF_ACT_DISCARD:
		sb_put(&b, "discard ");
		sb_put(&b, hf_card_name(a->card));
		break;
	case HF_ACT_MELD:
	case HF_ACT_PICKUP:
		sb_put(&b, a->type == HF_ACT_MELD ? "meld" : "pickup");
		for (int i = 0; i < a->ngroups && i < HF_MAX_GROUPS; i++) {
			sb_put(&b, i == 0 ? " " : ", ");
			fmt_group(&b, &a->groups[i]);
		}
		break;
	default:
		sb_put(&b, "none");
	}
	return b.n;
}
