/* e2e-matrix-dmtable.c: a table opened from a Matrix direct message: the bot makes an unencrypted room for it, invites the players, deals once they joined. */
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

struct h {
	struct fakemx f;
	struct proc p;
	char ann[128], bob[128], cy[128], bot[128];
	char conf[32], pw[32], db[32], dm[256];
};

static void
pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Waits until the fake has had n more /sync requests than since (the bot is
 * the only one syncing): one started after a thing happened, and one more,
 * means the answer that carried the thing was read. */
static bool
syncs_past(struct h *h, long since, long n, int ms)
{
	for (int t = 0; t < ms; t += 50, pause_ms(50))
		if (fakemx_requests(&h->f, "sync") >= since + n)
			return true;
	return false;
}

static bool
wait_says(struct h *h, const char *room, const char *needle, int ms)
{
	for (int t = 0; t < ms; t += 200, pause_ms(200))
		if (fakemx_bot_says(&h->f, room, needle) > 0)
			return true;
	return false;
}

/* The room other than except where user is invited ("" if none yet). */
static void
invited_room(struct h *h, const char *user, const char *except, char *out, size_t len)
{
	json_t *j = fakemx_call(&h->f, "GET", "/_fake/rooms", NULL, NULL, NULL), *r;
	const char *id;

	out[0] = '\0';
	json_object_foreach(json_object_get(j, "rooms"), id, r) {
		const char *m = json_string_value(json_object_get(json_object_get(r, "members"), user));

		if (strcmp(id, except) != 0 && m != NULL && strcmp(m, "invite") == 0)
			snprintf(out, len, "%s", id);
	}
	json_decref(j);
}

/* The content of room's state event of type (state key ""), read as token's user; NULL if none. */
static json_t *
state_of(struct h *h, const char *token, const char *room, const char *type)
{
	char path[512], *e = curl_easy_escape(NULL, room, 0);
	json_t *all, *ev, *out = NULL;
	size_t i;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state", e);
	curl_free(e);
	all = fakemx_call(&h->f, "GET", path, token, NULL, NULL);
	json_array_foreach(all, i, ev)
		if (strcmp(json_string_value(json_object_get(ev, "type")), type) == 0 &&
		    strcmp(json_string_value(json_object_get(ev, "state_key")), "") == 0)
			out = json_incref(json_object_get(ev, "content"));
	json_decref(all);
	return out;
}

static int
setup(void **state)
{
	struct h *h = calloc(1, sizeof *h);
	const char *argv[] = { "-c", h->conf, NULL };
	char m[32];
	FILE *fp;
	int fd;

	if (access("build/handfoot", X_OK) != 0 && getenv("HANDFOOT_BUILD") == NULL) {
		free(h);
		return -1;
	}
	assert_int_equal(fakemx_start(&h->f), 0);
	fakemx_user(&h->f, "bot", "s3cret", h->bot, sizeof h->bot);
	fakemx_user(&h->f, "ann", "x", h->ann, sizeof h->ann);
	fakemx_user(&h->f, "bob", "x", h->bob, sizeof h->bob);
	fakemx_user(&h->f, "cy", "x", h->cy, sizeof h->cy);
	snprintf(h->pw, sizeof h->pw, "/tmp/hf-dmt-pw-XXXXXX");
	snprintf(h->db, sizeof h->db, "/tmp/hf-dmt-db-XXXXXX");
	snprintf(h->conf, sizeof h->conf, "/tmp/hf-dmt-cf-XXXXXX");
	fd = mkstemp(h->pw);
	assert_true(write(fd, "s3cret\n", 7) == 7);
	close(fd);
	close(mkstemp(h->db));
	unlink(h->db);
	fp = fdopen(mkstemp(h->conf), "w");
	/* 1 s syncs (the least): an idle sync, which syncs_past may wait out, is short */
	fprintf(fp, "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = err\n\n"
	            "[matrix test]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 1\n",
	        h->db, h->f.base, h->pw);
	fclose(fp);
	assert_int_equal(proc_start(&h->p, argv), 0);
	/* up: its first sync read, the next one asked */
	assert_true(syncs_past(h, 0, 2, 15000));
	/* ann's direct chat with the bot as Element makes it for a user with
	 * no device keys: unencrypted, its history shared (so no hand goes there) */
	fakemx_room(&h->f, h->ann, "{\"invite\":[\"@bot:hs\"],\"is_direct\":true,\"preset\":\"trusted_private_chat\"}",
	            h->dm, sizeof h->dm);
	assert_string_not_equal(h->dm, "");
	for (int t = 0; t < 75 && (fakemx_membership(&h->f, h->dm, "@bot:hs", m, sizeof m), strcmp(m, "join") != 0); t++)
		pause_ms(200);
	assert_string_equal(m, "join");
	/* its state read: a sync asked after the join, and one after it */
	assert_true(syncs_past(h, fakemx_requests(&h->f, "sync"), 2, 15000));
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct h *h = *state;

	proc_close_input(&h->p);
	kill(h->p.pid, SIGTERM);
	proc_end(&h->p);
	fakemx_stop(&h->f);
	unlink(h->conf);
	unlink(h->pw);
	unlink(h->db);
	free(h);
	return 0;
}

