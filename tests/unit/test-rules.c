/* test-rules.c: presets as data, house rules by key, formatting and describing rules, table checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

static void presets_by_name(void **state)
{
	(void)state;
	const char *const *names = hf_preset_names();
	int n = 0;
	for (; names[n]; n++) {
		const struct hf_rules *r = hf_preset(names[n]);
		assert_non_null(r);
		assert_string_equal(r->name, names[n]);
	}
	assert_int_equal(n, 5);
	assert_null(hf_preset("canasta"));
	assert_non_null(hf_preset("CLASSIC"));
	assert_int_equal(hf_preset("classic")->pickup_count, 6);
	assert_int_equal(hf_preset("sevens")->sevens_bonus, 5000);
	assert_int_equal(hf_preset("family")->red3_mode, HF_RED3_BOOK);
	assert_int_equal(hf_preset("pcio")->wild_limit, HF_WILDS_HALF);
	assert_int_equal(hf_preset("duel")->stock_out, HF_STOCK_OUT_TURN_PILE);
}

static void house_rules_set_and_refuse(void **state)
{
	(void)state;
	struct hf_rules r = *hf_preset("classic"), before;
	char why[HF_ERRLEN];
	assert_int_equal(hf_rules_set(&r, "pickup=all", why, sizeof why), HF_OK);
	assert_int_equal(r.pickup_count, 0);
	assert_int_equal(hf_rules_set(&r, "frozen=no", why, sizeof why), HF_OK);
	assert_false(r.freeze_on_two);
	assert_int_equal(hf_rules_set(&r, "open=50,80", why, sizeof why), HF_OK);
	assert_int_equal(r.open_min[1], 80);
	assert_int_equal(r.open_min[3], 80);
	assert_int_equal(hf_rules_set(&r, "min4=200", why, sizeof why), HF_OK);
	assert_int_equal(r.open_min[3], 200);
	assert_int_equal(hf_rules_set(&r, "wild_limit=half", why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_set(&r, "red3=book", why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_set(&r, "joker=25", why, sizeof why), HF_OK);
	assert_int_equal(r.value[HF_JOKER], 25);
	assert_int_equal(hf_rules_set(&r, "blocked=black3,wild", why, sizeof why), HF_OK);
	assert_int_equal(r.pickup_blocked_by, HF_BLOCK_BLACK3 | HF_BLOCK_WILD);
	assert_int_equal(hf_rules_set(&r, "final_discard=required", why, sizeof why), HF_OK);
	assert_true(r.final_discard_required);
	before = r;
	assert_int_equal(hf_rules_set(&r, "pickup=30", why, sizeof why), HF_E_RULES);
	assert_string_equal(why, "pickup must be all or 1-20, not 30");
	assert_int_equal(hf_rules_set(&r, "frozen=maybe", why, sizeof why), HF_E_RULES);
	assert_string_equal(why, "frozen must be yes or no, not maybe");
	assert_int_equal(hf_rules_set(&r, "wild_limit=many", why, sizeof why), HF_E_RULES);
	assert_string_equal(why, "wild_limit must be fewer|half|equal|any, not many");
	assert_int_equal(hf_rules_set(&r, "colour=red", why, sizeof why), HF_E_RULES);
	assert_non_null(strstr(why, "the keys are: players partners decks hand"));
	assert_int_equal(hf_rules_set(&r, "open=50,x", why, sizeof why), HF_E_RULES);
	assert_int_equal(hf_rules_set(&r, "decks=9", why, sizeof why), HF_E_RULES);
	assert_int_equal(hf_rules_set(&r, "noequals", why, sizeof why), HF_E_RULES);
	assert_memory_equal(&r, &before, sizeof r);
}

static void every_key_listed_and_round_trips(void **state)
{
	(void)state;
	size_t n;
	const struct hf_rule_key *k = hf_rule_keys(&n);
	assert_true(n >= 60);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(k[i].key);
		assert_true(strlen(k[i].help) > 5);
	}
	/* format parses back to the same rules */
	const char *texts[] = { "classic", "sevens pickup=7 frozen=yes", "family decks=4 red3=bonus",
	                        "pcio open=60,90,120,150 wild_limit=fewer", "duel hand_cap=40 target=5000",
	                        "classic partners=no players=2-6 decks=3", "sevens open_at=0,10000,20000" };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct hf_rules a, b;
		char why[HF_ERRLEN], buf[512];
		assert_int_equal(hf_rules_parse(&a, texts[i], why, sizeof why), HF_OK);
		size_t len = hf_rules_format(&a, buf, sizeof buf);
		assert_true(len < sizeof buf);
		if (hf_rules_parse(&b, buf, why, sizeof why) != HF_OK)
			fail_msg("%s -> %s: %s", texts[i], buf, why);
		if (memcmp(&a, &b, sizeof a) != 0)
			fail_msg("%s -> %s does not round trip", texts[i], buf);
	}
	struct hf_rules r;
	char why[HF_ERRLEN], buf[256];
	assert_int_equal(hf_rules_parse(&r, "duel", why, sizeof why), HF_OK);
	hf_rules_format(&r, buf, sizeof buf);
	assert_string_equal(buf, "duel");
	assert_int_equal(hf_rules_parse(&r, "", why, sizeof why), HF_OK);
	assert_string_equal(r.name, "classic");
	assert_int_equal(hf_rules_parse(&r, "poker", why, sizeof why), HF_E_RULES);
	assert_non_null(strstr(why, "classic, sevens, family, pcio or duel"));
}

