/* test-irc-events.c: the IRC adapter's event handling with the real bot, lines in and out (ircsim): who gets a hand, renames across gaps, refused messages, the nick regained. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake.h"
#include "ircsim.h"

/* A table for alice against the computer, dealt: her hand came by NOTICE. */
static void
alice_plays(struct ircsim *s, const char *addr)
{
	char line[256];

	snprintf(line, sizeof line, ":alice!%s JOIN #cards", addr);
	ircsim_line(s, line);
	snprintf(line, sizeof line, ":alice!%s PRIVMSG #cards :!play 2 duel", addr);
	ircsim_line(s, line);
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
}

static bool
any_hand_to(struct ircsim *s, const char *nick)
{
	char want[96];

	snprintf(want, sizeof want, " %s :Your ", nick);
	return ircsim_sent(s, want, NULL) != NULL;
}

/* Any private line to nick: a hand, or a player's own steps ("You drew 7 8"). */
static bool
any_private_to(struct ircsim *s, const char *nick)
{
	char notice[96], privmsg[96];

	snprintf(notice, sizeof notice, "NOTICE %s :", nick);
	snprintf(privmsg, sizeof privmsg, "PRIVMSG %s :", nick);
	return ircsim_sent(s, notice, NULL) != NULL || ircsim_sent(s, privmsg, NULL) != NULL;
}

/* A private line for id about the game in #cards, as the core sends it: one
 * that must be delivered (a hand at a deal), or an answer (supersede key). */
static int
send_private(struct ircsim *s, const char *id, const char *supersede)
{
	struct adapter_msg m = { .kind = MSG_PRIVATE, .room = "#cards", .user_id = id,
	                         .styled = "Your hand (2): 7 8", .supersede = supersede, .asker = id };
	int rc = s->ad->ops->send(s->ad, &m);

	reply_flush(s->bot);
	return rc;
}

/* Issue 15 (low): "nick:X~N" ids were written with '~' but looked up
 * case-folded ('~' -> '^'): such a player never got a private line. */
static void
test_newcomer_id_is_found_again(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":alice!a@h1.test JOIN #cards");
	ircsim_line(s, ":alice!a@h1.test NICK alicia");
	/* someone takes "alice" while alicia (first seen as alice) is here: another id */
	ircsim_line(s, ":alice!b@h2.test JOIN #cards");
	ircsim_line(s, ":alice!b@h2.test PRIVMSG #cards :!play 2 duel");
	assert_non_null(ircsim_sent(s, "PRIVMSG #cards :", "Dealing", NULL));
	/* their hand reaches them, and only them */
	assert_true(any_hand_to(s, "alice"));
	assert_false(any_hand_to(s, "alicia"));
	ircsim_forget(s);
	ircsim_line(s, ":alice!b@h2.test PRIVMSG #cards :!hand");
	assert_true(any_hand_to(s, "alice"));
	ircsim_free(s);
}

/* Issue 15 (medium): a player quits, someone else takes the nick, the
 * computer plays the seat, and the newcomer received "Your hand". */
