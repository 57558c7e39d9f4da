/* test-utf8.c: lib/utf8.c, the one decoder and the one boundary cut every floor uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "utf8.h"

static void
test_decode(void **state)
{
	static const struct {
		const char *s;
		size_t n, len;
		uint32_t cp;
	} cases[] = {
		{ "A", 1, 1, 'A' },
		{ "\xc3\xa9", 2, 2, 0xe9 },
		{ "\xe2\x99\xa3", 3, 3, 0x2663 },
		{ "\xf0\x9f\x82\xa1", 4, 4, 0x1f0a1 },
		{ "\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff },
		{ "\x80", 1, 0, 0 },                 /* a stray continuation byte */
		{ "\xc0\xaf", 2, 0, 0 },             /* overlong '/' */
		{ "\xe0\x80\xaf", 3, 0, 0 },         /* overlong, three bytes */
		{ "\xed\xa0\x80", 3, 0, 0 },         /* a UTF-16 surrogate */
		{ "\xf4\x90\x80\x80", 4, 0, 0 },     /* past U+10FFFF */
		{ "\xe2\x99", 2, 0, 0 },             /* cut short */
		{ "\xe2\x99\xa3", 2, 0, 0 },         /* cut short by n */
		{ "\xc3(", 2, 0, 0 },                /* a bad continuation */
		{ "\xff", 1, 0, 0 },
	};
	uint32_t cp;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cp = 0;
		assert_int_equal(utf8_decode(cases[i].s, cases[i].n, &cp), cases[i].len);
		if (cases[i].len > 0)
			assert_int_equal(cp, cases[i].cp);
	}
	assert_int_equal(utf8_decode("x", 0, NULL), 0);
	assert_true(utf8_valid("caf\xc3\xa9 \xe2\x99\xa3", 9));
	assert_false(utf8_valid("caf\xc3", 4));
	assert_true(utf8_valid("", 0));
}

static void
test_cut(void **state)
{
	const char *s = "aaa bbb ccc ddd";
	const char *u = "\xe2\x99\xa3\xe2\x99\xa3\xe2\x99\xa3";   /* three 3-byte clubs */

	(void)state;
	assert_int_equal(utf8_cut(s, strlen(s), 100), strlen(s));
	assert_int_equal(utf8_cut(u, 9, 7), 6);                 /* never mid-character */
	assert_int_equal(utf8_cut(u, 9, 4), 3);
	assert_int_equal(utf8_cut(u, 9, 2), 0);                 /* not even one character fits */
	assert_int_equal(utf8_cut("abcdefghij", 10, 4), 4);
	/* not UTF-8 at all: a cut anywhere splits no character */
	assert_int_equal(utf8_cut("\x80\x80\x80\x80\x80\x80", 6, 5), 5);
	assert_int_equal(utf8_cut_word(s, strlen(s), 100), strlen(s));
	assert_int_equal(utf8_cut_word(s, strlen(s), 10), 7);   /* at the space before "ccc" */
	assert_int_equal(utf8_cut_word("abcdefghij", 10, 4), 4); /* no space: a hard cut */
	assert_int_equal(utf8_cut_word(u, 9, 7), 6);
}

/* Every piece fits, is valid UTF-8, and the pieces add up. */
static void
test_cut_all(void **state)
{
	char text[2000];
	size_t len = 0, off = 0, total = 0;

	(void)state;
	while (len + 8 < sizeof text) {
		memcpy(text + len, "\xe2\x99\xa3" "K" "\xc3\xa9 ", 7);
		len += 7;
	}
	while (off < len) {
		size_t n = utf8_cut_word(text + off, len - off, 97);

		assert_true(n > 0 && n <= 97);
		assert_true(utf8_valid(text + off, n));
		off += n;
		total += n;
	}
	assert_int_equal(total, len);
}

static void
test_hostile(void **state)
{
	(void)state;
	assert_true(utf8_hostile('\n'));
	assert_true(utf8_hostile(0x01));
	assert_true(utf8_hostile(0x7f));
	assert_true(utf8_hostile(0x85));
	assert_true(utf8_hostile(0x2028));
	assert_true(utf8_hostile(0x202e));
	assert_true(utf8_hostile(0x2066));
	assert_false(utf8_hostile(' '));
	assert_false(utf8_hostile(0xa0));
	assert_false(utf8_hostile(0x2663));
	assert_false(utf8_hostile(0xd7));
}

static void
test_clean(void **state)
{
	char out[32];
	/* bad UTF-8 dropped, overlong '/' dropped, CR/LF and C1 turned to spaces, bidi override gone */
	static const char in[] = "  a\xff" "b\xc0\xaf\r\n\xc2\x85" "c\xe2\x80\xae" "d\xe2\x82\xac ";

	(void)state;
	assert_int_equal(utf8_clean(in, sizeof in - 1, out, sizeof out, 31), strlen("ab c d\xe2\x82\xac"));
	assert_string_equal(out, "ab c d\xe2\x82\xac");
	/* cut on a character boundary */
	assert_int_equal(utf8_clean("ab\xe2\x82\xac", 5, out, sizeof out, 4), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(utf8_clean("xyz", 3, out, 3, 10), 2);
	/* a NUL ends the text; runs of spaces and tabs are one space; in place */
	assert_int_equal(utf8_clean("a\0b", 3, out, sizeof out, 31), 1);
	memcpy(out, " x \t\t y  ", 10);
	assert_int_equal(utf8_clean(out, 9, out, sizeof out, 31), 3);
	assert_string_equal(out, "x y");
	/* a character cut by max is never half kept, nor the space before it */
	assert_int_equal(utf8_clean("ab \xc3\xa9", 5, out, sizeof out, 4), 2);
	assert_string_equal(out, "ab");
}

static void
test_repair(void **state)
{
	char s[64];

	(void)state;
	/* what "%.4s" makes of "ab♣": a character cut in two */
	snprintf(s, sizeof s, "%.4s!", "ab\xe2\x99\xa3");
	assert_int_equal(utf8_repair(s), 3);
	assert_string_equal(s, "ab!");
	strcpy(s, "\xffok\xc3\xa9\x80");
	assert_int_equal(utf8_repair(s), 4);
	assert_string_equal(s, "ok\xc3\xa9");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_cut_all),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_repair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