static void tables_and_description(void **state)
{
	(void)state;
	char why[HF_ERRLEN], buf[2048];
	assert_int_equal(hf_rules_check_table(hf_preset("classic"), 5, 0, why, sizeof why), HF_E_RULES);
	assert_int_equal(hf_rules_check_table(hf_preset("classic"), 6, 0, why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_check_table(hf_preset("classic"), 6, 3, why, sizeof why), HF_E_RULES);
	assert_string_equal(why, "with 6 players classic allows 2 sides, not 3");
	assert_int_equal(hf_rules_check_table(hf_preset("family"), 6, 3, why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_check_table(hf_preset("duel"), 3, 0, why, sizeof why), HF_E_RULES);
	assert_int_equal(hf_rules_check_table(hf_preset("pcio"), 4, 2, why, sizeof why), HF_OK);
	struct hf_rules r = *hf_preset("classic");
	assert_int_equal(hf_rules_set(&r, "hand=30", why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_set(&r, "foot=30", why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_set(&r, "decks=1", why, sizeof why), HF_OK);
	assert_int_equal(hf_rules_check_table(&r, 4, 0, why, sizeof why), HF_E_RULES);
	size_t n = hf_rules_describe(hf_preset("sevens"), 4, buf, sizeof buf);
	assert_true(n > 100 && n < sizeof buf);
	assert_non_null(strstr(buf, "opening meld by score: 50; 90 from 15000; 120 from 30000"));
	assert_non_null(strstr(buf, "sevens 5000"));
	/* describe truncates safely and reports the full length */
	char small[16];
	assert_int_equal(hf_rules_describe(hf_preset("sevens"), 4, small, sizeof small), n);
	assert_int_equal(strlen(small), 15);
}

static void the_engine_never_names_a_preset(void **state)
{
	(void)state;
	/* A preset is only its values: a classic table with sevens' values plays as sevens. */
	struct hf_rules r = *hf_preset("sevens");
	snprintf(r.name, sizeof r.name, "classic");
	struct hf_game *a = NULL, *b = NULL;
	char why[HF_ERRLEN];
	assert_int_equal(hf_game_new(&a, &r, 4, 0, 5, why, sizeof why), HF_OK);
	assert_int_equal(hf_game_new(&b, hf_preset("sevens"), 4, 0, 5, why, sizeof why), HF_OK);
	assert_int_equal(a->nstock, b->nstock);
	assert_memory_equal(a->stock, b->stock, sizeof a->stock);
	assert_int_equal(a->turn, b->turn);
	hf_game_free(a);
	hf_game_free(b);
}

/* True if s is valid UTF-8 (no overlong forms, no surrogates). */
static bool utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 0;
		if (n == 0 || (n == 2 && *p < 0xc2))
			return false;
		for (int i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return false;
		p += n;
	}
	return true;
}

/* Refusals quote what was typed, cut short: the cut never splits a character
 * (the fuzzer found "no preset" splitting an 'é' at its 20-byte cut). */
static void refusals_quote_whole_characters(void **state)
{
	struct hf_rules r;
	struct hf_action a;
	char why[HF_ERRLEN], text[256];
	(void)state;
	for (int pad = 0; pad < 4; pad++) {
		/* pad ASCII bytes, then 'é's and '€'s straddling every cut */
		int n = snprintf(text, sizeof text, "%.*s", pad, "xyz");
		for (int i = 0; i < 30; i++)
			n += snprintf(text + n, sizeof text - (size_t)n, i % 2 ? "\xc3\xa9" : "\xe2\x82\xac");
		assert_int_not_equal(hf_rules_parse(&r, text, why, sizeof why), HF_OK);
		assert_true(utf8_valid(why));
		assert_non_null(strstr(why, "no preset"));
		char kv[300];
		snprintf(kv, sizeof kv, "%s=1", text);
		assert_int_not_equal(hf_rules_set(&r, kv, why, sizeof why), HF_OK);
		assert_true(utf8_valid(why));
		char act[300];
		snprintf(act, sizeof act, "meld %s", text);
		assert_int_not_equal(hf_action_parse(&a, act, why, sizeof why), HF_OK);
		assert_true(utf8_valid(why));
		/* a buffer too small for the sentence is cut on a character too */
		char tiny[23];
		assert_int_not_equal(hf_rules_parse(&r, text, tiny, sizeof tiny), HF_OK);
		assert_true(utf8_valid(tiny));
	}
}

/* Splits a markdown table row "| a | b |" into trimmed cells; returns their count. */
static int cells(char *line, char *cell[], int max)
{
	int n = 0;
	char *p = strchr(line, '|');
	while (p != NULL && n < max) {
		char *q = strchr(p + 1, '|');
		while (q != NULL && q[-1] == '\\')
			q = strchr(q + 1, '|');
		if (q == NULL)
			break;
		*q = '\0';
		char *a = p + 1, *b = q;
		while (*a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		*b = '\0';
		cell[n++] = a;
		p = q;
	}
	return n;
}

/* Drops the backticks and backslashes markdown needs around a table cell's text. */
static void plain(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++)
		if (*r != '`' && *r != '\\')
			*w++ = *r;
	*w = '\0';
}

/* The next row of the table under the line starting with head in f: its
 * cells (at most max) in cell, their count; -1 at the table's end or the file's. */
static int table_row(FILE *f, const char *head, bool *in, char *line, int len, char *cell[], int max)
{
	while (fgets(line, len, f) != NULL) {
		if (strncmp(line, head, strlen(head)) == 0) {
			*in = true;
			continue;
		}
		if (!*in)
			continue;
		if (line[0] != '|')
			return -1;
		return cells(line, cell, max);
	}
	return -1;
}

/* Which house-rule key doc's table names (it fails the test when the engine has none). */
static size_t key_index(const struct hf_rule_key *keys, size_t nkeys, const char *name, const char *doc)
{
	size_t k;
	for (k = 0; k < nkeys && strcmp(keys[k].key, name) != 0; k++)
		;
	if (k == nkeys)
		fail_msg("%s: no house-rule key \"%s\"", doc, name);
	return k;
}

/*
 * The documentation says what the engine does: docs/RULES.md's parameter
 * table gives every house-rule key's value in every preset, and
 * docs/PLAYING.md's house-rule table every key with its values.  (Run from the top folder, as
 * make test does.)
 */
static void docs_tables_match_the_engine(void **state)
{
	static const char *const presets[] = { "classic", "sevens", "family", "pcio", "duel" };
	size_t nkeys;
	const struct hf_rule_key *keys = hf_rule_keys(&nkeys);
	int seen_doc[128] = { 0 }, seen_readme[128] = { 0 };
	char line[1024], *cell[8], want[64];
	(void)state;
	assert_true(nkeys < 128);

	FILE *f = fopen("docs/RULES.md", "r");
	if (f == NULL)
		fail_msg("docs/RULES.md not found (run from the top folder)");
	bool in_table = false;
	int n;
	while ((n = table_row(f, "| key | classic | sevens | family | pcio | duel |", &in_table, line, sizeof line, cell,
	                      8)) >= 0) {
		if (n != 6 || strncmp(cell[0], "---", 3) == 0)
			continue;
		plain(cell[0]);
		size_t k = key_index(keys, nkeys, cell[0], "docs/RULES.md");
		seen_doc[k]++;
		for (int p = 0; p < 5; p++) {
			plain(cell[1 + p]);
			hf_rules_get(hf_preset(presets[p]), cell[0], want, sizeof want);
			if (strcmp(cell[1 + p], want) != 0)
				fail_msg("docs/RULES.md: %s in %s is %s, the engine says %s", cell[0], presets[p], cell[1 + p], want);
		}
	}
	fclose(f);

	f = fopen("docs/PLAYING.md", "r");
	assert_non_null(f);
	in_table = false;
	while ((n = table_row(f, "| key | values | meaning |", &in_table, line, sizeof line, cell, 8)) >= 0) {
		if (n != 3 || strncmp(cell[0], "---", 3) == 0)
			continue;
		plain(cell[0]);
		plain(cell[1]);
		size_t k = key_index(keys, nkeys, cell[0], "docs/PLAYING.md");
		if (strcmp(cell[1], keys[k].values) != 0)
			fail_msg("docs/PLAYING.md: %s takes %s, the engine says %s", cell[0], cell[1], keys[k].values);
		seen_readme[k]++;
	}
	fclose(f);
	for (size_t k = 0; k < nkeys; k++) {
		if (seen_doc[k] != 1)
			fail_msg("docs/RULES.md's parameter table has key %s %d times", keys[k].key, seen_doc[k]);
		if (seen_readme[k] != 1)
			fail_msg("README.md's house-rule table has key %s %d times", keys[k].key, seen_readme[k]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presets_by_name),
		cmocka_unit_test(refusals_quote_whole_characters),
		cmocka_unit_test(house_rules_set_and_refuse),
		cmocka_unit_test(every_key_listed_and_round_trips),
		cmocka_unit_test(tables_and_description),
		cmocka_unit_test(the_engine_never_names_a_preset),
		cmocka_unit_test(docs_tables_match_the_engine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
