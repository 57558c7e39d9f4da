/* e2e-synapse-restart.c: the real daemon on a real Synapse logging in with a password: a restart resumes with the stored access token (no new login), and a short-lived access token is refreshed, running and across a restart, never logged in again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "synapse-bot.h"
#include "synapse.h"

/* The access tokens Synapse gives a client that asks for a refresh token
 * live this long here (Synapse's default: 5 minutes), so that a test sees
 * them expire; everything else is Synapse's default, rate limits included. */
#define TOKEN_LIFETIME_S 6

static int
group_setup(void **state)
{
	struct synapse *s = calloc(1, sizeof *s);

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (s == NULL)
		return -1;
	*state = s;
	if (synapse_start(s, "e2e-synapse-restart", "refreshable_access_token_lifetime: " "6s\n") < 0) {
		fprintf(stderr, "%s\n", s->error);
		return -1;
	}
	return 0;
}

/* The account's devices, as its first device (the registration's) lists them. */
static size_t
devices(struct synapse *s, const struct synapse_user *u)
{
	json_t *j = synapse_call(s, "GET", "/_matrix/client/v3/devices", u->token, NULL, NULL);
	size_t n = json_array_size(json_object_get(j, "devices"));

	json_decref(j);
	return n;
}

/* The bot's account registered (its registration is one device), its
 * daemon configured with password_file, not a token: it logs in itself. */
static void
bot_with_password(struct synapse *s, struct synapse_bot *b, const char *tag)
{
	char pw[400], text[4096];

	memset(b, 0, sizeof *b);
	snprintf(b->tag, sizeof b->tag, "%s", tag);
	assert_int_equal(synapse_register(s, "bot", false, &b->u), 0);
	assert_int_equal(e2e_tmpdir(b->dir, sizeof b->dir, "sybot"), 0);
	snprintf(pw, sizeof pw, "%s/password", b->dir);
	snprintf(text, sizeof text, "%s\n", b->u.password);
	e2e_secret_note(b->u.password);
	assert_int_equal(e2e_write_file(pw, text), 0);
	assert_int_equal(chmod(pw, 0600), 0);
	snprintf(b->conf, sizeof b->conf, "%s/handfoot.conf", b->dir);
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s/handfoot.db\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\n"
	         "[matrix t]\nhomeserver = %s\nuser = %s\npassword_file = %s\nsync_timeout = 2\n",
	         b->dir, s->base, b->u.localpart, pw);
	assert_int_equal(e2e_write_file(b->conf, text), 0);
	assert_int_equal(devices(s, &b->u), 1);
}

/* ann's room with the bot in it; a command of hers is answered there. */
static void
room_with_bot(struct synapse *s, struct synapse_bot *b, struct synapse_user *ann, char *room, size_t len)
{
	char body[512];

	assert_int_equal(synapse_register(s, "ann", false, ann), 0);
	snprintf(body, sizeof body, "{\"preset\":\"private_chat\",\"invite\":[\"%s\"]}", b->u.id);
	assert_int_equal(synapse_create_room(s, ann->token, body, room, len), 0);
	assert_true(synapse_wait_membership(s, ann->token, room, b->u.id, "join", 30000));
}

/* ann says text; the bot's answer in the room holding want (the nth such) comes. */
static void
answered(struct synapse *s, struct synapse_bot *b, struct synapse_user *ann, const char *room, const char *text,
         const char *want, int nth)
{
	assert_int_equal(synapse_say(s, ann->token, room, text), 0);
	if (!synapse_wait_readable(s, ann->token, room, b->u.id, want, nth, 60000))
		fail_msg("no \"%s\" (number %d) after \"%s\" (daemon log: %s)", want, nth, text, b->d.log);
}

/* A game opened and ended: the nth of each. */
static void
plays(struct synapse *s, struct synapse_bot *b, struct synapse_user *ann, const char *room, int nth)
{
	answered(s, b, ann, room, "!play 2 duel", "Dealing duel", nth);
	answered(s, b, ann, room, "!abort", "The game is over", nth);
}

static struct synapse_bot bot;   /* each test's, ended by the teardown whatever happened */

static int
teardown(void **state)
{
	(void)state;
	synapse_bot_end(&bot);
	return 0;
}

static void
test_restart_resumes_with_the_stored_token(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot *bp = &bot;
	struct synapse_user ann;
	char room[256];

	bot_with_password(s, bp, "e2e-synapse-restart");
	assert_int_equal(synapse_bot_restart(bp), 0);
	/* one login: one device more */
	assert_int_equal(devices(s, &bp->u), 2);
	room_with_bot(s, bp, &ann, room, sizeof room);
	plays(s, bp, &ann, room, 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(synapse_bot_stop(bp), 0);
		assert_int_equal(synapse_bot_restart(bp), 0);
		plays(s, bp, &ann, room, 2 + i);
	}
	/* the restarts used the stored token: no login, no device more */
	assert_int_equal(devices(s, &bp->u), 2);
	assert_int_equal(synapse_bot_stop(bp), 0);
}

/* The access token expires (this program's Synapse: TOKEN_LIFETIME_S): the
 * daemon refreshes it, while it runs and at a restart, and never logs in
 * again. The test lets Synapse's own clock run out the token's life: there
 * is nothing to wait for but time. */
static void
test_short_lived_token_refreshed(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot *bp = &bot;
	struct synapse_user ann;
	char room[256];

	bot_with_password(s, bp, "e2e-synapse-refresh");
	assert_int_equal(synapse_bot_restart(bp), 0);
	assert_int_equal(devices(s, &bp->u), 2);
	room_with_bot(s, bp, &ann, room, sizeof room);
	plays(s, bp, &ann, room, 1);
	/* Synapse's own clock: the access token must expire while the daemon runs */
	e2e_sleep_ms((TOKEN_LIFETIME_S + 2) * 1000);
	plays(s, bp, &ann, room, 2);
	assert_int_equal(e2e_daemon_wait_log(&bp->d, "access token refreshed", 30000), 0);
	/* stopped until its stored access token has expired */
	assert_int_equal(synapse_bot_stop(bp), 0);
	e2e_sleep_ms((TOKEN_LIFETIME_S + 2) * 1000);
	assert_int_equal(synapse_bot_restart(bp), 0);
	plays(s, bp, &ann, room, 3);
	assert_int_equal(e2e_daemon_wait_log(&bp->d, "access token refreshed", 30000), 0);
	assert_int_equal(devices(s, &bp->u), 2);
	assert_int_equal(synapse_bot_stop(bp), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_restart_resumes_with_the_stored_token, teardown),
		cmocka_unit_test_teardown(test_short_lived_token_refreshed, teardown),
	};

	return cmocka_run_group_tests_name("restarts and tokens on Synapse", tests, group_setup, synapse_group_teardown);
}
