/* e2e-matrix-hostile.c: the Matrix client against hostile rooms and a hostile homeserver, through the fake server, with an echo host in place of the bot. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http.h"
#include "loop.h"
#include "matrix/matrix.h"
#include "fakemx-host.h"
#include "memstore.h"

#define HAND "your hand: 7H 7D JK QS"   /* what only its owner may ever see */
#define BIG  61440                       /* a message body of 60 KB: a real server takes it */

struct host {
	struct fakemx_host mx;       /* the fake, and the client's loop, HTTP, store and configuration */
	char *log;                          /* every line the client logged, at every level */
	size_t nlog;
	int ups;
	char bot[128];                      /* a second token of the bot's account */
};

/* ---------------------------------------------------------------- the echo host */

static void
h_emit(void *ctx, const struct bot_event *ev)
{
	struct host *h = ctx;
	struct adapter_msg m;
	char text[600];

	if (ev->type == BOT_EV_UP)
		h->ups++;
	if (ev->type != BOT_EV_MESSAGE)
		return;
	/* like the bot: answers in the room, a hand in private */
	if (strncmp(ev->text, "!ping ", 6) == 0) {
		snprintf(text, sizeof text, "pong %s", ev->text + 6);
		m = (struct adapter_msg){ .kind = MSG_ROOM, .room = ev->room, .styled = text, .prefix = "!" };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	} else if (strcmp(ev->text, "!hand") == 0) {
		m = (struct adapter_msg){ .kind = MSG_PRIVATE, .room = ev->room, .user_id = ev->user_id, .styled = HAND,
		                          .prefix = "!" };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	}
}

static void
h_log(void *ctx, int level, const char *msg)
{
	struct host *h = ctx;
	size_t n = strlen(msg);
	char *p = realloc(h->log, h->nlog + n + 2);

	if (h->mx.verbose)
		fprintf(stderr, "<%d>matrix: %s\n", level, msg);
	assert_non_null(p);
	h->log = p;
	memcpy(h->log + h->nlog, msg, n);
	h->nlog += n;
	h->log[h->nlog++] = '\n';
	h->log[h->nlog] = '\0';
}

static bool
logged(struct host *h, const char *needle)
{
	return h->log != NULL && strstr(h->log, needle) != NULL;
}

static void
client_up(struct host *h)
{
	fakemx_host_client_up(&h->mx, h, h_emit, h_log);
}

static void
client_down(struct host *h)
{
	fakemx_host_client_down(&h->mx);
}

static int
setup(void **state)
{
	struct host *h = calloc(1, sizeof *h);

	if (h == NULL || fakemx_start(&h->mx.fake) < 0) {
		free(h);
		return -1;
	}
	fakemx_host_init(&h->mx, h->bot, sizeof h->bot);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct host *h = *state;

	fakemx_host_free(&h->mx);
	free(h->log);
	free(h);
	return 0;
}

/* ---------------------------------------------------------------- waiting */

typedef bool pred_fn(struct host *h, const void *arg);

static int64_t
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static bool
run_until(struct host *h, pred_fn *pred, const void *arg, int ms)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!pred(h, arg)) {
		if (ms_since(&t0) > ms)
			return false;
		loop_run_once(h->mx.loop, 50);
	}
	return true;
}

static void
run_for(struct host *h, int ms)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < ms)
		loop_run_once(h->mx.loop, 50);
}

static bool
is_up(struct host *h, const void *arg)
{
	(void)arg;
	return h->ups > 0;
}

static bool
has_log(struct host *h, const void *needle)
{
	return logged(h, needle);
}

static bool
membership_is(struct host *h, const char *room, const char *want)
{
	char m[32];

	fakemx_membership(&h->mx.fake, room, "@bot:hs", m, sizeof m);
	return strcmp(m, want) == 0;
}

static bool
bot_joined(struct host *h, const void *room)
{
	return membership_is(h, room, "join");
}

static bool
bot_left(struct host *h, const void *room)
{
	return membership_is(h, room, "leave");
}

struct says { const char *room, *text; };

static bool
bot_said(struct host *h, const void *arg)
{
	const struct says *s = arg;

	return fakemx_bot_says(&h->mx.fake, s->room, s->text) > 0;
}

struct says_n { const char *room, *text; int n; };

