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
		switch (flood_check(&f, "irc", "bob", 1000, 5, 2000)) {
		case FLOOD_OK: ok++; break;
		case FLOOD_WARN: warn++; break;
		case FLOOD_DROP: drop++; break;
		}
	assert_int_equal(ok, 5);
	assert_int_equal(warn, 1);
	assert_int_equal(drop, 14);
	/* someone else is not slowed down */
	assert_int_equal(flood_check(&f, "irc", "carol", 1000, 5, 2000), FLOOD_OK);
	/* tokens come back with time */
	assert_int_equal(flood_check(&f, "irc", "bob", 3100, 5, 2000), FLOOD_OK);
}

/* A user's allowance is one, whatever the room: bob flooding two rooms gets
 * one burst, not one per room. */
static void
test_flood_across_rooms(void **state)
{
	static struct flood f;
	int ok = 0, i;

	(void)state;
	for (i = 0; i < 20; i++)
		ok += flood_check(&f, "irc", "bob", 1000, 5, 2000) == FLOOD_OK;
	for (i = 0; i < 20; i++)
		ok += flood_check(&f, "irc", "bob", 1000, 5, 2000) == FLOOD_OK;
	assert_int_equal(ok, 5);
}

/* A nick whose slot collides with a flooder's must not hand the flooder a
 * fresh bucket: that let two crafted nicks alternate without any limit.
 * Many nicks are tried beside a flooder whose bucket is empty (thousands:
 * the table has 4096 slots, so some collide with it); at one instant no
 * token comes back, so the flooder must get nothing more, whoever else
 * speaks. */
static void
test_flood_collision(void **state)
{
	static struct flood f;
	char nick[32];
	int i, extra = 0;

	(void)state;
	for (i = 0; i < 6; i++)
		flood_check(&f, "irc", "mallory", 1000, 5, 2000);
	for (i = 0; i < 40000; i++) {
		snprintf(nick, sizeof nick, "m%d", i);
		flood_check(&f, "irc", nick, 1000, 5, 2000);
		extra += flood_check(&f, "irc", "mallory", 1000, 5, 2000) == FLOOD_OK;
	}
	assert_int_equal(extra, 0);
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
	/* the command as a command: shown with the room's prefix ("!draw"), !help named with it */
	assert_non_null(strstr(why, "did you mean " ST_COMMAND "draw" ST_END "? (" ST_COMMAND "help" ST_END));
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
		cmocka_unit_test(test_flood_across_rooms),
		cmocka_unit_test(test_flood_collision),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_every_command_has_alias),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
