/* e2e-irc-edges.c: the daemon on ngircd at IRC's rough edges: whoever wears a player's nick, a rename across a restart, the nick regained, a moderated channel, a reload that joins, hands kept out of the debug log. */
#include <setjmp.h>
#include <signal.h>
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

static void
write_conf_paced(struct world *f, int ai_delay, const char *bot_extra, const char *irc_extra)
{
	char bot[1024], irc[1024];

	snprintf(bot, sizeof bot, "ai_delay = %d\nturn_reminder = 0\nturn_timeout = 0\n%s", ai_delay, bot_extra);
	snprintf(irc, sizeof irc, "flood_burst = 20\nflood_rate = 100\nreconnect_max = 4\n%s", irc_extra);
	world_conf(f, bot, irc);
}

static void
write_conf(struct world *f, const char *bot_extra, const char *irc_extra)
{
	write_conf_paced(f, 0, bot_extra, irc_extra);
}

/* Issue 15 (medium): "a player quits, someone else takes the nick, the
 * computer plays the seat on timeout, and the newcomer receives 'Your hand'". */
static void
test_hand_not_to_whoever_wears_the_nick(void **state)
{
	struct world *f = *state;
	struct ircclient alice, mallory;

	/* a second between computer moves: alice's QUIT is seen between two of them */
	write_conf_paced(f, 1000, "", "channels = #cards\n");
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_daemon(f, "edges-wears");
	world_duel_dealt(&alice);
	ircclient_send(&alice, "PRIVMSG #cards :!auto");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "PRIVMSG #cards :", "steps away", NULL), 0);
	/* (a hand the bot sent before it saw her QUIT would reach whoever takes the nick
	 * in between: no client can tell; so alice leaves between two of her moves) */
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, "PRIVMSG #cards :", "alice drew ", NULL), 0);
	ircclient_close(&alice);
	/* mallory, from another host, takes the nick while the computer plays alice's seat */
	world_client(&mallory, f, "alice", "127.0.0.3", "#cards");
	for (int i = 0; i < 2; i++)
		assert_int_equal(ircclient_wait(&mallory, 60000, NULL, 0, "PRIVMSG #cards :", "alice drew ", NULL), 0);
	ircclient_drain(&mallory, 500);
	assert_false(ircclient_saw_hand(&mallory, "alice"));
	ircclient_send(&mallory, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&mallory, 10000, NULL, 0, "PRIVMSG #cards :", "no seat", NULL), 0);
	ircclient_drain(&mallory, 500);
	assert_false(ircclient_saw_hand(&mallory, "alice"));
	ircclient_close(&mallory);
	world_daemon_stop(f);
}

/* The same when the bot itself has a hand to give: a restart hands the
 * player to move their hand again (issue 11), and whoever wears her nick
 * by then, from another host, must not get it. */
static void
test_resumed_hand_not_to_whoever_wears_the_nick(void **state)
{
	struct world *f = *state;
	struct ircclient alice, mallory;
	char line[2048];

	write_conf(f, "", "channels = #cards\n");
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_daemon(f, "edges-resumed");
	world_duel_dealt(&alice);
	if (!ircclient_saw(&alice, "PRIVMSG #cards :", "alice: your turn"))
		assert_int_equal(ircclient_wait(&alice, 60000, NULL, 0, "PRIVMSG #cards :", "alice: your turn", NULL), 0);
	ircclient_close(&alice);
	world_client(&mallory, f, "alice", "127.0.0.3", "#cards");
	world_daemon_stop(f);
	world_daemon(f, "edges-resumed2");
	assert_int_equal(ircclient_wait(&mallory, 30000, line, sizeof line, "PRIVMSG #cards :", "Back after a restart",
	                                NULL), 0);
	assert_non_null(strstr(line, "alice to play"));
	/* the bot had her hand to give, and gave it to nobody */
	assert_int_equal(e2e_daemon_wait_log(&f->d, "nobody holds nick:alice on this network now", 10000), 0);
	ircclient_drain(&mallory, 1000);
	assert_false(ircclient_saw_hand(&mallory, "alice"));
	ircclient_close(&mallory);
	world_daemon_stop(f);
}

