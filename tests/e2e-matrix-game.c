/* e2e-matrix-game.c: four users play a whole game with the real daemon over the fake Matrix server, restarting it mid-game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "fakemx.h"
#include "proc.h"

static struct proc p;
static const char *const names[4] = { "ann", "bob", "cy", "dee" };

static void
room_call(struct fakemx *f, const char *tok, const char *room, const char *what, const char *body)
{
	char path[512], *e = curl_easy_escape(NULL, room, 0);

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/%s", e, what);
	curl_free(e);
	json_decref(fakemx_call(f, "POST", path, tok, body, NULL));
}

/* How many of the bot's messages in room contain needle; *txn_dup set if a txn id repeats. */
static int
bot_count(struct fakemx *f, const char *room, const char *needle, bool *txn_dup)
{
	json_t *evs = fakemx_events(f, room), *ev;
	char seen[2048][64];
	int n = 0, ns = 0;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
		const char *txn = json_string_value(json_object_get(json_object_get(ev, "unsigned"), "transaction_id"));

		if (strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") != 0 || body == NULL)
			continue;
		if (strstr(body, needle) != NULL)
			n++;
		if (txn_dup != NULL && txn != NULL) {
			for (int k = 0; k < ns; k++)
				if (strcmp(seen[k], txn) == 0)
					*txn_dup = true;
			if (ns < 2048)
				snprintf(seen[ns++], sizeof seen[0], "%s", txn);
		}
	}
	json_decref(evs);
	return n;
}

static bool
wait_for(struct fakemx *f, const char *room, const char *needle, int n, int ms)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	for (int t = 0; t < ms; t += 200) {
		if (bot_count(f, room, needle, NULL) >= n)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static void
direct_room(struct fakemx *f, const char *user, char *out, size_t len)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	const char *r = json_string_value(json_array_get(json_object_get(json_object_get(json_object_get(j, "account"),
	                                                                                  "@bot:hs m.direct"), user), 0));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(j);
}

static void
start_daemon(const char *conf)
{
	const char *argv[] = { "-c", conf, NULL };

	assert_int_equal(proc_start(&p, argv), 0);
}

static void
test_four_players_a_restart_and_no_hidden_card(void **state)
{
	struct fakemx f;
	char tok[4][128], bot[128], room[256], conf[] = "/tmp/hf-mx-conf-XXXXXX", pw[] = "/tmp/hf-mx-pw-XXXXXX";
	char db[] = "/tmp/hf-mx-db-XXXXXX", dm[4][256], body[512], line[64];
	bool dup = false;
	FILE *fp;
	json_t *j;
	int fd;

	(void)state;
	if (access("build/handfoot", X_OK) != 0 && getenv("HANDFOOT_BUILD") == NULL)
		skip();
	assert_int_equal(fakemx_start(&f), 0);
	fakemx_user(&f, "bot", "s3cret", bot, sizeof bot);
	for (int i = 0; i < 4; i++)
		fakemx_user(&f, names[i], "x", tok[i], sizeof tok[i]);
	fd = mkstemp(pw);
	assert_true(write(fd, "s3cret\n", 7) == 7);
	close(fd);
	close(mkstemp(db));
	unlink(db);
	fd = mkstemp(conf);
	fp = fdopen(fd, "w");
	fprintf(fp, "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = err\n\n"
	            "[matrix test]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 2\n",
	        db, f.base, pw);
	fclose(fp);

	/* ann's room, with the bot and three friends */
	j = fakemx_call(&f, "POST", "/_matrix/client/v3/createRoom", tok[0],
	                "{\"invite\":[\"@bot:hs\",\"@bob:hs\",\"@cy:hs\",\"@dee:hs\"]}", NULL);
	snprintf(room, sizeof room, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
	for (int i = 1; i < 4; i++)
		room_call(&f, tok[i], room, "join", "{}");
	fakemx_say(&f, tok[0], room, "!new classic");  /* history: never replayed */
	start_daemon(conf);
	sleep(2);
	assert_int_equal(bot_count(&f, room, "", NULL), 0);
	fakemx_say(&f, tok[0], room, "!new classic rounds=1");
	assert_true(wait_for(&f, room, "start", 1, 15000));
	for (int i = 0; i < 4; i++)
		fakemx_say(&f, tok[i], room, "!join");
	sleep(1);
	fakemx_say(&f, tok[0], room, "!start");
	/* each player's hand arrives in their own direct room */
	for (int i = 0; i < 4; i++) {
		char user[64];
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		snprintf(user, sizeof user, "@%s:hs", names[i]);
		for (int t = 0; t < 100 && (direct_room(&f, user, dm[i], sizeof dm[i]), dm[i][0] == '\0'); t++)
			nanosleep(&ts, NULL);
		assert_string_not_equal(dm[i], "");
		assert_true(wait_for(&f, dm[i], "Your hand", 1, 15000));
		room_call(&f, tok[i], dm[i], "join", "{}");
	}
	/* restart mid-game: nothing replayed, nothing sent twice */
	snprintf(line, sizeof line, "%d", bot_count(&f, room, "", NULL));
	proc_close_input(&p);
	kill(p.pid, SIGTERM);
	proc_end(&p);
	fakemx_say(&f, tok[1], room, "!who");
	start_daemon(conf);
	assert_true(wait_for(&f, room, "round", 1, 15000));
	/* everyone hands their seat to the computer and the game runs to its end */
	for (int i = 0; i < 4; i++)
		fakemx_say(&f, tok[i], room, "!auto");
	assert_true(wait_for(&f, room, "Game over", 1, 240000));
	sleep(1);
	assert_int_equal(bot_count(&f, room, "Game over", &dup), 1);
	assert_false(dup);
	/* the game room never saw a hand */
	assert_int_equal(bot_count(&f, room, "Your hand", NULL), 0);
	assert_int_equal(bot_count(&f, room, "Your foot", NULL), 0);
	for (int i = 0; i < 4; i++) {
		dup = false;
		bot_count(&f, dm[i], "", &dup);
		assert_false(dup);
	}
	snprintf(body, sizeof body, "%s", line);
	proc_close_input(&p);
	kill(p.pid, SIGTERM);
	proc_end(&p);
	fakemx_stop(&f);
	unlink(conf);
	unlink(pw);
	unlink(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_players_a_restart_and_no_hidden_card),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
