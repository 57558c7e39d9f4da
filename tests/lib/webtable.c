/* webtable.c: a table on ngircd with the web view on, and a headless Chromium to look at it (webtable.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "e2e.h"
#include "ircserver.h"
#include "webtable.h"

int
webtable_setup(struct webtable *t, const char *bot_extra)
{
	if (!cdp_available()) {
		print_message("chromium is not installed (make deps-test installs it)\n");
		return -1;
	}
	if (webtable_server(t, bot_extra) != 0)
		return -1;
	return cdp_start(&t->browser);
}

int
webtable_server(struct webtable *t, const char *bot_extra)
{
	char web[128];
	const char *dir = getenv("HANDFOOT_SHOTS");

	memset(&t->browser, 0, sizeof t->browser);
	t->browser.ws.fd = -1;
	if (world_init(&t->fx, &world_ngircd) != 0)
		return -1;
	t->port = ircserver_free_port();
	snprintf(t->base, sizeof t->base, "http://127.0.0.1:%d", t->port);
	snprintf(t->shots, sizeof t->shots, "%s", dir != NULL && dir[0] ? dir : "");
	if (t->shots[0] == '\0') {
		snprintf(t->shots, sizeof t->shots, "%s/screens", e2e_build());
		mkdir(t->shots, 0755);
	}
	snprintf(web, sizeof web, "channels = #cards\nflood_rate = 0\nflood_burst = 100\ncolors = no\n"
	         "[web test]\nlisten = 127.0.0.1:%d\n", t->port);
	world_conf(&t->fx, bot_extra, web);
	return 0;
}

void
webtable_teardown(struct webtable *t)
{
	cdp_stop(&t->browser);
	proc_stop(&t->daemon);
	world_stop(&t->fx);
}

void
webtable_find_link(const struct webtable *t, struct ircclient *c, size_t from, const char *a, const char *b,
                   char *url, size_t len)
{
	for (int i = 0; i < 200; i++) {
		for (size_t k = from; k < c->nlines; k++) {
			const char *p;

			if (strstr(c->lines[k], a) && strstr(c->lines[k], b) && (p = strstr(c->lines[k], "/t/")) != NULL) {
				snprintf(url, len, "%s%.35s", t->base, p);
				return;
			}
		}
		ircclient_drain(c, 100);
	}
	fail_msg("no line with %s and %s", a, b);
}

size_t
webtable_duel(struct webtable *t, struct ircclient *alice, struct ircclient *bob)
{
	const char *argv[] = { "-c", t->fx.conf, NULL };
	size_t mark;

	alice->pump = bob->pump = NULL;
	assert_int_equal(ircclient_connect(alice, t->fx.srv.port, "alice"), 0);
	assert_int_equal(ircclient_connect(bob, t->fx.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(alice, "#cards"), 0);
	assert_int_equal(ircclient_join(bob, "#cards"), 0);
	assert_int_equal(proc_start(&t->daemon, argv), 0);
	assert_int_equal(ircclient_wait(alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(alice, "PRIVMSG #cards :!new duel");
	assert_int_equal(ircclient_wait(alice, 10000, NULL, 0, "PRIVMSG #cards :", "opens", NULL), 0);
	ircclient_send(bob, "PRIVMSG #cards :!join");
	assert_int_equal(ircclient_wait(bob, 10000, NULL, 0, "PRIVMSG #cards :", "bob sits", NULL), 0);
	mark = alice->nlines;
	ircclient_send(alice, "PRIVMSG #cards :!start");
	return mark;
}

void
webtable_irc_turn(struct ircclient *c, const char *nick)
{
	char line[2048], card[16] = "", notice[64];
	const char *h, *p;

	snprintf(notice, sizeof notice, "NOTICE %s :", nick);
	ircclient_send(c, "PRIVMSG #cards :!draw");
	assert_int_equal(ircclient_wait(c, 10000, line, sizeof line, notice, "You drew", NULL), 0);
	/* "You drew 8 5 · Your hand (13): A K×2 J 9 8 ... | foot: ..." : the first natural */
	h = strstr(line, "You drew");
	h = h != NULL ? strstr(h, "): ") : NULL;
	assert_non_null(h);
	for (p = h + 3; *p && *p != '|';) {
		size_t n = strcspn(p, " \xc3\x97");

		snprintf(card, sizeof card, "%.*s", (int)n, p);
		if (card[0] != '2' && card[0] != '3' && strcmp(card, "JK") != 0 && n > 0)
			break;
		card[0] = '\0';
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	assert_true(card[0] != '\0');
	ircclient_send(c, "PRIVMSG #cards :!discard %s", card);
	if (ircclient_wait(c, 10000, line, sizeof line, "PRIVMSG #cards :", nick, "discarded", NULL) != 0) {
		for (size_t k = 0; k < c->nlines; k++)
			print_message("%s: %s\n", nick, c->lines[k]);
		fail_msg("%s's turn was not told", nick);
	}
}

bool
webtable_eval_true(struct webtable *t, const char *expr)
{
	json_t *v = cdp_eval(&t->browser, expr);
	bool yes = json_is_true(v);

	json_decref(v);
	return yes;
}

void
webtable_shot(struct webtable *t, const char *name, int w, int h, bool mobile)
{
	char path[700];

	assert_int_equal(cdp_size(&t->browser, w, h, mobile), 0);
	/* the page lays itself out again at the new size: no event says when it is done */
	e2e_sleep_ms(300);
	snprintf(path, sizeof path, "%s/%s", t->shots, name);
	assert_int_equal(cdp_screenshot(&t->browser, path, false), 0);
}

int
webtable_console(struct world *w, const char *tag, const char *web_extra, int *port, char *origin, size_t olen,
                 char *pub, size_t plen)
{
	char web[320];

	if (world_init(w, &world_none) < 0)
		return -1;
	*port = ircserver_free_port();
	snprintf(origin, olen, "http://127.0.0.1:%d", *port);
	snprintf(web, sizeof web, "[console]\nprefix =\nstart = play 4 classic\n[web test]\nlisten = 127.0.0.1:%d\n%s",
	         *port, web_extra);
	world_run(w, tag, "prefix = !\nai_delay = 60000\nturn_reminder = 0\n", web);
	if (e2e_daemon_wait_log(&w->d, "Watch: ", 20000) < 0 || e2e_log_link(w->d.log, "Watch: ", pub, plen) < 0)
		return -1;
	return 0;
}
