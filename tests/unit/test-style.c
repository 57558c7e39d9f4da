/* test-style.c: lib/style.c: the styled markup walked, encoded plain, checked, and cut to a budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "style.h"
#include "utf8.h"

/* ---- a test encoder: the plain text, each role shown as <N>...</N> */

static void
tag_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	(void)roles;
	(void)depth;
	rbuf_addn(ctx, s, n);
}

static void
tag_open(void *ctx, enum style_role r)
{
	rbuf_printf(ctx, "<%d>", (int)r);
}

static void
tag_close(void *ctx, enum style_role r)
{
	rbuf_printf(ctx, "</%d>", (int)r);
}

static void
tag_line(void *ctx)
{
	rbuf_add(ctx, "|");
}

static const char *
tags(struct rbuf *out, const char *m)
{
	struct style_sink k = { .ctx = out, .text = tag_text, .open = tag_open, .close = tag_close, .line = tag_line };

	rbuf_reset(out);
	rbuf_addn(out, "", 0);
	style_walk(m, strlen(m), &k);
	return out->s;
}

static void
test_walk(void **state)
{
	struct rbuf b = { 0 };

	(void)state;
	/* nested roles, closed innermost first */
	assert_string_equal(tags(&b, "a " ST_BOLD "b " ST_RED "c" ST_END " d" ST_END " e"), "a <1>b <6>c</6> d</1> e");
	/* a line break closes every role; the next line starts plain */
	assert_string_equal(tags(&b, ST_BOLD "x" ST_BR "y"), "<1>x</1>|y");
	/* roles left open close at the end; a stray end and other controls are skipped */
	assert_string_equal(tags(&b, ST_END "a\r\t" ST_CLEAN "b"), "a<4>b</4>");
	/* past the depth limit a role and its end are skipped, so the rest pairs up */
	{
		char deep[64] = "";
		for (int i = 0; i < STYLE_MAX_DEPTH + 2; i++)
			strcat(deep, ST_BOLD);
		strcat(deep, "x" ST_END ST_END ST_END "y");
		tags(&b, deep);
		assert_non_null(strstr(b.s, "x</1>y"));
	}
	rbuf_free(&b);
}

static void
test_look(void **state)
{
	enum style_role st[] = { STYLE_BOLD, STYLE_CLEAN, STYLE_PLAYER, STYLE_DIRTY, STYLE_CARD };
	struct style_look k;

	(void)state;
	k = style_look(st, 5);
	assert_true(k.bold);
	assert_int_equal(k.colour, STYLE_DIRTY);   /* the innermost colour wins: dirty shows dark */
	k = style_look(st + 2, 1);
	assert_false(k.bold);
	assert_int_equal(k.colour, 0);
}

static void
test_plain(void **state)
{
	struct rbuf b = { 0 };
	const char *m = "Open one with " ST_COMMAND "new" ST_END ", then " ST_BOLD ST_COMMAND "join" ST_END ST_END "."
	                ST_BR ST_CARD ST_RED "3♥" ST_END ST_END " is red.";

	(void)state;
	style_plain(&b, m, strlen(m), "!");
	assert_string_equal(b.s, "Open one with !new, then !join.\n3♥ is red.");
	rbuf_reset(&b);
	style_plain(&b, m, strlen(m), "/");
	assert_non_null(strstr(b.s, "with /new, then /join."));
	rbuf_reset(&b);
	style_plain(&b, m, strlen(m), "");
	assert_non_null(strstr(b.s, "with new, then join."));
	rbuf_reset(&b);
	style_plain(&b, "", 0, "!");
	assert_string_equal(b.s, "");
	rbuf_free(&b);
}

static void
test_valid(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_true(style_valid(ST_BOLD "a" ST_RED "b" ST_END ST_END ST_BR "c", 8, NULL));
	assert_true(style_valid(ST_BOLD "left open", 10, NULL));
	assert_false(style_valid("a" ST_END, 2, &why));
	assert_non_null(strstr(why, "no role open"));
	assert_false(style_valid("a\r", 2, &why));
	assert_non_null(strstr(why, "control"));
	assert_false(style_valid("a\t", 2, &why));
	assert_false(style_valid("\xc2\x85", 2, &why));          /* a C1 control */
	assert_false(style_valid("\xe2\x80\xae", 3, &why));      /* a bidi override */
	assert_false(style_valid("caf\xc3", 4, &why));
	assert_non_null(strstr(why, "UTF-8"));
	{
		char deep[32] = "";
		for (int i = 0; i <= STYLE_MAX_DEPTH; i++)
			strcat(deep, ST_BOLD);
		assert_false(style_valid(deep, strlen(deep), &why));
	}
}

