/* test-discord-text.c: the Discord adapter's pure parts: text, slash commands, buttons and mentions, interactions, config. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "discord/button.h"
#include "discord/config.h"
#include "discord/interaction.h"
#include "discord/slash.h"
#include "discord/text.h"
#include "utf8.h"

/* ------------------------------------------------------------------ text.c */

static void
test_clean(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(utf8_clean("  Ann\r\nBob\x01 ", 13, out, sizeof out, 31), 7);
	assert_string_equal(out, "Ann Bob");
	/* invalid UTF-8 dropped, a cut never splits a character */
	utf8_clean("a\xff\xc3\xa9\xe2\x82", 6, out, sizeof out, 31);
	assert_string_equal(out, "a\xc3\xa9");
	utf8_clean("\xc3\xa9\xc3\xa9", 4, out, sizeof out, 3);
	assert_string_equal(out, "\xc3\xa9");
	/* surrogates encoded in UTF-8 and overlongs are not UTF-8 */
	utf8_clean("x\xed\xa0\x80y\xc0\xafz", 8, out, sizeof out, 31);
	assert_string_equal(out, "xyz");
	/* U+2028 and C1 controls are line breaks and controls too */
	utf8_clean("a\xe2\x80\xa8" "b\xc2\x85" "c", 8, out, sizeof out, 31);
	assert_string_equal(out, "a b c");
}

static void
test_units_count_utf16(void **state)
{
	(void)state;
	assert_int_equal(discord_text_units("abc", 3), 3);
	assert_int_equal(discord_text_units("\xc3\xa9", 2), 1);
	assert_int_equal(discord_text_units("\xe2\x99\xa0", 3), 1);          /* ♠ */
	assert_int_equal(discord_text_units("\xf0\x9f\x82\xa1", 4), 2);      /* 🂡: two units */
}

static void
esc_is(const char *in, const char *want)
{
	char out[256];

	assert_true(discord_text_escape(in, out, sizeof out) >= 0);
	assert_string_equal(out, want);
}

static void
test_escape_markdown(void **state)
{
	char small[4];

	(void)state;
	esc_is("ann_the_great", "ann\\_the\\_great");
	esc_is("**bold** ~~x~~ `c` ||s||", "\\*\\*bold\\*\\* \\~\\~x\\~\\~ \\`c\\` \\|\\|s\\|\\|");
	esc_is("[link](http://x)", "\\[link\\](http://x)");
	esc_is("<@123> <@&9> <#5>", "\\<@\xe2\x80\x8b" "123\\> \\<@\xe2\x80\x8b&9\\> \\<\\#5\\>");
	esc_is("@everyone hi @here", "@\xe2\x80\x8b" "everyone hi @\xe2\x80\x8bhere");
	esc_is("# title", "\\# title");
	esc_is("> quote", "\\> quote");
	esc_is("- item", "\\- item");
	esc_is("1. first", "1\\. first");
	esc_is("a-b 2.5", "a-b 2.5");
	esc_is("back\\slash", "back\\\\slash");
	esc_is("two\nlines", "two lines");
	esc_is("Zoë ♠", "Zoë ♠");
	/* too small: -1 and nothing half-written */
	assert_int_equal(discord_text_escape("a_b", small, sizeof small), -1);
	assert_string_equal(small, "");
}

#define ANY ((size_t)-1)

