/* test-discord-markdown.c: styled text as Discord Markdown: bold, escapes, /commands, the ping, the 2000-character cut. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discord/markdown.h"
#include "discord/text.h"
#include "rbuf.h"
#include "style.h"

static char *
md(const char *styled, const struct discord_md_ping *ping)
{
	static char out[8192];
	struct rbuf b = { 0 };

	discord_markdown_encode(&b, styled, strlen(styled), ping);
	snprintf(out, sizeof out, "%s", b.s != NULL ? b.s : "");
	rbuf_free(&b);
	return out;
}

static void
test_roles(void **state)
{
	(void)state;
	assert_string_equal(md(ST_BOLD "Round 2" ST_END " begins.", NULL), "**Round 2** begins.");
	assert_string_equal(md(ST_PLAYER "Ann" ST_END " draws.", NULL), "**Ann** draws.");
	/* a player inside bold: one bold span, not "****" */
	assert_string_equal(md(ST_BOLD "Game over: " ST_PLAYER "Ann" ST_END " wins" ST_END, NULL),
	                    "**Game over: Ann wins**");
	/* cards and colours keep their text; a clean canasta is bold */
	assert_string_equal(md(ST_CARD ST_RED "3\xe2\x99\xa5" ST_END ST_END " and " ST_CLEAN "[K clean]" ST_END, NULL),
	                    "3\xe2\x99\xa5 and **\\[K clean\\]**");
	assert_string_equal(md(ST_DIRTY "[9 dirty]" ST_END ST_RED " (red)" ST_END, NULL),
	                    "\\[9 dirty\\] (red)");
	/* a command is a slash command, in a code span */
	assert_string_equal(md("Type " ST_COMMAND "draw" ST_END " now.", NULL), "Type `/draw` now.");
	/* line breaks close bold first */
	assert_string_equal(md(ST_BOLD "one\ntwo", NULL), "**one**\ntwo");
}

static void
test_text_is_escaped(void **state)
{
	(void)state;
	/* a name can start no Markdown and ping nobody */
	assert_string_equal(md(ST_PLAYER "*evil*_x_" ST_END, NULL), "**\\*evil\\*\\_x\\_**");
	assert_string_equal(md("@everyone <@123> ||s|| ~~x~~ `c` [l](http://x)", NULL),
	                    "@\xe2\x80\x8b" "everyone \\<@\xe2\x80\x8b" "123\\> \\|\\|s\\|\\| \\~\\~x\\~\\~ \\`c\\` "
	                    "\\[l\\](http://x)");
	/* a list, heading or quote at the start of a line stays text */
	assert_string_equal(md("- a\n# b\n> c\n1. d", NULL), "\\- a\n\\# b\n\\> c\n1\\. d");
	/* the same marks mid-line are left alone where harmless */
	assert_string_equal(md("a - b 1. c", NULL), "a - b 1. c");
}

static void
test_ping(void **state)
{
	struct discord_md_ping p = { .user = "111222333444555666", .name = "Ann" };

	(void)state;
	/* the player's span becomes the mention, once */
	assert_string_equal(md(ST_PLAYER "Ann" ST_END ": your turn. " ST_PLAYER "Ann" ST_END, &p),
	                    "<@111222333444555666>: your turn. **Ann**");
	/* another player's span is left as a name */
	assert_string_equal(md(ST_PLAYER "Bob" ST_END ": your turn.", &p), "**Bob**: your turn.");
}

struct got {
	char piece[8][4096];
	size_t n;
};

static void
take(void *ctx, const char *s, size_t n)
{
	struct got *g = ctx;

	assert_true(g->n < 8);
	assert_true(n < sizeof g->piece[0]);
	memcpy(g->piece[g->n], s, n);
	g->piece[g->n][n] = '\0';
	g->n++;
}

static void
test_split_under_2000_and_ping_kept(void **state)
{
	struct discord_md_ping p = { .user = "111222333444555666", .name = "Zed" };
	struct rbuf b = { 0 };
	struct got g = { .n = 0 };
	size_t total = 0;

	(void)state;
	/* 300 lines of escapes and four-byte characters: several messages, each under 2000 characters */
	for (int i = 0; i < 300; i++)
		rbuf_printf(&b, ST_PLAYER "A_%d" ST_END " holds \xf0\x9f\x82\xa1 (*) and " ST_COMMAND "draw" ST_END "\n", i);
	rbuf_add(&b, ST_PLAYER "Bob" ST_END ": your turn.");
	assert_true(discord_markdown_split(b.s, b.len, &p, take, &g) >= 3);
	for (size_t i = 0; i < g.n; i++) {
		size_t len = strlen(g.piece[i]);

		assert_true(discord_text_units(g.piece[i], len) <= DISCORD_MAX_CONTENT);
		/* never cut inside a line here: each piece ends at a line's end */
		assert_true(len > 0 && g.piece[i][len - 1] != '\n');
		total += len;
	}
	assert_true(total > 3 * 2000);
	/* Zed's name was never in the message: the ping is at the end of the last piece */
	assert_non_null(strstr(g.piece[g.n - 1], "your turn. <@111222333444555666>"));
	for (size_t i = 0; i + 1 < g.n; i++)
		assert_null(strstr(g.piece[i], "<@"));
	rbuf_free(&b);

	/* the name was there: no second mention */
	memset(&g, 0, sizeof g);
	assert_int_equal(discord_markdown_split(ST_PLAYER "Zed" ST_END ": go.", 10, &p, take, &g), 1);
	assert_string_equal(g.piece[0], "<@111222333444555666>: go.");
	/* nothing but marks: nothing to send */
	memset(&g, 0, sizeof g);
	assert_int_equal(discord_markdown_split(ST_BOLD ST_END "\n", 3, NULL, take, &g), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_text_is_escaped),
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_split_under_2000_and_ping_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