static bool
bot_said_n(struct host *h, const void *arg)
{
	const struct says_n *s = arg;

	return fakemx_bot_says(&h->mx.fake, s->room, s->text) >= s->n;
}

/* Waits until the bot has said text in room. */
static bool
wait_said(struct host *h, const char *room, const char *text, int ms)
{
	struct says s = { room, text };

	return run_until(h, bot_said, &s, ms);
}

/* The bot's direct room with user from its m.direct, "" if none. */
static void
direct_of(struct host *h, const char *user, char *out, size_t len)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *d = json_object_get(json_object_get(json_object_get(j, "account"), "@bot:hs m.direct"), user);
	const char *r = json_string_value(json_array_get(d, json_array_size(d) - 1));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(j);
}

static void
say(struct host *h, const char *token, const char *room, const char *text)
{
	assert_int_equal(fakemx_say(&h->mx.fake, token, room, text), 0);
}

static void
inject(struct host *h, const char *json)
{
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/fail", NULL, json, NULL));
}

/* Sends count messages of BIG bytes to room as token's user. */
static void
flood(struct host *h, const char *token, const char *room, int count)
{
	char *big = malloc(BIG + 1);

	assert_non_null(big);
	memset(big, 'x', BIG);
	big[BIG] = '\0';
	for (int i = 0; i < count; i++)
		say(h, token, room, big);
	free(big);
}

/* n rooms made by token's user with the bot invited to each (their ids in room). */
static void
rooms_inviting_the_bot(struct host *h, const char *token, char (*room)[256], int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(fakemx_room(&h->mx.fake, token, "{\"invite\":[\"@bot:hs\"]}", room[i], sizeof room[i]),
		                 0);
}

/* The client up, and joined to the n rooms, then to game. */
static void
up_in_rooms_and(struct host *h, char (*room)[256], int n, const char *game)
{
	client_up(h);
	for (int i = 0; i < n; i++)
		assert_true(run_until(h, bot_joined, room[i], 10000));
	assert_true(run_until(h, bot_joined, game, 10000));
}

/* ---------------------------------------------------------------- /sync over the size limit */

/* The repro: a stranger's three rooms, fifty 60 KB messages in each
 * while the bot is down; then a player's command must still be answered. */
static void
test_oversized_sync_does_not_deafen(void **state)
{
	struct host *h = *state;
	char eve[128], ann[128], room[3][256], game[256];

	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	rooms_inviting_the_bot(h, eve, room, 3);
	rooms_inviting_the_bot(h, ann, &game, 1);
	up_in_rooms_and(h, room, 3, game);
	say(h, ann, game, "!ping 1");
	assert_true(wait_said(h, game, "pong 1", 10000));

	client_down(h);
	for (int i = 0; i < 3; i++)
		flood(h, eve, room[i], 50);
	client_up(h);
	say(h, ann, game, "!ping 2");
	assert_true(wait_said(h, game, "pong 2", 20000));
	assert_false(logged(h, "HTTP 0"));
}

/* More busy rooms than even a short timeline fits in 8 MiB: the client asks
 * again for less, says so plainly, and goes on. */
static void
test_sync_over_the_limit_asks_for_less(void **state)
{
	struct host *h = *state;
	char eve[128], ann[128], room[12][256], game[256];

	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	rooms_inviting_the_bot(h, eve, room, 12);
	rooms_inviting_the_bot(h, ann, &game, 1);
	up_in_rooms_and(h, room, 12, game);
	assert_true(run_until(h, is_up, NULL, 10000));

	client_down(h);
	for (int i = 0; i < 12; i++)
		flood(h, eve, room[i], 20);
	say(h, ann, game, "!ping 2");
	client_up(h);
	/* the newest event of each room still comes, ann's command among them,
	 * but cut from what came before it: not applied, and the room told */
	assert_true(wait_said(h, game, "I missed part of what was said here", 20000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, game, "pong 2"), 0);
	assert_true(logged(h, "over the 8 MiB limit"));
	assert_false(logged(h, "HTTP 0"));
	say(h, ann, game, "!ping 3");
	assert_true(wait_said(h, game, "pong 3", 10000));
}

/* Invites whose stripped state alone is over the limit (a 60 KB topic each):
 * the client skips the rooms part of that one batch and goes on. */