/* Issue 15 (medium): "a player renames, quits while the bot is down, and
 * whoever connects with the renamed nick after the restart gets the hand and
 * the seat". */
static void
test_rename_does_not_outlive_a_quit_while_away(void **state)
{
	struct world *f = *state;
	struct ircclient alice, stranger;

	write_conf(f, "", "channels = #cards\n");
	world_client(&alice, f, "alice", "127.0.0.2", "#cards");
	world_daemon(f, "edges-rename");
	world_duel_dealt(&alice);
	ircclient_send(&alice, "NICK alicia");
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alicia :Your hand", NULL), 0);
	world_daemon_stop(f);
	ircclient_close(&alice);             /* alicia quits while the bot is away */

	world_client(&stranger, f, "alicia", "127.0.0.3", "#cards");
	world_daemon(f, "edges-rename2");
	assert_int_equal(ircclient_wait(&stranger, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&stranger, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&stranger, 10000, NULL, 0, "PRIVMSG #cards :", "alicia: you have no seat", NULL),
	                 0);
	ircclient_drain(&stranger, 1000);
	assert_false(ircclient_saw_hand(&stranger, "alicia"));
	ircclient_close(&stranger);
	/* the real alicia, from her host, has her seat */
	world_client(&alice, f, "alicia", "127.0.0.2", "#cards");
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alicia :Your hand", NULL), 0);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* Issue 11: "the bot never takes its nick back: after a restart it stayed
 * HandFoot_ although HandFoot was free again". */
static void
test_nick_regained_when_its_holder_quits(void **state)
{
	struct world *f = *state;
	struct ircclient squatter, alice;

	/* the holder is in no channel of ours: only the ISON poll can tell
	 * (every 5 s, nick_poll's least: the wait below lets that timer run) */
	write_conf(f, "", "channels = #cards\nnick_poll = 5\n");
	world_client(&squatter, f, "HandFoot", NULL, NULL);
	world_client(&alice, f, "alice", NULL, "#cards");
	world_daemon(f, "edges-regain");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot_!", "JOIN", "#cards", NULL), 0);
	ircclient_close(&squatter);
	assert_int_equal(ircclient_wait(&alice, 15000, NULL, 0, ":HandFoot_!", "NICK", "HandFoot", NULL), 0);
	ircclient_close(&alice);
	world_daemon_stop(f);
	assert_true(e2e_daemon_log_has(&f->d, "HandFoot is free: taking it back"));
}

/* The holder in one of our channels: its QUIT frees the nick at once. */
static void
test_nick_regained_on_the_holders_quit(void **state)
{
	struct world *f = *state;
	struct ircclient squatter, alice;

	write_conf(f, "", "channels = #cards\nnick_poll = 0\n");
	world_client(&squatter, f, "HandFoot", NULL, "#cards");
	world_client(&alice, f, "alice", NULL, "#cards");
	world_daemon(f, "edges-regain2");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot_!", "JOIN", "#cards", NULL), 0);
	ircclient_close(&squatter);
	assert_int_equal(ircclient_wait(&alice, 5000, NULL, 0, ":HandFoot_!", "NICK", "HandFoot", NULL), 0);
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* Issue 11: "in a +m channel without voice, numeric 404 is neither handled
 * nor logged; !help and the deal just disappeared". */
static void
test_moderated_channel_is_logged_and_the_owner_told(void **state)
{
	struct world *f = *state;
	struct ircclient alice;
	char *log;
	const char *p;
	int n = 0;

	write_conf(f, "", "channels = #cards\n");
	world_client(&alice, f, "alice", NULL, "#cards");     /* first in: alice is the channel's operator */
	world_daemon(f, "edges-moderated");
	world_duel_dealt(&alice);
	ircclient_send(&alice, "MODE #cards +m");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "MODE #cards +m", NULL), 0);
	for (int i = 0; i < 3; i++)
		ircclient_send(&alice, "PRIVMSG #cards :!who");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alice :", "cannot be followed", "#cards", NULL), 0);
	ircclient_drain(&alice, 1500);
	/* told once, logged once */
	for (size_t i = 0; i < alice.nlines; i++)
		n += strstr(alice.lines[i], "cannot be followed") != NULL;
	assert_int_equal(n, 1);
	ircclient_close(&alice);
	world_daemon_stop(f);
	log = e2e_read_file(f->d.log);
	assert_non_null(log);
	n = 0;
	for (p = log; (p = strstr(p, "cannot send to #cards")) != NULL; p++)
		n++;
	assert_int_equal(n, 1);
	assert_non_null(strstr(log, "Cannot send to channel"));
	free(log);
}

