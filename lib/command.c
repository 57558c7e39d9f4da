/* command.c: a command as data: the one reader of its arguments' text, the builders an adapter uses, its canonical text. */
#include <stdio.h>
#include <string.h>

#include "command.h"

void
command_init(struct command *c, const char *name)
{
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name != NULL ? name : "");
}

static int
command_fail(struct command *c, const char *why)
{
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof c->why, "%s", why);
	return -1;
}

static int
command_group_new(struct command *c, bool onto)
{
	if (c->ngroups == COMMAND_MAX_GROUPS)
		return command_fail(c, "too many groups of cards");
	c->group[c->ngroups].first = (uint8_t)c->nwords;
	c->group[c->ngroups].n = 0;
	c->group[c->ngroups].onto = onto;
	c->ngroups++;
	return 0;
}

int
command_group(struct command *c, bool onto)
{
	c->cards = true;
	return command_group_new(c, onto);
}

int
command_word(struct command *c, const char *word, size_t len)
{
	char why[64];

	if (len == 0)
		return 0;
	if (c->nwords == COMMAND_MAX_WORDS) {
		snprintf(why, sizeof why, "too many words (%d at most)", COMMAND_MAX_WORDS);
		return command_fail(c, why);
	}
	if (c->used + len + 1 > COMMAND_TEXT_MAX + 1 || memchr(word, '\0', len) != NULL)
		return command_fail(c, "the arguments are too long");
	if (c->ngroups == 0 && command_group_new(c, false) < 0)
		return -1;
	c->at[c->nwords++] = (uint16_t)c->used;
	memcpy(c->buf + c->used, word, len);
	c->buf[c->used + len] = '\0';
	c->used += len + 1;
	c->group[c->ngroups - 1].n++;
	return 0;
}

/* One group of cards: "9 9 2", "9: 2", "9 : 2", "9:2". */
static int
command_cards(struct command *c, const char *p, size_t len)
{
	const char *end = p + len, *colon = memchr(p, ':', len), *after;
	size_t n;

	if (command_group_new(c, colon != NULL) < 0)
		return -1;
	if (colon != NULL) {
		/* the rank of the open meld, then the cards that go onto it */
		while (p < colon && *p == ' ')
			p++;
		n = strcspn(p, " :");
		after = p + n;
		while (after < colon && *after == ' ')
			after++;
		if (n == 0 || after != colon)
			return command_fail(c, "':' follows the rank of the open meld the cards go onto, as in 9: 2");
		if (memchr(colon + 1, ':', (size_t)(end - colon - 1)) != NULL)
			return command_fail(c, "one ':' in a group: the rank of one open meld, as in 9: 2");
		if (command_word(c, p, n) < 0)
			return -1;
		p = colon + 1;
	}
	while (p < end) {
		p += strspn(p, " ");
		n = 0;
		while (p + n < end && p[n] != ' ')
			n++;
		if (command_word(c, p, n) < 0)
			return -1;
		p += n;
	}
	if (c->group[c->ngroups - 1].n == 0)
		return command_fail(c, "an empty group of cards between two ','");
	return 0;
}

int
command_args(struct command *c, const char *text, bool cards)
{
	const char *p = text, *comma;
	size_t n;

	if (text == NULL)
		return 0;
	if (!cards) {
		for (;;) {
			p += strspn(p, " \t");
			if ((n = strcspn(p, " \t")) == 0)
				return 0;
			if (command_word(c, p, n) < 0)
				return -1;
			p += n;
		}
	}
	c->cards = true;
	if (p[strspn(p, " \t")] == '\0')
		return 0;
	for (;;) {
		comma = strchr(p, ',');
		n = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (command_cards(c, p, n) < 0)
			return -1;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

const char *
command_arg(const struct command *c, size_t i)
{
	return i < c->nwords && c->at[i] < sizeof c->buf ? c->buf + c->at[i] : NULL;
}

size_t
command_text(const struct command *c, char *buf, size_t len)
{
	size_t o = 0, g, k;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (g = 0; g < c->ngroups; g++) {
		const struct command_group *gr = &c->group[g];

		for (k = 0; k < gr->n && command_arg(c, gr->first + k) != NULL; k++) {
			const char *sep = k == 0 ? (g > 0 ? ", " : "") : (k == 1 && gr->onto ? ": " : " ");

			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", sep, command_arg(c, gr->first + k));
			if (o >= len)
				return len - 1;
		}
		if (gr->onto && gr->n == 1)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, ":");
		if (o >= len)
			return len - 1;
	}
	return o;
}
