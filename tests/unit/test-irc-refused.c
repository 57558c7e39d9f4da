/* test-irc-refused.c: what real networks refuse (ircsim as Solanum, InspIRCd, UnrealIRCd answer): private lines refused and told, target limits retried, kills backed off, joins and ISUPPORT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "ircsim.h"
#include "log.h"
#include "loop.h"

/* alice sits at a duel against the computer: her hand went out by cmd ("NOTICE" or "PRIVMSG"). */
static void
alice_plays(struct ircsim *s, const char *cmd)
{
	char want[64];

	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!play 2 duel");
	snprintf(want, sizeof want, "%s alice :Your hand", cmd);
	assert_non_null(ircsim_sent(s, want, NULL));
}

/* Lines told to the room that alice's private line did not reach her. */
static size_t
told_unreachable(struct ircsim *s, const char *how)
{
	size_t n = 0;

	ircsim_collect(s);
	for (size_t i = s->seen; i < s->nsent; i++)
		n += strstr(s->sent[i], "PRIVMSG #cards :alice: your private line did not reach you") != NULL &&
		     strstr(s->sent[i], how) != NULL;
	return n;
}

/* Solanum: 707 drops the hand; the room tells alice once, and the hand
 * goes again when a slot frees (one a minute). */
static void
test_target_change_told_and_retried(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 707 HandFoot alice :Targets changing too fast, message dropped");
	assert_int_equal(told_unreachable(s, "/msg HandFoot hand"), 1);
	assert_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	/* a second refusal soon after is not told again */
	ircsim_advance(s, 30000);
	assert_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_line(s, ":irc.test 707 HandFoot alice :Targets changing too fast, message dropped");
	assert_int_equal(told_unreachable(s, "/msg HandFoot hand"), 1);
	ircsim_advance(s, 31000);
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_free(s);
}

/* Past a 707 no line goes to a new target until a slot frees (each would
 * be refused too); then the refused hand goes first, the answer after. */
static void
test_target_limit_holds_new_targets(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	const char *hand, *rules;

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	s->paced = true;   /* lines as the connection writes them: where the limit holds them */
	ircsim_line(s, ":irc.test 707 HandFoot alice :Targets changing too fast, message dropped");
	ircsim_forget(s);
	ircsim_line(s, ":bob!b@else.test JOIN #cards");
	ircsim_line(s, ":bob!b@else.test PRIVMSG #cards :!rules");
	assert_null(ircsim_sent(s, "NOTICE bob :", NULL));
	ircsim_advance(s, 61000);
	assert_non_null(hand = ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	assert_non_null(rules = ircsim_sent(s, "NOTICE bob :", NULL));
	for (size_t i = s->seen; i < s->nsent; i++) {
		if (s->sent[i] == rules)
			fail_msg("bob's answer went before alice's hand");
		if (s->sent[i] == hand)
			break;
	}
	ircsim_free(s);
}

/* UnrealIRCd: 439 says how long to wait. */
static void
test_target_too_fast_waits_as_asked(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 439 HandFoot alice :Message target change too fast. Please wait 5 seconds");
	assert_int_equal(told_unreachable(s, "/msg HandFoot"), 1);
	ircsim_advance(s, 6000);
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_free(s);
}

/* +g: 716 on a PRIVMSG; alice is told to /accept the bot. */
static void
test_callerid_told(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 716 HandFoot alice :is in +g mode (server-side ignore.)");
	ircsim_line(s, ":irc.test 717 HandFoot alice :has been informed that you messaged them.");
	assert_int_equal(told_unreachable(s, "/accept HandFoot"), 1);
	ircsim_free(s);
}

/* +R: Solanum's 486, InspIRCd's 477 with a nick (not a refused join), InspIRCd 4's 531. */
static void
test_registered_only_told(void **state)
{
	static const char *const lines[] = {
		":irc.test 486 HandFoot alice :You must log in with services to message this user",
		":irc.test 477 HandFoot alice :You need to be identified to a registered account to message this user",
		":irc.test 531 HandFoot alice :You are not permitted to send private messages to this user",
	};

	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

		assert_non_null(s);
		alice_plays(s, "NOTICE");
		ircsim_forget(s);
		ircsim_line(s, lines[i]);
		assert_int_equal(told_unreachable(s, ""), 1);
		assert_false(s->irc->chans[0].failed);
		ircsim_free(s);
	}
}

