/* e2e-web-leak.c: whole games on IRC (ngircd) watched on the web table: no socket ever gets a card its viewer may not see; dead links get only the error page (a finished game's table link, its replay). */
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

/* Every seat link made, to search the daemon's log for. */
static char seat_links[16][64];
static int nseat_links;

/* What the games showed, over all of them: the test wants each at least once. */
static int saw_pickups, saw_feet, saw_red3s;

static int
setup(void **state)
{
	char irc[512];

	*state = &w;
	if (world_init(&w, &world_ngircd) != 0)
		return -1;
	web_port = ircserver_free_port();
	snprintf(origin, sizeof origin, "http://127.0.0.1:%d", web_port);
	/* no pacing on IRC and no thinking time: whole games in seconds */
	snprintf(irc, sizeof irc,
	         "channels = #lobby, #duel, #classic, #family\nflood_rate = 0\nflood_burst = 100\n"
	         "[web test]\nlisten = 127.0.0.1:%d\n",
	         web_port);
	world_conf(&w, "prefix = !\nai_delay = 0\nturn_reminder = 0\nai_budget = 300\nai_level = easy\n"
	           "flood_burst = 100\nlog_level = debug\n", irc);
	return 0;
}

/* The path of the first link "http://127.0.0.1:PORT/t/TOKEN" in line. */
static void
link_path(const char *line, char *path, size_t len)
{
	const char *p = strstr(line, "/t/");

	assert_non_null(p);
	snprintf(path, len, "%.35s", p);
	assert_int_equal(strlen(path), 35);
}

/* Waits for a line from the bot holding a, b and a link (among every line received, from from on): the link's path. */
static void
wait_link_from(struct ircclient *c, size_t from, const char *a, const char *b, char *path, size_t len)
{
	int64_t end = ircclient_now_us() / 1000 + 20000;
	size_t k;

	do {
		for (k = from; k < c->nlines; k++)
			if (strstr(c->lines[k], a) && strstr(c->lines[k], b) && strstr(c->lines[k], "/t/")) {
				link_path(c->lines[k], path, len);
				return;
			}
	} while (ircclient_drain(c, 100) == 0 && ircclient_now_us() / 1000 < end);
	for (k = 0; k < c->nlines; k++)
		print_message("%s: %s\n", c->nick, c->lines[k]);
	fail_msg("no line with %s, %s and a link", a, b);
}

/* Every frame a socket got, checked: a view for this viewer only, and never another's hand. */
static void
check_frames(const struct wsc *c, int seat, const char *name)
{
	size_t i;

	for (i = 0; i < c->nmsgs; i++) {
		json_error_t e;
		json_t *o = json_loads(c->msgs[i], 0, &e), *h;
		const char *type;

		assert_non_null(o);
		type = json_string_value(json_object_get(o, "type"));
		assert_non_null(type);
		if (strcmp(type, "view") == 0) {
			if (json_integer_value(json_object_get(o, "seat")) != seat)
				fail_msg("%s's socket got the view of seat %lld", name,
				         (long long)json_integer_value(json_object_get(o, "seat")));
			h = json_object_get(o, "hand");
			if (seat < 0 && h != NULL)
				fail_msg("the spectator's socket got a hand: %.200s", c->msgs[i]);
			if (seat >= 0 && !json_is_array(h))
				fail_msg("%s's view has no hand", name);
			/* nothing else in a view names cards but the public melds, red 3s and pile top */
			assert_null(json_object_get(o, "foot_cards"));
			assert_null(json_object_get(o, "stock_cards"));
		} else
			assert_string_equal(type, "answer");
		json_decref(o);
	}
}

/* The public part of a view: the same for every viewer at one moment of the game. */
static bool
moment(const char *frame, const char **from, size_t *len)
{
	const char *a = strstr(frame, "\"round\":"), *b = strstr(frame, "\"rounds\":");

	if (a == NULL || b == NULL || b < a)
		return false;
	*from = a;
	*len = (size_t)(b - a);
	return true;
}