static void
test_table_from_a_direct_message(void **state)
{
	struct h *h = *state;
	char room[256] = "", m[32];
	json_t *c;

	assert_int_equal(fakemx_say(&h->f, h->ann, h->dm, "!play classic @bob:hs @cy:hs"), 0);
	assert_true(wait_says(h, h->dm, "I made the room", 15000));
	invited_room(h, "@bob:hs", h->dm, room, sizeof room);
	assert_string_not_equal(room, "");
	/* the opener and the players named are invited, no one else */
	fakemx_membership(&h->f, room, "@ann:hs", m, sizeof m);
	assert_string_equal(m, "invite");
	fakemx_membership(&h->f, room, "@cy:hs", m, sizeof m);
	assert_string_equal(m, "invite");
	assert_int_equal(fakemx_room_post(&h->f, h->ann, room, "join", "{}"), 200);
	/* named for its preset, invite only, no history before one joined, not encrypted */
	c = state_of(h, h->ann, room, "m.room.name");
	assert_string_equal(json_string_value(json_object_get(c, "name")), "Hand and Foot: classic");
	json_decref(c);
	c = state_of(h, h->ann, room, "m.room.join_rules");
	assert_string_equal(json_string_value(json_object_get(c, "join_rule")), "invite");
	json_decref(c);
	c = state_of(h, h->ann, room, "m.room.history_visibility");
	assert_string_equal(json_string_value(json_object_get(c, "history_visibility")), "joined");
	json_decref(c);
	assert_null(state_of(h, h->ann, room, "m.room.encryption"));
	/* the table opens as ann joins, seats bob as he joins, deals once cy has */
	assert_true(wait_says(h, room, "opens a classic table", 15000));
	assert_int_equal(fakemx_room_post(&h->f, h->bob, room, "join", "{}"), 200);
	/* bob is seated as he joins; a deal then would come with it */
	assert_true(wait_says(h, room, "bob sits down", 15000));
	assert_int_equal(fakemx_bot_says(&h->f, room, "Dealing"), 0);
	assert_int_equal(fakemx_room_post(&h->f, h->cy, room, "join", "{}"), 200);
	assert_true(wait_says(h, room, "Dealing classic for 4", 15000));
	assert_true(fakemx_bot_says(&h->f, room, "bob") > 0);
	assert_true(fakemx_bot_says(&h->f, room, "cy") > 0);
}

static void
test_a_malformed_id_is_refused(void **state)
{
	struct h *h = *state;
	long made = fakemx_requests(&h->f, "createRoom");

	assert_int_equal(fakemx_say(&h->f, h->ann, h->dm, "!play classic @bob @cy:hs"), 0);
	assert_true(wait_says(h, h->dm, "\"@bob\" is not a Matrix user id", 15000));
	assert_int_equal(fakemx_requests(&h->f, "createRoom"), made);
	assert_int_equal(fakemx_say(&h->f, h->ann, h->dm, "!new classic @cy:hs @cy:hs"), 0);
	assert_true(wait_says(h, h->dm, "named twice", 15000));
	assert_int_equal(fakemx_requests(&h->f, "createRoom"), made);
	/* "with @id" asks for a partner where it is said: the core's, no room made */
	assert_int_equal(fakemx_say(&h->f, h->ann, h->dm, "!play 4 classic with @bob:hs"), 0);
	assert_true(wait_says(h, h->dm, "asks you to partner them", 15000));
	assert_int_equal(fakemx_requests(&h->f, "createRoom"), made);
}

/* A restart between the room's making and the joins loses no table. */
static void
test_a_restart_before_the_joins(void **state)
{
	struct h *h = *state;
	const char *argv[] = { "-c", h->conf, NULL };
	char room[256];

	assert_int_equal(fakemx_say(&h->f, h->ann, h->dm, "!play 4 family @bob:hs"), 0);
	assert_true(wait_says(h, h->dm, "I made the room", 15000));
	invited_room(h, "@bob:hs", h->dm, room, sizeof room);
	assert_string_not_equal(room, "");
	proc_close_input(&h->p);
	kill(h->p.pid, SIGTERM);
	proc_end(&h->p);
	assert_int_equal(fakemx_room_post(&h->f, h->bob, room, "join", "{}"), 200);
	{
		long before = fakemx_requests(&h->f, "sync");

		assert_int_equal(proc_start(&h->p, argv), 0);
		/* up again: its first sync read, the next one asked */
		assert_true(syncs_past(h, before, 2, 15000));
	}
	assert_int_equal(fakemx_room_post(&h->f, h->ann, room, "join", "{}"), 200);
	assert_true(wait_says(h, room, "Dealing family for 4", 20000));
	assert_true(fakemx_bot_says(&h->f, room, "bob") > 0);
}

/* An encrypted room's notice names the way out: the command, in a direct chat. */
static void
test_encrypted_room_says_how(void **state)
{
	struct h *h = *state;
	char room[256];

	fakemx_room(&h->f, h->ann, "{\"invite\":[\"@bot:hs\"],\"initial_state\":[{\"type\":\"m.room.encryption\","
	            "\"state_key\":\"\",\"content\":{\"algorithm\":\"m.megolm.v1.aes-sha2\"}}]}", room, sizeof room);
	assert_string_not_equal(room, "");
	assert_true(wait_says(h, room, "cannot host a game here", 15000));
	assert_int_equal(fakemx_bot_says(&h->f, room, "Say \"!play @friend:server ...\" (naming the players) in a "
	                                 "direct chat with me"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table_from_a_direct_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_malformed_id_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encrypted_room_says_how, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_restart_before_the_joins, setup, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
