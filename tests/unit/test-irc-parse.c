/* test-irc-parse.c: the IRC adapter's pure parts: line parser, tags, time, text cleaning, splitter, bucket, base64. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "irc/irc.h"

static int
parse(const char *line, char *buf, struct irc_msg *m)
{
	size_t n = strlen(line);

	memcpy(buf, line, n + 1);
	return irc_parse(buf, n, m);
}

static void
test_parse_basic(void **state)
{
	char buf[IRC_MAX_WIRE + 1];
	struct irc_msg m;

	(void)state;
	assert_int_equal(parse(":alice!al@host.example PRIVMSG #cards :!meld 9 9 2", buf, &m), 0);
	assert_string_equal(m.nick, "alice");
	assert_string_equal(m.user, "al");
	assert_string_equal(m.host, "host.example");
	assert_string_equal(m.command, "PRIVMSG");
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.params[0], "#cards");
	assert_string_equal(m.params[1], "!meld 9 9 2");

	assert_int_equal(parse("ping :irc.example", buf, &m), 0);
	assert_null(m.nick);
	assert_string_equal(m.command, "PING");
	assert_string_equal(m.params[0], "irc.example");

	assert_int_equal(parse(":srv 005 me BOT=B CHANTYPES=# :are supported", buf, &m), 0);
	assert_string_equal(m.nick, "srv");
	assert_null(m.user);
	assert_int_equal(m.nparams, 4);
	assert_string_equal(m.params[2], "CHANTYPES=#");

	/* a trailing parameter that is empty, and extra spaces */
	assert_int_equal(parse(":a!b@c  TOPIC   #x  :", buf, &m), 0);
	assert_int_equal(m.nparams, 2);
	assert_string_equal(m.params[1], "");
}

static void
test_parse_tags(void **state)
{
	char buf[IRC_MAX_WIRE + 1];
	struct irc_msg m;

	(void)state;
	assert_int_equal(parse("@time=2024-01-31T12:34:56.789Z;account=alice;x=a\\sb\\:c\\\\d\\;+draft/y "
	                       ":alice!a@h PRIVMSG #c :hi", buf, &m), 0);
	assert_int_equal(m.ntags, 4);
	assert_string_equal(irc_parse_tag(&m, "account"), "alice");
	assert_string_equal(irc_parse_tag(&m, "x"), "a b;c\\d");
	assert_string_equal(irc_parse_tag(&m, "+draft/y"), "");
	assert_null(irc_parse_tag(&m, "batch"));
	assert_true(irc_parse_time(irc_parse_tag(&m, "time")) == 1706704496789LL);
	assert_true(irc_parse_time("2024-13-01T00:00:00.000Z") == 0);
	assert_true(irc_parse_time("nonsense") == 0);
	assert_string_equal(m.command, "PRIVMSG");
}

static void
test_parse_invalid(void **state)
{
	char buf[IRC_MAX_WIRE + 1];
	struct irc_msg m;
	char big[IRC_MAX_WIRE + 10];

	(void)state;
	assert_int_equal(parse("", buf, &m), -1);
	assert_int_equal(parse(":onlyprefix", buf, &m), -1);
	assert_int_equal(parse("@tags-only", buf, &m), -1);
	assert_int_equal(parse(": PRIVMSG x :y", buf, &m), -1);
	assert_int_equal(parse("   ", buf, &m), -1);
	memcpy(buf, "PING\0x", 6);
	assert_int_equal(irc_parse(buf, 6, &m), -1);
	/* a message proper over 510 bytes is refused */
	memset(big, 'a', 600);
	memcpy(big, "PRIVMSG #c :", 12);
	big[600] = '\0';
	assert_int_equal(parse(big, buf, &m), -1);
	/* 15 parameters at most: the 15th takes the rest */
	assert_int_equal(parse("X 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", buf, &m), 0);
	assert_int_equal(m.nparams, 15);
	assert_string_equal(m.params[14], "15 16 17");
}

static void
test_casefold(void **state)
{
	char out[16];

	(void)state;
	irc_parse_casefold(out, sizeof out, "Alice[A]\\~");
	assert_string_equal(out, "alice{a}|^");
	irc_parse_casefold(out, 4, "abcdef");
	assert_string_equal(out, "abc");
}