static void
test_no_hand_to_whoever_wears_the_nick(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "a@home.test");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!auto");
	ircsim_line(s, ":alice!a@home.test QUIT :gone");
	/* mallory, from elsewhere, takes the nick while the computer plays alice's seat */
	ircsim_line(s, ":alice!m@elsewhere.test JOIN #cards");
	ircsim_forget(s);
	/* the computer's turn for her seat, told in one line ("alice drew ..., discarded ...") */
	for (int i = 0; i < 200 && ircsim_sent(s, "PRIVMSG #cards :alice ", "discarded", NULL) == NULL; i++)
		ircsim_advance(s, 10);
	assert_non_null(ircsim_sent(s, "PRIVMSG #cards :alice ", "discarded", NULL));
	assert_false(any_private_to(s, "alice"));
	/* a seat on !auto is sent nothing privately: what the core would send
	 * alice's id (in the room's lane, or an answer in the asker's) is refused */
	assert_int_equal(send_private(s, "nick:alice", NULL), -1);
	assert_int_equal(send_private(s, "nick:alice", "hand"), -1);
	ircsim_advance(s, 10);
	assert_false(any_private_to(s, "alice"));
	/* nor may she play the seat */
	ircsim_line(s, ":alice!m@elsewhere.test PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "PRIVMSG #cards :", "no seat", NULL));
	assert_false(any_hand_to(s, "alice"));
	/* a nick nobody visible wears gets nothing either (no blind send) */
	ircsim_line(s, ":alice!m@elsewhere.test PART #cards");
	ircsim_forget(s);
	for (int i = 0; i < 100; i++)
		ircsim_advance(s, 10);
	assert_int_equal(send_private(s, "nick:alice", NULL), -1);
	assert_false(any_private_to(s, "alice"));
	/* alice, back from home, has her seat and her hand */
	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!hand");
	assert_true(any_hand_to(s, "alice"));
	ircsim_forget(s);
	assert_int_equal(send_private(s, "nick:alice", NULL), 0);
	assert_true(any_private_to(s, "alice"));
	ircsim_free(s);
}

/* A hand still queued (behind the room's lines, at the pace) when its
 * player quits: it goes nowhere, not to whoever takes the nick next; when
 * she renames, it follows her. */
static void
test_queued_hand_follows_its_player(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "a@home.test");
	ircsim_forget(s);
	s->hold = true;
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!draw");
	/* her step ("You drew ... · Your hand") waits in the room's lane */
	assert_int_equal(irc_queue_count_keep(&s->irc->out, "#cards"), 1);
	ircsim_line(s, ":alice!a@home.test QUIT :gone");
	ircsim_line(s, ":alice!m@elsewhere.test JOIN #cards");
	s->hold = false;
	assert_false(any_private_to(s, "alice"));
	ircsim_line(s, ":alice!m@elsewhere.test PART #cards");

	/* renamed: what waits for her goes to her new nick, none to the old one */
	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_forget(s);
	s->hold = true;
	assert_int_equal(send_private(s, "nick:alice", NULL), 0);
	assert_int_equal(send_private(s, "nick:alice", "hand"), 0);
	ircsim_line(s, ":alice!a@home.test NICK alicia");
	ircsim_line(s, ":alice!m@elsewhere.test JOIN #cards");
	s->hold = false;
	assert_false(any_private_to(s, "alice"));
	assert_non_null(ircsim_sent(s, "NOTICE alicia :Your hand (2): 7 8", NULL));
	ircsim_forget(s);

	/* a lost connection: nobody can say who wears her nick on the next one */
	s->hold = true;
	assert_int_equal(send_private(s, "nick:alice", NULL), 0);
	irc_conn_disconnect(s->irc, "test");
	s->hold = false;
	assert_false(any_private_to(s, "alicia"));
	ircsim_free(s);
}

/* Issue 15 (medium): a player renames, quits while the bot is away, and
 * whoever connects with the renamed nick got the seat and the hand. */
