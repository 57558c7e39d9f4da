/* e2e-discord-link.c: a game on the real daemon goes on through what the link and REST throw at it: drops, op 7, a zombie link, 429 storms, a restart. */
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
#include <curl/curl.h>

#include "dcplay.h"

#define QUICK "classic rounds=1 decks=1 hand=5 foot=5"

/* Connections the daemon opened: how many sent Identify, and how many Resume on the resume port. */
static void
link_counts(struct dcplay *p, int *identifies, int *resumes)
{
	json_t *s = dcplay_state(p), *c;
	size_t i;

	*identifies = *resumes = 0;
	json_array_foreach(json_object_get(s, "connections"), i, c) {
		*identifies += json_is_object(json_object_get(c, "identify"));
		*resumes += json_is_object(json_object_get(c, "resume")) &&
		            json_integer_value(json_object_get(c, "port")) == p->f.resume;
	}
	json_decref(s);
}

static bool
wait_resumes(struct dcplay *p, int n, int ms)
{
	int ids, res;

	for (int t = 0; t <= ms; t += 50) {
		link_counts(p, &ids, &res);
		if (res >= n)
			return true;
		usleep(50 * 1000);
	}
	return false;
}

/* A slash command answered in time after whatever happened: the game is still there. */
static void
still_playing(struct dcplay *p, int i)
{
	const char *id = dcplay_command(p, i, "hand", NULL);
	json_t *m;

	assert_non_null(id);
	assert_non_null(m = dcplay_reply(p, id, "Your hand", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
}

/* The link dropped without a close frame, then closed by op 7: each time the
 * session is resumed on resume_gateway_url, and an interaction sent while
 * the link was down is replayed by the Resume and answered in time. */
static void
test_resume_after_drop_and_op7(void **state)
{
	struct dcplay *p;
	json_t *turn, *m;
	const char *id;
	char sid[32];
	int who, ids, res;

	p = dcplay_setup_state(state, "dc-resume", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);

	/* an abnormal close (no close frame), and at once a command: Discord keeps it for the Resume */
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"drop\"}"), 0);
	assert_non_null(id = dcplay_command(p, who, "hand", NULL));
	snprintf(sid, sizeof sid, "%s", id);
	assert_true(wait_resumes(p, 1, 10000));
	assert_non_null(m = dcplay_reply(p, sid, "Your hand", 10000));
	json_decref(m);

	/* op 7: reconnect and resume at once */
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"reconnect\"}"), 0);
	assert_true(wait_resumes(p, 2, 10000));
	still_playing(p, who);

	/* one session all along: one Identify, two Resumes; the bot was never told it was down */
	link_counts(p, &ids, &res);
	assert_int_equal(ids, 1);
	assert_int_equal(res, 2);
	assert_false(e2e_daemon_log_has(&p->d, "down, reconnecting"));
	assert_int_equal(dcplay_unanswered(p), 0);
	assert_int_equal(dcplay_refused(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* Heartbeats no longer acknowledged: the daemon takes the link for a zombie,
 * closes it with a code that keeps the session, and resumes. */
static void
test_zombie_link(void **state)
{
	struct dcplay *p;
	json_t *turn, *s, *c;
	int who, zombie = 0;
	size_t i;

	p = dcplay_setup_state(state, "dc-zombie", 4, NULL, NULL);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"heartbeat_interval\":700}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"ack\",\"on\":false}"), 0);
	assert_true(wait_resumes(p, 1, 10000));
	s = dcplay_state(p);
	json_array_foreach(json_object_get(s, "connections"), i, c) {
		json_t *by = json_object_get(c, "closed_by_client");

		/* not 1000 or 1001, which would end the session */
		if (json_is_integer(by) && json_integer_value(by) != 1000 && json_integer_value(by) != 1001)
			zombie++;
	}
	json_decref(s);
	assert_int_equal(zombie, 1);
	still_playing(p, who);
	assert_int_equal(dcplay_unanswered(p), 0);
	assert_int_equal(dcplay_refused(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* A game the computer plays to its end through 429 storms, on the channel's
 * messages (per route) and global: every line arrives, once, in order, and
 * no request goes before its retry_after. */
static void
test_429_storms_lose_nothing(void **state)
{
	struct dcplay *p;
	json_t *turn, *s, *m, *over;
	int who, moves = 0, storms = 0;
	size_t i;

	p = dcplay_setup_state(state, "dc-429", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_int_equal(fakedc_ctl(&p->f, "ratelimit", "{\"route\":\"^POST /channels/\\\\d+/messages$\",\"count\":6,"
	                            "\"retry_after\":0.7}"), 0);
	assert_int_equal(fakedc_ctl(&p->f, "ratelimit", "{\"route\":\"^POST /channels/\\\\d+/messages$\",\"count\":2,"
	                            "\"retry_after\":0.4,\"global\":true}"), 0);
	assert_int_equal(dcplay_auto_all(p), 0);
	assert_non_null(over = dcplay_wait(p, 0, "Game over", dcplay_public, NULL, 120000));
	json_decref(over);
	/* a second for requests still queued behind the storms to reach the fake */
	sleep(1);
	s = dcplay_state(p);
	/* the storms happened */
	json_array_foreach(json_object_get(s, "requests"), i, m)
		storms += json_integer_value(json_object_get(m, "status")) == 429;
	assert_true(storms >= 8);
	/* every turn the computer played was told, once and in order: each
	 * turn is a line of its own ("**bob** drew 2 cards, ..., discarded 7",
	 * several in one message when they are folded), the players' names go
	 * round the table, and the stock after them ("· pile 7, 1 card · stock
	 * 31", at the end of a message) only goes down */
	{
		long last = 1000;
		char seen[64][32];

		json_array_foreach(json_object_get(s, "messages"), i, m) {
			const char *c = json_string_value(json_object_get(m, "content")), *st, *l, *e;

			if (!dcplay_public(m, NULL))
				continue;
			for (l = c; *l != '\0'; l = *e != '\0' ? e + 1 : e) {
				size_t len = strcspn(l, "\n");
				char line[1024];

				e = l + len;
				snprintf(line, sizeof line, "%.*s", (int)len, l);
				if ((strncmp(line, "**", 2) != 0 && strncmp(line, "<@", 2) != 0) ||
				    (strstr(line, " drew ") == NULL && strstr(line, " took the pile") == NULL))
					continue;
				assert_true(moves < 64);
				snprintf(seen[moves], sizeof seen[moves], "%.*s", (int)strcspn(line + 2, "*>"), line + 2);
				/* the player a line pings is named by their ping, wherever their name comes first */
				for (int k = 0; k < p->nusers; k++)
					if (strcmp(seen[moves], p->user[k]) == 0)
						snprintf(seen[moves], sizeof seen[moves], "%s", p->name[k]);
				/* four players: the fifth turn is the first's again, and so on */
				if (moves >= 4)
					assert_string_equal(seen[moves], seen[moves - 4]);
				for (int k = 0; k < moves && k < 4 && moves < 4; k++)
					assert_string_not_equal(seen[moves], seen[k]);
				moves++;
			}
			for (st = c; (st = strstr(st, " · stock ")) != NULL; st++) {
				long left = atol(st + strlen(" · stock "));

				assert_true(left <= last);
				last = left;
			}
		}
	}
	assert_true(moves >= 2);
	assert_int_equal(json_integer_value(json_object_get(s, "nonce_repeats")), 0);
	json_decref(s);
	assert_int_equal(dcplay_audit(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* The daemon restarted mid-game: the game is where it was, the old turn
 * line's buttons still work, and the move goes on from there. */
static void
test_restart_mid_game(void **state)
{
	struct dcplay *p;
	json_t *turn, *m, *before, *after;
	const char *id;
	char mid[32], draw[80], hand_before[512];
	int who, again;
	size_t restarted;

	p = dcplay_setup_state(state, "dc-restart", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn, "id")));
	snprintf(draw, sizeof draw, "%s", dcplay_button(turn, "Draw"));
	json_decref(turn);
	assert_non_null(id = dcplay_command(p, who, "hand", NULL));
	assert_non_null(before = dcplay_reply(p, id, "Your hand", 10000));
	snprintf(hand_before, sizeof hand_before, "%s", json_string_value(json_object_get(before, "content")));
	json_decref(before);

	assert_int_equal(dcplay_stop(p), 0);
	/* stopping closed the link with 1000: Discord ends the session, and the bot shows offline at once */
	{
		json_t *s = dcplay_state(p);
		json_t *c = json_array_get(json_object_get(s, "connections"), 0);

		assert_int_equal(json_integer_value(json_object_get(c, "closed_by_client")), 1000);
		json_decref(s);
	}
	restarted = dcplay_count(p);
	assert_int_equal(dcplay_start(p), 0);

	/* the same hand after the restart */
	assert_non_null(id = dcplay_command(p, who, "hand", NULL));
	assert_non_null(after = dcplay_reply(p, id, "Your hand", 10000));
	assert_string_equal(json_string_value(json_object_get(after, "content")), hand_before);
	json_decref(after);
	/* the turn line from before the restart is stale (its buttons carry
	 * their line's number): refused privately; the line the start posted
	 * draws (a step of the player's own turn: answered to them alone) */
	assert_non_null(id = dcplay_press(p, who, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "earlier turn", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	assert_non_null(turn = dcplay_turn_line(p, restarted, &again, 15000));
	assert_int_equal(again, who);
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn, "id")));
	snprintf(draw, sizeof draw, "%s", dcplay_button(turn, "Draw"));
	json_decref(turn);
	assert_non_null(id = dcplay_press(p, who, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "You drew ", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	dcplay_end(p);
}

/* Channel posts the fake answered with status. */
static int
posts(struct dcplay *p, long status)
{
	json_t *s = dcplay_state(p), *r;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(s, "requests"), i, r)
		n += json_integer_value(json_object_get(r, "status")) == status &&
		     strcmp(json_string_value(json_object_get(r, "method")), "POST") == 0 &&
		     strstr(json_string_value(json_object_get(r, "path")), "/channels/") != NULL &&
		     strstr(json_string_value(json_object_get(r, "path")), "/messages") != NULL;
	json_decref(s);
	return n;
}

/* SIGTERM while a line waits out a 429: the daemon sends it before it
 * leaves (the queued op), and stops well inside its 5 s. */
static void
test_stop_sends_what_is_queued(void **state)
{
	struct dcplay *p;
	json_t *turn, *s, *m;
	const char *id;
	int who, ok_before;
	size_t i, before;
	bool told = false;

	p = dcplay_setup_state(state, "dc-drain", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	/* the next line posted in the channel waits 2 s */
	assert_int_equal(fakedc_ctl(&p->f, "ratelimit", "{\"route\":\"^POST /channels/\\\\d+/messages$\",\"count\":1,"
	                            "\"retry_after\":2.0}"), 0);
	ok_before = posts(p, 200);
	before = dcplay_count(p);
	/* the player to move hands their seat over: the computer's turn is a line of its own in the channel */
	assert_non_null(id = dcplay_command(p, who, "auto", NULL));
	assert_true(dcplay_acked(p, id, 5000) >= 0);
	for (int t = 0; t < 200 && posts(p, 429) == 0; t++)
		usleep(20 * 1000);
	assert_int_equal(posts(p, 429), 1);
	assert_int_equal(posts(p, 200), ok_before);
	assert_int_equal(dcplay_stop(p), 0);
	/* it went out before the daemon left */
	assert_true(posts(p, 200) > ok_before);
	s = dcplay_state(p);
	json_array_foreach(json_object_get(s, "messages"), i, m)
		told = told || (i >= before && dcplay_public(m, NULL) &&
		                strstr(json_string_value(json_object_get(m, "content")), " · stock ") != NULL);
	json_decref(s);
	assert_true(told);
	assert_true(e2e_daemon_log_has(&p->d, "sending what is queued"));
	assert_false(e2e_daemon_log_has(&p->d, "lines unsent"));
	assert_int_equal(fakedc_violations(&p->f, true), 0);
}

/* Appends line to the daemon's configuration (its [discord test] section is the last). */
static void
conf_append(struct dcplay *p, const char *line)
{
	char *conf, *more;

	assert_non_null(conf = e2e_read_file(p->conf));
	more = malloc(strlen(conf) + strlen(line) + 2);
	sprintf(more, "%s%s\n", conf, line);
	assert_int_equal(e2e_write_file(p->conf, more), 0);
	free(more);
	free(conf);
}

/* SIGHUP: an unchanged section keeps its link; how hands go (private)
 * applies on the live link, with no reconnect; a change the link needs
 * (message_commands: other intents) reconnects, registers its commands
 * again, and the game goes on with the new setting. */
static void
test_reload(void **state)
{
	struct dcplay *p;
	json_t *turn, *m, *s;
	const char *id;
	int who, ids, res;
	size_t puts;

	p = dcplay_setup_state(state, "dc-reload", 4, NULL, NULL);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"privileged\":[15]}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_int_equal(e2e_daemon_signal(&p->d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&p->d, "in force", 10000), 0);
	link_counts(p, &ids, &res);
	assert_int_equal(ids, 1);

	/* hands by DM from now on: applied at once, on the same link */
	conf_append(p, "private = dm");
	puts = dcplay_puts(p);
	assert_int_equal(e2e_daemon_signal(&p->d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&p->d, "discord/test: applied: private", 10000), 0);
	assert_false(e2e_daemon_log_has(&p->d, "reconnecting"));
	/* the next deal sends the others' hands to their DMs (Ann's answers her /start) */
	assert_non_null(id = dcplay_command(p, 0, "abort", NULL));
	assert_non_null(m = dcplay_reply(p, id, "The game is over", 10000));
	json_decref(m);
	assert_int_equal(dcplay_dm_count(p, 1, "Your hand"), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	for (int t = 0; t < 200 && dcplay_dm_count(p, 1, "Your hand") == 0; t++)
		usleep(50 * 1000);
	assert_int_equal(dcplay_dm_count(p, 1, "Your hand"), 1);
	link_counts(p, &ids, &res);
	assert_int_equal(ids, 1);
	assert_int_equal(dcplay_puts(p), puts);

	/* typed commands: the link needs other intents, so it reconnects */
	conf_append(p, "message_commands = yes");
	assert_int_equal(e2e_daemon_signal(&p->d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&p->d, "discord/test: message_commands changed: reconnecting", 10000), 0);
	/* a new session (Discord lets one Identify through per 5 s here: the next waits) */
	for (int t = 0; t < 300 && dcplay_puts(p) == puts; t++)
		usleep(50 * 1000);
	assert_true(dcplay_puts(p) > puts);
	s = dcplay_state(p);
	{
		json_t *conns = json_object_get(s, "connections");
		json_t *last = json_array_get(conns, json_array_size(conns) - 1);

		assert_true(json_integer_value(json_object_get(json_object_get(last, "identify"), "intents")) & (1 << 15));
	}
	json_decref(s);
	still_playing(p, who);
	dcplay_end(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_resume_after_drop_and_op7, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_zombie_link, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_429_storms_lose_nothing, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_restart_mid_game, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_reload, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_stop_sends_what_is_queued, dcplay_teardown_state),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