static void
test_chunk_on_lines_spaces_and_characters(void **state)
{
	/* each text cut at max units: the piece's length n and where the next starts (ANY: not checked) */
	static const struct {
		const char *text;
		size_t max, n, next;
	} cut[] = {
		{ "short", 2000, 5, 5 },                          /* fits: all of it */
		{ "line one\nline two\nline three", 20, 17, 18 }, /* on the last line break that fits */
		{ "aaaa bbbb cccc", 11, 9, 10 },                  /* no line break: the last space */
		/* one long word: on a character boundary, counted in UTF-16 units */
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3, 6, ANY },
		{ "\xf0\x9f\x82\xa1\xf0\x9f\x82\xa1", 3, 4, ANY },
		{ "abcd\\_efgh", 5, 4, 4 },     /* never between a backslash and what it escapes */
		{ "xx<@123456>yy", 8, 2, ANY }, /* never inside a <@id> mention */
	};
	char buf[5000];
	size_t next, n;

	(void)state;
	for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
		n = discord_text_chunk(cut[i].text, strlen(cut[i].text), cut[i].max, &next);
		assert_int_equal(n, cut[i].n);
		if (cut[i].next != ANY)
			assert_int_equal(next, cut[i].next);
	}
	/* a long text: every piece at most 2000 units, nothing lost, all on line ends */
	{
		size_t len = 0, at = 0, total = 0;

		for (int i = 0; len < 4800; i++)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "line %d \xe2\x99\xa0 with some words\n", i);
		while (at < len) {
			n = discord_text_chunk(buf + at, len - at, DISCORD_MAX_CONTENT, &next);
			assert_true(discord_text_units(buf + at, n) <= DISCORD_MAX_CONTENT);
			assert_true(at + n == len || buf[at + n] == '\n');
			total += n + (next - n);
			at += next;
		}
		assert_int_equal(total, len);
	}
}

static void
test_player_ids(void **state)
{
	char out[40];

	(void)state;
	assert_int_equal(discord_text_player("80351110224678912", out, sizeof out), 0);
	assert_string_equal(out, "discord:80351110224678912");
	assert_int_equal(discord_text_user_of(out, out, sizeof out), 0);
	assert_string_equal(out, "80351110224678912");
	assert_int_equal(discord_text_player("12a", out, sizeof out), -1);
	assert_int_equal(discord_text_user_of("matrix:@a:b", out, sizeof out), -1);
	assert_int_equal(discord_text_user_of("discord:123456789012345678901", out, sizeof out), -1);
}

/* ------------------------------------------------------------------ slash.c */

static const struct adapter_command cmds[] = {
	{ .name = "draw", .alias = "d", .summary = "Draw two cards from the stock" },
	{ .name = "meld", .summary = "Lay down cards", .usage = "Cards to meld, e.g. 9 9 2",
	  .arg = ADAPTER_ARG_CARDS, .arg_required = true },
	{ .name = "discard", .summary = "End your turn", .arg_name = "card", .arg = ADAPTER_ARG_CARD,
	  .arg_required = true },
	{ .name = "hand", .summary = "" },
	{ .name = "new", .summary = "Open a table", .usage = "a preset and house rules", .arg_name = "rules",
	  .arg = ADAPTER_ARG_TEXT },
};

static void
test_slash_commands_from_the_table(void **state)
{
	char err[200];
	json_t *j = discord_slash_commands(cmds, 5, true, err, sizeof err), *c, *o;

	(void)state;
	assert_non_null(j);
	assert_int_equal(json_array_size(j), 5);
	c = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(c, "name")), "draw");
	assert_int_equal(json_integer_value(json_object_get(c, "type")), 1);
	assert_string_equal(json_string_value(json_object_get(c, "description")), "Draw two cards from the stock");
	assert_null(json_object_get(c, "options"));
	assert_int_equal(json_array_size(json_object_get(c, "contexts")), 2);
	assert_int_equal(json_array_size(json_object_get(c, "integration_types")), 1);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(c, "integration_types"), 0)), 0);
	/* /meld cards:9 9 2 */
	o = json_array_get(json_object_get(json_array_get(j, 1), "options"), 0);
	assert_int_equal(json_integer_value(json_object_get(o, "type")), 3);
	assert_string_equal(json_string_value(json_object_get(o, "name")), "cards");
	assert_true(json_is_true(json_object_get(o, "required")));
	assert_string_equal(json_string_value(json_object_get(o, "description")), "Cards to meld, e.g. 9 9 2");
	/* /discard card:7 */
	o = json_array_get(json_object_get(json_array_get(j, 2), "options"), 0);
	assert_string_equal(json_string_value(json_object_get(o, "name")), "card");
	/* an empty summary: the name stands in (1-100 characters) */
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 3), "description")), "hand");
	o = json_array_get(json_object_get(json_array_get(j, 4), "options"), 0);
	assert_false(json_is_true(json_object_get(o, "required")));
	json_decref(j);
	/* guild commands carry no contexts */
	j = discord_slash_commands(cmds, 1, false, err, sizeof err);
	assert_null(json_object_get(json_array_get(j, 0), "contexts"));
	assert_null(json_object_get(json_array_get(j, 0), "integration_types"));
	json_decref(j);
}