static void
test_remembered_rename_needs_the_same_host(void **state)
{
	char db[] = "/tmp/hf-ircsim-XXXXXX";
	struct ircsim *s;

	(void)state;
	fake_tmpdb(db);
	s = ircsim_new(db, NULL, NULL);
	alice_plays(s, "a@home.test");
	ircsim_line(s, ":alice!a@home.test NICK alicia");
	ircsim_free(s);                       /* the bot goes away; alicia quits meanwhile */

	s = ircsim_new(db, NULL, NULL);
	ircsim_line(s, ":alicia!x@stranger.test JOIN #cards");
	ircsim_line(s, ":alicia!x@stranger.test PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "PRIVMSG #cards :", "alicia: you have no seat", NULL));
	assert_false(any_hand_to(s, "alicia"));
	ircsim_line(s, ":alicia!x@stranger.test QUIT :bye");
	/* the real alicia, from home, is alice's seat */
	ircsim_line(s, ":alicia!a@home.test JOIN #cards");
	ircsim_line(s, ":alicia!a@home.test PRIVMSG #cards :!hand");
	assert_true(any_hand_to(s, "alicia"));
	ircsim_free(s);

	/* the memory expires: a week later it is not trusted */
	s = ircsim_new(db, NULL, NULL);
	assert_int_equal(adapter_state_set(s->ad, "nick/alicia", "alice a@home.test 1000"), 0);
	ircsim_line(s, ":alicia!a@home.test JOIN #cards");
	ircsim_line(s, ":alicia!a@home.test PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "PRIVMSG #cards :", "no seat", NULL));
	ircsim_free(s);
	fake_rmdb(db);
}

/* After a restart the names come without addresses (NAMES): hands wait for
 * the WHO that tells them, and the channel is "joined" only then. */
static void
test_who_tells_who_is_who(void **state)
{
	char db[] = "/tmp/hf-ircsim-XXXXXX";
	struct ircsim *s;

	(void)state;
	fake_tmpdb(db);
	s = ircsim_new(db, NULL, NULL);
	alice_plays(s, "a@home.test");
	assert_non_null(ircsim_sent(s, "WHO #cards", NULL));
	ircsim_free(s);

	s = ircsim_new(db, NULL, NULL);
	ircsim_line(s, ":irc.test 353 HandFoot = #cards :HandFoot @alice");
	ircsim_forget(s);
	ircsim_line(s, ":alice!a@home.test PRIVMSG HandFoot :!hand");
	assert_true(any_hand_to(s, "alice"));
	ircsim_free(s);

	/* someone else on alice's nick, known by NAMES only: unsure, no hand until WHO */
	s = ircsim_new(db, NULL, NULL);
	ircsim_line(s, ":irc.test 353 HandFoot = #cards :HandFoot alice");
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 352 HandFoot #cards m elsewhere.test irc.test alice H :0 mallory");
	ircsim_line(s, ":alice!m@elsewhere.test PRIVMSG #cards :!hand");
	assert_false(any_hand_to(s, "alice"));
	ircsim_free(s);
	fake_rmdb(db);
}

/* Issue 11: a +m channel without voice answers 404; it was neither handled
 * nor logged, and "!help" and the deal just disappeared. */
static void
test_moderated_channel_tells_the_owner_once(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	size_t told = 0;

	(void)state;
	alice_plays(s, "a@home.test");
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 404 HandFoot #cards :Cannot send to channel (+m)");
	ircsim_line(s, ":irc.test 404 HandFoot #cards :Cannot send to channel (+m)");
	ircsim_collect(s);
	for (size_t i = s->seen; i < s->nsent; i++)
		if (strstr(s->sent[i], " alice :") != NULL && strstr(s->sent[i], "cannot be followed") != NULL) {
			assert_non_null(strstr(s->sent[i], "Cannot send to channel (+m)"));
			told++;
		}
	assert_int_equal(told, 1);
	ircsim_free(s);
}

/* Issue 11: a colour-blocking channel dropped only the coloured lines: now
 * the refused ones go again plain, and plain text from then on. */
static void
test_colour_refused_goes_plain(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	char coloured[IRC_MAX_LINE + 1], plain[IRC_MAX_LINE + 1];
	const char *l = NULL;
	size_t n;

	(void)state;
	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!play 2 duel");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!score");
	ircsim_collect(s);
	for (size_t i = 0; i < s->nsent && l == NULL; i++)
		if (strncmp(s->sent[i], "PRIVMSG #cards :", 16) == 0 && strpbrk(s->sent[i], "\x02\x03") != NULL)
			l = s->sent[i];
	assert_non_null(l);
	/* what goes on the wire passes irc_chan_outgoing, as irc_send_flush does */
	n = strlen(l);
	memcpy(coloured, l, n + 1);
	irc_chan_outgoing(s->irc, irc_chan_find(s->irc, "#cards"), coloured, &n);
	n = irc_text_unformat(plain, sizeof plain, coloured);
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 404 HandFoot #cards :You cannot send messages containing formatting characters to "
	               "this channel (+c is set)");
	l = ircsim_sent(s, plain, NULL);
	assert_non_null(l);        /* sent again, plain */
	assert_null(strpbrk(l, "\x02\x03\x0f"));
	assert_true(s->irc->chans[irc_chan_find(s->irc, "#cards")].plain);
	/* later lines lose their codes on the way out */
	{
		char line[IRC_MAX_LINE + 1] = "PRIVMSG #cards :\x02" "bold\x02 and \x03" "04red\x03";
		size_t len = strlen(line);

		irc_chan_outgoing(s->irc, irc_chan_find(s->irc, "#cards"), line, &len);
		assert_string_equal(line, "PRIVMSG #cards :bold and red");
		assert_int_equal(len, strlen(line));
	}
	assert_non_null(ircsim_sent(s, " alice :", "refuses colours", NULL));
	ircsim_free(s);
}