/* 477 with a channel is still a refused join. */
static void
test_registered_channel_is_a_join(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	int i;

	(void)state;
	assert_non_null(s);
	assert_true((i = irc_chan_add(s->irc, "#reg", true)) >= 0);
	ircsim_line(s, ":irc.test 477 HandFoot #reg :Cannot join channel (+R)");
	assert_true(s->irc->chans[i].failed);
	ircsim_free(s);
}

/* Where ISUPPORT says CALLERID (Solanum), a NOTICE to a +g user is
 * dropped without a word: hands go by PRIVMSG, unless the player chose. */
static void
test_callerid_network_sends_privmsg(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 005 HandFoot CALLERID=g :are supported");
	alice_plays(s, "PRIVMSG");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!private notice");
	ircsim_forget(s);
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_free(s);
}

/* The link drops (the server closed it after lines, if any): the wait
 * before the next attempt, in seconds, as the log line says it; and the
 * reason it names, in why. */
static long
dropped(struct ircsim *s, const char *const *lines, char *why, size_t whylen)
{
	char path[] = "/tmp/hf-irc-log-XXXXXX", buf[8192];
	int fd = mkstemp(path), saved = dup(2), was = log_level;
	const char *p, *q;
	ssize_t n;
	long secs = -1;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	log_level = LOG_LVL_WARNING;
	for (; lines != NULL && *lines != NULL; lines++)
		ircsim_line(s, *lines);
	irc_conn_disconnect(s->irc, "connection closed by the server");
	fflush(stderr);
	log_level = was;
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof buf - 1, 0);
	close(fd);
	unlink(path);
	buf[n > 0 ? n : 0] = '\0';
	if ((p = strstr(buf, "disconnected from ")) != NULL && (q = strstr(p, "; next attempt in ")) != NULL) {
		secs = strtol(q + 18, NULL, 10);
		snprintf(why, whylen, "%.*s", (int)(q - p), p);
	}
	/* no connection is tried in these tests: the next attempt is ours */
	loop_timer_del(s->loop, s->irc->retry_timer);
	s->irc->retry_timer = 0;
	return secs;
}

/* Back up as the server would have it after a reconnect (no socket). */
static void
back_up(struct ircsim *s)
{
	s->irc->state = IRC_REGISTERING;
	s->irc->welcomed = false;
	ircsim_line(s, ":irc.test 001 HandFoot :Welcome");
	ircsim_line(s, ":irc.test 376 HandFoot :End of MOTD");
	ircsim_line(s, ":HandFoot!hf@bot.test JOIN #cards");
	ircsim_line(s, ":irc.test 315 HandFoot #cards :End of WHO list");
	assert_true(s->irc->up);
}

/* Killed at once after each reconnect: the backoff grows (it was reset
 * at every connection: back every 2 s for good); after a minute up it
 * starts again from 2 s. */
static void
test_backoff_resets_only_when_stable(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	char why[256];

	(void)state;
	assert_non_null(s);
	assert_true(dropped(s, NULL, why, sizeof why) <= 3);
	back_up(s);
	ircsim_advance(s, 5000);
	assert_true(dropped(s, NULL, why, sizeof why) >= 3);
	back_up(s);
	ircsim_advance(s, 5000);
	assert_true(dropped(s, NULL, why, sizeof why) >= 6);
	back_up(s);
	ircsim_advance(s, 61000);
	assert_true(dropped(s, NULL, why, sizeof why) <= 3);
	ircsim_free(s);
}