/* Each hand of owner's frames (3 cards or more), searched for in the frames other got at that same moment. */
static void
check_no_copy(const struct wsc *owner, const struct wsc *other, const char *who)
{
	size_t i, j, kl, ol;
	const char *k, *o;

	for (i = 0; i < owner->nmsgs; i++) {
		const char *h = strstr(owner->msgs[i], "\"hand\":[");
		const char *end = h != NULL ? strchr(h, ']') : NULL;
		char needle[2048];
		json_t *arr;
		long cards = 0;

		if (h == NULL || end == NULL || (size_t)(end - h) >= sizeof needle || !moment(owner->msgs[i], &k, &kl))
			continue;
		snprintf(needle, sizeof needle, "%.*s", (int)(end - h + 1), h);
		arr = json_loads(needle + 7, 0, NULL);
		for (j = 0; j < json_array_size(arr); j++)
			cards += (long)json_integer_value(json_object_get(json_array_get(arr, j), "n"));
		json_decref(arr);
		if (cards < 3)
			continue;
		/* the cards themselves, without the key, anywhere in the other's frame of that moment but its
		 * own hand (two seats may hold the same cards) */
		for (j = 0; j < other->nmsgs; j++) {
			char *copy, *own, *own_end;

			if (!moment(other->msgs[j], &o, &ol) || ol != kl || memcmp(o, k, kl) != 0)
				continue;
			copy = strdup(other->msgs[j]);
			if ((own = strstr(copy, "\"hand\":[")) != NULL && (own_end = strchr(own, ']')) != NULL)
				memmove(own, own_end + 1, strlen(own_end + 1) + 1);
			if (strstr(copy, needle + 7) != NULL)
				fail_msg("%s got another seat's hand %s", who, needle);
			free(copy);
		}
	}
}

/* What the public frames show happened: a pickup (the pile emptied mid-round), a foot, red 3s. */
static void
tally(const struct wsc *pub)
{
	long last_size = -1, last_round = -1;
	size_t i, k;

	for (i = 0; i < pub->nmsgs; i++) {
		json_t *o = json_loads(pub->msgs[i], 0, NULL), *seats, *sides, *s;
		long size, round;

		if (o == NULL)
			continue;
		size = (long)json_integer_value(json_object_get(json_object_get(o, "pile"), "size"));
		round = (long)json_integer_value(json_object_get(o, "round"));
		if (round == last_round && last_size >= 2 && size < last_size - 1)
			saw_pickups++;
		last_size = size;
		last_round = round;
		seats = json_object_get(o, "seats");
		for (k = 0; k < json_array_size(seats); k++)
			if (json_is_true(json_object_get(json_array_get(seats, k), "in_foot")))
				saw_feet++;
		sides = json_object_get(o, "sides");
		for (k = 0; k < json_array_size(sides); k++) {
			s = json_array_get(sides, k);
			if (json_integer_value(json_object_get(s, "red3s")) > 0)
				saw_red3s++;
		}
		json_decref(o);
	}
}

static int
seat_of(struct wsc *c)
{
	const char *m = wsc_wait(c, "\"type\":\"view\"", 10000);
	json_t *o;
	int seat;

	assert_non_null(m);
	o = json_loads(m, 0, NULL);
	assert_non_null(o);
	seat = (int)json_integer_value(json_object_get(o, "seat"));
	json_decref(o);
	return seat;
}

static void
open_ok(struct wsc *c, const char *path)
{
	if (wsc_open(c, web_port, path, origin, "handfoot-1") != 0)
		fail_msg("no socket on %s (HTTP %d)", path, c->status);
}

/* Reads every socket until the game is over (each closed by the server). */
static void
read_to_end(struct wsc *const *socks, size_t n, int ms)
{
	int64_t end = ircclient_now_us() / 1000 + ms;
	size_t i, open;

	do {
		open = 0;
		for (i = 0; i < n; i++)
			if (!socks[i]->closed) {
				wsc_read(socks[i], 20);
				open++;
			}
	} while (open > 0 && ircclient_now_us() / 1000 < end);
	assert_int_equal(open, 0);
}

