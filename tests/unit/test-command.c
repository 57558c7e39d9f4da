/* test-command.c: a command as data: typed text read once (every syntax of docs/PLAYING.md), its canonical text, an adapter's builders, and the rules bad input is refused by. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon.h"

/* Reads line as the core's door does; its arguments as one string, each
 * word in [], each group after '|', onto marked '^'. */
static const char *
shape(const char *line, struct command *c)
{
	static char out[1024];
	size_t o = 0, g, k;

	cmd_parse(line, c);
	out[0] = '\0';
	for (g = 0; g < c->ngroups; g++) {
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", g ? "|" : "", c->group[g].onto ? "^" : "");
		for (k = 0; k < c->group[g].n; k++)
			o += (size_t)snprintf(out + o, sizeof out - o, "[%s]", command_arg(c, c->group[g].first + k));
	}
	return out;
}

/* The canonical text, read back, gives the same command. */
static void
round_trip(const struct command *c)
{
	char text[COMMAND_TEXT_MAX + 1], again[COMMAND_TEXT_MAX + 1];
	struct command d;

	command_text(c, text, sizeof text);
	command_init(&d, c->name);
	assert_int_equal(command_args(&d, text, c->cards), 0);
	command_text(&d, again, sizeof again);
	assert_string_equal(text, again);
	assert_int_equal(d.nwords, c->nwords);
	assert_int_equal(d.ngroups, c->ngroups);
}

/* Every example of docs/PLAYING.md's table of commands, and the ways of writing cards. */
static void
test_playing_syntax(void **state)
{
	static const struct {
		const char *line, *name, *shape, *text;
	} cases[] = {
		{ "new classic min1=50", "new", "[classic][min1=50]", "classic min1=50" },
		{ "nw", "nw", "", "" },
		{ "join 2", "join", "[2]", "2" },
		{ "team 1", "team", "[1]", "1" },
		{ "leave", "leave", "", "" },
		{ "leave bob", "leave", "[bob]", "bob" },
		{ "bot add hard", "bot", "[add][hard]", "add hard" },
		{ "start", "start", "", "" },
		{ "play 4 pcio", "play", "[4][pcio]", "4 pcio" },
		{ "play 2 duel with bob", "play", "[2][duel][with][bob]", "2 duel with bob" },
		/* a Matrix id keeps its ':': only card commands read groups */
		{ "play @bob:hs @cy:hs", "play", "[@bob:hs][@cy:hs]", "@bob:hs @cy:hs" },
		{ "draw", "draw", "", "" },
		{ "pickup 9 9", "pickup", "[9][9]", "9 9" },
		{ "pickup 9 9, K K K", "pickup", "[9][9]|[K][K][K]", "9 9, K K K" },
		{ "pu 9:", "pu", "^[9]", "9:" },
		{ "meld 9 9 2, K K K", "meld", "[9][9][2]|[K][K][K]", "9 9 2, K K K" },
		{ "meld 9 9 2,K K K", "meld", "[9][9][2]|[K][K][K]", "9 9 2, K K K" },
		{ "meld 9: 2", "meld", "^[9][2]", "9: 2" },
		{ "meld 9:2", "meld", "^[9][2]", "9: 2" },
		{ "meld 9 : 2 2", "meld", "^[9][2][2]", "9: 2 2" },
		{ "m 4 4 2, 5 5 5", "m", "[4][4][2]|[5][5][5]", "4 4 2, 5 5 5" },
		{ "meld 9 9, K", "meld", "[9][9]|[K]", "9 9, K" },
		{ "meld Q: 2", "meld", "^[Q][2]", "Q: 2" },
		{ "meld K x3", "meld", "[K][x3]", "K x3" },
		{ "meld Kx3 T T * joker 3h 3d", "meld", "[Kx3][T][T][*][joker][3h][3d]", "Kx3 T T * joker 3h 3d" },
		{ "meld K\xc3\x97" "4 3\xe2\x99\xa3", "meld", "[K\xc3\x97" "4][3\xe2\x99\xa3]", "K\xc3\x97" "4 3\xe2\x99\xa3" },
		{ "discard 7", "discard", "[7]", "7" },
		{ "disc 7", "disc", "[7]", "7" },
		{ "out", "out", "", "" },
		{ "yes", "yes", "", "" },
		{ "no", "no", "", "" },
		{ "hand", "hand", "", "" },
		{ "hint", "hint", "", "" },
		{ "table", "table", "", "" },
		{ "pile", "pile", "", "" },
		{ "score", "score", "", "" },
		{ "rules duel", "rules", "[duel]", "duel" },
		{ "who", "who", "", "" },
		{ "auto", "auto", "", "" },
		{ "abort", "abort", "", "" },
		{ "stats alice", "stats", "[alice]", "alice" },
		{ "stats @bob:hs", "stats", "[@bob:hs]", "@bob:hs" },
		{ "top duel", "top", "[duel]", "duel" },
		{ "private privmsg", "private", "[privmsg]", "privmsg" },
		{ "tell moves", "tell", "[moves]", "moves" },
		{ "clock 1d", "clock", "[1d]", "1d" },
		{ "watch", "watch", "", "" },
		{ "web new", "web", "[new]", "new" },
		{ "help meld", "help", "[meld]", "meld" },
		{ "  draw  ", "draw", "", "" },
		{ "zzz 1, 2", "zzz", "[1,][2]", "1, 2" },
	};
	struct command c;
	char text[COMMAND_TEXT_MAX + 1];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = shape(cases[i].line, &c);

		if (strcmp(got, cases[i].shape) != 0)
			fail_msg("\"%s\": %s, not %s", cases[i].line, got, cases[i].shape);
		assert_string_equal(c.name, cases[i].name);
		assert_string_equal(c.why, "");
		command_text(&c, text, sizeof text);
		assert_string_equal(text, cases[i].text);
		round_trip(&c);
	}
}