static void
test_slash_long_description_cut_and_bad_names_refused(void **state)
{
	char err[200], long_summary[400];
	struct adapter_command c[1] = { { .name = "rules" } };
	const char *d;
	json_t *j;

	(void)state;
	memset(long_summary, 0, sizeof long_summary);
	for (int i = 0; i < 40; i++)
		strcat(long_summary, "word\xe2\x99\xa0 ");
	c[0].summary = long_summary;
	j = discord_slash_commands(c, 1, true, err, sizeof err);
	d = json_string_value(json_object_get(json_array_get(j, 0), "description"));
	assert_true(discord_text_units(d, strlen(d)) <= 100);
	assert_non_null(strstr(d, "\xe2\x80\xa6"));
	json_decref(j);
	c[0].name = "Draw";
	assert_null(discord_slash_commands(c, 1, true, err, sizeof err));
	assert_non_null(strstr(err, "Draw"));
	c[0].name = "meld";
	c[0].arg = ADAPTER_ARG_CARDS;
	c[0].arg_name = "the cards";
	assert_null(discord_slash_commands(c, 1, true, err, sizeof err));
	assert_true(discord_slash_name_ok("pick-up_2"));
	assert_false(discord_slash_name_ok(""));
	assert_false(discord_slash_name_ok("abcdefghijklmnopqrstuvwxyzabcdefg"));
}

/* ------------------------------------------------------------------ button.c */

static void
test_buttons_and_custom_ids(void **state)
{
	const char *acts[] = { "hand", "draw", "pickup" };
	char id[128], act[40], user[40];
	json_t *rows = discord_button_rows(acts, 3, "601"), *b;

	(void)state;
	assert_int_equal(json_array_size(rows), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 0), "type")), 1);
	b = json_array_get(json_object_get(json_array_get(rows, 0), "components"), 2);
	assert_int_equal(json_integer_value(json_object_get(b, "type")), 2);
	assert_string_equal(json_string_value(json_object_get(b, "label")), "Pick up");
	assert_string_equal(json_string_value(json_object_get(b, "custom_id")), "hf:pickup:601");
	/* "My hand" is for anyone: each presser gets their own hand */
	b = json_array_get(json_object_get(json_array_get(rows, 0), "components"), 0);
	assert_string_equal(json_string_value(json_object_get(b, "label")), "My hand");
	assert_string_equal(json_string_value(json_object_get(b, "custom_id")), "hf:hand:");
	json_decref(rows);
	assert_int_equal(discord_button_parse("hf:draw:601", act, sizeof act, user, sizeof user), 0);
	assert_string_equal(act, "draw");
	assert_string_equal(user, "601");
	assert_int_equal(discord_button_parse("hf:draw:", act, sizeof act, user, sizeof user), 0);
	assert_string_equal(user, "");
	assert_int_equal(discord_button_parse("other:draw:601", act, sizeof act, user, sizeof user), -1);
	assert_int_equal(discord_button_parse("hf:Draw:601", act, sizeof act, user, sizeof user), -1);
	assert_int_equal(discord_button_parse("hf:draw:60x", act, sizeof act, user, sizeof user), -1);
	/* the turn line's number: read back; none on "My hand"; nothing else after it */
	{
		unsigned n = 7;
		json_t *r = discord_button_rows_n(acts, 3, "601", 1764000000u);
		char cid[DISCORD_CUSTOM_ID_MAX + 1];

		assert_non_null(r);
		for (size_t i = 0; i < 3; i++) {
			snprintf(cid, sizeof cid, "%s", json_string_value(json_object_get(json_array_get(json_object_get(
			         json_array_get(r, 0), "components"), i), "custom_id")));
			assert_int_equal(discord_button_parse_n(cid, act, sizeof act, user, sizeof user, &n), 0);
			assert_int_equal(n, strcmp(act, "hand") == 0 ? 0u : 1764000000u);
		}
		json_decref(r);
		assert_int_equal(discord_button_parse_n("hf:draw:601:12", act, sizeof act, user, sizeof user, &n), 0);
		assert_int_equal(n, 12);
		assert_string_equal(user, "601");
		assert_int_equal(discord_button_parse_n("hf:draw:601", act, sizeof act, user, sizeof user, &n), 0);
		assert_int_equal(n, 0);
		assert_int_equal(discord_button_parse_n("hf:draw:601:0", act, sizeof act, user, sizeof user, &n), -1);
		assert_int_equal(discord_button_parse_n("hf:draw:601:1x", act, sizeof act, user, sizeof user, &n), -1);
		assert_int_equal(discord_button_parse_n("hf:draw::5", act, sizeof act, user, sizeof user, &n), -1);
		assert_int_equal(discord_button_parse_n("hf:draw:601:99999999999", act, sizeof act, user, sizeof user,
		                                        &n), -1);
	}
	assert_int_equal(discord_button_custom_id("draw", "12345678901234567890", id, sizeof id), 0);
	assert_true(strlen(id) <= DISCORD_CUSTOM_ID_MAX);
	/* six actions: two rows of at most five */
	{
		const char *six[] = { "a", "b", "c", "d", "e", "f" };

		rows = discord_button_rows(six, 6, NULL);
		assert_int_equal(json_array_size(rows), 2);
		assert_int_equal(json_array_size(json_object_get(json_array_get(rows, 0), "components")), 5);
		json_decref(rows);
	}
	assert_null(discord_button_rows(acts, 0, "601"));
}