/* A K-line, an excess flood, a KILL, a throttle: a hard backoff, and the log says why. */
static void
test_hard_quits_back_off(void **state)
{
	static const struct {
		const char *lines[3];
		const char *said;
		long at_least;
	} cases[] = {
		{ { "ERROR :Closing Link: 127.0.0.1 (K-Lined: spam)", NULL }, "banned (K-line)", 3600 },
		{ { ":irc.test 465 HandFoot :You are banned from this server- spam", "ERROR :Closing Link: HandFoot[127.0.0.1] (Banned)", NULL },
		  "banned", 3600 },
		{ { "ERROR :Closing Link: 127.0.0.1 (Excess Flood)", NULL }, "excess flood", 60 },
		{ { ":oper!o@staff.test KILL HandFoot :go away", "ERROR :Closing Link: irc.test (Killed (oper (go away)))", NULL },
		  "killed", 60 },
		{ { "ERROR :Trying to reconnect too fast.", NULL }, "throttled", 60 },
		{ { "ERROR :Your host is trying to (re)connect too fast -- throttled", NULL }, "throttled", 60 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
		char why[256] = "";
		long secs;

		assert_non_null(s);
		secs = dropped(s, cases[i].lines, why, sizeof why);
		if (secs < cases[i].at_least || strstr(why, cases[i].said) == NULL)
			fail_msg("case %zu: %ld s, \"%s\"", i, secs, why);
		ircsim_free(s);
	}
}

/* The bot joins #chan on an invitation, and learns its members (NAMES with their modes, WHO). */
static void
joined_with(struct ircsim *s, const char *chan, const char *names)
{
	char line[256];

	snprintf(line, sizeof line, ":HandFoot!hf@bot.test JOIN %s", chan);
	ircsim_line(s, line);
	snprintf(line, sizeof line, ":irc.test 353 HandFoot = %s :%s HandFoot", chan, names);
	ircsim_line(s, line);
	snprintf(line, sizeof line, ":irc.test 366 HandFoot %s :End of NAMES list", chan);
	ircsim_line(s, line);
	snprintf(line, sizeof line, ":irc.test 315 HandFoot %s :End of WHO list", chan);
	ircsim_line(s, line);
}

/* join_on_invite: an invitation from someone who is no operator of the
 * channel is not taken (the bot leaves once it sees); an operator's is,
 * and so is one from invite_from; no more than invite_max channels. */
static void
test_invites_from_operators_only(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "join_on_invite = yes\ninvite_from = dave\ninvite_max = 3\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":bob!b@home.test INVITE HandFoot #fun");
	assert_non_null(ircsim_sent(s, "JOIN #fun", NULL));
	joined_with(s, "#fun", "@carol bob");
	assert_non_null(ircsim_sent(s, "PART #fun", NULL));
	ircsim_line(s, ":HandFoot!hf@bot.test PART #fun");
	ircsim_forget(s);
	ircsim_line(s, ":carol!c@home.test INVITE HandFoot #fun");
	assert_non_null(ircsim_sent(s, "JOIN #fun", NULL));
	joined_with(s, "#fun", "@carol bob");
	assert_null(ircsim_sent(s, "PART #fun", NULL));
	ircsim_line(s, ":dave!d@home.test INVITE HandFoot #two");
	joined_with(s, "#two", "dave");
	assert_null(ircsim_sent(s, "PART #two", NULL));
	ircsim_line(s, ":carol!c@home.test INVITE HandFoot #three");
	joined_with(s, "#three", "@carol");
	ircsim_forget(s);
	/* three invited channels: a fourth invitation is not taken */
	ircsim_line(s, ":carol!c@home.test INVITE HandFoot #four");
	assert_null(ircsim_sent(s, "JOIN #four", NULL));
	ircsim_free(s);
}

/* A configured channel that is +i refused the join (473): an invitation
 * from anyone lets the bot in, join_on_invite or not. */
static void
test_invite_to_configured_channel(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards #priv\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 473 HandFoot #priv :Cannot join channel (+i)");
	ircsim_forget(s);
	ircsim_line(s, ":op!o@home.test INVITE HandFoot #priv");
	assert_non_null(ircsim_sent(s, "JOIN #priv", NULL));
	ircsim_free(s);
}

/* Solanum without chghost: alice identifies mid-game and is cloaked: a
 * QUIT "Changing host" and a JOIN from the new host. Not a quit: the hand
 * queued for her stays hers, and she is the same player after. */
static void
test_fake_quit_keeps_the_player(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_forget(s);
	s->hold = true;
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!hand");
	ircsim_line(s, ":alice!a@home.test QUIT :Changing host");
	ircsim_line(s, ":alice!a@user/alice JOIN #cards");
	s->hold = false;
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_forget(s);
	ircsim_line(s, ":alice!a@user/alice PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_free(s);
}

/* A "Changing host" QUIT whose JOIN never comes was a quit after all. */
static void
test_fake_quit_without_join_is_a_quit(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_line(s, ":alice!a@home.test QUIT :Changing host");
	ircsim_advance(s, 10000);
	irc_members_tick(s->irc, s->now);
	assert_non_null(irc_users_find(&s->irc->users, "alice"));
	ircsim_advance(s, 25000);
	irc_members_tick(s->irc, s->now);
	assert_null(irc_users_find(&s->irc->users, "alice"));
	ircsim_free(s);
}

/* With chghost the same cloak is one CHGHOST line: followed, alice stays alice. */
static void
test_chghost_followed(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	alice_plays(s, "NOTICE");
	ircsim_forget(s);
	ircsim_line(s, ":alice!a@home.test CHGHOST a user/alice");
	ircsim_line(s, ":alice!a@user/alice PRIVMSG #cards :!hand");
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_free(s);
}

/* Identifying by NickServ: the joins wait for the login (900), so that a
 * channel for registered users lets the bot in and sees its cloak. */
static void
test_joins_wait_for_identification(void **state)
{
	struct ircsim *s = ircsim_new_nickserv(":memory:", "s3cret");

	(void)state;
	assert_non_null(s);
	assert_non_null(ircsim_sent(s, "PRIVMSG NickServ :IDENTIFY HandFoot s3cret", NULL));
	assert_null(ircsim_sent(s, "JOIN #cards", NULL));
	ircsim_line(s, ":irc.test 900 HandFoot HandFoot!hf@bot.test HandFoot :You are now logged in as HandFoot");
	assert_non_null(ircsim_sent(s, "JOIN #cards", NULL));
	ircsim_free(s);
}

/* nickserv_target = NickServ@services.test: IDENTIFY and REGAIN go to the
 * full name, which the server delivers only to a NickServ on the services'
 * server; nothing with the password goes to a bare "NickServ", which on a
 * net without services anyone could wear. A bad target is refused. */
static void
test_nickserv_full_name(void **state)
{
	char path[] = "/tmp/hf-nst-XXXXXX", extra[256];
	int fd = mkstemp(path);
	struct ircsim *s;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "s3cret\n", 7), 7);
	close(fd);
	snprintf(extra, sizeof extra, "nickserv_password_file = %s\nnickserv_target = NickServ@services.test\n", path);
	s = ircsim_new(":memory:", NULL, extra);
	assert_non_null(s);
	assert_non_null(ircsim_sent(s, "PRIVMSG NickServ@services.test :IDENTIFY HandFoot s3cret", NULL));
	ircsim_line(s, ":irc.test 900 HandFoot HandFoot!hf@bot.test HandFoot :You are now logged in as HandFoot");
	ircsim_line(s, ":HandFoot!hf@bot.test NICK HandFoot_");
	irc_regain_start(s->irc);
	assert_non_null(ircsim_sent(s, "PRIVMSG NickServ@services.test :REGAIN HandFoot s3cret", NULL));
	assert_null(ircsim_sent(s, "PRIVMSG NickServ :", NULL));
	ircsim_free(s);
	for (const char *const *bad = (const char *const[]){ "Nick Serv", "NickServ@", "#services", "a@b@c", NULL };
	     *bad != NULL; bad++) {
		snprintf(extra, sizeof extra, "nickserv_password_file = %s\nnickserv_target = %s\n", path, *bad);
		assert_null(ircsim_new(":memory:", NULL, extra));
	}
	unlink(path);
}

