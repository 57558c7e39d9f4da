/* e2e-irc.c: the real daemon on a real IRC server (ngircd): a whole game from chat to "Game over", hands kept private, a server restart mid-game, a flood. */
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
	world_conf(&w, "prefix = !\nai_delay = 0\nturn_reminder = 0\nflood_burst = 30\n",
	           "channels = #cards\nflood_burst = 10\nflood_rate = 50\nping_interval = 10\nping_timeout = 10\nreconnect_max = 4\n");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	/* a failed assertion must not leave the daemon behind */
	proc_stop(&daemon_proc);
	world_stop(&w);
	return 0;
}

/* The private lines (hands) and the channel lines alice saw: no hand ever in the channel. */
static void
check_privacy(const struct ircclient *c)
{
	size_t hands = 0;

	for (size_t i = 0; i < c->nlines; i++) {
		const char *l = c->lines[i], *cards;

		if (strstr(l, "PRIVMSG #cards :") != NULL) {
			assert_null(strstr(l, "Your hand"));
			assert_null(strstr(l, "Your foot"));
			continue;
		}
		if (strstr(l, "NOTICE alice :Your ") == NULL || (cards = strstr(l, "): ")) == NULL)
			continue;
		hands++;
		cards += 3;
		for (size_t j = 0; j < c->nlines; j++)
			if (strstr(c->lines[j], "PRIVMSG #cards :") != NULL && strlen(cards) > 8)
				assert_null(strstr(c->lines[j], cards));
	}
	assert_true(hands > 0);
}

static void
test_irc_game(void **state)
{
	struct ircclient alice, bob;
	char line[2048];
	const char *argv[] = { "-c", w.conf, NULL };
	size_t at = 0;

	(void)state;
	alice.pump = bob.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	assert_int_equal(proc_start(&daemon_proc, argv), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);

	/* one round: the game ends in a minute at most */
	ircclient_send(&alice, "PRIVMSG #cards :!new duel rounds=1");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "PRIVMSG #cards :", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!bot add");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "PRIVMSG #cards :", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!start");
	/* the hand comes privately, by NOTICE (the default) */
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice :Your hand", NULL), 0);

	/* the server dies mid-game and comes back: the bot returns to the same game */
	ircserver_stop(&w.srv, true);
	ircclient_close(&alice);
	assert_int_equal(ircserver_start(&w.srv), 0);
	alice.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	if (!ircclient_saw(&alice, " 353 ", "HandFoot"))
		assert_int_equal(ircclient_wait(&alice, 30000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice :Your ", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!who");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "PRIVMSG #cards :", "duel", NULL), 0);

	/* a flood from bob: the bot stays connected and still answers alice */
	assert_int_equal(ircclient_connect(&bob, w.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&bob, "#cards"), 0);
	{
		static char burst[1000 * 24];
		size_t len = 0;

		for (int i = 0; i < 1000; i++)
			len += (size_t)sprintf(burst + len, "PRIVMSG #cards :!pile\r\n");
		assert_int_equal(ircclient_send_raw(&bob, burst, len), 0);
	}
	ircclient_drain(&bob, 500);
	/* a question alice has not asked yet (an unchanged answer is said once) */
	ircclient_send(&alice, "PRIVMSG #cards :!table");
	assert_int_equal(ircclient_wait(&alice, 30000, line, sizeof line, "PRIVMSG #cards :", "(score ", NULL), 0);
	ircclient_drain(&bob, 200);
	assert_false(ircclient_saw(&alice, "QUIT", "HandFoot"));

	/* the computer plays alice's seat to the end: every line reaches the
	 * channel, "Game over" last (computer seats wait for the room to be told) */
	ircclient_send(&alice, "PRIVMSG #cards :!auto");
	assert_int_equal(ircclient_wait(&alice, 60000, line, sizeof line, "PRIVMSG #cards :", "discarded", NULL), 0);
	assert_int_equal(ircclient_wait(&alice, 180000, line, sizeof line, "PRIVMSG #cards :", "Game over", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!stats");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "PRIVMSG #cards :", "alice: 1 game,", NULL), 0);
	check_privacy(&alice);

	ircclient_close(&bob);
	ircclient_close(&alice);
	(void)at;
	proc_stop(&daemon_proc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irc_game),
	};

	return cmocka_run_group_tests_name("handfoot on ngircd", tests, setup, teardown);
}