static void
test_mentions_only_the_player(void **state)
{
	json_t *m = discord_button_mentions("601");
	char *s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);

	(void)state;
	/* parse [] (no everyone, here, roles); only this user */
	assert_string_equal(s, "{\"parse\":[],\"replied_user\":false,\"users\":[\"601\"]}");
	free(s);
	json_decref(m);
	m = discord_button_mentions(NULL);
	s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"parse\":[],\"replied_user\":false}");
	free(s);
	json_decref(m);
}

/* ------------------------------------------------------------------ interaction.c */

#define IA_HEAD "{\"id\":\"786008729715212338\",\"application_id\":\"900\",\"token\":\"A_UNIQUE_TOKEN\",\"version\":1,"
#define IA_HEAD_BAD_TOKEN "{\"id\":\"1\",\"application_id\":\"900\",\"token\":\"a/../../x?y\",\"type\":2," \
	"\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":1}}"

static int
parse_ia(const char *json, struct discord_interaction *ia, const char **why)
{
	json_t *d = json_loads(json, 0, NULL);
	int r;

	assert_non_null(d);
	r = discord_interaction_parse(d, "900", ia, why);
	json_decref(d);
	return r;
}

/* app_permissions (the bot's own, in the channel): what it lacks to post there, by permissions.mdx's names */
static void
test_app_permissions_say_where_the_bot_may_post(void **state)
{
	static const struct { const char *perms; int type; const char *missing; } cases[] = {
		{ "3072", 0, NULL },                               /* VIEW_CHANNEL | SEND_MESSAGES */
		{ "3072", 11, "Send Messages in Threads" },        /* the old invite, in a thread */
		{ "274877910016", 11, NULL },                      /* the corrected invite */
		{ "274877910016", 0, NULL },
		{ "1024", 0, "Send Messages" },
		{ "2048", 0, "View Channel" },
		{ "0", 12, "View Channel" },
		{ "8", 0, NULL },                                  /* ADMINISTRATOR */
		{ NULL, 0, NULL },                                 /* not said: not refused */
	};
	struct discord_interaction ia;
	const char *why, *m;
	char json[600];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(json, sizeof json, IA_HEAD "\"type\":2,\"guild_id\":\"29\",\"channel_id\":\"64\","
		         "\"channel\":{\"id\":\"64\",\"type\":%d}%s%s%s,\"member\":{\"user\":{\"id\":\"53\","
		         "\"username\":\"mason\"},\"roles\":[]},\"data\":{\"name\":\"new\",\"type\":1}}", cases[i].type,
		         cases[i].perms != NULL ? ",\"app_permissions\":\"" : "", cases[i].perms != NULL ? cases[i].perms : "",
		         cases[i].perms != NULL ? "\"" : "");
		assert_int_equal(parse_ia(json, &ia, &why), 0);
		m = discord_interaction_cannot_post(&ia);
		if (cases[i].missing == NULL)
			assert_null(m);
		else
			assert_string_equal(m, cases[i].missing);
	}
}