static void
play_one(struct ircclient *alice, struct ircclient *bob, const char *chan, const char *preset, int bots)
{
	char pub[64], apath[64], bpath[64], bnew[64], body[4096], line[512];
	struct wsc spect, a, b, b2, old;
	struct wsc *all[4] = { &spect, &a, &b2, NULL };
	int sa, sb, i;
	size_t mark_a, mark_b;
	const char *m;

	assert_int_equal(ircclient_join(alice, chan), 0);
	assert_int_equal(ircclient_join(bob, chan), 0);
	ircclient_send(alice, "PRIVMSG %s :!new %s", chan, preset);
	if (ircclient_wait(alice, 10000, NULL, 0, "PRIVMSG", chan, NULL) != 0) {
		for (size_t k = 0; k < alice->nlines; k++)
			print_message("alice: %s\n", alice->lines[k]);
		fail();
	}
	ircclient_send(bob, "PRIVMSG %s :!join", chan);
	assert_int_equal(ircclient_wait(bob, 10000, NULL, 0, "PRIVMSG", "bob", NULL), 0);
	for (i = 0; i < bots; i++) {
		ircclient_send(alice, "PRIVMSG %s :!bot add", chan);
		ircclient_drain(alice, 300);
	}
	/* before the deal there is nothing to watch */
	mark_a = alice->nlines;
	mark_b = bob->nlines;
	ircclient_send(alice, "PRIVMSG %s :!start", chan);
	wait_link_from(alice, mark_a, chan, "Watch: ", pub, sizeof pub);
	wait_link_from(alice, mark_a, "NOTICE alice :", "play from", apath, sizeof apath);
	wait_link_from(bob, mark_b, "NOTICE bob :", "play from", bpath, sizeof bpath);
	/* a seat's link never goes to the room */
	assert_false(ircclient_saw(bob, chan, apath));
	assert_false(ircclient_saw(alice, chan, bpath));
	/* !watch answers with the table's link, in the room */
	ircclient_send(bob, "PRIVMSG %s :!watch", chan);
	assert_int_equal(ircclient_wait(bob, 10000, NULL, 0, chan, pub, NULL), 0);

	snprintf(seat_links[nseat_links++], sizeof seat_links[0], "%s", apath + 3);
	snprintf(seat_links[nseat_links++], sizeof seat_links[0], "%s", bpath + 3);
	open_ok(&spect, pub);
	open_ok(&a, apath);
	open_ok(&b, bpath);
	assert_int_equal(seat_of(&spect), -1);
	sa = seat_of(&a);
	sb = seat_of(&b);
	assert_true(sa >= 0 && sb >= 0 && sa != sb);

	/* bob replaces his link: the old one's socket is closed, its page is the error page */
	ircclient_send(bob, "PRIVMSG %s :!web new", chan);
	wait_link_from(bob, bob->nlines, "NOTICE bob :", "new link", bnew, sizeof bnew);
	assert_string_not_equal(bnew, bpath);
	snprintf(seat_links[nseat_links++], sizeof seat_links[0], "%s", bnew + 3);
	while (wsc_read(&b, 5000) > 0)
		;
	assert_true(b.closed);
	assert_int_equal(b.close_code, 1008);
	assert_int_equal(wsc_http_get(web_port, bpath, NULL, body, sizeof body), 404);
	assert_non_null(strstr(body, "No table here"));
	assert_null(strstr(body, "<script"));
	assert_int_equal(wsc_open(&old, web_port, bpath, origin, "handfoot-1"), -1);
	wsc_close(&old);
	/* !web alone cannot show it again (it is kept as a hash only) */
	ircclient_send(bob, "PRIVMSG %s :!web", chan);
	assert_int_equal(ircclient_wait(bob, 10000, NULL, 0, "NOTICE bob :", "when the cards were dealt", NULL), 0);
	open_ok(&b2, bnew);
	assert_int_equal(seat_of(&b2), sb);

	/* a spectator's page cannot act */
	/* (its socket is closed if it tries: tested in e2e-web-hostile) */

	/* the seats play from their pages: a refused move gets the engine's sentence as the answer */
	wsc_send(&a, "{\"v\":1,\"type\":\"act\",\"cmd\":\"discard 2\"}");
	m = wsc_wait(&a, "\"type\":\"answer\"", 10000);
	assert_non_null(m);
	assert_null(strstr(m, "\"text\":\"\""));
	/* then the computer plays both seats to the end (with !auto from the pages), every frame kept */
	wsc_send(&a, "{\"v\":1,\"type\":\"act\",\"cmd\":\"auto\"}");
	wsc_send(&b2, "{\"v\":1,\"type\":\"act\",\"cmd\":\"auto\"}");
	read_to_end(all, 3, 240000);
	assert_int_equal(spect.close_code, 1000);

	check_frames(&spect, -1, "the spectator");
	check_frames(&a, sa, "alice");
	check_frames(&b, sb, "bob (old link)");
	check_frames(&b2, sb, "bob");
	check_no_copy(&a, &spect, "the spectator");
	check_no_copy(&a, &b2, "bob");
	check_no_copy(&b2, &spect, "the spectator");
	check_no_copy(&b2, &a, "alice");
	check_no_copy(&b, &a, "alice");
	tally(&spect);
	/* the room heard the game */
	snprintf(line, sizeof line, "PRIVMSG %s :", chan);
	assert_int_equal(ircclient_wait(alice, 10000, NULL, 0, line, "Game over", NULL), 0);

	/* a finished game's seat links open nothing; its table's link opens its replay (e2e-web-replay) */
	assert_int_equal(wsc_http_get(web_port, pub, NULL, body, sizeof body), 200);
	assert_non_null(strstr(body, "replay.js"));
	assert_int_equal(wsc_http_get(web_port, apath, NULL, body, sizeof body), 404);
	assert_int_equal(wsc_http_get(web_port, bnew, NULL, body, sizeof body), 404);
	assert_int_equal(wsc_open(&old, web_port, apath, origin, "handfoot-1"), -1);
	wsc_close(&old);
	wsc_close(&spect);
	wsc_close(&a);
	wsc_close(&b);
	wsc_close(&b2);
	ircclient_drain(alice, 200);
	ircclient_drain(bob, 200);
}