static void
test_oversized_invites_are_skipped(void **state)
{
	struct host *h = *state;
	char eve[128], ann[128], game[256], room[256], body[BIG + 128];

	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game), 0);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
	client_down(h);
	snprintf(body, sizeof body, "{\"invite\":[\"@bot:hs\"],\"topic\":\"%0*d\"}", BIG, 0);
	for (int i = 0; i < 150; i++)
		assert_int_equal(fakemx_room(&h->mx.fake, eve, body, room, sizeof room), 0);
	client_up(h);
	assert_true(run_until(h, has_log, "caught up with no room at all", 30000));
	say(h, ann, game, "!ping 4");
	assert_true(wait_said(h, game, "pong 4", 10000));
	assert_false(logged(h, "HTTP 0"));
	/* the skipped invites were never accepted */
	assert_false(bot_joined(h, room));
}

/* ---------------------------------------------------------------- invites and direct rooms */

static bool
has_direct(struct host *h, const void *user)
{
	char room[256];

	direct_of(h, user, room, sizeof room);
	return room[0] != '\0';
}

/* The hand of user (asked for in game) reaches a room with only user and the
 * bot in it, and none of the rooms in not[]; its id goes to dm. */
static void
hand_goes_to_own_room(struct host *h, const char *token, const char *user, const char *game, char *dm, size_t len,
                      const char *const *not, int nnot)
{
	char members[512], want[300];

	say(h, token, game, "!hand");
	assert_true(run_until(h, has_direct, user, 10000));
	direct_of(h, user, dm, len);
	/* the hand waits for its player to be in the room */
	assert_int_equal(fakemx_room_post(&h->mx.fake, token, dm, "join", "{}"), 200);
	assert_true(wait_said(h, dm, HAND, 10000));
	fakemx_members(&h->mx.fake, dm, members, sizeof members);
	snprintf(want, sizeof want, "@bot:hs %s", user);
	assert_string_equal(members, want);
	for (int i = 0; i < nnot; i++) {
		assert_string_not_equal(dm, not[i]);
		assert_int_equal(fakemx_bot_says(&h->mx.fake, not[i], HAND), 0);
	}
	assert_int_equal(fakemx_bot_says(&h->mx.fake, game, HAND), 0);
}

/* eve's server says, in the invite's unsigned stripped state, that ann
 * invited the bot to a direct chat: the invite event itself says eve. */
static void
test_forged_invite_state_refused(void **state)
{
	struct host *h = *state;
	char ann[128], eve[128], game[256], trap[256], dm[256], body[700];

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game), 0);
	assert_int_equal(fakemx_room(&h->mx.fake, eve, "{}", trap, sizeof trap), 0);
	snprintf(body, sizeof body, "{\"room\":\"%s\",\"user\":\"@bot:hs\",\"events\":[{\"type\":\"m.room.member\","
	         "\"state_key\":\"@bot:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"invite\","
	         "\"is_direct\":true}}]}", trap);
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/invite_state", NULL, body, NULL));
	assert_int_equal(fakemx_room_post(&h->mx.fake, eve, trap, "invite", "{\"user_id\":\"@bot:hs\"}"), 200);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	assert_true(run_until(h, bot_left, trap, 10000));
	assert_true(logged(h, "forged"));
	hand_goes_to_own_room(h, ann, "@ann:hs", game, dm, sizeof dm, (const char *const[]){ trap }, 1);
}

/* ann's direct chat with the bot has eve in it too: no place for ann's hand;
 * and a direct room someone else joins later is dropped. */
