/* test-layers.c: tests/check-layers can fail (a copy of the tree with one planted violation of each kind: includes, calls); the engine library shows only its public header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "e2e.h"

/* Copies the sources to a fresh folder, appends line to file there, and runs
 * check-layers on the copy; its exit status, its output in out. */
static int
planted(const char *file, const char *line, char *out, size_t len)
{
	char dir[256];
	int rc;

	assert_int_equal(e2e_tmpdir(dir, sizeof dir, "layers"), 0);
	assert_int_equal(e2e_sh(out, len, "cp -r lib engine bot adapters '%s'/", dir), 0);
	if (file != NULL)
		assert_int_equal(e2e_sh(out, len, "printf '%%s\\n' '%s' >> '%s/%s'", line, dir, file), 0);
	rc = e2e_sh(out, len, "sh tests/check-layers '%s'", dir);
	e2e_sh(NULL, 0, "rm -rf '%s'", dir);
	return rc;
}

static void
expect_refused(const char *file, const char *line, const char *why)
{
	char out[4096];

	assert_int_equal(planted(file, line, out, sizeof out), 1);
	if (strstr(out, file) == NULL || strstr(out, why) == NULL)
		fail_msg("check-layers said \"%s\" for %s += %s", out, file, line);
}

/* The game's arithmetic is the engine's: the bot and the adapters ask it, the page reads the view. */
static void
test_game_arithmetic_stays_in_the_engine(void **state)
{
	(void)state;
	expect_refused("bot/commands/cmd-play.c", "static int q(const struct hf_rules *r) { return r->players_min; }",
	               "the engine answers table sizes and sides");
	expect_refused("bot/tables/table.c", "static int q(struct hf_rules r) { return r.sides_allowed[4]; }",
	               "the engine answers table sizes and sides");
	expect_refused("bot/tables/flow.c", "static int q(int seat, int nsides) { return seat % nsides; }",
	               "the engine answers a seat");
	expect_refused("adapters/web/web.h", "#define WEB_OTHER_MAX_SEATS 6", "adapters keep no copy");
	expect_refused("adapters/web/page/cards.js", "if (name === \"2\") c.wild = true;",
	               "the page keeps no list of wild cards");
}

static void
test_clean_tree_passes(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted(NULL, NULL, out, sizeof out), 0);
	assert_non_null(strstr(out, "layers: ok"));
}

/* Inside bot/, modules depend on each other in circles of five at most: the
 * store calling up into the bot's dispatch closes one through every floor. */
static void
test_bot_circle_over_five(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("bot/storage/store.c", "int store_zz(void) { return bot_draining(0); }", out, sizeof out),
	                 1);
	if (strstr(out, "no circle of more than 5 modules") == NULL || strstr(out, "storage/store ") == NULL ||
	    strstr(out, "daemon/bot ") == NULL)
		fail_msg("check-layers said \"%s\"", out);
	/* a circle of two is allowed, and printed */
	assert_int_equal(planted("bot/core/ini.c", "void ini_zz(void) { config_free(0); }", out, sizeof out),
	                 0);
	if (strstr(out, "circle of 2 modules") == NULL || strstr(out, "core/ini ") == NULL)
		fail_msg("check-layers said \"%s\"", out);
}

/* bot/'s folders are floors (docs/DESIGN.md's map): no include and no call
 * goes up, nothing is loose in bot/ but the adapter API, and no header of it
 * but the API's is over 300 lines. */
static void
test_bot_floors(void **state)
{
	char lines[400];

	(void)state;
	expect_refused("bot/core/session.c", "#include \"tables.h\"", "no arrow goes up");
	expect_refused("bot/telling/reply.c", "#include \"cmd.h\"", "no arrow goes up");
	expect_refused("bot/storage/store.c", "static void q(void) { flow_cancel(0, 0); }",
	               "bot/storage/ calls nothing a folder above it declares");
	expect_refused("bot/tables/table.c", "static void q(void) { bot_event(0, 0, 0); }",
	               "bot/tables/ calls nothing a folder above it declares");
	expect_refused("bot/loose.c", "int loose;", "nothing loose in bot/ but the adapter API");
	/* a header declares its own folder's functions (moved.c's is tables.h's) */
	expect_refused("bot/core/session.h", "void bot_room_moved(struct bot *b, struct adapter *a, const struct bot_event *ev);",
	               "a folder's header declares its own folder's functions");
	/* 300 more lines: over the limit; the adapter API may be longer */
	memset(lines, '\n', 300);
	lines[300] = '\0';
	expect_refused("bot/core/input.h", lines, "no header of bot/ over 300 lines");
	{
		char out[4096];

		assert_int_equal(planted("bot/adapter.h", lines, out, sizeof out), 0);
	}
}

static void
test_lib_includes_above(void **state)
{
	(void)state;
	expect_refused("lib/rbuf.c", "#include \"bot.h\"", "lib/ includes nothing above it");
	expect_refused("lib/utf8.c", "#include \"handfoot.h\"", "lib/ includes nothing above it");
}

static void
test_engine_beyond_libc(void **state)
{
	(void)state;
	expect_refused("engine/card.c", "#include <unistd.h>", "engine/ is the C library only");
	expect_refused("engine/deal.c", "#include \"rbuf.h\"", "engine/ sees only itself and lib/utf8.h");
	expect_refused("engine/deal.c", "#include \"bot.h\"", "engine/ sees only itself and lib/utf8.h");
	/* a prototype of its own would link (libhflib.a is on the line): refused too */
	expect_refused("engine/deal.c",
	               "void log_msg(int level, const char *fmt, ...); static void q(void) { log_msg(1, \"x\"); }",
	               "engine/ calls nothing of lib/ but utf8.h");
	expect_refused("engine/card.c", "static void *q(void) { return xmalloc(3); }", "engine/ calls nothing of lib/");
}