/* Bad input is refused with the rule it broke, never half read. */
static void
test_bad_input(void **state)
{
	struct command c;
	char line[2048];
	size_t o = 0;

	(void)state;
	shape("meld 9 9 2,, K K K", &c);
	assert_non_null(strstr(c.why, "an empty group of cards"));
	shape("meld 9 9 2,", &c);
	assert_non_null(strstr(c.why, "an empty group of cards"));
	shape("meld :2", &c);
	assert_non_null(strstr(c.why, "':' follows the rank of the open meld"));
	shape("meld 9 9: 2", &c);
	assert_non_null(strstr(c.why, "':' follows the rank of the open meld"));
	shape("meld 9: 2: 3", &c);
	assert_non_null(strstr(c.why, "one ':' in a group"));
	o += (size_t)snprintf(line + o, sizeof line - o, "meld");
	for (int i = 0; i < COMMAND_MAX_WORDS + 1; i++)
		o += (size_t)snprintf(line + o, sizeof line - o, " %d", i);
	shape(line, &c);
	assert_string_equal(c.why, "too many words (31 at most)");
	assert_int_equal(c.nwords, COMMAND_MAX_WORDS);
	/* words the same way */
	shape(line + 1, &c);
	assert_string_equal(c.name, "eld");
	assert_string_equal(c.why, "too many words (31 at most)");
	/* a name longer than any command is kept to be quoted back, cut */
	memset(line, 'x', 100);
	line[100] = '\0';
	shape(line, &c);
	assert_int_equal(strlen(c.name), COMMAND_NAME_MAX);
}

/* A word of 100 'x'. */
static const char *
line100(void)
{
	static char x[101];

	memset(x, 'x', 100);
	return x;
}

/* An adapter builds a command from its service's own fields: no text. */
static void
test_built(void **state)
{
	struct command c;
	char text[COMMAND_TEXT_MAX + 1];

	(void)state;
	command_init(&c, "meld");
	assert_int_equal(command_group(&c, false), 0);
	assert_int_equal(command_word(&c, "9", 1), 0);
	assert_int_equal(command_word(&c, "9", 1), 0);
	assert_int_equal(command_word(&c, "2", 1), 0);
	assert_int_equal(command_group(&c, true), 0);
	assert_int_equal(command_word(&c, "K", 1), 0);
	assert_int_equal(command_word(&c, "JK", 2), 0);
	assert_true(c.cards);
	command_text(&c, text, sizeof text);
	assert_string_equal(text, "9 9 2, K: JK");
	round_trip(&c);
	/* a word may not hide a NUL, nor go past the room kept for words */
	assert_int_equal(command_word(&c, "a\0b", 3), -1);
	assert_non_null(strstr(c.why, "too long"));
	command_init(&c, "new");
	for (int i = 0; i < 5; i++)
		assert_int_equal(command_word(&c, line100(), 100), 0);
	assert_int_equal(c.nwords, 5);
	assert_int_equal(command_word(&c, line100(), 100), -1);
	assert_non_null(strstr(c.why, "too long"));
	assert_int_equal(c.nwords, 5);
	assert_false(c.cards);
	/* the canonical text fits whatever buffer it is given */
	command_text(&c, text, 10);
	assert_int_equal(strlen(text), 9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_playing_syntax),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