static void
test_slash_interaction_to_command_line(void **state)
{
	struct discord_interaction ia;
	const char *why;

	(void)state;
	/* receiving-and-responding.mdx's shape: a guild member */
	assert_int_equal(parse_ia(IA_HEAD "\"type\":2,\"guild_id\":\"290926798626357999\",\"channel_id\":\"645027906669510667\","
	                          "\"member\":{\"user\":{\"id\":\"53908232506183680\",\"username\":\"mason\",\"global_name\":\"Mason\"},"
	                          "\"nick\":\"Mase\\u0007_\",\"roles\":[]},\"data\":{\"id\":\"7\",\"name\":\"meld\",\"type\":1,"
	                          "\"options\":[{\"type\":3,\"name\":\"cards\",\"value\":\" 9 9\\n2 \"}]}}", &ia, &why), 0);
	assert_int_equal(ia.kind, DISCORD_IA_COMMAND);
	assert_string_equal(ia.line, "meld 9 9 2");
	assert_string_equal(ia.user_id, "53908232506183680");
	/* the guild nick, cleaned (escaping is for output) */
	assert_string_equal(ia.user_name, "Mase _");
	assert_string_equal(ia.guild_id, "290926798626357999");
	assert_string_equal(ia.channel_id, "645027906669510667");
	assert_string_equal(ia.token, "A_UNIQUE_TOKEN");
	assert_false(ia.direct);
	/* in a DM: user, no guild; no nick: the global name */
	assert_int_equal(parse_ia(IA_HEAD "\"type\":2,\"channel_id\":\"5\",\"user\":{\"id\":\"6\",\"username\":\"zoe\","
	                          "\"global_name\":\"Zoë\"},\"data\":{\"name\":\"hand\",\"type\":1}}", &ia, &why), 0);
	assert_true(ia.direct);
	assert_string_equal(ia.user_name, "Zoë");
	assert_string_equal(ia.line, "hand");
	/* no global name: the username */
	assert_int_equal(parse_ia(IA_HEAD "\"type\":2,\"channel_id\":\"5\",\"user\":{\"id\":\"6\",\"username\":\"zoe\","
	                          "\"global_name\":null},\"data\":{\"name\":\"hand\",\"type\":1}}", &ia, &why), 0);
	assert_string_equal(ia.user_name, "zoe");
}

static void
test_button_interaction(void **state)
{
	struct discord_interaction ia;
	const char *why;

	(void)state;
	assert_int_equal(parse_ia(IA_HEAD "\"type\":3,\"guild_id\":\"1\",\"channel_id\":\"2\",\"member\":{\"user\":"
	                          "{\"id\":\"3\",\"username\":\"ann\"}},\"message\":{\"id\":\"44\"},"
	                          "\"data\":{\"custom_id\":\"hf:draw:601\",\"component_type\":2}}", &ia, &why), 0);
	assert_int_equal(ia.kind, DISCORD_IA_BUTTON);
	assert_string_equal(ia.line, "draw");
	assert_string_equal(ia.target, "601");
	assert_string_equal(ia.message_id, "44");
	assert_string_equal(ia.user_id, "3");
}

/* A moderator: a member whose permissions in the channel (a decimal string)
 * hold MANAGE_MESSAGES or ADMINISTRATOR; nobody in a DM. */