/* ---- cutting: pieces collected, encoded plain with "!" */

struct pieces {
	char s[32][256];
	int n;
	style_encode_fn *enc;        /* the encoder used, to check the encoding handed over */
};

static void
enc_plain(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	(void)ctx;
	style_plain(out, m, len, "!");
}

/* An encoder where each role costs: the splitter must count marks as the encoder does. */
static void
enc_tags(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct style_sink k = { .ctx = out, .text = tag_text, .open = tag_open, .close = tag_close, .line = tag_line };

	(void)ctx;
	rbuf_addn(out, "", 0);
	style_walk(m, len, &k);
}

static void
collect(void *ctx, const char *m, size_t len, const char *enc, size_t enclen)
{
	struct pieces *p = ctx;

	/* the encoding handed over is the piece's own */
	assert_true(enclen == strlen(enc));
	if (p->enc != NULL) {
		struct rbuf b = { 0 };

		p->enc(NULL, &b, m, len);
		assert_string_equal(b.s, enc);
		rbuf_free(&b);
	}

	assert_true(p->n < 32);
	assert_true(len < sizeof p->s[0]);
	memcpy(p->s[p->n], m, len);
	p->s[p->n][len] = '\0';
	assert_true(style_valid(m, len, NULL));
	p->n++;
}

static const char *
plain_of(const char *m)
{
	static struct rbuf b;

	rbuf_reset(&b);
	style_plain(&b, m, strlen(m), "!");
	return b.s;
}

static void
test_split_words(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_plain };
	const char *m = "alpha beta gamma delta epsilon zeta eta theta";

	(void)state;
	style_split(m, strlen(m), 20, true, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.s[0], "alpha beta gamma");
	assert_string_equal(p.s[1], "delta epsilon zeta");
	assert_string_equal(p.s[2], "eta theta");
	/* a line that fits is one piece, as it is */
	p.n = 0;
	style_split("short", 5, 400, true, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.s[0], "short");
}

/* A line too long is cut after its last clause mark (" · ") that fits in
 * the second half: the prompt at a turn line's end goes whole to the next
 * line, never "(!draw or" / "!pickup)". */
static void
test_split_clauses(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_plain };
	const char *m = "Ada drew 2 cards, discarded 7 · pile 7, 1 card · stock 231 · "
	                ST_PLAYER "alice" ST_END ": your turn (" ST_COMMAND "draw" ST_END " or " ST_COMMAND "pickup"
	                ST_END ")";

	(void)state;
	/* the budget ends inside the prompt, after "or" */
	style_split(m, strlen(m), 88, true, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 2);
	assert_string_equal(plain_of(p.s[0]), "Ada drew 2 cards, discarded 7 · pile 7, 1 card · stock 231 ·");
	assert_string_equal(plain_of(p.s[1]), "alice: your turn (!draw or !pickup)");
	/* a clause mark in the first half only: at a space, as before */
	p.n = 0;
	m = "a · bravo charlie delta echo foxtrot golf hotel";
	style_split(m, strlen(m), 30, true, enc_plain, NULL, collect, &p);
	assert_string_equal(p.s[0], "a · bravo charlie delta echo");
	assert_string_equal(p.s[1], "foxtrot golf hotel");
}

/* A role open at a cut is closed at the end of one piece and opened again on the next. */
static void
test_split_reopens(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_tags };
	struct rbuf b = { 0 };
	const char *m = "alpha " ST_CLEAN "beta gamma delta epsilon" ST_END " zeta";
	int i;

	(void)state;
	style_split(m, strlen(m), 24, true, enc_tags, NULL, collect, &p);
	assert_true(p.n >= 2);
	for (i = 0; i < p.n; i++) {
		rbuf_reset(&b);
		enc_tags(NULL, &b, p.s[i], strlen(p.s[i]));
		assert_true(b.len <= 24);
	}
	assert_string_equal(p.s[0], "alpha " ST_CLEAN "beta gamma" ST_END);
	assert_string_equal(p.s[1], ST_CLEAN "delta epsilon" ST_END);
	/* read together, the pieces say what the whole said */
	rbuf_reset(&b);
	for (i = 0; i < p.n; i++)
		rbuf_printf(&b, "%s%s", i ? " " : "", plain_of(p.s[i]));
	assert_string_equal(b.s, "alpha beta gamma delta epsilon zeta");
	rbuf_free(&b);
}