static void
test_engine_may_use_utf8(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("engine/rng.c", "static size_t q(const char *s) { return utf8_cut(s, 3, 2); }", out,
	                         sizeof out), 0);
}

static void
test_bot_names_an_adapter(void **state)
{
	(void)state;
	expect_refused("bot/core/flood.c", "static const void *x = &irc_adapter_ops;", "never names an adapter");
	expect_refused("bot/core/flood.c", "static const char *y = \"matrix\";", "never names an adapter (matrix)");
	/* the console has no folder: its name is read from its table alone */
	expect_refused("bot/core/flood.c", "static const char *w = \"console\";", "never names an adapter (console)");
	expect_refused("bot/core/flood.c", "int v(void) { return console_needs_restart(0, 0); }",
	               "never names an adapter (console)");
	expect_refused("bot/core/session.c", "int z(void) { return irc_chan_find(0, 0); }", "never names an adapter (irc)");
	expect_refused("bot/commands/cmd.c", "#include \"adapters.h\"", "bot/ sees only itself");
	/* main.c is no exception: it gets the adapters from the adapter API's adapters_table */
	expect_refused("bot/daemon/main.c", "#include \"adapters.h\"", "bot/ sees only itself");
	expect_refused("bot/daemon/main.c", "#include \"irc/client.h\"", "bot/ sees only itself");
	expect_refused("bot/daemon/main.c", "static const void *x = &console_adapter_ops;", "never names an adapter");
	expect_refused("bot/daemon/main.c", "static const char *y = \"console\";", "never names an adapter (console)");
	expect_refused("bot/tables/table.c", "#include \"client.h\"", "bot/ sees only itself");
}

/* A comment may say "irc_send" or "the matrix adapter": prose is not a dependency. */
static void
test_bot_comment_is_prose(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("bot/core/flood.c", "/* like irc_send, and \"matrix\" */", out, sizeof out), 0);
}

static void
test_adapter_beyond_api(void **state)
{
	(void)state;
	expect_refused("adapters/console.c", "#include \"bot.h\"", "adapters see only their own folder");
	expect_refused("adapters/irc/chan.c", "#include \"handfoot.h\"", "adapters see only their own folder");
	expect_refused("adapters/irc/chan.c", "#include \"../../bot/bot.h\"", "no include climbs out of its folder");
	/* a prototype of its own would link (libhfbot.a follows): refused too */
	expect_refused("adapters/irc/text.c", "size_t text_clean(char *s); static void q(char *s) { text_clean(s); }",
	               "adapters call nothing of the bot's but the adapter API");
	expect_refused("adapters/console.c", "static void q(struct bot *b) { reply_flush(b); }",
	               "adapters call nothing of the bot's");
	/* nor another adapter's folder */
	expect_refused("adapters/matrix/sync.c", "#include \"irc/client.h\"", "never sees another adapter's folder");
	expect_refused("adapters/discord.c", "#include \"matrix/matrix.h\"", "never sees another adapter's folder");
}

static void
test_adapter_uses_the_api(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(planted("adapters/matrix/names.c", "static void q(struct adapter *a) { adapter_set_self(a, 0); }",
	                         out, sizeof out), 0);
}

/* libhfengine.a's global symbols are the functions of engine/handfoot.h, no
 * more: its internals (meld_*, turn_*, ai_*, even hf_fail) are hidden. */
static void
test_engine_library_shows_only_its_header(void **state)
{
	char out[16384], cmd[512];
	int n = 0;

	(void)state;
	snprintf(cmd, sizeof cmd, "nm -g --defined-only '%s/libhfengine.a' | awk 'NF == 3 { print $3 }'", e2e_build());
	assert_int_equal(e2e_sh(out, sizeof out, "%s", cmd), 0);
	for (char *save = NULL, *sym = strtok_r(out, "\n", &save); sym != NULL; sym = strtok_r(NULL, "\n", &save)) {
		char grep[256];

		/* declared in the public header, as a function */
		if (e2e_sh(grep, sizeof grep, "grep -q -E '[ *]%s\\(' engine/handfoot.h", sym) != 0)
			fail_msg("libhfengine.a exports %s, which engine/handfoot.h does not declare", sym);
		n++;
	}
	assert_true(n > 20);
	/* and an internal one is there, only not global */
	assert_int_equal(e2e_sh(out, sizeof out, "nm '%s/libhfengine.a' | grep -q -E ' [tT] hf_fail$'", e2e_build()),
	                 0);
	assert_int_equal(
	        e2e_sh(out, sizeof out, "nm -g --defined-only '%s/libhfengine.a' | grep -q -w hf_fail", e2e_build()),
	        1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_tree_passes),
		cmocka_unit_test(test_game_arithmetic_stays_in_the_engine),
		cmocka_unit_test(test_bot_circle_over_five),
		cmocka_unit_test(test_bot_floors),
		cmocka_unit_test(test_lib_includes_above),
		cmocka_unit_test(test_engine_beyond_libc),
		cmocka_unit_test(test_engine_may_use_utf8),
		cmocka_unit_test(test_bot_names_an_adapter),
		cmocka_unit_test(test_bot_comment_is_prose),
		cmocka_unit_test(test_adapter_beyond_api),
		cmocka_unit_test(test_adapter_uses_the_api),
		cmocka_unit_test(test_engine_library_shows_only_its_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