static void
test_interaction_moderator(void **state)
{
	struct { const char *perm; bool mod; } cases[] = {
		{ "\"2147601472\"", false },    /* @everyone's: view, send, history, commands... */
		{ "\"8192\"", true },           /* MANAGE_MESSAGES */
		{ "\"8\"", true },              /* ADMINISTRATOR */
		{ "\"2251799813685247\"", true },
		{ "\"8192x\"", false },         /* not a number */
		{ "8192", false },              /* not a string, as Discord sends it */
		{ "null", false },
	};
	struct discord_interaction ia;
	const char *why;
	char json[600];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(json, sizeof json, IA_HEAD "\"type\":2,\"guild_id\":\"1\",\"channel_id\":\"2\",\"member\":{\"user\":"
		         "{\"id\":\"3\",\"username\":\"ann\"},\"permissions\":%s},\"data\":{\"name\":\"abort\",\"type\":1}}",
		         cases[i].perm);
		assert_int_equal(parse_ia(json, &ia, &why), 0);
		assert_int_equal(ia.moderator, cases[i].mod);
	}
	/* a DM has no member: no moderator */
	assert_int_equal(parse_ia(IA_HEAD "\"type\":2,\"channel_id\":\"5\",\"user\":{\"id\":\"6\",\"username\":\"zoe\"},"
	                          "\"data\":{\"name\":\"abort\",\"type\":1}}", &ia, &why), 0);
	assert_false(ia.moderator);
}

static void
test_hostile_interactions_refused(void **state)
{
	const char *bad[] = {
		/* another application's */
		"{\"id\":\"1\",\"application_id\":\"901\",\"token\":\"t\",\"type\":2,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},"
		"\"data\":{\"name\":\"draw\",\"type\":1}}",
		/* a token that would break out of the URL path */
		IA_HEAD_BAD_TOKEN,
		/* a user command, an autocomplete, a modal */
		IA_HEAD "\"type\":2,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":2}}",
		IA_HEAD "\"type\":4,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":1}}",
		/* a subcommand option */
		IA_HEAD "\"type\":2,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":1,"
		"\"options\":[{\"type\":1,\"name\":\"x\",\"options\":[]}]}}",
		/* a button that is not ours, or without its message */
		IA_HEAD "\"type\":3,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"message\":{\"id\":\"4\"},"
		"\"data\":{\"custom_id\":\"other\",\"component_type\":2}}",
		IA_HEAD "\"type\":3,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},"
		"\"data\":{\"custom_id\":\"hf:draw:\",\"component_type\":2}}",
		/* ids that are not snowflakes */
		IA_HEAD "\"type\":2,\"channel_id\":\"x\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":1}}",
		IA_HEAD "\"type\":2,\"channel_id\":\"2\",\"user\":{\"id\":3},\"data\":{\"name\":\"draw\",\"type\":1}}",
		IA_HEAD "\"type\":2,\"channel_id\":\"2\",\"guild_id\":\"g\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"draw\",\"type\":1}}",
		/* a name that is not one of ours */
		IA_HEAD "\"type\":2,\"channel_id\":\"2\",\"user\":{\"id\":\"3\"},\"data\":{\"name\":\"DROP TABLE\",\"type\":1}}",
		"[]", "{}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct discord_interaction ia;
		const char *why = NULL;
		json_t *d = json_loads(bad[i], 0, NULL);

		assert_int_equal(discord_interaction_parse(d, "900", &ia, &why), -1);
		assert_non_null(why);
		json_decref(d);
	}
}

static void
test_message_create(void **state)
{
	struct discord_message m;
	const char *why;
	json_t *d;

	(void)state;
	d = json_loads("{\"id\":\"9\",\"type\":0,\"channel_id\":\"2\",\"guild_id\":\"1\",\"content\":\"!meld 9 9 2\","
	               "\"author\":{\"id\":\"3\",\"username\":\"ann\",\"global_name\":\"Ann\"},\"member\":{\"nick\":\"Annie\"}}",
	               0, NULL);
	assert_int_equal(discord_message_parse(d, "42", &m, &why), 0);
	assert_string_equal(m.text, "!meld 9 9 2");
	assert_string_equal(m.user_name, "Annie");
	assert_string_equal(m.user_id, "3");
	assert_false(m.direct);
	/* ours, another bot's, a webhook's, a system message's, empty content: ignored */
	assert_int_equal(discord_message_parse(d, "3", &m, &why), -1);
	json_object_set_new(json_object_get(d, "author"), "bot", json_true());
	assert_int_equal(discord_message_parse(d, "42", &m, &why), -1);
	json_object_del(json_object_get(d, "author"), "bot");
	json_object_set_new(d, "webhook_id", json_string("5"));
	assert_int_equal(discord_message_parse(d, "42", &m, &why), -1);
	json_object_del(d, "webhook_id");
	json_object_set_new(d, "type", json_integer(7));
	assert_int_equal(discord_message_parse(d, "42", &m, &why), -1);
	json_object_set_new(d, "type", json_integer(0));
	json_object_set_new(d, "content", json_string(""));
	assert_int_equal(discord_message_parse(d, "42", &m, &why), -1);
	assert_string_equal(why, "no content");
	json_decref(d);
}