/* Issue 11: the bot never took its nick back (HandFoot_ for good, and whoever
 * held HandFoot could send fake "Your hand" notices). */
static void
test_nick_regained(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "nick_poll = 30\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":HandFoot!hf@bot.test NICK HandFoot_");
	irc_regain_start(s->irc);
	ircsim_forget(s);
	/* no MONITOR: a slow ISON (conn.c's tick calls this each second) */
	irc_regain_tick(s->irc, s->now + 29000);
	assert_null(ircsim_sent(s, "ISON HandFoot", NULL));
	irc_regain_tick(s->irc, s->now + 31000);
	assert_non_null(ircsim_sent(s, "ISON HandFoot", NULL));
	ircsim_line(s, ":irc.test 303 HandFoot_ :HandFoot");
	assert_null(ircsim_sent(s, "NICK HandFoot", NULL));
	ircsim_line(s, ":irc.test 303 HandFoot_ :");
	assert_non_null(ircsim_sent(s, "NICK HandFoot", NULL));
	/* refused (taken again at once): the holder's QUIT, seen in a channel, tries again */
	ircsim_line(s, ":irc.test 433 HandFoot_ HandFoot :Nickname already in use");
	ircsim_forget(s);
	ircsim_line(s, ":HandFoot!x@squatter.test QUIT :bye");
	assert_non_null(ircsim_sent(s, "NICK HandFoot", NULL));
	ircsim_line(s, ":HandFoot_!hf@bot.test NICK HandFoot");
	assert_string_equal(s->irc->cur_nick, "HandFoot");
	ircsim_free(s);

	/* MONITOR where the server offers it */
	s = ircsim_new(":memory:", NULL, NULL);
	ircsim_line(s, ":HandFoot!hf@bot.test NICK HandFoot_");
	s->irc->monitor = true;
	irc_regain_start(s->irc);
	assert_non_null(ircsim_sent(s, "MONITOR + HandFoot", NULL));
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 731 HandFoot_ :HandFoot");
	assert_non_null(ircsim_sent(s, "NICK HandFoot", NULL));
	ircsim_line(s, ":HandFoot_!hf@bot.test NICK HandFoot");
	assert_non_null(ircsim_sent(s, "MONITOR - HandFoot", NULL));
	ircsim_free(s);
}

/* With NickServ credentials the services free the nick at once: REGAIN. */
static void
test_nick_regain_by_nickserv(void **state)
{
	struct ircsim *s = ircsim_new_nickserv(":memory:", "s3cret");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":HandFoot!hf@bot.test NICK HandFoot_");
	irc_regain_start(s->irc);
	assert_non_null(ircsim_sent(s, "PRIVMSG NickServ :REGAIN HandFoot s3cret", NULL));
	ircsim_free(s);
}

/* 20 nicks asking the bot's VERSION (CTCP) put no room line behind their
 * replies: the replies wait behind the games' lines, as strangers' answers. */
