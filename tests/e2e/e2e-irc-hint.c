/* e2e-irc-hint.c: !hint through the real daemon on a real IRC server: one private line to the asker, nothing in the channel, none where the table set hints=no. */
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
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"
#include "proc.h"

static struct world w;           /* its daemon is daemon_proc, not w.d */
static struct proc daemon_proc;

static int
setup(void **state)
{
	(void)state;
	if (world_init(&w, &world_ngircd) != 0)
		return -1;
	/* the bot's own flood defaults, the connection's pace quick (a line
	 * every 100 ms: the hints are looked at, not their pace, and at the
	 * shipped 2 s the test only waited longer for the same lines); a small
	 * thinking budget keeps the test quick */
	world_conf(&w, "prefix = !\nai_delay = 0\nturn_reminder = 0\nai_budget = 2000\n",
	           "channels = #cards, #nohint\nflood_burst = 20\nflood_rate = 100\n");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	proc_stop(&daemon_proc);
	world_stop(&w);
	return 0;
}

/* Lines from the bot to target (a nick or a channel) that contain s, among those received from line from on. */
static size_t
count_from(const struct ircclient *c, size_t from, const char *target, const char *s)
{
	char head[128];
	size_t i, n = 0;

	snprintf(head, sizeof head, " %s :", target);
	for (i = from; i < c->nlines; i++)
		if (strstr(c->lines[i], ":HandFoot!") == c->lines[i] && strstr(c->lines[i], head) && strstr(c->lines[i], s))
			n++;
	return n;
}

static size_t
count(const struct ircclient *c, const char *target, const char *s)
{
	return count_from(c, 0, target, s);
}

static void
test_hint_through_irc(void **state)
{
	struct ircclient alice, bob, *mover, *other;
	size_t mark;
	char line[2048];
	const char *argv[] = { "-c", w.conf, NULL };

	(void)state;
	alice.pump = bob.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_connect(&bob, w.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	assert_int_equal(ircclient_join(&bob, "#cards"), 0);
	assert_int_equal(ircclient_join(&alice, "#nohint"), 0);
	assert_int_equal(proc_start(&daemon_proc, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#nohint", NULL), 0);

	ircclient_send(&alice, "PRIVMSG #cards :!new duel");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "PRIVMSG #cards :", NULL), 0);
	ircclient_send(&bob, "PRIVMSG #cards :!join");
	assert_int_equal(ircclient_wait(&bob, 10000, NULL, 0, "PRIVMSG #cards :", "bob", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!start");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice :Your hand", NULL), 0);
	assert_int_equal(ircclient_wait(&bob, 10000, line, sizeof line, "NOTICE bob :Your hand", NULL), 0);
	ircclient_drain(&alice, 500);
	ircclient_drain(&bob, 500);
	mover = &alice;
	/* both ask: the one on turn gets the hint, the other is told to wait; both privately (NOTICE, the default) */
	ircclient_send(&alice, "PRIVMSG #cards :!hint");
	ircclient_send(&bob, "PRIVMSG #cards :!hint");
	/* each answer, then ten paces for a second line (or one in the
	 * channel) to show */
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alice :", "hint: ", NULL), 0);
	assert_int_equal(ircclient_wait(&bob, 10000, NULL, 0, "NOTICE bob :", "hint: ", NULL), 0);
	ircclient_drain(&alice, 1000);
	ircclient_drain(&bob, 100);
	if (count(mover, mover->nick, "wait for your turn"))
		mover = &bob;
	other = mover == &alice ? &bob : &alice;
	/* one line each, the mover's a step of its turn */
	assert_int_equal(count(mover, mover->nick, "hint: "), 1);
	assert_int_equal(count(mover, mover->nick, "wait for your turn"), 0);
	assert_true(count(mover, mover->nick, "hint: !draw") + count(mover, mover->nick, "hint: !pickup") == 1);
	assert_int_equal(count(other, other->nick, "hint: "), 1);
	assert_int_equal(count(other, other->nick, "wait for your turn"), 1);
	/* nothing of it in the channel */
	assert_int_equal(count(&alice, "#cards", "hint: "), 0);
	assert_int_equal(count(&alice, "#cards", "wait for your turn"), 0);

	/* a table with hints=no refuses, in one private line */
	ircclient_send(&alice, "PRIVMSG #nohint :!play 2 duel hints=no");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alice :Your hand", NULL), 0);
	ircclient_drain(&alice, 1000);
	mark = alice.nlines;
	ircclient_send(&alice, "PRIVMSG #nohint :!hint");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "hints are off at this table", NULL), 0);
	ircclient_drain(&alice, 1000);
	assert_int_equal(count_from(&alice, mark, "alice", "hints are off"), 1);
	assert_int_equal(count_from(&alice, mark, "alice", "hint: "), 0);
	assert_int_equal(count_from(&alice, mark, "#nohint", "hints are off"), 0);
	assert_int_equal(count_from(&alice, mark, "#nohint", "hint: "), 0);

	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(proc_stop(&daemon_proc), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hint_through_irc, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