/* Lines sent with needle since the last ircsim_forget. */
static size_t
count_sent(struct ircsim *s, const char *needle)
{
	size_t n = 0;

	ircsim_collect(s);
	for (size_t i = s->seen; i < s->nsent; i++)
		n += strstr(s->sent[i], needle) != NULL;
	return n;
}

/* A refused join goes again, later each time (30 s, then 60 s); a bad name (479) never. */
static void
test_refused_joins_retried(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards, #full, #bad\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 471 HandFoot #full :Cannot join channel (+l)");
	ircsim_line(s, ":irc.test 479 HandFoot #bad :Illegal channel name");
	ircsim_forget(s);
	ircsim_advance(s, 31000);
	assert_int_equal(count_sent(s, "JOIN #full"), 1);
	ircsim_line(s, ":irc.test 480 HandFoot #full :Cannot join channel (throttled)");
	ircsim_advance(s, 31000);
	assert_int_equal(count_sent(s, "JOIN #full"), 1);
	ircsim_advance(s, 30000);
	assert_int_equal(count_sent(s, "JOIN #full"), 2);
	ircsim_advance(s, 3600000);
	assert_int_equal(count_sent(s, "JOIN #bad"), 0);
	ircsim_free(s);
}

/* Solanum's +f forward: 470, then our JOIN to the other channel: left at once, never adopted. */
static void
test_forward_never_adopted(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards, #full\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 470 HandFoot #full ##overflow :Forwarding to another channel");
	ircsim_line(s, ":HandFoot!hf@bot.test JOIN ##overflow");
	assert_non_null(ircsim_sent(s, "PART ##overflow", NULL));
	assert_true(irc_chan_find(s->irc, "##overflow") < 0);
	assert_true(s->irc->chans[irc_chan_find(s->irc, "#full")].failed);
	ircsim_free(s);
}

