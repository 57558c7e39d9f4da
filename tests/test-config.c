/* test-config.c: the INI configuration: defaults, errors naming file:line and key, adapter sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "adapters.h"
#include "bot.h"
#include "loop.h"

static void
test_good(void **state)
{
	char err[512];
	struct bot_config *c;

	(void)state;
	c = config_load_string("[bot]\nprefix = .\ndatabase = /tmp/x.db\nai_level = hard\nturn_timeout = 60\n"
	                       "turn_reminder = 30\n\n[console]\nroom = #t\n[irc libera]\nhost = x\n", "t.conf",
	                       err, sizeof err);
	assert_non_null(c);
	assert_string_equal(c->prefix, ".");
	assert_int_equal(c->ai_level, HF_AI_HARD);
	assert_int_equal(c->turn_timeout, 60);
	assert_int_equal(c->nsections, 2);
	assert_string_equal(c->sections[1]->type, "irc");
	assert_string_equal(c->sections[1]->name, "libera");
	assert_int_equal(c->sections[1]->line, 10);
	assert_int_equal(c->sections[1]->keys[0].line, 11);
	config_free(c);
}

static void
test_errors(void **state)
{
	char err[512];

	(void)state;
	assert_null(config_load_string("[bot]\n\nai_level = clever\n", "t.conf", err, sizeof err));
	assert_string_equal(err, "t.conf:3: [bot] ai_level: \"clever\" is not easy, normal or hard");
	assert_null(config_load_string("[bot]\nturn_timeout = soon\n", "t.conf", err, sizeof err));
	assert_non_null(strstr(err, "t.conf:2: [bot] turn_timeout"));
	assert_null(config_load_string("[bot]\ncolour = blue\n", "t.conf", err, sizeof err));
	assert_string_equal(err, "t.conf:2: [bot] colour: unknown key");
	assert_null(config_load_string("[bot]\nthis is not ini\n", "t.conf", err, sizeof err));
	assert_non_null(strstr(err, "t.conf:2:"));
	assert_null(config_load_string("[console]\n[console]\n", "t.conf", err, sizeof err));
	assert_non_null(strstr(err, "t.conf:2:"));
}

static void
test_adapter_sections(void **state)
{
	char err[512];
	struct bot_config *c;
	struct loop *l = loop_new();
	struct bot *b;
	size_t ntable;
	const struct adapter_ops *const *table = adapters_table(&ntable);

	(void)state;
	c = config_load_string("[bot]\ndatabase = :memory:\n[console]\nroom = #t\nsurprise = 1\n", "t.conf", err,
	                       sizeof err);
	b = bot_new(l, c, table, ntable);
	assert_int_equal(bot_adapter_add_all(b, err, sizeof err), -1);
	assert_string_equal(err, "t.conf:5: [console] surprise: unknown key");
	bot_free(b);
	c = config_load_string("[bot]\n[gopher x]\n", "t.conf", err, sizeof err);
	b = bot_new(l, c, table, ntable);
	assert_int_equal(bot_adapter_add_all(b, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.conf:2: [gopher x]: unknown adapter type"));
	bot_free(b);
	c = config_load_string("[bot]\n[console]\nprefix =\n", "t.conf", err, sizeof err);
	b = bot_new(l, c, table, ntable);
	assert_int_equal(bot_adapter_add_all(b, err, sizeof err), 0);
	assert_string_equal(b->adapters[0]->ad.id, "console");
	bot_free(b);
	loop_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_adapter_sections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
