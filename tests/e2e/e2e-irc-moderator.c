/* e2e-irc-moderator.c: on a real ngircd, a channel operator or half-op ends a stranger's table; anyone else cannot; modes come and go with NAMES, MODE and JOIN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"

static struct world w;

static int
setup(void **state)
{
	*state = &w;
	if (world_init(&w, &world_ngircd) != 0)
		return -1;
	/* the shipped defaults, but for a quick computer, no reminders and a quicker output queue */
	world_conf(&w, "ai_delay = 0\nturn_reminder = 0\nlog_level = debug\n", "channels = #cards\nflood_rate = 200\n");
	return 0;
}

/* who says line in #cards; waits for the bot's answer holding want. */
static void
say_expect(struct ircclient *who, struct ircclient *watch, const char *line, const char *want)
{
	char got[1024];

	ircclient_send(who, "PRIVMSG #cards :%s", line);
	if (ircclient_wait(watch, 15000, got, sizeof got, ":HandFoot!", "PRIVMSG #cards :", want, NULL) != 0) {
		print_error("no \"%s\" after %s said \"%s\" (daemon log: %s)\n", want, who->nick, line, w.d.log);
		fail();
	}
}

/* who says !abort and is refused again: the same refusal within a minute
 * is said again (every command is answered; issue 25); the table stands (a
 * later "ended by" shows it). */
static void
abort_refused_again(struct ircclient *who, const char *id)
{
	char want[160];

	(void)id;
	snprintf(want, sizeof want, "%s: only the table's owner or its players can end it.", who->nick);
	say_expect(who, who, "!abort", want);
}

/* bob opens a table against the computer, dealt at once. */
static void
bob_plays(struct ircclient *bob)
{
	say_expect(bob, bob, "!play 2 duel", "Dealing duel");
}

/* A MODE line as everyone in the channel sees it (the bot too, by then). */
static void
mode(struct ircclient *op, struct ircclient *watch, const char *change, const char *nick)
{
	ircclient_send(op, "MODE #cards %s %s", change, nick);
	assert_int_equal(ircclient_wait(watch, 10000, NULL, 0, " MODE #cards ", change, nick, NULL), 0);
	ircclient_drain(watch, 300);
}

static void
test_moderators_end_tables(void **state)
{
	struct ircclient alice, bob, carol, dave;

	(void)state;
	alice.pump = bob.pump = carol.pump = dave.pump = NULL;
	/* alice makes the channel: ngircd makes her its operator, which the bot
	 * learns from NAMES when it joins */
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	assert_true(ircclient_saw(&alice, " 353 ", "@alice"));
	assert_int_equal(e2e_daemon_start(&w.d, "e2e-irc-moderator", w.conf, NULL), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	assert_int_equal(ircclient_connect(&bob, w.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&bob, "#cards"), 0);
	assert_int_equal(ircclient_connect(&carol, w.srv.port, "carol"), 0);
	assert_int_equal(ircclient_join(&carol, "#cards"), 0);
	assert_int_equal(ircclient_connect(&dave, w.srv.port, "dave"), 0);
	assert_int_equal(ircclient_join(&dave, "#cards"), 0);

	/* a stranger cannot end bob's table; the channel's operator can */
	bob_plays(&bob);
	say_expect(&carol, &carol, "!abort", "carol: only the table's owner or its players can end it.");
	say_expect(&alice, &alice, "!abort", "The game is over: ended by alice, a moderator of the room.");

	/* a half-op given by MODE can, until the mode is taken back */
	bob_plays(&bob);
	mode(&alice, &carol, "+h", "carol");
	say_expect(&carol, &carol, "!abort", "ended by carol, a moderator of the room.");
	bob_plays(&bob);
	mode(&alice, &carol, "-h", "carol");
	abort_refused_again(&carol, "nick:carol");

	/* an operator who leaves and comes back is an operator no more */
	mode(&alice, &dave, "+o", "dave");
	ircclient_send(&dave, "PART #cards");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, ":dave!", "PART", NULL), 0);
	assert_int_equal(ircclient_join(&dave, "#cards"), 0);
	assert_false(ircclient_saw(&dave, " 353 ", "@dave"));
	say_expect(&dave, &dave, "!abort", "dave: only the table's owner or its players can end it.");
	/* voice is no moderator either */
	mode(&alice, &dave, "+v", "dave");
	abort_refused_again(&dave, "nick:dave");
	/* the table bob opened before carol lost her half-op stood through both */
	mode(&alice, &dave, "+o", "dave");
	say_expect(&dave, &dave, "!abort", "ended by dave, a moderator of the room.");

	ircclient_close(&dave);
	ircclient_close(&carol);
	ircclient_close(&bob);
	ircclient_close(&alice);
	e2e_daemon_signal(&w.d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(&w.d, 10000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moderators_end_tables),
	};

	return cmocka_run_group_tests_name("moderators on ngircd", tests, setup, world_end_state);
}