/* Issue 11: "adding a channel or colors = no and SIGHUP logs 'no reconnect
 * needed' and 'in force', but the channel is not joined and colours stay". */
static void
test_reload_joins_without_reconnecting(void **state)
{
	struct world *f = *state;
	struct ircclient alice;
	char line[2048];

	write_conf(f, "", "channels = #cards\n");
	world_client(&alice, f, "alice", NULL, "#cards");
	assert_int_equal(ircclient_join(&alice, "#more"), 0);
	world_daemon(f, "edges-reload");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 20000, line, sizeof line, "PRIVMSG #cards :", "Round 1", NULL), 0);
	assert_non_null(strchr(line, '\x02'));       /* bold, in colour mode */
	write_conf(f, "", "channels = #cards, #more\ncolors = no\nrealname = a new name\n");
	assert_int_equal(e2e_daemon_signal(&f->d, SIGHUP), 0);
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, ":HandFoot!", "JOIN", "#more", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #more :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 20000, line, sizeof line, "PRIVMSG #more :", "Round 1", NULL), 0);
	assert_null(strchr(line, '\x02'));           /* colors = no, at once */
	assert_false(ircclient_saw(&alice, ":HandFoot!", "QUIT"));
	assert_int_equal(e2e_daemon_wait_log(&f->d, "reload: irc/test: applied: channels, colors; waits for a restart: "
	                                     "realname", 5000), 0);
	/* removed: parted, without a reconnect either */
	write_conf(f, "", "channels = #more\ncolors = no\nrealname = a new name\n");
	assert_int_equal(e2e_daemon_signal(&f->d, SIGHUP), 0);
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, ":HandFoot!", "PART", "#cards", NULL), 0);
	assert_false(ircclient_saw(&alice, ":HandFoot!", "QUIT"));
	ircclient_close(&alice);
	world_daemon_stop(f);
}

/* Issue 15: "hands appear in the log at debug level". */
static void
test_hands_stay_out_of_the_debug_log(void **state)
{
	struct world *f = *state;
	struct ircclient alice;
	char line[2048], *log, cards[64];
	const char *p;

	write_conf(f, "log_level = debug", "channels = #cards\n");
	world_client(&alice, f, "alice", NULL, "#cards");
	world_daemon(f, "edges-debug");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!play 2 duel");
	assert_int_equal(ircclient_wait(&alice, 20000, line, sizeof line, "NOTICE alice :Your hand", NULL), 0);
	p = strstr(line, "): ");
	assert_non_null(p);
	snprintf(cards, sizeof cards, "%.30s", p + 3);
	ircclient_close(&alice);
	world_daemon_stop(f);
	log = e2e_read_file(f->d.log);
	assert_non_null(log);
	assert_non_null(strstr(log, "> NOTICE alice <private,"));   /* the line is logged, not its text */
	assert_null(strstr(log, "Your hand"));
	assert_null(strstr(log, cards));
	assert_non_null(strstr(log, "> PRIVMSG #cards :"));         /* room lines are public anyway */
	free(log);
}

/* One ngircd for the group; each test its own database. */
static int
setup(void **state)
{
	world_next(*state);
	return 0;
}

static int
teardown(void **state)
{
	world_daemon_kill(*state);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hand_not_to_whoever_wears_the_nick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resumed_hand_not_to_whoever_wears_the_nick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rename_does_not_outlive_a_quit_while_away, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nick_regained_when_its_holder_quits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nick_regained_on_the_holders_quit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_moderated_channel_is_logged_and_the_owner_told, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_joins_without_reconnecting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hands_stay_out_of_the_debug_log, setup, teardown),
	};
	return cmocka_run_group_tests_name("handfoot at IRC's edges (ngircd)", tests, world_setup_ngircd, world_teardown);
}
