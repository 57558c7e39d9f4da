/* command.h: a command as data: its name and its arguments as words, card commands' words in groups; read once from typed text or built from a service's own fields. */
#ifndef HF_COMMAND_H
#define HF_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COMMAND_NAME_MAX  32     /* a command's name or alias, bytes */
#define COMMAND_TEXT_MAX  512    /* its arguments, bytes (a chat line's most) */
#define COMMAND_MAX_WORDS 31     /* its arguments, words */
#define COMMAND_MAX_GROUPS 31

/* A group of a card command's words: a meld ("9 9 2"), the cards shown
 * with a pickup's top card, or, onto, cards for the open meld whose rank
 * is its first word ("9: 2" is the words 9 and 2, onto). */
struct command_group {
	uint8_t first, n;        /* its words: first .. first + n - 1 */
	bool onto;
};

/* The verb and its typed arguments.  Every word is in one group; a
 * command read as words (not cards) has one group, never onto.  The
 * struct holds its own text: it may be copied. */
struct command {
	char name[COMMAND_NAME_MAX + 1];  /* as given ("meld", "m"): the core's table resolves it */
	bool cards;                       /* its arguments were read as cards in groups */
	size_t nwords;
	uint16_t at[COMMAND_MAX_WORDS];   /* each word's offset in buf */
	size_t used;
	char buf[COMMAND_TEXT_MAX + COMMAND_MAX_WORDS + 1];
	size_t ngroups;
	struct command_group group[COMMAND_MAX_GROUPS];
	char why[160];                    /* the arguments could not be read: why (the rule), else "" */
};

/* A command named name (cut to COMMAND_NAME_MAX), with no argument. */
void command_init(struct command *c, const char *name);
/* Reads text into c's arguments (after any already there): words
 * separated by spaces; with cards, groups separated by ',' and a group's
 * first word followed by ':' the open meld it goes onto ("9 9 2, K K K",
 * "9: 2"). 0, or -1 with c->why saying which rule the text broke. */
int  command_args(struct command *c, const char *text, bool cards);
/* Builds the arguments one by one (an adapter with a service's own
 * fields): a new group (onto: its first word is an open meld's rank),
 * then its words.  0, or -1 with c->why set. */
int  command_group(struct command *c, bool onto);
int  command_word(struct command *c, const char *word, size_t len);
/* The i-th word. */
const char *command_arg(const struct command *c, size_t i);
/* The arguments in their canonical text ("9 9 2, K K K", "9: 2",
 * "classic min1=50"), which command_args reads back the same. */
size_t command_text(const struct command *c, char *buf, size_t len);

#endif