/* ------------------------------------------------------------------ config.c */

static char tokfile[64];

static int
read_cfg(const char *body, struct discord_config *dc, char *err, size_t errlen)
{
	char text[2048];
	struct bot_config *c;
	int r;

	snprintf(text, sizeof text, "[bot]\n[discord main]\n%s", body);
	c = config_load_string(text, "t.conf", err, errlen);
	assert_non_null(c);
	assert_int_equal(c->nsections, 1);
	r = discord_config_read(c->sections[0], dc, err, errlen);
	if (r == 0)
		/* every key given was looked up */
		assert_null(config_unused(c->sections[0]));
	config_free(c);
	return r;
}

static int
cfg_setup(void **state)
{
	int fd;

	(void)state;
	snprintf(tokfile, sizeof tokfile, "/tmp/hf-dc-tokXXXXXX");
	if ((fd = mkstemp(tokfile)) < 0)
		return -1;
	if (write(fd, "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs\n", 60) != 60)
		return -1;
	close(fd);
	return 0;
}

static int
cfg_teardown(void **state)
{
	(void)state;
	unlink(tokfile);
	return 0;
}

static void
test_config_defaults_and_keys(void **state)
{
	struct discord_config dc;
	char body[512], err[300];

	(void)state;
	snprintf(body, sizeof body, "token_file = %s\n", tokfile);
	assert_int_equal(read_cfg(body, &dc, err, sizeof err), 0);
	assert_string_equal(dc.token, "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs");
	assert_string_equal(dc.api_url, "https://discord.com/api/v10");
	assert_false(dc.message_commands);
	assert_int_equal(dc.private_mode, DISCORD_PRIVATE_EPHEMERAL);
	assert_int_equal(dc.nguilds, 0);
	assert_true(discord_config_guild_ok(&dc, "123"));
	discord_config_wipe(&dc);
	assert_string_equal(dc.token, "");
	snprintf(body, sizeof body, "token_file = %s\napi_url = http://127.0.0.1:9/api/v10/\nca_file = /etc/hostname\n"
	         "guilds = 123456789012345678, 42 7\nmessage_commands = yes\nprivate = dm\n", tokfile);
	assert_int_equal(read_cfg(body, &dc, err, sizeof err), 0);
	assert_string_equal(dc.api_url, "http://127.0.0.1:9/api/v10");
	assert_int_equal(dc.nguilds, 3);
	assert_string_equal(dc.guilds[1], "42");
	assert_true(discord_config_guild_ok(&dc, "7"));
	assert_false(discord_config_guild_ok(&dc, "8"));
	assert_true(dc.message_commands);
	assert_int_equal(dc.private_mode, DISCORD_PRIVATE_DM);
}

