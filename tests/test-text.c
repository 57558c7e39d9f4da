/* test-text.c: input hygiene, line splitting, the flood limiter and command lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bot.h"

static void
test_clean(void **state)
{
	char s[64];

	(void)state;
	strcpy(s, "dr\raw\n\x03" "04x\x01");
	assert_int_equal(text_clean(s), 7);
	assert_string_equal(s, "draw04x");
	strcpy(s, "a\xff\xc3(b\xe2\x80\xaeok");
	text_clean(s);
	assert_string_equal(s, "a?" "?(bok");
	/* tabs read as spaces; C1 controls, separators and isolates go */
	strcpy(s, "a\tb\xc2\x85" "c\xe2\x80\xa8" "d\xe2\x81\xa6" "e");
	text_clean(s);
	assert_string_equal(s, "a bcde");
}

static void
test_flood(void **state)
{
	static struct flood f;
	int ok = 0, warn = 0, drop = 0, i;

	(void)state;
	for (i = 0; i < 20; i++)
		switch (flood_check(&f, "irc", "#a", "bob", 1000, 5, 2000)) {
		case FLOOD_OK: ok++; break;
		case FLOOD_WARN: warn++; break;
		case FLOOD_DROP: drop++; break;
		}
	assert_int_equal(ok, 5);
	assert_int_equal(warn, 1);
	assert_int_equal(drop, 14);
	/* someone else is not slowed down */
	assert_int_equal(flood_check(&f, "irc", "#a", "carol", 1000, 5, 2000), FLOOD_OK);
	/* tokens come back with time */
	assert_int_equal(flood_check(&f, "irc", "#a", "bob", 3100, 5, 2000), FLOOD_OK);
}

static void
test_lookup(void **state)
{
	char why[256];

	(void)state;
	assert_string_equal(cmd_find("draw", why, sizeof why)->name, "draw");
	assert_string_equal(cmd_find("D", why, sizeof why)->name, "draw");
	assert_string_equal(cmd_find("disc", why, sizeof why)->name, "discard");
	assert_null(cmd_find("s", why, sizeof why));
	assert_non_null(strstr(why, "ambiguous"));
	assert_null(cmd_find("drwa", why, sizeof why));
	assert_non_null(strstr(why, "did you mean draw"));
}

static void
test_every_command_has_alias(void **state)
{
	const struct cmd_entry *const *t;
	size_t n, i, j;

	(void)state;
	t = cmd_table(&n);
	for (i = 0; i < n; i++) {
		assert_non_null(t[i]->alias);
		assert_true(strlen(t[i]->alias) < strlen(t[i]->name) || strlen(t[i]->alias) <= 2);
		for (j = 0; j < n; j++)
			if (i != j) {
				assert_string_not_equal(t[i]->alias, t[j]->alias);
				assert_string_not_equal(t[i]->alias, t[j]->name);
			}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_every_command_has_alias),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