static void
test_whole_games_leak_nothing(void **state)
{
	struct ircclient alice, bob;
	char body[8192];

	(void)state;
	alice.pump = bob.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_connect(&bob, w.srv.port, "bob"), 0);
	assert_int_equal(ircclient_join(&alice, "#lobby"), 0);
	assert_int_equal(e2e_daemon_start(&w.d, "web-leak", w.conf, NULL), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#lobby", NULL), 0);

	/* a guessed link gets the error page, and no socket */
	assert_int_equal(wsc_http_get(web_port, "/t/0123456789abcdef0123456789abcdef", NULL, body, sizeof body), 404);
	assert_non_null(strstr(body, "No table here"));
	assert_int_equal(wsc_http_get(web_port, "/", NULL, body, sizeof body), 200);

	play_one(&alice, &bob, "#duel", "duel", 0);
	play_one(&alice, &bob, "#classic", "classic", 2);
	play_one(&alice, &bob, "#family", "family", 0);
	/* the games had what the test is about */
	print_message("pickups %d, feet %d, red 3s %d (views that showed them)\n", saw_pickups, saw_feet, saw_red3s);
	assert_true(saw_pickups > 0);
	assert_true(saw_feet > 0);
	assert_true(saw_red3s > 0);

	/* a seat's link never reaches the daemon's log (e2e-zz-secrets searches every log for them too) */
	{
		char *log = e2e_read_file(w.d.log);
		int k;

		assert_non_null(log);
		assert_non_null(strstr(log, "web tables at"));
		for (k = 0; k < nseat_links; k++) {
			e2e_secret_note(seat_links[k]);
			if (strstr(log, seat_links[k]) != NULL)
				fail_msg("the log holds a seat's link %s", seat_links[k]);
		}
		free(log);
	}
	ircclient_close(&alice);
	ircclient_close(&bob);
	assert_int_equal(e2e_daemon_signal(&w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&w.d, 10000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_whole_games_leak_nothing, setup, world_end_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