/* Never inside a character; never inside a command, whose prefix would come twice. */
static void
test_split_boundaries(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_plain };
	const char *u = "♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣♣";   /* 60 bytes, no space */
	const char *c = "xxxxxxxxxxxxx " ST_COMMAND "discard" ST_END " now";

	(void)state;
	style_split(u, strlen(u), 16, true, enc_plain, NULL, collect, &p);
	for (int i = 0; i < p.n; i++) {
		assert_true(strlen(p.s[i]) <= 16);
		assert_true(utf8_valid(p.s[i], strlen(p.s[i])));
		assert_true(strlen(p.s[i]) % 3 == 0);
	}
	assert_int_equal(p.n, 4);
	p.n = 0;
	style_split(c, strlen(c), 18, true, enc_plain, NULL, collect, &p);
	assert_string_equal(plain_of(p.s[0]), "xxxxxxxxxxxxx");
	assert_string_equal(plain_of(p.s[1]), "!discard now");
}

/* With lines, each line is its own piece; without, line breaks stay inside
 * and a piece too long is cut at its last line break first. */
static void
test_split_lines(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_plain };
	const char *m = ST_BOLD "Round 1 scored" ST_END ": ann +90" ST_BR "ann: going out +100" ST_BR ST_BR
	                "bob: cards melded +45";

	(void)state;
	style_split(m, strlen(m), 400, true, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 3);                       /* the empty line is skipped */
	assert_string_equal(plain_of(p.s[1]), "ann: going out +100");
	p.n = 0;
	style_split(m, strlen(m), 400, false, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(plain_of(p.s[0]), "Round 1 scored: ann +90\nann: going out +100\n\nbob: cards melded +45");
	p.n = 0;
	style_split(m, strlen(m), 50, false, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 2);
	assert_string_equal(plain_of(p.s[0]), "Round 1 scored: ann +90\nann: going out +100");
	assert_string_equal(plain_of(p.s[1]), "bob: cards melded +45");
}

/* A part break is a line break for everything but style_pack, which joins
 * parts into as few lines as fit a budget, a joiner between them; a line
 * break stays one, and a part too long stays alone for style_split. */
static void
test_pack(void **state)
{
	struct pieces p = { .n = 0, .enc = enc_plain };
	struct rbuf out = { 0 }, b = { 0 };
	const char *m = ST_PLAYER "ann" ST_END " drew 2 cards" ST_SEP ST_PLAYER "bob" ST_END " took the pile" ST_SEP
	                "cat passed" ST_BR "Round 2" ST_SEP "dan drew";

	(void)state;
	assert_true(style_valid(m, strlen(m), NULL));
	assert_string_equal(tags(&b, "a" ST_BOLD "b" ST_SEP "c"), "a<1>b</1>|c");
	assert_string_equal(plain_of(m), "ann drew 2 cards\nbob took the pile\ncat passed\nRound 2\ndan drew");
	/* the budget takes two parts, not three; the line break is kept */
	style_pack(&out, m, strlen(m), 40, " | ", enc_plain, NULL);
	assert_string_equal(plain_of(out.s), "ann drew 2 cards | bob took the pile\ncat passed\nRound 2 | dan drew");
	style_split(out.s, out.len, 40, true, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 3);
	/* a role open at a part break is closed before the joiner */
	rbuf_reset(&out);
	style_pack(&out, ST_BOLD "a" ST_SEP "b", strlen(ST_BOLD "a" ST_SEP "b"), 40, " | ", enc_plain, NULL);
	assert_string_equal(tags(&b, out.s), "<1>a</1> | b");
	/* nothing fits together: each part its own line */
	rbuf_reset(&out);
	style_pack(&out, m, strlen(m), 16, " | ", enc_plain, NULL);
	assert_string_equal(plain_of(out.s), "ann drew 2 cards\nbob took the pile\ncat passed\nRound 2\ndan drew");
	/* without lines, style_split keeps parts in one piece as line breaks */
	p.n = 0;
	style_split(m, strlen(m), 400, false, enc_plain, NULL, collect, &p);
	assert_int_equal(p.n, 1);
	rbuf_free(&out);
	rbuf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_look),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_split_clauses),
		cmocka_unit_test(test_split_reopens),
		cmocka_unit_test(test_split_boundaries),
		cmocka_unit_test(test_split_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