/* 437 naming a channel (held after a split) is a refused join, not our nick refused. */
static void
test_unavailable_channel_is_no_nick(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards, #held\n");

	(void)state;
	assert_non_null(s);
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 437 HandFoot #held :Nick/channel is temporarily unavailable");
	assert_null(ircsim_sent(s, "NICK ", NULL));
	assert_string_equal(s->irc->cur_nick, "HandFoot");
	assert_true(s->irc->chans[irc_chan_find(s->irc, "#held")].failed);
	ircsim_free(s);
}

/* "#club secret": a key, joined with it. */
static void
test_channel_keys(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards, #club secret, #open\n");

	(void)state;
	assert_non_null(s);
	s->seen = 0;
	assert_non_null(ircsim_sent(s, "JOIN #club secret", NULL));
	assert_non_null(ircsim_sent(s, "JOIN #cards,#open", NULL));
	assert_true(irc_chan_find(s->irc, "secret") < 0);
	ircsim_free(s);
}

/* CASEMAPPING=ascii (InspIRCd 4): "Hand{F}" is not the bot "Hand[F]": their PART is theirs. */
static void
test_ascii_casemapping(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	int i;

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":HandFoot!hf@bot.test NICK Hand[F]");
	ircsim_line(s, ":irc.test 005 Hand[F] CASEMAPPING=ascii :are supported");
	ircsim_line(s, ":Hand{F}!x@other.test JOIN #cards");
	ircsim_line(s, ":Hand{F}!x@other.test PART #cards");
	assert_true((i = irc_chan_find(s->irc, "#cards")) >= 0);
	assert_true(s->irc->chans[i].in);
	ircsim_free(s);
}

/* CASEMAPPING=ascii in the users table too: "x[y" and "x{y" are two people
 * with two ids, and one's PART or NICK leaves the other where they are;
 * under rfc1459 (no CASEMAPPING said) they are one. */
