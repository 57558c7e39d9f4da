/* test-config.c: the INI configuration: defaults, errors naming file:line and key, adapter sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "adapter.h"
#include "daemon.h"
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

/* Issue 15: a line over 199 bytes was cut by libinih and its rest read as a
 * second, bogus line ("line 6 of a 5-line file").  A long value is one line. */
static void
test_long_line_is_one_line(void **state)
{
	char text[4096], err[512], chans[1200];
	struct bot_config *c;
	size_t n = 0;

	(void)state;
	for (int i = 0; n + 12 < 1000; i++)
		n += (size_t)snprintf(chans + n, sizeof chans - n, "%s#room%03d", i ? " " : "", i);
	snprintf(text, sizeof text, "[bot]\nrules = classic\n[irc x]\nchannels = %s\nnick = HF\n", chans);
	c = config_load_string(text, "t.conf", err, sizeof err);
	assert_non_null(c);
	assert_int_equal(c->sections[0]->nkeys, 2);
	assert_string_equal(c->sections[0]->keys[0].value, chans);
	assert_int_equal(c->sections[0]->keys[1].line, 5);
	config_free(c);
	/* an error after a long line names its own line, counted right */
	snprintf(text, sizeof text, "[bot]\n# %0300d\nrules = classic\nai_level = %0250d\n", 0, 7);
	assert_null(config_load_string(text, "t.conf", err, sizeof err));
	assert_non_null(strstr(err, "t.conf:4: [bot] ai_level:"));
	assert_null(strchr(err, '\n'));
	/* past INI_MAX_LINE: refused, with its line */
	{
		char *big = malloc(INI_MAX_LINE + 100);

		assert_non_null(big);
		snprintf(big, INI_MAX_LINE + 100, "[bot]\nrules = %0*d\n", INI_MAX_LINE, 1);
		assert_null(config_load_string(big, "t.conf", err, sizeof err));
		assert_non_null(strstr(err, "t.conf:2: line too long"));
		free(big);
	}
}

/* Issue 11: a key given twice was silently taken (the last one won). */
static void
test_duplicate_keys(void **state)
{
	char err[512];

	(void)state;
	assert_null(config_load_string("[bot]\nai_level = easy\nrules = classic\nai_level = hard\n", "t.conf", err,
	                               sizeof err));
	assert_string_equal(err, "t.conf:4: [bot] ai_level: given twice (first on line 2)");
	assert_null(config_load_string("[bot]\n[irc x]\nnick = a\n\nnick = b\n", "t.conf", err, sizeof err));
	assert_string_equal(err, "t.conf:5: [irc x] nick: given twice (first on line 3)");
	/* an indented line is a key of its own, not the key before continued */
	assert_null(config_load_string("[bot]\n[irc x]\nnick = a\n  nick = b\n", "t.conf", err, sizeof err));
	assert_non_null(strstr(err, "t.conf:4: [irc x] nick: given twice"));
}

/* Issue 11: "-t stops at the first error (five mistakes, five runs)": every
 * error of the file and of each adapter section comes in one go, each with
 * its file:line. */
static void
test_every_error_at_once(void **state)
{
	static const char text[] =
		"[bot]\n"
		"ai_level = clever\n"           /* 2 */
		"turn_timeout = soon\n"         /* 3 */
		"this is not ini\n"             /* 4 */
		"[irc a]\n"
		"tls = maybe\n"                 /* 6 */
		"port = 99999\n"                /* 7 */
		"private = loud\n"              /* 8 */
		"[gopher x]\n";                 /* 9 */
	char err[4096], path[] = "/tmp/hf-conf-XXXXXX";
	struct bot_config *c;
	struct loop *l = loop_new();
	struct bot *b;
	size_t ntable;
	const struct adapter_ops *const *table = adapters_table(&ntable);
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	c = config_read(path, err, sizeof err);
	assert_non_null(c);
	assert_true(c->broken);
	assert_non_null(strstr(err, ":2: [bot] ai_level"));
	assert_non_null(strstr(err, ":3: [bot] turn_timeout"));
	assert_non_null(strstr(err, ":4: syntax error"));
	b = bot_new(l, c, table, ntable);
	assert_int_equal(bot_adapter_add_all(b, err, sizeof err), -1);
	assert_non_null(strstr(err, ":6: [irc a] tls"));
	assert_non_null(strstr(err, ":7: [irc a] port"));
	assert_non_null(strstr(err, ":8: [irc a] private"));
	assert_non_null(strstr(err, ":9: [gopher x]: unknown adapter type"));
	bot_free(b);
	loop_free(l);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_adapter_sections),
		cmocka_unit_test(test_long_line_is_one_line),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_every_error_at_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