static void
test_shared_direct_room_is_not_used(void **state)
{
	struct host *h = *state;
	char ann[128], eve[128], game[256], shared[256], dm[256], dm2[256];
	int n;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game), 0);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"is_direct\":true,\"invite\":[\"@bot:hs\",\"@eve:hs\"]}",
	                             shared, sizeof shared), 0);
	assert_int_equal(fakemx_room_post(&h->mx.fake, eve, shared, "join", NULL), 200);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	assert_true(run_until(h, bot_joined, shared, 10000));
	hand_goes_to_own_room(h, ann, "@ann:hs", game, dm, sizeof dm, (const char *const[]){ shared }, 1);
	assert_true(run_until(h, has_log, "is no direct room for @ann:hs's hands", 10000));

	/* ann cannot let eve into the room the bot made: only the bot may invite */
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "invite", "{\"user_id\":\"@eve:hs\"}"), 403);
	assert_int_equal(fakemx_room_post(&h->mx.fake, eve, dm, "join", NULL), 403);
	say(h, ann, game, "!hand");
	assert_true(wait_said(h, dm, HAND, 10000) && fakemx_bot_says(&h->mx.fake, dm, HAND) >= 1);
	/* ann leaves it: it is dropped (the bot leaves too), and the next hand
	 * goes to another room */
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "leave", NULL), 200);
	assert_true(run_until(h, has_log, "its player left or refused it", 10000));
	n = fakemx_bot_says(&h->mx.fake, dm, HAND);
	say(h, ann, game, "!hand");
	for (int i = 0; i < 100; i++) {
		direct_of(h, "@ann:hs", dm2, sizeof dm2);
		if (dm2[0] != '\0' && strcmp(dm2, dm) != 0)
			break;
		run_for(h, 100);
	}
	assert_string_not_equal(dm2, dm);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm2, "join", NULL), 200);
	assert_true(wait_said(h, dm2, HAND, 10000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm, HAND), n);
}

/* ---------------------------------------------------------------- invite storms */

/* Nothing in allow: the people of the bot's own homeserver, not the federation. */
static void
test_default_allow_is_own_server(void **state)
{
	struct host *h = *state;
	char ann[128], mal[128], game[256], far[256];
	json_t *j;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	j = fakemx_call(&h->mx.fake, "POST", "/_fake/user", NULL, "{\"user\":\"mallory\",\"server\":\"evil.example\"}", NULL);
	snprintf(mal, sizeof mal, "%s", json_string_value(json_object_get(j, "access_token")));
	json_decref(j);
	assert_int_equal(fakemx_room(&h->mx.fake, mal, "{\"invite\":[\"@bot:hs\"]}", far, sizeof far), 0);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game), 0);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	assert_true(run_until(h, bot_left, far, 10000));
	assert_true(logged(h, "declining the invite to"));
}

struct in_or_out { char (*rooms)[256]; int n; };

static bool
all_answered(struct host *h, const void *arg)
{
	const struct in_or_out *io = arg;

	for (int i = 0; i < io->n; i++)
		if (!bot_joined(h, io->rooms[i]) && !bot_left(h, io->rooms[i]))
			return false;
	return true;
}

static int
count_joined(struct host *h, char (*rooms)[256], int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += bot_joined(h, rooms[i]);
	return k;
}

/* max_rooms and the encrypted-room list hold, and are said in the log; the
 * count survives a restart (from /joined_rooms). */
static void
test_invite_storm_is_capped(void **state)
{
	struct host *h = *state;
	char ann[128], eve[128], e1[256], e2[256], storm[6][256], line[400];
	static const char enc[] = "{\"invite\":[\"@bot:hs\"],\"initial_state\":[{\"type\":\"m.room.encryption\","
	                          "\"state_key\":\"\",\"content\":{\"algorithm\":\"m.megolm.v1.aes-sha2\"}}]}";
	struct in_or_out io = { storm, 5 };

	h->mx.cfg.max_rooms = 4;
	h->mx.cfg.max_encrypted = 1;
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, enc, e1, sizeof e1), 0);
	client_up(h);
	assert_true(wait_said(h, e1, "encrypted", 10000));
	/* a second encrypted room is one too many to remember: left */
	assert_int_equal(fakemx_room(&h->mx.fake, ann, enc, e2, sizeof e2), 0);
	assert_true(run_until(h, bot_left, e2, 10000));
	snprintf(line, sizeof line, "no longer in %s", e2);
	assert_true(run_until(h, has_log, line, 10000));
	assert_true(logged(h, "encrypted rooms are remembered already: leaving it"));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, e2, ""), 0);

	/* in one room: three more of the storm are taken, two declined */
	for (int i = 0; i < 5; i++)
		assert_int_equal(fakemx_room(&h->mx.fake, eve, "{\"invite\":[\"@bot:hs\"]}", storm[i], sizeof storm[i]), 0);
	assert_true(run_until(h, all_answered, &io, 20000));
	assert_int_equal(count_joined(h, storm, 5), 3);
	assert_true(logged(h, "(max_rooms = 4): declining every invite"));

	/* after a restart the server's list says four rooms: still full */
	client_down(h);
	assert_int_equal(fakemx_room(&h->mx.fake, eve, "{\"invite\":[\"@bot:hs\"]}", storm[5], sizeof storm[5]), 0);
	client_up(h);
	assert_true(run_until(h, bot_left, storm[5], 10000));
	assert_int_equal(count_joined(h, storm, 6), 3);
}