static void
test_ctcp_replies_wait_behind_the_room(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	char line[128];
	size_t first, opens = 0, ctcp = 0;

	(void)state;
	assert_non_null(s);
	ircsim_collect(s);
	first = s->nsent;
	s->hold = true;
	for (int i = 0; i < 20; i++) {
		snprintf(line, sizeof line, ":nick%02d!n@else.test PRIVMSG HandFoot :\001VERSION\001", i);
		ircsim_line(s, line);
	}
	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!new duel");
	ircsim_collect(s);
	for (size_t i = first; i < s->nsent; i++) {
		if (strstr(s->sent[i], "PRIVMSG #cards :") != NULL && strstr(s->sent[i], "opens a duel table") != NULL)
			opens = i - first + 1;
		ctcp += strstr(s->sent[i], "\001VERSION") != NULL;
	}
	assert_int_equal(ctcp, 20);
	assert_true(opens >= 1 && opens <= 2);
	ircsim_free(s);
}

/* An answer said again within a minute is pointed at ("the same as N s
 * ago, above"), and that pointer is handed to lib/outq with the fact
 * again: it replaces nothing, and while the answer it points at still
 * waits, that one says it.  Before, it was an answer like any other, and
 * replaced the full answer it pointed at while that still waited in the
 * asker's lane: she got only "the same as 0 s ago, above", above nothing. */
static void
test_pointer_keeps_the_answer_it_points_at(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	size_t first, full = 0, pointer = 0, at_full = 0, at_pointer = 0;

	(void)state;
	assert_non_null(s);
	alice_plays(s, "a@home.test");
	ircsim_line(s, ":carol!c@else.test JOIN #cards");
	ircsim_collect(s);
	first = s->nsent;
	s->hold = true;
	/* carol asks twice before the first answer has gone */
	ircsim_line(s, ":carol!c@else.test PRIVMSG #cards :!table");
	ircsim_line(s, ":carol!c@else.test PRIVMSG #cards :!table");
	ircsim_collect(s);
	for (size_t i = first; i < s->nsent; i++) {
		if (strstr(s->sent[i], "PRIVMSG #cards :") == NULL)
			continue;
		if (strstr(s->sent[i], "the same as") != NULL) {
			pointer++;
			at_pointer = i;
		} else if (strstr(s->sent[i], "alice") != NULL) {
			full++;
			at_full = i;
		}
	}
	/* the table whole, once: while it still waited it answered her second
	 * ask too, and the pointer was never queued */
	assert_int_equal(full, 1);
	assert_int_equal(pointer, 0);
	/* asked again once it has gone: the pointer, after it */
	ircsim_line(s, ":carol!c@else.test PRIVMSG #cards :!table");
	ircsim_collect(s);
	for (size_t i = first; i < s->nsent; i++)
		if (strstr(s->sent[i], "PRIVMSG #cards :") != NULL && strstr(s->sent[i], "the same as") != NULL) {
			pointer++;
			at_pointer = i;
			/* she is named as the room sees her, not by her id ("nick:carol") */
			assert_non_null(strstr(s->sent[i], "carol"));
			assert_null(strstr(s->sent[i], "nick:carol"));
		}
	assert_int_equal(pointer, 1);
	assert_true(at_full < at_pointer);
	ircsim_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newcomer_id_is_found_again),
		cmocka_unit_test(test_no_hand_to_whoever_wears_the_nick),
		cmocka_unit_test(test_queued_hand_follows_its_player),
		cmocka_unit_test(test_remembered_rename_needs_the_same_host),
		cmocka_unit_test(test_who_tells_who_is_who),
		cmocka_unit_test(test_moderated_channel_tells_the_owner_once),
		cmocka_unit_test(test_colour_refused_goes_plain),
		cmocka_unit_test(test_nick_regained),
		cmocka_unit_test(test_nick_regain_by_nickserv),
		cmocka_unit_test(test_ctcp_replies_wait_behind_the_room),
		cmocka_unit_test(test_pointer_keeps_the_answer_it_points_at),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
