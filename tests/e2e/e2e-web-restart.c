/* e2e-web-restart.c: web links outlive a restart of the daemon (a seat's, the table's public one); a replaced link and a finished game's stay dead, across restarts too. */
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

#include <jansson.h>

#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"
#include "wsclient.h"

static struct world w;
static int web_port;
static char origin[64];
static int restarts;

static int
setup(void **state)
{
	char irc[512];

	*state = &w;
	if (world_init(&w, &world_ngircd) != 0)
		return -1;
	web_port = ircserver_free_port();
	snprintf(origin, sizeof origin, "http://127.0.0.1:%d", web_port);
	snprintf(irc, sizeof irc,
	         "channels = #lobby, #duel\nflood_rate = 0\nflood_burst = 100\n"
	         "[web test]\nlisten = 127.0.0.1:%d\n",
	         web_port);
	world_conf(&w, "prefix = !\nai_delay = 0\nturn_reminder = 0\nflood_burst = 100\nlog_level = debug\n", irc);
	return 0;
}

/* Waits for a line holding a, b and a link (among the lines from from on): the link's path. */
static void
wait_link(struct ircclient *c, size_t from, const char *a, const char *b, char *path, size_t len)
{
	int64_t end = ircclient_now_us() / 1000 + 20000;
	size_t k;
	const char *p;

	do {
		for (k = from; k < c->nlines; k++)
			if (strstr(c->lines[k], a) && strstr(c->lines[k], b) && (p = strstr(c->lines[k], "/t/")) != NULL) {
				snprintf(path, len, "%.35s", p);
				assert_int_equal(strlen(path), 35);
				return;
			}
	} while (ircclient_drain(c, 100) == 0 && ircclient_now_us() / 1000 < end);
	fail_msg("no line with %s, %s and a link", a, b);
}

/* The link opens a socket that gets a view: its seat (-1: the public view, with no hand). */
static int
opens(const char *path)
{
	struct wsc c;
	const char *m;
	json_t *o;
	int seat;

	if (wsc_open(&c, web_port, path, origin, "handfoot-1") != 0)
		fail_msg("no socket on %s (HTTP %d)", path, c.status);
	m = wsc_wait(&c, "\"type\":\"view\"", 10000);
	if (m == NULL)
		fail_msg("no view on %s", path);
	o = json_loads(m, 0, NULL);
	assert_non_null(o);
	seat = (int)json_integer_value(json_object_get(o, "seat"));
	if (seat >= 0)
		assert_true(json_is_array(json_object_get(o, "hand")));
	else
		assert_null(json_object_get(o, "hand"));
	json_decref(o);
	wsc_close(&c);
	return seat;
}

/* The link opens nothing: the error page, and no socket. */
static void
dead(const char *path)
{
	struct wsc c;
	char body[4096];

	assert_int_equal(wsc_http_get(web_port, path, NULL, body, sizeof body), 404);
	assert_non_null(strstr(body, "No table here"));
	assert_int_equal(wsc_open(&c, web_port, path, origin, "handfoot-1"), -1);
	wsc_close(&c);
}

/* Stops the daemon and starts it again on the same database; waits until it is back in the room (and a game in
 * play says so). */
static void
restart(struct ircclient *alice, bool game)
{
	char tag[32];

	world_daemon_stop(&w);
	assert_int_equal(ircclient_wait(alice, 10000, NULL, 0, ":HandFoot!", "QUIT", NULL), 0);
	snprintf(tag, sizeof tag, "web-restart-%d", ++restarts);
	world_daemon(&w, tag);
	assert_int_equal(ircclient_wait(alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#duel", NULL), 0);
	if (game)
		assert_int_equal(ircclient_wait(alice, 20000, NULL, 0, "#duel", "Back after a restart", NULL), 0);
}

static void
test_links_survive_restart(void **state)
{
	struct ircclient alice, bob;
	char pub[64], apath[64], bpath[64], bnew[64], anew[64], again[64];
	size_t mark_a, mark_b;
	int sa, sb;

	(void)state;
	alice.pump = bob.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_connect(&bob, w.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&alice, "#duel"), 0);
	assert_int_equal(ircclient_join(&bob, "#duel"), 0);
	world_daemon(&w, "web-restart-0");
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#duel", NULL), 0);

	/* a duel of two people: it waits for them, so nothing moves while the daemon is down */
	ircclient_send(&alice, "PRIVMSG #duel :!new duel");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "PRIVMSG", "#duel", NULL), 0);
	ircclient_send(&bob, "PRIVMSG #duel :!join");
	assert_int_equal(ircclient_wait(&bob, 10000, NULL, 0, "PRIVMSG", "bob", NULL), 0);
	mark_a = alice.nlines;
	mark_b = bob.nlines;
	ircclient_send(&alice, "PRIVMSG #duel :!start");
	wait_link(&alice, mark_a, "#duel", "Watch: ", pub, sizeof pub);
	wait_link(&alice, mark_a, "NOTICE alice :", "play from", apath, sizeof apath);
	wait_link(&bob, mark_b, "NOTICE bob :", "play from", bpath, sizeof bpath);
	e2e_secret_note(apath + 3);
	e2e_secret_note(bpath + 3);
	/* bob replaces his link before the restart */
	ircclient_send(&bob, "PRIVMSG #duel :!web new");
	wait_link(&bob, bob.nlines, "NOTICE bob :", "new link", bnew, sizeof bnew);
	e2e_secret_note(bnew + 3);
	assert_int_equal(opens(pub), -1);
	sa = opens(apath);
	sb = opens(bnew);
	assert_true(sa >= 0 && sb >= 0 && sa != sb);
	dead(bpath);

	/* after a restart: the same links open the same pages; the replaced one stays dead */
	restart(&alice, true);
	assert_int_equal(opens(pub), -1);
	assert_int_equal(opens(apath), sa);
	assert_int_equal(opens(bnew), sb);
	dead(bpath);
	/* !watch gives the same public link */
	mark_b = bob.nlines;
	ircclient_send(&bob, "PRIVMSG #duel :!watch");
	wait_link(&bob, mark_b, "#duel", "/t/", again, sizeof again);
	assert_string_equal(again, pub);

	/* alice replaces hers after the restart: the old one is dead, then also after another restart */
	ircclient_send(&alice, "PRIVMSG #duel :!web new");
	wait_link(&alice, alice.nlines, "NOTICE alice :", "new link", anew, sizeof anew);
	e2e_secret_note(anew + 3);
	dead(apath);
	restart(&alice, true);
	dead(apath);
	dead(bpath);
	assert_int_equal(opens(anew), sa);
	assert_int_equal(opens(bnew), sb);
	assert_int_equal(opens(pub), -1);

	/* the game ends: every link dies, and stays dead after a restart */
	ircclient_send(&alice, "PRIVMSG #duel :!abort");
	assert_int_equal(ircclient_wait(&alice, 10000, NULL, 0, "#duel", "ended by", NULL), 0);
	dead(pub);
	dead(anew);
	dead(bnew);
	restart(&alice, false);
	dead(pub);
	dead(anew);
	dead(bnew);

	ircclient_close(&alice);
	ircclient_close(&bob);
	world_daemon_stop(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_links_survive_restart, setup, world_end_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