/* Forty invites at once, each join answered slowly: the client keeps at most
 * MATRIX_REQS_MAX requests in flight (and the sync), not one per room. */
static void
test_requests_in_flight_are_capped(void **state)
{
	struct host *h = *state;
	char eve[128], room[40][256];
	struct in_or_out io = { room, 40 };
	json_t *j;
	long most;

	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	rooms_inviting_the_bot(h, eve, room, 40);
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"POST\",\"path\":\"/join$\",\"delay_ms\":300,\"count\":40}");
	client_up(h);
	assert_true(run_until(h, all_answered, &io, 30000));
	assert_int_equal(count_joined(h, room, 40), 40);
	j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
	most = (long)json_integer_value(json_object_get(json_object_get(j, "in_flight_max"), "@bot:hs"));
	json_decref(j);
	assert_in_range(most, 1, MATRIX_REQS_MAX + 1);
}

/* ---------------------------------------------------------------- what a server says */

static long
requests_of(struct host *h, const char *what)
{
	return fakemx_requests(&h->mx.fake, what);
}

/* A 429 asking for a wait that would overflow the clock: the client waits
 * five minutes at most, and does wait. */
static void
test_hostile_waits_are_clamped(void **state)
{
	struct host *h = *state;

	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"GET\",\"path\":\"/sync\",\"status\":429,"
	          "\"retry_after_ms\":9223372036854775807,\"count\":5}");
	client_up(h);
	assert_true(run_until(h, has_log, "sync failed (HTTP 429", 10000));
	run_for(h, 1000);
	assert_true(logged(h, "retrying in 300000 ms"));
	assert_false(logged(h, "9223372036854775807"));
	assert_int_equal(requests_of(h, "sync"), 1);
}

/* The password over plain http to anything but loopback is said in the log. */
static void
test_plain_http_is_warned(void **state)
{
	struct host *h = *state;

	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	assert_false(logged(h, "unencrypted"));
	client_down(h);
	/* TEST-NET-1: nothing answers there; the warning comes before any try */
	snprintf(h->mx.cfg.homeserver, sizeof h->mx.cfg.homeserver, "http://192.0.2.1:9");
	client_up(h);
	assert_true(logged(h, "http://192.0.2.1:9 is plain http: the password, and every message, cross the network "
	                      "unencrypted"));
	client_down(h);
}

/* Every line the client logs, debug included, through sends that fail and
 * are retried: no hand, no password. */
static void
test_hands_never_logged(void **state)
{
	struct host *h = *state;
	char ann[128], game[256], dm[256];

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	assert_int_equal(fakemx_room(&h->mx.fake, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game), 0);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	hand_goes_to_own_room(h, ann, "@ann:hs", game, dm, sizeof dm, NULL, 0);
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":500,\"count\":1}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":429,\"retry_after_ms\":100,\"count\":1}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"drop\":true,\"count\":1}");
	say(h, ann, game, "!hand");
	{
		/* through the 500, the 429 and the dropped link, the hand arrives */
		struct says_n w = { dm, HAND, 2 };

		assert_true(run_until(h, bot_said_n, &w, 15000));
	}
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm, HAND), 2);
	/* refused for good: the drop is logged, the hand is not */
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":400,\"count\":5}");
	say(h, ann, game, "!hand");
	assert_true(run_until(h, has_log, "dropped", 10000));
	/* and once: no retry of the failed sends doubled it (the later hand given up meanwhile) */
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm, HAND), 2);
	assert_non_null(h->log);
	assert_null(strstr(h->log, HAND));
	assert_null(strstr(h->log, "7H 7D"));
	assert_null(strstr(h->log, "botpw"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_oversized_sync_does_not_deafen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_over_the_limit_asks_for_less, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oversized_invites_are_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forged_invite_state_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_direct_room_is_not_used, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_allow_is_own_server, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invite_storm_is_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_requests_in_flight_are_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_waits_are_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plain_http_is_warned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hands_never_logged, setup, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