static void
cfg_error(const char *body, const char *needle)
{
	struct discord_config dc;
	char err[300];

	assert_int_equal(read_cfg(body, &dc, err, sizeof err), -1);
	if (strstr(err, needle) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", err, needle);
	/* never the token */
	assert_null(strstr(err, "MTk4NjIy"));
}

static void
test_config_errors_name_the_key(void **state)
{
	char body[512];
	int fd;

	(void)state;
	cfg_error("api_url = https://discord.com/api/v10\n", "t.conf:2: [discord main] token_file: needs the file");
	cfg_error("token_file = /nonexistent/tok\n", "/nonexistent/tok");
	snprintf(body, sizeof body, "token_file = %s\nprivate = whisper\n", tokfile);
	cfg_error(body, "[discord main] private: must be ephemeral or dm");
	snprintf(body, sizeof body, "token_file = %s\napi_url = discord.com\n", tokfile);
	cfg_error(body, "api_url: needs a URL");
	/* http:// only on loopback: elsewhere the token would cross the network in clear */
	snprintf(body, sizeof body, "token_file = %s\napi_url = http://discord.example/api/v10\n", tokfile);
	cfg_error(body, "api_url: http:// would send the bot token in clear");
	snprintf(body, sizeof body, "token_file = %s\napi_url = http://127.0.0.1.evil.example/api\n", tokfile);
	cfg_error(body, "only a loopback address");
	assert_true(discord_config_loopback("127.0.0.1:9/api"));
	assert_true(discord_config_loopback("127.1.2.3"));
	assert_true(discord_config_loopback("[::1]:80/x"));
	assert_true(discord_config_loopback("localhost:5000"));
	assert_false(discord_config_loopback("127.0.0.1.nip.io"));
	assert_false(discord_config_loopback("localhost.example"));
	assert_false(discord_config_loopback("127..0.1"));
	assert_false(discord_config_loopback("128.0.0.1"));
	assert_false(discord_config_loopback("[::1]x"));
	snprintf(body, sizeof body, "token_file = %s\nguilds = 12, abc\n", tokfile);
	cfg_error(body, "guilds: \"abc\" is not a guild id");
	snprintf(body, sizeof body, "token_file = %s\nmessage_commands = maybe\n", tokfile);
	cfg_error(body, "message_commands");
	snprintf(body, sizeof body, "token_file = %s\nca_file = /nonexistent/ca.pem\n", tokfile);
	cfg_error(body, "ca_file: /nonexistent/ca.pem cannot be read");
	/* "Bot " pasted in front of the token: said plainly, the token not shown */
	{
		char f[] = "/tmp/hf-dc-badXXXXXX";

		fd = mkstemp(f);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.x\n", 38), 38);
		close(fd);
		snprintf(body, sizeof body, "token_file = %s\n", f);
		cfg_error(body, "does not hold a bot token");
		unlink(f);
	}
}

static void
test_config_differs(void **state)
{
	struct discord_config a, b;
	char body[512], err[300];

	(void)state;
	snprintf(body, sizeof body, "token_file = %s\nguilds = 1 2\n", tokfile);
	assert_int_equal(read_cfg(body, &a, err, sizeof err), 0);
	assert_int_equal(read_cfg(body, &b, err, sizeof err), 0);
	assert_false(discord_config_differs(&a, &b));
	snprintf(b.guilds[1], sizeof b.guilds[1], "3");
	assert_true(discord_config_differs(&a, &b));
	assert_int_equal(read_cfg(body, &b, err, sizeof err), 0);
	b.message_commands = true;
	assert_true(discord_config_differs(&a, &b));
	/* how hands go applies on the live link: no reconnect */
	assert_int_equal(read_cfg(body, &b, err, sizeof err), 0);
	b.private_mode = DISCORD_PRIVATE_DM;
	assert_false(discord_config_differs(&a, &b));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_app_permissions_say_where_the_bot_may_post),
		cmocka_unit_test(test_units_count_utf16),
		cmocka_unit_test(test_escape_markdown),
		cmocka_unit_test(test_chunk_on_lines_spaces_and_characters),
		cmocka_unit_test(test_player_ids),
		cmocka_unit_test(test_slash_commands_from_the_table),
		cmocka_unit_test(test_slash_long_description_cut_and_bad_names_refused),
		cmocka_unit_test(test_buttons_and_custom_ids),
		cmocka_unit_test(test_mentions_only_the_player),
		cmocka_unit_test(test_slash_interaction_to_command_line),
		cmocka_unit_test(test_button_interaction),
		cmocka_unit_test(test_interaction_moderator),
		cmocka_unit_test(test_hostile_interactions_refused),
		cmocka_unit_test(test_message_create),
		cmocka_unit_test_setup_teardown(test_config_defaults_and_keys, cfg_setup, cfg_teardown),
		cmocka_unit_test_setup_teardown(test_config_errors_name_the_key, cfg_setup, cfg_teardown),
		cmocka_unit_test_setup_teardown(test_config_differs, cfg_setup, cfg_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
