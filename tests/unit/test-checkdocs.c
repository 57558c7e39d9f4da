/* test-checkdocs.c: tests/check-docs can fail: a copy of the tree with a key, a house rule or a command out of step with the docs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"

/* Copies what check-docs reads to a fresh folder, runs edit there (a shell
 * command, or NULL), then check-docs with the built binary; its exit status. */
static int
checked(const char *edit, char *out, size_t len)
{
	char dir[256], bin[512], cwd[256];
	int rc;

	if (e2e_build()[0] == '/')
		snprintf(bin, sizeof bin, "%s/handfoot", e2e_build());
	else
		snprintf(bin, sizeof bin, "%s/%s/handfoot", getcwd(cwd, sizeof cwd) != NULL ? cwd : ".", e2e_build());
	assert_int_equal(e2e_tmpdir(dir, sizeof dir, "docs"), 0);
	assert_int_equal(e2e_sh(out, len, "cp -r ./*.md LICENSE docs bot engine adapters config tests '%s'/", dir), 0);
	if (edit != NULL)
		assert_int_equal(e2e_sh(out, len, "cd '%s' && %s", dir, edit), 0);
	rc = e2e_sh(out, len, "cd '%s' && sh tests/check-docs '%s'", dir, bin);
	e2e_sh(NULL, 0, "rm -rf '%s'", dir);
	return rc;
}

static void
expect_refused(const char *edit, const char *why)
{
	char out[8192];

	assert_int_equal(checked(edit, out, sizeof out), 1);
	if (strstr(out, why) == NULL)
		fail_msg("check-docs said \"%s\" after: %s", out, edit);
}

static void
test_docs_pass(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(checked(NULL, out, sizeof out), 0);
	assert_non_null(strstr(out, "docs: ok"));
}

/* A key read in an adapter's folder (adapters/irc/config.c), not only its top file. */
static void
test_key_in_adapter_folder(void **state)
{
	(void)state;
	expect_refused("printf 'static void f(struct adapter_cfg *cfg) { adapter_cfg_get(cfg, \"shiny_key\", 0); }\\n' "
	               ">> adapters/irc/config.c",
	               "[irc] shiny_key is read by the code but missing from config/handfoot.conf");
}

static void
test_house_rules_table(void **state)
{
	(void)state;
	expect_refused("sed -i '/^| `frozen` |/d' docs/PLAYING.md",
	               "house rule frozen (engine/house.c) is not in docs/PLAYING.md's House rules table");
	expect_refused("sed -i 's/^| `frozen` |/| `melted` |/' docs/PLAYING.md",
	               "docs/PLAYING.md's House rules table lists melted, which engine/house.c does not know");
}

static void
test_commands_table(void **state)
{
	(void)state;
	expect_refused("sed -i '/^| `!discard/d' docs/PLAYING.md",
	               "command discard (bot/commands/cmd-*.c) is not in docs/PLAYING.md's command table");
}

/* A key is described once, in the man page: twice there, or again in a
 * Markdown table, is refused. */
static void
test_key_documented_twice(void **state)
{
	(void)state;
	expect_refused("printf '| `ai_delay` | 1500 | again |\\n' >> docs/OPERATING.md",
	               "docs/OPERATING.md describes the key ai_delay again");
	expect_refused("printf '.TP\\n.BR turn_timeout \\n.TP\\n.BR turn_timeout \\n' > m && "
	               "sed -i '/^\\.SH.*\\[bot\\]/r m' config/handfoot.conf.5",
	               "[bot] turn_timeout is documented");
}

/* Every link between the documents resolves: a file, and a heading. */
static void
test_dead_links(void **state)
{
	(void)state;
	expect_refused("printf '[gone](docs/NOWHERE.md)\\n' >> README.md",
	               "README.md links to docs/NOWHERE.md: no such file");
	expect_refused("printf '[gone](OPERATING.md#no-such-heading)\\n' >> docs/PLAYING.md",
	               "docs/PLAYING.md links to OPERATING.md#no-such-heading: no such heading");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docs_pass),
		cmocka_unit_test(test_key_in_adapter_folder),
		cmocka_unit_test(test_house_rules_table),
		cmocka_unit_test(test_commands_table),
		cmocka_unit_test(test_key_documented_twice),
		cmocka_unit_test(test_dead_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