static void
test_ascii_casemapping_users(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	struct irc_user *a, *b;
	char ida[96], idb[96];
	int i;

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 005 HandFoot CASEMAPPING=ascii :are supported");
	ircsim_line(s, ":x[y!a@one.test JOIN #cards");
	ircsim_line(s, ":x{y!b@two.test JOIN #cards");
	assert_true((i = irc_chan_find(s->irc, "#cards")) >= 0);
	assert_non_null(a = irc_users_find(&s->irc->users, "x[y"));
	assert_non_null(b = irc_users_find(&s->irc->users, "X{Y"));
	assert_true(a != b);
	irc_users_id(a, ida, sizeof ida);
	irc_users_id(b, idb, sizeof idb);
	assert_string_equal(ida, "nick:x[y");
	assert_string_equal(idb, "nick:x{y");
	ircsim_line(s, ":x{y!b@two.test PART #cards");
	assert_non_null(a = irc_users_find(&s->irc->users, "x[y"));
	assert_true(a->chans & (UINT64_C(1) << i));
	ircsim_line(s, ":x[y!a@one.test NICK x[z");
	assert_null(irc_users_find(&s->irc->users, "x{z"));
	assert_non_null(a = irc_users_find(&s->irc->users, "x[Z"));
	irc_users_id(a, ida, sizeof ida);
	assert_string_equal(ida, "nick:x[y");
	ircsim_free(s);

	/* rfc1459 (the default): one person */
	s = ircsim_new(":memory:", NULL, NULL);
	assert_non_null(s);
	ircsim_line(s, ":x[y!a@one.test JOIN #cards");
	assert_true(irc_users_find(&s->irc->users, "x{y") == irc_users_find(&s->irc->users, "x[y"));
	assert_non_null(irc_users_find(&s->irc->users, "x{y"));
	ircsim_free(s);
}

/* Our nick taken while registering: the next one fits NICKLEN (else the
 * length of ours), never longer: a server cuts it, and the cut one is taken too. */
static void
test_fallback_nick_fits(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	const char *sent;

	(void)state;
	assert_non_null(s);
	irc_text_copy(s->irc->nick, sizeof s->irc->nick, "HandFootBot42");
	s->irc->state = IRC_REGISTERING;
	s->irc->nick_try = 0;
	ircsim_forget(s);
	ircsim_line(s, ":irc.test 433 * HandFootBot42 :Nickname is already in use");
	assert_non_null(sent = ircsim_sent(s, "NICK ", NULL));
	assert_true(strlen(sent) - 5 <= 13);
	ircsim_line(s, ":irc.test 005 * NICKLEN=9 :are supported");
	for (int k = 0; k < 3; k++) {
		ircsim_forget(s);
		ircsim_line(s, ":irc.test 433 * x :Nickname is already in use");
		assert_non_null(sent = ircsim_sent(s, "NICK ", NULL));
		assert_true(strlen(sent) - 5 <= 9);
	}
	ircsim_free(s);
}

/* Solanum rate-limits WHO (263, and a 315 for "*"): the channel's WHO goes again later. */
static void
test_rate_limited_who_again(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, "channels = #cards, #big\n");

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":HandFoot!hf@bot.test JOIN #big");
	assert_non_null(ircsim_sent(s, "WHO #big", NULL));
	ircsim_line(s, ":irc.test 263 HandFoot WHO :This command could not be completed because it has been used recently, "
	               "and is rate-limited");
	ircsim_line(s, ":irc.test 315 HandFoot * :End of /WHO list.");
	ircsim_forget(s);
	ircsim_advance(s, 11000);
	assert_non_null(ircsim_sent(s, "WHO #big", NULL));
	ircsim_free(s);
}

/* userhost-in-names: NAMES gives each member's address, as WHO would. */
static void
test_userhost_in_names(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	struct irc_user *u;

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":irc.test 353 HandFoot = #cards :@alice!a@home.test HandFoot!hf@bot.test");
	assert_non_null(u = irc_users_find(&s->irc->users, "alice"));
	assert_string_equal(u->addr, "a@home.test");
	ircsim_free(s);
}

/* An old client's latin-1 is read as latin-1, not as '?'. */
static void
test_latin1_decoded(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);

	(void)state;
	assert_non_null(s);
	ircsim_forget(s);
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!caf\xe9");
	assert_non_null(ircsim_sent(s, "unknown command \"caf\xc3\xa9\"", NULL));
	ircsim_free(s);
}

