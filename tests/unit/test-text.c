/* test-text.c: input hygiene, line splitting, the flood limiter and command lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon.h"
#include "siphash.h"

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

/* The set a user's slot is in, as flood.c finds it under key. */
static unsigned
flood_set_of(const uint8_t *key, const char *adapter, const char *user)
{
	struct siphash h;

	siphash_init(&h, key);
	siphash_add(&h, adapter, strlen(adapter) + 1);
	siphash_add(&h, user, strlen(user));
	return (unsigned)((siphash_end(&h) | 1) % (FLOOD_SLOTS / FLOOD_WAYS));
}

/* Ids that share alice's set (found here because the test knows the key)
 * drain their buckets, take her slot and rotate: she is never handed a
 * drained bucket or a warning of theirs.  Once, five such ids made all of
 * a player's commands vanish without a word (issue 24). */
static void
test_flood_takeover_is_fresh(void **state)
{
	static struct flood f;
	uint8_t key[FLOOD_KEY_LEN] = { 7, 1, 2 };
	char nick[32], ids[5][32];
	int n = 0;

	(void)state;
	flood_init(&f, key);
	for (int i = 0; n < 5; i++) {
		snprintf(nick, sizeof nick, "m%d", i);
		if (flood_set_of(key, "irc", nick) == flood_set_of(key, "irc", "alice"))
			snprintf(ids[n++], sizeof ids[0], "%s", nick);
	}
	assert_int_equal(flood_check(&f, "irc", "alice", 1000, 5, 2000), FLOOD_OK);
	for (int round = 0; round < 8; round++) {
		for (int k = 0; k < 5; k++)
			for (int i = 0; i < 7; i++)
				flood_check(&f, "irc", ids[k], 1001 + round, 5, 2000);
		assert_int_equal(flood_check(&f, "irc", "alice", 1001 + round, 5, 2000), FLOOD_OK);
	}
}

/* The key decides the sets: ids that share one under a key are spread
 * under another, so ids computed offline collide by chance only. */
static void
test_flood_key_spreads(void **state)
{
	uint8_t a[FLOOD_KEY_LEN] = { 1 }, b[FLOOD_KEY_LEN] = { 2 };
	char nick[32];
	int same = 0, found = 0;

	(void)state;
	for (int i = 0; found < 50; i++) {
		snprintf(nick, sizeof nick, "m%d", i);
		if (flood_set_of(a, "irc", nick) != flood_set_of(a, "irc", "alice"))
			continue;
		found++;
		same += flood_set_of(b, "irc", nick) == flood_set_of(b, "irc", "alice");
	}
	assert_true(same <= 2);
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
		cmocka_unit_test(test_flood_takeover_is_fresh),
		cmocka_unit_test(test_flood_key_spreads),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_every_command_has_alias),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