static void
test_text(void **state)
{
	char out[64];

	(void)state;
	/* CR, LF, NUL-free controls, colours and CTCP markers are dropped on the way in */
	irc_text_in(out, sizeof out, "\x03" "04,12red\x0f \x02!draw\r\n\x01x");
	assert_string_equal(out, "red !drawx");
	/* invalid UTF-8 goes (utf8_clean), valid multibyte passes, spaces fold */
	irc_text_in(out, sizeof out, "caf\xc3\xa9 \xff \xe2\x99\xa3 \xc0\xaf");
	assert_string_equal(out, "caf\xc3\xa9 \xe2\x99\xa3");
	/* never cut a character in two when the buffer is short */
	assert_int_equal(irc_text_in(out, 5, "ab\xe2\x99\xa3"), 2);
	/* C1 controls and bidi overrides never pass: a space, as utf8_clean writes them */
	irc_text_in(out, sizeof out, "a\xc2\x85" "b\xe2\x80\xae" "c");
	assert_string_equal(out, "a b c");
	/* a copy into a short buffer ends on a character boundary */
	irc_text_copy(out, 5, "ab\xe2\x99\xa3");
	assert_string_equal(out, "ab");
}

static const char *
fmt(const char *m, const char *prefix, bool colors)
{
	static struct rbuf b;

	rbuf_reset(&b);
	irc_format(&b, m, strlen(m), prefix, colors);
	return b.s;
}

/* Styled text in mIRC codes: one reset then what is wanted at each change, a
 * reset at the end, commands with the prefix; plain text without colours. */
static void
test_format(void **state)
{
	(void)state;
	assert_string_equal(fmt("a " ST_BOLD "b" ST_END " c", "!", true), "a \x02" "b\x0f c");
	assert_string_equal(fmt(ST_CLEAN "[9 9 9 clean]" ST_END, "!", true), "\x03" "04[9 9 9 clean]\x0f");
	assert_string_equal(fmt(ST_DIRTY "x" ST_END ST_DIRTY "y" ST_END, "!", true), "\x03" "14xy\x0f");
	/* bold and red together; red inside bold, then bold alone again */
	assert_string_equal(fmt(ST_BOLD "a " ST_RED "3" ST_END " b" ST_END, "!", true),
	                    "\x02" "a \x0f\x02\x03" "043\x0f\x02 b\x0f");
	/* cards and players are plain on IRC: a nick stays highlightable */
	assert_string_equal(fmt(ST_PLAYER "ann" ST_END ": " ST_CARD "K" ST_END, "!", true), "ann: K");
	/* a comma after a colour code would read as a background colour */
	assert_string_equal(fmt(ST_RED ",5" ST_END, "!", true), "\x03" "04\x02\x02,5\x0f");
	assert_string_equal(fmt("open one with " ST_COMMAND "new" ST_END ".", "!", true), "open one with !new.");
	assert_string_equal(fmt("with " ST_COMMAND "new" ST_END, ".", false), "with .new");
	assert_string_equal(fmt(ST_BOLD "Round 2" ST_END ": " ST_RED "red 3" ST_END, "!", false), "Round 2: red 3");
	/* never a CR or LF on the wire */
	assert_null(strpbrk(fmt("a\r" ST_BR "b", "!", true), "\r\n"));
}

static void
test_bucket(void **state)
{
	struct irc_bucket b;
	int64_t now = 1000;
	int sent = 0;

	(void)state;
	irc_bucket_init(&b, 5, 2000);
	while (irc_bucket_wait(&b, now) == 0) {
		irc_bucket_take(&b, now);
		sent++;
	}
	assert_int_equal(sent, 5);
	assert_true(irc_bucket_wait(&b, now) == 2000);
	now += 2000;
	assert_true(irc_bucket_wait(&b, now) == 0);
	irc_bucket_take(&b, now);
	assert_true(irc_bucket_wait(&b, now) == 2000);
	/* an idle minute refills the bucket, but only up to the burst */
	now += 60000;
	sent = 0;
	while (irc_bucket_wait(&b, now) == 0) {
		irc_bucket_take(&b, now);
		sent++;
	}
	assert_int_equal(sent, 5);
}

static void
test_base64(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(irc_base64(out, sizeof out, (const unsigned char *)"alice\0alice\0pw", 14), 20);
	assert_string_equal(out, "YWxpY2UAYWxpY2UAcHc=");
	assert_int_equal(irc_base64(out, 4, (const unsigned char *)"abc", 3), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_basic),
		cmocka_unit_test(test_parse_tags),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_casefold),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_bucket),
		cmocka_unit_test(test_base64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