/* alice is logged in to services (acct:alice): a hand queued when the
 * link drops goes to her after the reconnect, under her new nick; a
 * nick-keyed player's is dropped, as whoever wears the nick next is anyone. */
static void
test_identified_lines_kept_across_reconnect(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	char why[256];

	(void)state;
	assert_non_null(s);
	ircsim_line(s, ":alice!a@home.test JOIN #cards");
	ircsim_line(s, ":alice!a@home.test ACCOUNT alice");
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!play 2 duel");
	assert_non_null(ircsim_sent(s, "NOTICE alice :Your hand", NULL));
	ircsim_forget(s);
	s->hold = true;
	ircsim_line(s, ":alice!a@home.test PRIVMSG #cards :!hand");
	dropped(s, NULL, why, sizeof why);
	s->hold = false;
	back_up(s);
	ircsim_line(s, ":alice_!a@home.test JOIN #cards");
	ircsim_line(s, ":alice_!a@home.test ACCOUNT alice");
	assert_non_null(ircsim_sent(s, "NOTICE alice_ :Your hand", NULL));
	ircsim_free(s);
}

/* IRCv3 sts: over plain TCP "sts=port=6697" moves the bot to TLS on that
 * port; over TLS the policy is kept for its duration, for later connections. */
static void
test_sts_honoured(void **state)
{
	struct ircsim *s = ircsim_new(":memory:", NULL, NULL);
	char why[256], buf[64];

	(void)state;
	assert_non_null(s);
	dropped(s, (const char *const[]){ ":irc.test CAP * LS :server-time sts=port=6697,duration=300", NULL }, why,
	        sizeof why);
	assert_int_equal(s->irc->sts_port, 6697);
	assert_true(irc_sts_tls(s->irc));
	assert_int_equal(irc_sts_port(s->irc), 6697);
	assert_int_equal(adapter_state_get(s->ad, "sts", buf, sizeof buf), -1);
	back_up(s);
	ircsim_line(s, ":irc.test CAP * LS :server-time sts=duration=300");
	assert_int_equal(adapter_state_get(s->ad, "sts", buf, sizeof buf), 0);
	assert_int_equal(strtol(buf, NULL, 10), 6697);
	ircsim_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_change_told_and_retried),
		cmocka_unit_test(test_target_limit_holds_new_targets),
		cmocka_unit_test(test_target_too_fast_waits_as_asked),
		cmocka_unit_test(test_callerid_told),
		cmocka_unit_test(test_registered_only_told),
		cmocka_unit_test(test_registered_channel_is_a_join),
		cmocka_unit_test(test_callerid_network_sends_privmsg),
		cmocka_unit_test(test_backoff_resets_only_when_stable),
		cmocka_unit_test(test_hard_quits_back_off),
		cmocka_unit_test(test_invites_from_operators_only),
		cmocka_unit_test(test_invite_to_configured_channel),
		cmocka_unit_test(test_fake_quit_keeps_the_player),
		cmocka_unit_test(test_fake_quit_without_join_is_a_quit),
		cmocka_unit_test(test_chghost_followed),
		cmocka_unit_test(test_joins_wait_for_identification),
		cmocka_unit_test(test_refused_joins_retried),
		cmocka_unit_test(test_forward_never_adopted),
		cmocka_unit_test(test_unavailable_channel_is_no_nick),
		cmocka_unit_test(test_channel_keys),
		cmocka_unit_test(test_ascii_casemapping),
		cmocka_unit_test(test_ascii_casemapping_users),
		cmocka_unit_test(test_nickserv_full_name),
		cmocka_unit_test(test_fallback_nick_fits),
		cmocka_unit_test(test_rate_limited_who_again),
		cmocka_unit_test(test_userhost_in_names),
		cmocka_unit_test(test_latin1_decoded),
		cmocka_unit_test(test_identified_lines_kept_across_reconnect),
		cmocka_unit_test(test_sts_honoured),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
