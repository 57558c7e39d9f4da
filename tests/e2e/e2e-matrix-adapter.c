/* e2e-matrix-adapter.c: the Matrix client against the fake server, with a tiny echo host in place of the bot. */
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
#include "version.h"

#define MAX_EVS 512

struct rec {
	enum bot_event_type type;
	char room[256], user[256], name[128], text[512];
	bool direct;
};

struct host {
	struct fakemx_host mx;       /* the fake, and the client's loop, HTTP, store and configuration */
	char ann_tok[128];       /* ann's token, for accept_invites */
	char errlog[2048];       /* the client's error lines, in order */
	char warnlog[4096];      /* its warnings, in order */
	int nerr;
	char last_hand[256];     /* the room of the last hand assert_hands_private saw */
	struct rec evs[MAX_EVS];
	int nevs;
};

/* ---------------------------------------------------------------- the echo host */

static void
h_emit(void *ctx, const struct bot_event *ev)
{
	struct host *h = ctx;
	struct rec *r;
	struct adapter_msg m = { 0 };
	const char *men[1];
	char text[600];

	if (h->nevs < MAX_EVS) {
		r = &h->evs[h->nevs++];
		r->type = ev->type;
		snprintf(r->room, sizeof r->room, "%s", ev->room != NULL ? ev->room : "");
		snprintf(r->user, sizeof r->user, "%s", ev->user_id != NULL ? ev->user_id : "");
		snprintf(r->text, sizeof r->text, "%s", ev->text != NULL ? ev->text : "");
		snprintf(r->name, sizeof r->name, "%s", ev->user_name != NULL ? ev->user_name : "");
		r->direct = ev->direct;
	}
	if (ev->type != BOT_EV_MESSAGE)
		return;
	/* like the bot: answer in the room, hands in private */
	if (strncmp(ev->text, "!ping ", 6) == 0) {
		snprintf(text, sizeof text, ST_BOLD "pong" ST_END " %s", ev->text + 6);
		men[0] = ev->user_id;
		m = (struct adapter_msg){ .kind = MSG_ROOM, .room = ev->room, .styled = text, .prefix = "!",
		                          .mentions = men, .nmentions = 1, .reply_to = ev->ref };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	} else if (strcmp(ev->text, "!turns") == 0) {
		/* a person's turn and the computer turns after it, as the core folds them */
		men[0] = ev->user_id;
		m = (struct adapter_msg){ .kind = MSG_ROOM, .room = ev->room, .prefix = "!", .mentions = men,
		                          .nmentions = 1,
		                          .styled = "ann drew 2 cards, discarded 5" ST_SEP "Ada[bot] drew 2 cards, discarded 9"
		                                    ST_SEP "Alan[bot] took the pile (3 cards, top 9), discarded 4 · pile 4, "
		                                    "1 card · ann: your turn (" ST_COMMAND "draw" ST_END ")" };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	} else if (strcmp(ev->text, "!prompt") == 0) {
		/* the core's turn prompt: the player named, pinged, asked to act */
		snprintf(text, sizeof text, "pile 4 · " ST_PLAYER "%s" ST_END ": your turn (" ST_COMMAND "draw" ST_END ")",
		         ev->user_name);
		men[0] = ev->user_id;
		m = (struct adapter_msg){ .kind = MSG_ROOM, .room = ev->room, .styled = text, .prefix = "!",
		                          .mentions = men, .nmentions = 1, .prompt_user = ev->user_id };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	} else if (strcmp(ev->text, "!hand") == 0) {
		m = (struct adapter_msg){ .kind = MSG_PRIVATE, .room = ev->room, .user_id = ev->user_id,
		                          .styled = "your hand: " ST_CARD "A" ST_END "×2 K 9" ST_BR "foot: 11 cards waiting",
		                          .prefix = "!" };
		assert_int_equal(matrix_client_send(h->mx.c, &m), 0);
	}
}

static void
h_log(void *ctx, int level, const char *msg)
{
	struct host *h = ctx;

	if (h->mx.verbose)
		fprintf(stderr, "<%d>matrix: %s\n", level, msg);
	if (level == LOG_LVL_WARNING) {
		size_t o = strlen(h->warnlog);

		snprintf(h->warnlog + o, sizeof h->warnlog - o, "%s\n", msg);
	}
	if (level <= LOG_LVL_ERR) {
		size_t o = strlen(h->errlog);

		snprintf(h->errlog + o, sizeof h->errlog - o, "%s\n", msg);
		h->nerr++;
	}
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
	fakemx_host_init(&h->mx, NULL, 0);
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct host *h = *state;

	fakemx_host_free(&h->mx);
	free(h);
	return 0;
}

/* ---------------------------------------------------------------- waiting */

typedef bool pred_fn(struct host *h, const void *arg);

static bool
run_until(struct host *h, pred_fn *pred, const void *arg, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (pred(h, arg))
			return true;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > ms)
			return false;
		loop_run_once(h->mx.loop, 50);
	}
}

static void
run_for(struct host *h, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		loop_run_once(h->mx.loop, 50);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static int
count_evs(struct host *h, enum bot_event_type type, const char *text)
{
	int n = 0;

	for (int i = 0; i < h->nevs; i++)
		if (h->evs[i].type == type && (text == NULL || strcmp(h->evs[i].text, text) == 0))
			n++;
	return n;
}

static bool
is_up(struct host *h, const void *arg)
{
	(void)arg;
	return count_evs(h, BOT_EV_UP, NULL) > 0;
}

/* The client stopped for good (matrix_login_fatal): it has no timer left to try again. */
static bool
has_stopped(struct host *h, const void *arg)
{
	(void)arg;
	return h->mx.c != NULL && matrix_client_stopped(h->mx.c);
}

/* The client stopped, the fake answers none of its requests now, and the
 * answers it gave were read (a loop turn with nothing to do). */
static bool
stopped_and_answered(struct host *h, const void *arg)
{
	json_t *j;
	json_int_t busy;

	if (!has_stopped(h, arg))
		return false;
	j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
	busy = json_integer_value(json_object_get(json_object_get(j, "in_flight"), "@bot:hs"));
	json_decref(j);
	return busy == 0 && loop_run_once(h->mx.loop, 100) == 0;
}

/* The bodies of the bot's m.room.message events in room, in order. */
static int
bot_bodies(struct host *h, const char *room, char out[][128], int max, json_t **content_of_last)
{
	json_t *evs = fakemx_events(&h->mx.fake, room), *ev;
	size_t i;
	int n = 0;

	json_array_foreach(evs, i, ev) {
		const char *sender = json_string_value(json_object_get(ev, "sender"));
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (strcmp(sender, "@bot:hs") != 0 || strcmp(type, "m.room.message") != 0 || n >= max)
			continue;
		snprintf(out[n++], 128, "%s", json_string_value(json_object_get(json_object_get(ev, "content"), "body")));
		if (content_of_last != NULL) {
			json_decref(*content_of_last);
			*content_of_last = json_incref(json_object_get(ev, "content"));
		}
	}
	json_decref(evs);
	return n;
}

struct want { const char *room; int n; };

static bool
has_bot_msgs(struct host *h, const void *arg)
{
	const struct want *w = arg;
	char b[64][128];

	return bot_bodies(h, w->room, b, 64, NULL) >= w->n;
}

static const char *
membership(struct host *h, const char *room, const char *user)
{
	static char buf[32]; /* test-only scratch, single-threaded */
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
	const char *m = json_string_value(json_object_get(json_object_get(json_object_get(
	    json_object_get(j, "rooms"), room), "members"), user));

	snprintf(buf, sizeof buf, "%s", m != NULL ? m : "");
	json_decref(j);
	return buf;
}

static bool
bot_joined(struct host *h, const void *room)
{
	return strcmp(membership(h, room, "@bot:hs"), "join") == 0;
}

static bool
bot_left(struct host *h, const void *room)
{
	return strcmp(membership(h, room, "@bot:hs"), "leave") == 0;
}

/* A room made by token's user with the bot invited; returns its id in room. */
static void
make_room(struct host *h, const char *token, const char *extra, char *room, size_t len)
{
	char body[512];
	json_t *j;

	snprintf(body, sizeof body, "{\"invite\":[\"@bot:hs\"]%s}", extra != NULL ? extra : "");
	j = fakemx_call(&h->mx.fake, "POST", "/_matrix/client/v3/createRoom", token, body, NULL);
	assert_non_null(j);
	snprintf(room, len, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
}

static void
say(struct host *h, const char *token, const char *room, const char *text)
{
	assert_int_equal(fakemx_say(&h->mx.fake, token, room, text), 0);
}

/* Every bot event in room carries a txn id seen once only. */
static void
assert_txn_unique(struct host *h, const char *room)
{
	json_t *evs = fakemx_events(&h->mx.fake, room), *ev;
	char seen[256][96];
	int n = 0;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *txn = json_string_value(json_object_get(json_object_get(ev, "unsigned"), "transaction_id"));

		if (txn == NULL || strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") != 0)
			continue;
		for (int k = 0; k < n; k++)
			assert_string_not_equal(seen[k], txn);
		if (n < 256)
			snprintf(seen[n++], sizeof seen[0], "%s", txn);
	}
	json_decref(evs);
}

/* The room id of the bot's direct room with user, from m.direct; "" if none. */
static void
direct_of(struct host *h, const char *user, char *out, size_t len)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *d = json_object_get(json_object_get(json_object_get(j, "account"), "@bot:hs m.direct"), user);

	snprintf(out, len, "%s", json_string_value(json_array_get(d, 0)) != NULL ? json_string_value(json_array_get(d, 0)) : "");
	json_decref(j);
}

static bool
has_direct(struct host *h, const void *user)
{
	char room[256];

	direct_of(h, user, room, sizeof room);
	return room[0] != '\0';
}

/* The bot's m.direct as the fake keeps it (caller decrefs). */
static json_t *
m_direct(struct host *h)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *d = json_incref(json_object_get(json_object_get(j, "account"), "@bot:hs m.direct"));

	json_decref(j);
	return d;
}

/* Entries other clients of the bot's account wrote: they must survive. */
#define OTHER_DIRECTS "{\"@zed:hs\":[\"!z1:hs\",\"!z2:hs\"],\"@yan:hs\":[\"!y1:hs\"]}"

static void
assert_other_directs_kept(struct host *h)
{
	json_t *d = m_direct(h), *want = json_loads(OTHER_DIRECTS, 0, NULL);

	assert_non_null(d);
	assert_true(json_equal(json_object_get(d, "@zed:hs"), json_object_get(want, "@zed:hs")));
	assert_true(json_equal(json_object_get(d, "@yan:hs"), json_object_get(want, "@yan:hs")));
	/* one room for ann, never repeated */
	assert_int_equal(json_array_size(json_object_get(d, "@ann:hs")), 1);
	json_decref(want);
	json_decref(d);
}

/* The client up, in room (joined, first sync done). */
static void
bot_up_in(struct host *h, const char *room)
{
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
}

/* Users ann and bob (their tokens in ann and bob, toklen bytes each) in a
 * room ann made with the bot invited: ann invited bob and he joined. */
static void
ann_and_bob_in(struct host *h, char *ann, char *bob, size_t toklen, char *room, size_t len)
{
	fakemx_user(&h->mx.fake, "ann", "x", ann, toklen);
	fakemx_user(&h->mx.fake, "bob", "x", bob, toklen);
	make_room(h, ann, NULL, room, len);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, room, "invite", "{\"user_id\":\"@bob:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&h->mx.fake, bob, room, "join", "{}"), 200);
}

/* The client up, in r1 and r2 (joined, first sync done). */
static void
bot_up_in_both(struct host *h, const char *r1, const char *r2)
{
	client_up(h);
	assert_true(run_until(h, bot_joined, r1, 10000));
	assert_true(run_until(h, bot_joined, r2, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
}

/* A room made by token's user with the bot invited, and the client up in it. */
static void
room_up(struct host *h, const char *token, char *room, size_t len)
{
	make_room(h, token, NULL, room, len);
	bot_up_in(h, room);
}

/* ---------------------------------------------------------------- tests */

static void
test_history_replay_restart_and_direct_rooms(void **state)
{
	struct host *h = *state;
	char ann[128], btok[128], room[256], dm[256], dm2[256], b[64][128];
	json_t *content = NULL;
	struct want w;
	int n;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	/* another client of the bot's account has direct rooms of its own */
	fakemx_user(&h->mx.fake, "bot", "botpw", btok, sizeof btok);
	json_decref(fakemx_call(&h->mx.fake, "PUT", "/_matrix/client/v3/user/%40bot%3Ahs/account_data/m.direct", btok,
	                        OTHER_DIRECTS, NULL));
	make_room(h, ann, NULL, room, sizeof room);
	say(h, ann, room, "!ping old");
	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	assert_true(run_until(h, bot_joined, room, 10000));
	/* history before the first start is never replayed */
	say(h, ann, room, "!ping 1");
	say(h, ann, room, "!ping 2");
	say(h, ann, room, "!ping 3");
	w = (struct want){ room, 3 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, "!ping old"), 0);
	n = bot_bodies(h, room, b, 64, &content);
	assert_int_equal(n, 3);
	assert_string_equal(b[0], "pong 1");
	assert_string_equal(b[2], "pong 3");
	/* a notice with HTML and an m.mentions ping */
	assert_string_equal(json_string_value(json_object_get(content, "msgtype")), "m.notice");
	assert_string_equal(json_string_value(json_object_get(content, "format")), "org.matrix.custom.html");
	assert_string_equal(json_string_value(json_object_get(content, "formatted_body")), "<b>pong</b> 3");
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(content, "m.mentions"),
	                                                                     "user_ids"), 0)), "@ann:hs");
	json_decref(content);

	/* a hand goes to a new direct room, recorded in m.direct, never to the room */
	say(h, ann, room, "!hand");
	assert_true(run_until(h, has_direct, "@ann:hs", 10000));
	direct_of(h, "@ann:hs", dm, sizeof dm);
	/* no hand before ann is in it (its history is hidden from whoever was not) */
	run_for(h, 300);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm, ""), 0);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "join", "{}"), 200);
	w = (struct want){ dm, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_int_equal(bot_bodies(h, room, b, 64, NULL), 3);
	/* one message, one event: its lines are "\n" in the body and <br> in the HTML */
	content = NULL;
	assert_int_equal(bot_bodies(h, dm, b, 64, &content), 1);
	assert_string_equal(b[0], "your hand: A×2 K 9\nfoot: 11 cards waiting");
	assert_string_equal(json_string_value(json_object_get(content, "formatted_body")),
	                    "your hand: A×2 K 9<br>foot: 11 cards waiting");
	json_decref(content);
	/* m.direct was read and merged, not replaced */
	assert_other_directs_kept(h);

	/* restart with the same state; a command said while down is handled once */
	client_down(h);
	say(h, ann, room, "!ping 4");
	client_up(h);
	w = (struct want){ room, 4 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	/* duplicated, out-of-order deliveries are not handled twice */
	{
		char body[512];

		snprintf(body, sizeof body, "{\"room\":\"%s\",\"count\":4}", room);
		json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/replay", NULL, body, NULL));
	}
	say(h, ann, room, "!ping 5");
	w = (struct want){ room, 5 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	run_for(h, 300);
	n = bot_bodies(h, room, b, 64, NULL);
	assert_int_equal(n, 5);
	assert_string_equal(b[3], "pong 4");
	assert_string_equal(b[4], "pong 5");
	for (int i = 1; i <= 5; i++) {
		char t[32];

		snprintf(t, sizeof t, "!ping %d", i);
		assert_int_equal(count_evs(h, BOT_EV_MESSAGE, t), 1);
	}
	assert_txn_unique(h, room);

	/* the direct room is reused; its messages say direct */
	say(h, ann, room, "!hand");
	w = (struct want){ dm, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	direct_of(h, "@ann:hs", dm2, sizeof dm2);
	assert_string_equal(dm, dm2);
	assert_other_directs_kept(h);
	{
		char path[512], *e = curl_easy_escape(NULL, dm, 0);

		snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/join", e);
		curl_free(e);
		json_decref(fakemx_call(&h->mx.fake, "POST", path, ann, "{}", NULL));
	}
	say(h, ann, dm, "hello");
	assert_true(run_until(h, is_up, NULL, 100));
	run_for(h, 500);
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, "hello"), 1);
	for (int i = 0; i < h->nevs; i++)
		if (strcmp(h->evs[i].text, "hello") == 0)
			assert_true(h->evs[i].direct);
}

static void
inject(struct host *h, const char *json)
{
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/fail", NULL, json, NULL));
}

static void
test_every_message_once_in_order_under_faults(void **state)
{
	struct host *h = *state;
	char ann[128], bot[128], room[256], b[64][128], t[32];
	struct want w;

	/* a token instead of a password this time */
	fakemx_user(&h->mx.fake, "bot", "botpw", bot, sizeof bot);
	h->mx.cfg.password[0] = '\0';
	snprintf(h->mx.cfg.token, sizeof h->mx.cfg.token, "%s", bot);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, NULL, room, sizeof room);
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 10000));
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":429,\"retry_after_ms\":200,\"count\":2}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":500,\"count\":1}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"drop\":true,\"count\":1}");
	/* the send is committed but its answer lost: the retry must not duplicate it */
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":502,\"after_commit\":true,\"count\":1}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":429,\"retry_after_ms\":1000,\"header_only\":true,\"count\":1}");
	for (int i = 1; i <= 6; i++) {
		snprintf(t, sizeof t, "!ping %d", i);
		say(h, ann, room, t);
	}
	w = (struct want){ room, 6 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	/* the sync survives errors and dropped connections too */
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"GET\",\"path\":\"/sync\",\"status\":500,\"count\":1}");
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"GET\",\"path\":\"/sync\",\"drop\":true,\"count\":1}");
	say(h, ann, room, "!ping 7");
	w = (struct want){ room, 7 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	run_for(h, 500);
	assert_int_equal(bot_bodies(h, room, b, 64, NULL), 7);
	for (int i = 0; i < 7; i++) {
		snprintf(t, sizeof t, "pong %d", i + 1);
		assert_string_equal(b[i], t);
	}
	assert_txn_unique(h, room);
}

static void
test_encryption_allow_list_and_kick(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], game[256], enc[256], other[256], b[8][128], body[256];
	struct want w;

	snprintf(h->mx.cfg.allow, sizeof h->mx.cfg.allow, "@ann:hs");
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "bob", "x", bob, sizeof bob);
	make_room(h, ann, NULL, game, sizeof game);
	make_room(h, ann, ",\"initial_state\":[{\"type\":\"m.room.encryption\",\"state_key\":\"\","
	                  "\"content\":{\"algorithm\":\"m.megolm.v1.aes-sha2\"}}]", enc, sizeof enc);
	make_room(h, bob, NULL, other, sizeof other);
	client_up(h);
	assert_true(run_until(h, bot_joined, game, 10000));
	assert_true(run_until(h, bot_joined, enc, 10000));
	/* bob is not on the allow list: his invite is declined */
	assert_true(run_until(h, bot_left, other, 10000));
	/* the encrypted room is told once, in plain words, and commands there are ignored */
	w = (struct want){ enc, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	say(h, ann, enc, "!ping e");
	run_for(h, 500);
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, "!ping e"), 0);
	client_down(h);
	client_up(h);
	run_for(h, 800);
	assert_int_equal(bot_bodies(h, enc, b, 8, NULL), 1);
	assert_non_null(strstr(b[0], "encrypted"));
	/* kicked from the game room: the bot hears it has left */
	snprintf(body, sizeof body, "{\"user_id\":\"@bot:hs\"}");
	{
		char path[512];
		char *e = curl_easy_escape(NULL, game, 0);

		snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/kick", e);
		curl_free(e);
		json_decref(fakemx_call(&h->mx.fake, "POST", path, ann, body, NULL));
	}
	run_for(h, 800);
	{
		bool left = false;

		for (int i = 0; i < h->nevs; i++)
			if (h->evs[i].type == BOT_EV_LEAVE && strcmp(h->evs[i].room, game) == 0 &&
			    strcmp(h->evs[i].user, "@bot:hs") == 0)
				left = true;
		assert_true(left);
	}
}

/* The name the bot was given with the message text; "" if none. */
static const char *
name_with(struct host *h, const char *text)
{
	for (int i = 0; i < h->nevs; i++)
		if (h->evs[i].type == BOT_EV_MESSAGE && strcmp(h->evs[i].text, text) == 0)
			return h->evs[i].name;
	return "";
}

static void
test_display_names_per_room(void **state)
{
	struct host *h = *state;
	char ann[128], r1[256], r2[256], path[512], *e;
	struct want w;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, NULL, r1, sizeof r1);
	make_room(h, ann, NULL, r2, sizeof r2);
	bot_up_in_both(h, r1, r2);
	/* ann is "Annie" in the second room only (a per-room display name) */
	e = curl_easy_escape(NULL, r2, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state/m.room.member/%%40ann%%3Ahs", e);
	curl_free(e);
	json_decref(fakemx_call(&h->mx.fake, "PUT", path, ann, "{\"membership\":\"join\",\"displayname\":\"Annie\"}", NULL));
	say(h, ann, r2, "!ping 2");
	say(h, ann, r1, "!ping 1");
	w = (struct want){ r1, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	w = (struct want){ r2, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_int_equal(count_evs(h, BOT_EV_RENAME, "Annie"), 1);
	assert_string_equal(name_with(h, "!ping 2"), "Annie");
	assert_string_equal(name_with(h, "!ping 1"), "ann");
}

/* bob takes ann's display name: the spec says both are then told apart by
 * their ids, lest one pass for the other; names outlive a restart (a
 * resumed sync does not say them again); a removed name gives the id back. */
static void
test_names_disambiguated_and_kept(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], room[256], path[512], *e;
	struct want w;

	ann_and_bob_in(h, ann, bob, sizeof ann, room, sizeof room);
	bot_up_in(h, room);
	e = curl_easy_escape(NULL, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state/m.room.member/%%40bob%%3Ahs", e);
	curl_free(e);
	json_decref(
	        fakemx_call(&h->mx.fake, "PUT", path, bob, "{\"membership\":\"join\",\"displayname\":\"ann\"}", NULL));
	say(h, ann, room, "!ping 1");
	say(h, bob, room, "!ping 2");
	w = (struct want){ room, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_string_equal(name_with(h, "!ping 1"), "ann (@ann:hs)");
	assert_string_equal(name_with(h, "!ping 2"), "ann (@bob:hs)");
	/* after a restart, from the store */
	client_down(h);
	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	{
		char nb[MATRIX_MAX_NAME + 1];

		assert_string_equal(matrix_names_of(h->mx.c, room, "@bob:hs", nb, sizeof nb), "ann (@bob:hs)");
	}
	/* bob drops the name: he is "bob" again, and ann plain "ann" */
	json_decref(fakemx_call(&h->mx.fake, "PUT", path, bob, "{\"membership\":\"join\"}", NULL));
	say(h, bob, room, "!ping 3");
	say(h, ann, room, "!ping 4");
	w = (struct want){ room, 4 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_string_equal(name_with(h, "!ping 3"), "bob");
	assert_string_equal(name_with(h, "!ping 4"), "ann");
}

/* A fold of turns (parts the core marks ST_SEP) is one message on Matrix:
 * a turn a line, the ping at its end, ann mentioned. */
static void
test_fold_one_message(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], b[8][128];
	json_t *content = NULL;
	struct want w;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	say(h, ann, room, "!turns");
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	run_for(h, 300);
	assert_int_equal(bot_bodies(h, room, b, 8, &content), 1);
	assert_string_equal(json_string_value(json_object_get(content, "body")), "ann drew 2 cards, discarded 5\nAda[bot] drew 2 cards, discarded 9\nAlan[bot] took the "
	                          "pile (3 cards, top 9), discarded 4 · pile 4, 1 card · ann: your turn (!draw)");
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(content, "m.mentions"),
	                                                                     "user_ids"), 0)), "@ann:hs");
	json_decref(content);
}

/* What the default push rules did for user with the bot's last message in room. */
static const char *
notified(struct host *h, const char *room, const char *user)
{
	static char buf[16]; /* test-only scratch, single-threaded */
	json_t *evs = fakemx_events(&h->mx.fake, room), *ev, *last = NULL;
	size_t i;

	json_array_foreach(evs, i, ev)
		if (strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") == 0 &&
		    json_object_get(ev, "_notify") != NULL)
			last = ev;
	snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(json_object_get(last, "_notify"), user)) ?: "");
	json_decref(evs);
	return buf;
}

/* A turn prompt pings its player: m.text (an m.notice is silenced by the
 * default push rule .m.rule.suppress_notices before .m.rule.is_user_mention
 * is reached), a pill in the HTML and m.mentions; other lines stay notices. */
static void
test_prompt_pings(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], room[256], b[8][128];
	json_t *content = NULL;
	struct want w;

	ann_and_bob_in(h, ann, bob, sizeof ann, room, sizeof room);
	bot_up_in(h, room);
	say(h, ann, room, "!prompt");
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_int_equal(bot_bodies(h, room, b, 8, &content), 1);
	assert_string_equal(json_string_value(json_object_get(content, "msgtype")), "m.text");
	assert_string_equal(json_string_value(json_object_get(content, "body")), "pile 4 · ann: your turn (!draw)");
	assert_string_equal(json_string_value(json_object_get(content, "formatted_body")),
	                    "pile 4 · <a href=\"https://matrix.to/#/@ann:hs\">ann</a>: your turn (!draw)");
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(content, "m.mentions"),
	                                                                     "user_ids"), 0)), "@ann:hs");
	json_decref(content);
	assert_string_equal(notified(h, room, "@ann:hs"), "highlight");
	/* a line that asks nothing of anyone stays a notice: it pings no one */
	say(h, ann, room, "!ping x");
	w = (struct want){ room, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_string_equal(notified(h, room, "@ann:hs"), "none");
	assert_string_equal(notified(h, room, "@bob:hs"), "none");
}

/* The bot's ratelimit counter in the fake's requests: "limited" or "early". */
static long
limit_count(struct host *h, const char *what)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
	long n = (long)json_integer_value(json_object_get(json_object_get(json_object_get(j, "ratelimit"), what),
	                                                  "@bot:hs"));

	json_decref(j);
	return n;
}

static bool
was_limited(struct host *h, const void *arg)
{
	return limit_count(h, "limited") >= *(const long *)arg;
}

static bool
has_ev(struct host *h, const void *type)
{
	return count_evs(h, *(const enum bot_event_type *)type, NULL) > 0;
}

/* ann upgrades the game room: the bot follows the tombstone into the new
 * room (once ann invites it there, as Element offers), tells the core the
 * game moved; the old room, where the upgrade raised events_default, now
 * refuses the bot: a room-level BOT_EV_SEND_FAILED. */
static void
test_room_upgrade_followed(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], path[512], *e;
	const char *nroom;
	enum bot_event_type t;
	struct want w;
	json_t *j;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	e = curl_easy_escape(NULL, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/upgrade", e);
	curl_free(e);
	j = fakemx_call(&h->mx.fake, "POST", path, ann, "{\"new_version\":\"12\"}", NULL);
	nroom = json_string_value(json_object_get(j, "replacement_room"));
	assert_non_null(nroom);
	run_for(h, 500);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, nroom, "invite", "{\"user_id\":\"@bot:hs\"}"), 200);
	assert_true(run_until(h, bot_joined, nroom, 10000));
	t = BOT_EV_ROOM_MOVED;
	assert_true(run_until(h, has_ev, &t, 10000));
	for (int i = 0; i < h->nevs; i++)
		if (h->evs[i].type == BOT_EV_ROOM_MOVED) {
			assert_string_equal(h->evs[i].room, room);
			assert_string_equal(h->evs[i].text, nroom);
		}
	/* the new room is played in; the old one refuses the bot */
	say(h, ann, nroom, "!ping new");
	w = (struct want){ nroom, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	say(h, ann, room, "!ping old");
	t = BOT_EV_SEND_FAILED;
	assert_true(run_until(h, has_ev, &t, 10000));
	for (int i = 0; i < h->nevs; i++)
		if (h->evs[i].type == BOT_EV_SEND_FAILED) {
			assert_string_equal(h->evs[i].room, room);
			assert_string_equal(h->evs[i].user, "");
		}
	json_decref(j);
}

static long requests_of(struct host *h, const char *what);

/* A command said in a thread is answered in that thread, in reply to it. */
static void
test_answers_in_thread(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], path[512], *e;
	json_t *content = NULL, *rel, *evs;
	const char *cmd_id = NULL;
	char b[8][128];
	struct want w;
	size_t i;
	json_t *ev;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	say(h, ann, room, "thread root");
	e = curl_easy_escape(NULL, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/thr1", e);
	curl_free(e);
	json_decref(fakemx_call(&h->mx.fake, "PUT", path, ann,
	                        "{\"msgtype\":\"m.text\",\"body\":\"!ping t\",\"m.relates_to\":{\"rel_type\":\"m.thread\","
	                        "\"event_id\":\"$root:hs\",\"is_falling_back\":true,\"m.in_reply_to\":{\"event_id\":\"$root:hs\"}}}",
	                        NULL));
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_int_equal(bot_bodies(h, room, b, 8, &content), 1);
	evs = fakemx_events(&h->mx.fake, room);
	json_array_foreach(evs, i, ev)
		if (json_object_get(json_object_get(ev, "unsigned"), "transaction_id") != NULL &&
		    strcmp(json_string_value(json_object_get(json_object_get(ev, "unsigned"), "transaction_id")), "thr1") == 0)
			cmd_id = json_string_value(json_object_get(ev, "event_id"));
	assert_non_null(cmd_id);
	rel = json_object_get(content, "m.relates_to");
	assert_non_null(rel);
	assert_string_equal(json_string_value(json_object_get(rel, "rel_type")), "m.thread");
	assert_string_equal(json_string_value(json_object_get(rel, "event_id")), "$root:hs");
	assert_string_equal(json_string_value(json_object_get(json_object_get(rel, "m.in_reply_to"), "event_id")), cmd_id);
	json_decref(evs);
	json_decref(content);
}

/* ann's reply to the bot: the body quotes what it answers first (the
 * spec's fallback), then says text. */
static void
reply(struct host *h, const char *token, const char *room, const char *quoted, const char *text)
{
	char path[512], body[1024], *e = curl_easy_escape(NULL, room, 0);
	json_t *c;
	char *js;
	static int n;

	snprintf(body, sizeof body, "> <@bot:hs> %s\n\n%s", quoted, text);
	c = json_pack("{s:s,s:s,s:{s:{s:s}}}", "msgtype", "m.text", "body", body, "m.relates_to", "m.in_reply_to",
	              "event_id", "$e1:hs");
	js = json_dumps(c, JSON_COMPACT);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/reply%d", e, ++n);
	json_decref(fakemx_call(&h->mx.fake, "PUT", path, token, js, NULL));
	free(js);
	json_decref(c);
	curl_free(e);
}

/* The smaller items: a reply's quoted fallback is stripped (a quoted
 * command is never one, a command said in reply is); a join that failed
 * for want of an answer is tried again; a sync token the server refuses
 * is dropped, not retried for ever; the user agent says the version. */
static void
test_replies_joins_since_and_agent(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	struct want w;
	json_t *j;
	bool ours = false;
	size_t i;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"POST\",\"path\":\"/join$\",\"status\":502}");
	make_room(h, ann, NULL, room, sizeof room);
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 15000));
	assert_true(run_until(h, is_up, NULL, 10000));
	reply(h, ann, room, "!ping quoted", "thanks");
	reply(h, ann, room, "your turn", "!ping r");
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	run_for(h, 300);
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, "thanks"), 1);
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, "!ping r"), 1);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "pong"), 1);
	/* a token the server no longer knows */
	client_down(h);
	memstore_set(h->mx.st, "next_batch", "s999999");
	h->nevs = 0;
	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	say(h, ann, room, "!ping 2");
	w = (struct want){ room, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
	json_t *ua;

	json_array_foreach(json_object_get(j, "user_agents"), i, ua)
		if (strcmp(json_string_value(ua), "handfoot/" HF_VERSION) == 0)
			ours = true;
	assert_true(ours);
	json_decref(j);
}

struct modq { const char *room, *user; };

static bool
is_mod(struct host *h, const void *arg)
{
	const struct modq *q = arg;

	return matrix_client_is_moderator(h->mx.c, q->room, q->user);
}

/* Room version 12: its creators (sender and additional_creators) have
 * infinite power and are in no power_levels users list: they moderate. */
static void
test_moderators_room_v12(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	struct modq q;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, ",\"room_version\":\"12\",\"creation_content\":{\"additional_creators\":[\"@cy:hs\"]}",
	          room, sizeof room);
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 10000));
	q = (struct modq){ room, "@ann:hs" };
	assert_true(run_until(h, is_mod, &q, 10000));
	assert_true(matrix_client_is_moderator(h->mx.c, room, "@cy:hs"));
	assert_false(matrix_client_is_moderator(h->mx.c, room, "@bob:hs"));
	/* kept across a restart (a resumed sync does not send the state again) */
	client_down(h);
	client_up(h);
	assert_true(matrix_client_is_moderator(h->mx.c, room, "@ann:hs"));
	assert_false(matrix_client_is_moderator(h->mx.c, room, "@bob:hs"));
}

/* More was said while the bot was away than a sync holds: the server cuts
 * the timeline (limited) and the newest commands come without what led to
 * them; none is applied, and the room is told so once. */
static void
test_gap_commands_not_applied(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], b[8][128];
	struct want w;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	client_down(h);
	for (int i = 0; i < 30; i++) {
		char t[32];

		snprintf(t, sizeof t, "!ping %d", i);
		say(h, ann, room, t);
	}
	client_up(h);
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	run_for(h, 500);
	assert_int_equal(bot_bodies(h, room, b, 8, NULL), 1);
	assert_non_null(strstr(b[0], "I missed part of what was said here"));
	assert_int_equal(count_evs(h, BOT_EV_MESSAGE, NULL), 0);
	/* what is said now is answered */
	say(h, ann, room, "!ping now");
	w = (struct want){ room, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
}

static long
logins(struct host *h)
{
	return requests_of(h, "logins");
}

/* The access token (and refresh token) are kept: a restart does not log in
 * again; an expired token is refreshed (soft logout), not a new login. */
static void
test_login_token_kept_and_refreshed(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	struct want w;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	assert_int_equal(logins(h), 1);
	client_down(h);
	h->nevs = 0;
	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	assert_int_equal(logins(h), 1);
	/* the server expires the token: refreshed, the game goes on */
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/expire", NULL, "{\"user\":\"@bot:hs\"}", NULL));
	say(h, ann, room, "!ping 1");
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
	assert_true(requests_of(h, "refresh") >= 1);
	assert_int_equal(logins(h), 1);
	assert_int_equal(h->nerr, 0);
}

/* A server that only offers OAuth: the operator gives the bot an access
 * token (token_file) and, for when it expires, its refresh token
 * (refresh_token_file).  With it the expired token is refreshed and the
 * renewed tokens are kept across a restart; without it the account stops
 * with one line. */
static void
test_login_token_file_refreshed(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	json_t *j;
	struct want w;

	j = fakemx_call(&h->mx.fake, "POST", "/_fake/user", NULL, "{\"user\":\"bot\",\"refresh\":true}", NULL);
	assert_non_null(j);
	h->mx.cfg.password[0] = '\0';
	snprintf(h->mx.cfg.token, sizeof h->mx.cfg.token, "%s", json_string_value(json_object_get(j, "access_token")));
	snprintf(h->mx.cfg.refresh, sizeof h->mx.cfg.refresh, "%s",
	         json_string_value(json_object_get(j, "refresh_token")));
	json_decref(j);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/expire", NULL, "{\"user\":\"@bot:hs\"}", NULL));
	say(h, ann, room, "!ping 1");
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
	assert_int_equal(requests_of(h, "refresh"), 1);
	/* the tokens of the files are spent: a restart uses the renewed ones */
	client_down(h);
	client_up(h);
	say(h, ann, room, "!ping 2");
	w = (struct want){ room, 2 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/expire", NULL, "{\"user\":\"@bot:hs\"}", NULL));
	say(h, ann, room, "!ping 3");
	w = (struct want){ room, 3 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
	assert_int_equal(requests_of(h, "refresh"), 2);
	assert_int_equal(logins(h), 0);
	assert_int_equal(h->nerr, 0);
}

/* Without refresh_token_file an expired token stops the account with one
 * line; so does a refresh token the server refuses. */
static void
test_login_token_file_expired_stops(void **state)
{
	struct host *h = *state;
	char ann[128], bot[128], room[256];

	fakemx_user(&h->mx.fake, "bot", "botpw", bot, sizeof bot);
	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	for (int i = 0; i < 2; i++) {
		h->mx.cfg.password[0] = '\0';
		snprintf(h->mx.cfg.token, sizeof h->mx.cfg.token, "%s", bot);
		/* the second time: a refresh token the server does not know */
		snprintf(h->mx.cfg.refresh, sizeof h->mx.cfg.refresh, "%s", i == 0 ? "" : "ref-revoked");
		h->nerr = 0;
		h->errlog[0] = '\0';
		h->nevs = 0;
		room_up(h, ann, room, sizeof room);
		json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/expire", NULL, "{\"user\":\"@bot:hs\"}", NULL));
		say(h, ann, room, "!ping 1");
		/* the pong and the next sync are refused at once: the second
		 * answer must not say it again, so both are waited for */
		assert_true(run_until(h, stopped_and_answered, NULL, 10000));
		assert_int_equal(h->nerr, 1);
		assert_non_null(strstr(h->errlog, i == 0 ? "refused the access token from token_file"
		                                         : "refused the refresh token (HTTP 401, M_UNKNOWN_TOKEN)"));
		assert_int_equal(requests_of(h, "refresh"), i);
		assert_int_equal(logins(h), 0);
		assert_int_equal(count_evs(h, BOT_EV_DOWN, NULL), 1);
		client_down(h);
		fakemx_user(&h->mx.fake, "bot", "botpw", bot, sizeof bot);
	}
}

/* What trying again cannot fix stops the account with one clear line: a
 * server that offers only OAuth or SSO, a bad password, a deactivated account. */
static void
test_login_permanent_errors_stop(void **state)
{
	struct host *h = *state;

	static const struct {
		const char *config, *password, *says;
		long logins;
	} cases[] = {
		{ "{\"login_flows\":[\"m.login.sso\"]}", "botpw", "offers no password login (only: m.login.sso)", 0 },
		{ "{\"login_flows\":[\"m.login.password\"]}", "wrong", "M_FORBIDDEN", 1 },
		{ "{\"deactivate\":[\"@bot:hs\"]}", "botpw", "deactivated", 2 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/config", NULL, cases[i].config, NULL));
		snprintf(h->mx.cfg.password, sizeof h->mx.cfg.password, "%s", cases[i].password);
		h->nerr = 0;
		h->errlog[0] = '\0';
		client_up(h);
		/* the start's requests go one after another: when it has stopped, none is left */
		assert_true(run_until(h, has_stopped, NULL, 10000));
		/* one try, one line, then nothing */
		assert_int_equal(logins(h), cases[i].logins);
		assert_int_equal(h->nerr, 1);
		assert_non_null(strstr(h->errlog, cases[i].says));
		if (i == 0)
			assert_non_null(strstr(h->errlog, "token_file"));
		client_down(h);
	}
	assert_int_equal(count_evs(h, BOT_EV_UP, NULL), 0);
}

/* The number of the first event in room whose body has needle (NULL: the
 * first event at all): the fake numbers events in the order it made them. */
static long
first_event_no(struct host *h, const char *room, const char *needle)
{
	json_t *evs = fakemx_events(&h->mx.fake, room), *ev;
	long n = -1;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *b = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

		if (needle == NULL || (b != NULL && strstr(b, needle) != NULL)) {
			n = strtol(json_string_value(json_object_get(ev, "event_id")) + 2, NULL, 10);
			break;
		}
	}
	json_decref(evs);
	return n;
}

/* Synapse limits a user's sends (rc_message): a 429 makes every send wait,
 * never one before the retry_after_ms of the last 429 has passed; its room
 * creations have a limiter of their own (rc_room_creation). */
static void
test_rate_limit_shared_by_sends_and_rooms(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], room[256], broom[256], dm[256];
	struct want w;
	long n;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "bob", "x", bob, sizeof bob);
	make_room(h, ann, NULL, room, sizeof room);
	make_room(h, bob, NULL, broom, sizeof broom);
	bot_up_in_both(h, room, broom);
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0.25,\"burst\":3,\"user\":\"@bot:hs\"}", NULL));
	/* a send is refused: ann's direct room waits for it */
	for (int i = 1; i <= 4; i++) {
		char t[32];

		snprintf(t, sizeof t, "!ping %d", i);
		say(h, ann, room, t);
	}
	n = 1;
	assert_true(run_until(h, was_limited, &n, 10000));
	say(h, ann, room, "!hand");
	assert_true(run_until(h, has_direct, "@ann:hs", 30000));
	direct_of(h, "@ann:hs", dm, sizeof dm);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "join", "{}"), 200);
	w = (struct want){ dm, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	w = (struct want){ room, 4 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	assert_int_equal(limit_count(h, "early"), 0);
	/* createRoom has a limit of its own (rc_room_creation): its 429 holds
	 * no send back, and it waits as long as it is told */
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0,\"burst\":0}", NULL));
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/ratelimit", NULL,
	                        "{\"rooms\":true,\"per_second\":0.2,\"burst\":1,\"user\":\"@bot:hs\"}", NULL));
	{
		char btok[128], spare[256];

		/* another client of the account made a room just now: the allowance is spent */
		fakemx_user(&h->mx.fake, "bot", "botpw", btok, sizeof btok);
		assert_int_equal(fakemx_room(&h->mx.fake, btok, "{}", spare, sizeof spare), 0);
	}
	say(h, bob, broom, "!hand");
	say(h, bob, broom, "!ping 8");
	w = (struct want){ broom, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	assert_false(has_direct(h, "@bob:hs"));
	assert_true(run_until(h, has_direct, "@bob:hs", 30000));
	direct_of(h, "@bob:hs", dm, sizeof dm);
	/* the pong went before the room was made (event ids count up) */
	assert_true(first_event_no(h, broom, "pong 8") < first_event_no(h, dm, NULL));
	assert_int_equal(fakemx_room_post(&h->mx.fake, bob, dm, "join", "{}"), 200);
	w = (struct want){ dm, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	{
		json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
		json_t *rl = json_object_get(j, "room_ratelimit");

		assert_true(json_integer_value(json_object_get(json_object_get(rl, "limited"), "@bot:hs")) >= 1);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(rl, "early"), "@bot:hs")), 0);
		json_decref(j);
	}
	json_decref(
	        fakemx_call(&h->mx.fake, "POST", "/_fake/ratelimit", NULL, "{\"rooms\":true,\"per_second\":0}", NULL));
}

static long
requests_of(struct host *h, const char *what)
{
	return fakemx_requests(&h->mx.fake, what);
}

/* A 429 that gives no wait at all (a proxy's page: no Retry-After, no
 * retry_after_ms; libcurl then says 0) is waited out with a backoff, not
 * retried at once in a loop. */
static void
test_bare_429_waits(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	struct want w;
	long before;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	room_up(h, ann, room, sizeof room);
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"PUT\",\"path\":\"/send/\",\"status\":429,\"bare\":true,"
	          "\"count\":100000}");
	before = requests_of(h, "rooms");
	say(h, ann, room, "!ping 1");
	run_for(h, 2500);
	/* 0.5 s, 1 s, 2 s...: a handful of tries, not hundreds */
	assert_true(requests_of(h, "rooms") - before <= 6);
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/clear", NULL, "{}", NULL));
	w = (struct want){ room, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
}

/* createRoom is not idempotent: retried a bounded number of times, each
 * retry after a failure that may have made the room looks for it first. */
static void
test_create_room_bounded_and_found_again(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], room[256], broom[256], dm[256];
	struct want w;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "bob", "x", bob, sizeof bob);
	make_room(h, ann, NULL, room, sizeof room);
	make_room(h, bob, NULL, broom, sizeof broom);
	bot_up_in_both(h, room, broom);
	/* made, but the invite failed and the answer is an error: found again,
	 * ann invited to it, no second room */
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"POST\",\"path\":\"/createRoom\",\"status\":502,"
	          "\"after_commit\":true,\"skip_invite\":true}");
	say(h, ann, room, "!hand");
	assert_true(run_until(h, has_direct, "@ann:hs", 20000));
	direct_of(h, "@ann:hs", dm, sizeof dm);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "join", "{}"), 200);
	w = (struct want){ dm, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 15000));
	assert_int_equal(requests_of(h, "createRoom"), 2 + 1 + 0);   /* ann's and bob's rooms, and one of the bot's */
	/* refused every time: given up after MATRIX_CREATE_TRIES, bob told */
	inject(h, "{\"user\":\"@bot:hs\",\"method\":\"POST\",\"path\":\"/createRoom\",\"status\":503,\"count\":100}");
	say(h, bob, broom, "!hand");
	for (int t = 0; t < 400 && fakemx_bot_says(&h->mx.fake, broom, "hand privately") == 0; t++)
		run_for(h, 50);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, broom, "hand privately"), 1);
	assert_int_equal(requests_of(h, "createRoom"), 3 + 5);   /* MATRIX_CREATE_TRIES */
}


/* ---------------------------------------------------------------- hands in a room of two */

/* Whether the bot's m.direct lists room for user. */
static bool
mdirect_has(struct host *h, const char *user, const char *room)
{
	json_t *d = m_direct(h), *r;
	bool has = false;
	size_t i;

	json_array_foreach(json_object_get(d, user), i, r)
		if (strcmp(json_string_value(r), room) == 0)
			has = true;
	json_decref(d);
	return has;
}

struct dm_of { const char *user, *room; };

static bool
dm_listed(struct host *h, const void *arg)
{
	const struct dm_of *d = arg;

	return mdirect_has(h, d->user, d->room);
}

/* Waits for the bot to invite user to a room (the direct room it makes),
 * and joins it as token's user; its id in out. */
static void
join_direct(struct host *h, const char *token, const char *user, char *out, size_t len)
{
	out[0] = '\0';
	for (int t = 0; t < 300 && out[0] == '\0'; t++) {
		json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL), *r;
		const char *room;

		json_object_foreach(json_object_get(j, "rooms"), room, r) {
			json_t *m = json_object_get(r, "members");
			const char *mu = json_string_value(json_object_get(m, user));
			const char *mb = json_string_value(json_object_get(m, "@bot:hs"));

			if (mu != NULL && mb != NULL && strcmp(mu, "invite") == 0 && strcmp(mb, "join") == 0)
				snprintf(out, len, "%s", room);
		}
		json_decref(j);
		if (out[0] == '\0')
			run_for(h, 50);
	}
	assert_string_not_equal(out, "");
	assert_int_equal(fakemx_room_post(&h->mx.fake, token, out, "join", "{}"), 200);
}

/* Every hand the bot ever sent, in any room, went to a room whose joined
 * members were exactly the bot and player (the fake records who was in a
 * room with each event); returns how many there were. */
static int
assert_hands_private(struct host *h, const char *player)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL), *r, *ev, *m;
	const char *room, *who;
	int hands = 0;
	size_t i;

	json_object_foreach(json_object_get(j, "rooms"), room, r) {
		json_t *evs = fakemx_events(&h->mx.fake, room);

		(void)r;
		json_array_foreach(evs, i, ev) {
			const char *b = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
			int joined = 0;

			if (b == NULL || strstr(b, "your hand:") == NULL ||
			    strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") != 0)
				continue;
			hands++;
			snprintf(h->last_hand, sizeof h->last_hand, "%s", room);
			json_object_foreach(json_object_get(ev, "_members"), who, m) {
				if (strcmp(json_string_value(m), "join") != 0)
					continue;
				if (strcmp(who, "@bot:hs") != 0 && strcmp(who, player) != 0)
					fail_msg("a hand went to %s with %s in it", room, who);
				joined++;
			}
			if (joined != 2)
				fail_msg("a hand went to %s with %d members joined", room, joined);
		}
		json_decref(evs);
	}
	json_decref(j);
	return hands;
}

/* A direct room ann makes herself (as Element does, with the history
 * hidden): the bot joins it and takes it once it has read its state. */
static void
ann_direct(struct host *h, const char *ann, char *dm, size_t len)
{
	struct dm_of d;

	make_room(h, ann, ",\"is_direct\":true,\"preset\":\"trusted_private_chat\",\"initial_state\":[{\"type\":"
	          "\"m.room.history_visibility\",\"state_key\":\"\",\"content\":{\"history_visibility\":\"joined\"}}]",
	          dm, len);
	d = (struct dm_of){ "@ann:hs", dm };
	assert_true(run_until(h, dm_listed, &d, 10000));
}

/* eve comes into ann's direct room: invited by ann, she joins once the bot
 * has left it, and reads back nothing of ann's hands. */
static void
eve_comes(struct host *h, const char *ann, const char *eve, const char *dm)
{
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "invite", "{\"user_id\":\"@eve:hs\"}"), 200);
	/* dropped at the invite, before she is in */
	assert_true(run_until(h, bot_left, dm, 10000));
	assert_int_equal(fakemx_room_post(&h->mx.fake, eve, dm, "join", "{}"), 200);
	assert_int_equal(fakemx_readable(&h->mx.fake, eve, dm, "your hand"), 0);
}

/* ann's client accepts the bot's invites (to the direct rooms it makes). */
static void
accept_invites(struct host *h)
{
	json_t *j = fakemx_call(&h->mx.fake, "GET", "/_fake/rooms", NULL, NULL, NULL), *r;
	const char *room;

	json_object_foreach(json_object_get(j, "rooms"), room, r) {
		json_t *m = json_object_get(r, "members");
		const char *mu = json_string_value(json_object_get(m, "@ann:hs"));
		const char *mb = json_string_value(json_object_get(m, "@bot:hs"));

		if (mu != NULL && mb != NULL && strcmp(mu, "invite") == 0 && strcmp(mb, "join") == 0)
			fakemx_room_post(&h->mx.fake, h->ann_tok, room, "join", "{}");
	}
	json_decref(j);
}

static bool
has_hands(struct host *h, const void *arg)
{
	accept_invites(h);
	return assert_hands_private(h, "@ann:hs") >= *(const int *)arg;
}

static void
test_hands_only_in_a_room_of_two(void **state)
{
	struct host *h = *state;
	char ann[128], eve[128], btok[128], room[256], dm[256], dm2[256], path[512], body[512], *e;
	int n;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "eve", "x", eve, sizeof eve);
	fakemx_user(&h->mx.fake, "bot", "botpw", btok, sizeof btok);
	snprintf(h->ann_tok, sizeof h->ann_tok, "%s", ann);
	make_room(h, ann, NULL, room, sizeof room);
	/* another client of the account says the game room is ann's direct
	 * chat: it is not (eve is in it), and it is never taken as one */
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, room, "invite", "{\"user_id\":\"@eve:hs\"}"), 200);
	assert_int_equal(fakemx_room_post(&h->mx.fake, eve, room, "join", "{}"), 200);
	snprintf(body, sizeof body, "{\"@ann:hs\":[\"%s\"]}", room);
	json_decref(fakemx_call(&h->mx.fake, "PUT", "/_matrix/client/v3/user/%40bot%3Ahs/account_data/m.direct", btok,
	                        body, NULL));
	bot_up_in(h, room);

	/* 1. a room the bot makes: invite-only, the history hidden, no hand
	 * before ann is in it, and no way for anyone else in */
	say(h, ann, room, "!hand");
	join_direct(h, ann, "@ann:hs", dm, sizeof dm);
	n = 1;
	assert_true(run_until(h, has_hands, &n, 30000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "your hand"), 0);
	assert_int_not_equal(fakemx_room_post(&h->mx.fake, ann, dm, "invite", "{\"user_id\":\"@eve:hs\"}"), 200);
	e = curl_easy_escape(NULL, dm, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/knock/%s", e);
	curl_free(e);
	json_decref(fakemx_call(&h->mx.fake, "POST", path, eve, "{}", NULL));
	assert_int_not_equal(fakemx_room_post(&h->mx.fake, eve, dm, "join", "{}"), 200);

	/* 2. ann's own direct room; eve comes in before any hand goes there */
	ann_direct(h, ann, dm2, sizeof dm2);
	eve_comes(h, ann, eve, dm2);
	say(h, ann, room, "!hand");
	n = 2;
	assert_true(run_until(h, has_hands, &n, 15000));
	assert_string_not_equal(h->last_hand, dm2);

	/* 3. eve comes in while a hand waits (the account is rate limited) */
	ann_direct(h, ann, dm2, sizeof dm2);
	inject(h, "{\"method\":\"PUT\",\"path\":\"/send/\",\"user\":\"@bot:hs\",\"status\":429,\"retry_after_ms\":3000}");
	say(h, ann, room, "!hand");
	run_for(h, 500);
	eve_comes(h, ann, eve, dm2);
	n = 3;
	assert_true(run_until(h, has_hands, &n, 15000));
	assert_string_not_equal(h->last_hand, dm2);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm2, "your hand"), 0);

	/* 4. eve comes in after a hand went there: she cannot read it back */
	ann_direct(h, ann, dm2, sizeof dm2);
	say(h, ann, room, "!hand");
	n = 4;
	assert_true(run_until(h, has_hands, &n, 15000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm2, "your hand"), 1);
	eve_comes(h, ann, eve, dm2);
	/* the dropped room stays out of m.direct, whatever another client writes */
	snprintf(body, sizeof body, "{\"@ann:hs\":[\"%s\"]}", dm2);
	json_decref(fakemx_call(&h->mx.fake, "PUT", "/_matrix/client/v3/user/%40bot%3Ahs/account_data/m.direct", btok,
	                        body, NULL));
	say(h, ann, room, "!hand");
	n = 5;
	assert_true(run_until(h, has_hands, &n, 15000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm2, "your hand"), 1);
	assert_false(mdirect_has(h, "@ann:hs", dm2));

	/* 5. ann leaves her direct room: her next direct chat is taken */
	snprintf(dm, sizeof dm, "%s", h->last_hand);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "leave", "{}"), 200);
	assert_true(run_until(h, bot_left, dm, 10000));
	ann_direct(h, ann, dm2, sizeof dm2);
	say(h, ann, room, "!hand");
	n = 6;
	assert_true(run_until(h, has_hands, &n, 15000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm2, "your hand"), 1);
	assert_int_equal(assert_hands_private(h, "@ann:hs"), 6);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "your hand:"), 0);
}

/* ann refuses the direct chat the bot opens: the room is dropped, the hand
 * waiting for it is given up and the game room told how to get it; her own
 * direct chat, opened next, is taken. */
static void
test_refused_direct_room(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], dm[256], own[256];
	int n;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	snprintf(h->ann_tok, sizeof h->ann_tok, "%s", ann);
	room_up(h, ann, room, sizeof room);
	say(h, ann, room, "!hand");
	assert_true(run_until(h, has_direct, "@ann:hs", 10000));
	direct_of(h, "@ann:hs", dm, sizeof dm);
	assert_int_equal(fakemx_room_post(&h->mx.fake, ann, dm, "leave", "{}"), 200);   /* the invite refused */
	assert_true(run_until(h, bot_left, dm, 10000));
	for (int t = 0; t < 200 && fakemx_bot_says(&h->mx.fake, room, "you left our direct chat") == 0; t++)
		run_for(h, 50);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "you left our direct chat"), 1);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, dm, ""), 0);
	ann_direct(h, ann, own, sizeof own);
	say(h, ann, room, "!hand");
	n = 1;
	assert_true(run_until(h, has_hands, &n, 10000));
	assert_int_equal(fakemx_bot_says(&h->mx.fake, own, "your hand:"), 1);
}

/* The server encrypts every room the bot makes: no hand goes there, and
 * the player hears in the game room how to get it. */
static void
test_server_encrypts_new_rooms(void **state)
{
	struct host *h = *state;
	char ann[128], room[256];
	json_t *j;

	fakemx_user(&h->mx.fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, NULL, room, sizeof room);
	json_decref(
	        fakemx_call(&h->mx.fake, "POST", "/_fake/config", NULL, "{\"encrypt_new_rooms\":\"invite\"}", NULL));
	bot_up_in(h, room);
	say(h, ann, room, "!hand");
	for (int t = 0; t < 200 && fakemx_bot_says(&h->mx.fake, room, "encryption turned off") == 0; t++)
		run_for(h, 50);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "encryption turned off"), 1);
	assert_int_equal(count_evs(h, BOT_EV_SEND_FAILED, NULL), 1);
	/* a second hand makes no second room and no second word */
	say(h, ann, room, "!hand");
	run_for(h, 1500);
	assert_int_equal(fakemx_bot_says(&h->mx.fake, room, "encryption turned off"), 1);
	j = fakemx_call(&h->mx.fake, "GET", "/_fake/requests", NULL, NULL, NULL);
	assert_int_equal(json_integer_value(json_object_get(j, "createRoom")), 2);   /* ann's room, and one of ours */
	json_decref(j);
	assert_int_equal(assert_hands_private(h, "@ann:hs"), 0);
}

/* ---------------------------------------------------------------- discovery */

static char tls_dir[64];

/* The fake over TLS with a self-signed certificate for 127.0.0.1: a bare
 * server name means https (the spec's server discovery). */
static int
setup_tls(void **state)
{
	struct host *h = calloc(1, sizeof *h);
	char cmd[512], cert[128], key[128];

	snprintf(tls_dir, sizeof tls_dir, "/tmp/mxtls-XXXXXX");
	if (h == NULL || mkdtemp(tls_dir) == NULL)
		return -1;
	snprintf(cmd, sizeof cmd, "cd %s && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
	         "-addext subjectAltName=IP:127.0.0.1 -keyout key.pem -out cert.pem >/dev/null 2>&1", tls_dir);
	snprintf(cert, sizeof cert, "%s/cert.pem", tls_dir);
	snprintf(key, sizeof key, "%s/key.pem", tls_dir);
	if (system(cmd) != 0 || fakemx_start_tls(&h->mx.fake, cert, key) < 0) {
		free(h);
		return -1;
	}
	fakemx_host_init(&h->mx, NULL, 0);
	snprintf(h->mx.cfg.server_name, sizeof h->mx.cfg.server_name, "127.0.0.1:%d", h->mx.fake.port);
	snprintf(h->mx.cfg.homeserver, sizeof h->mx.cfg.homeserver, "https://%s", h->mx.cfg.server_name);
	snprintf(h->mx.cfg.ca_file, sizeof h->mx.cfg.ca_file, "%s", cert);
	*state = h;
	return 0;
}

static int
teardown_tls(void **state)
{
	char cmd[128];

	teardown(state);
	snprintf(cmd, sizeof cmd, "rm -rf %s", tls_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* homeserver = a bare server name: the base URL comes from
 * https://NAME/.well-known/matrix/client (a 404 means the name's own host);
 * /_matrix/client/versions is asked before anything else, and a server that
 * speaks none of our versions, or a .well-known without a usable base_url,
 * stops the account with one plain line and no login. */
static void
test_discovery_and_versions(void **state)
{
	struct host *h = *state;

	static const struct {
		const char *config, *says;   /* says NULL: the account comes up */
	} cases[] = {
		{ "{}", NULL },
		{ "{\"versions\":[\"r0.5.0\",\"r0.6.1\",\"v2.0\",\"v1.x\"]}",
		  "supports none of the Matrix versions this bot speaks (it lists: r0.5.0, r0.6.1, v2.0, v1.x" },
		{ "{\"versions\":[\"v1.1\"],\"well_known\":null}", NULL },
		{ "{\"well_known\":{\"m.homeserver\":{}}}", "no m.homeserver base_url" },
		{ "{\"well_known\":{\"m.homeserver\":{\"base_url\":\"matrix.example.org\"}}}", "not an http(s) URL" },
	};
	long before;

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/config", NULL, cases[i].config, NULL));
		h->nerr = 0;
		h->errlog[0] = '\0';
		h->nevs = 0;
		before = logins(h);
		client_up(h);
		if (cases[i].says == NULL) {
			assert_true(run_until(h, is_up, NULL, 10000));
			assert_int_equal(h->nerr, 0);
		} else {
			/* the start's requests go one after another: when it has stopped, none is left */
			assert_true(run_until(h, has_stopped, NULL, 10000));
			/* one line, no login, never up */
			assert_int_equal(count_evs(h, BOT_EV_UP, NULL), 0);
			assert_int_equal(h->nerr, 1);
			assert_non_null(strstr(h->errlog, cases[i].says));
			assert_int_equal(logins(h), before);
		}
		client_down(h);
	}
	/* every start read .well-known, but the two that had to stop before it */
	assert_int_equal(requests_of(h, "well-known"), 5);
	assert_int_equal(requests_of(h, "versions"), 3);
}

/* ---------------------------------------------------------------- server notices */

static bool
warned(struct host *h, const void *needle)
{
	return strstr(h->warnlog, needle) != NULL;
}

static int
messages_in(struct host *h, const char *room)
{
	int n = 0;

	for (int i = 0; i < h->nevs; i++)
		if (h->evs[i].type == BOT_EV_MESSAGE && strcmp(h->evs[i].room, room) == 0)
			n++;
	return n;
}

/* The server notices room (Synapse's: made by the notices user, the bot
 * invited, tagged m.server_notice): its notices, m.server_notice or an
 * administrator's plain m.text, are logged at warning with their text and
 * never taken for commands, also after a restart (the tag is not sent
 * again); an m.server_notice anywhere else is ignored, as the spec says. */
static void
test_server_notices(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], notices[256], body[512], path[512];
	const enum bot_event_type msg = BOT_EV_MESSAGE;
	json_t *j;

	fakemx_user(&h->mx.fake, "ann", "pw", ann, sizeof ann);
	fakemx_user(&h->mx.fake, "notices", "pw", body, sizeof body);
	room_up(h, ann, room, sizeof room);
	j = fakemx_call(&h->mx.fake, "POST", "/_fake/server_notice", NULL, "{\"user\":\"@bot:hs\"}", NULL);
	snprintf(notices, sizeof notices, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
	assert_true(run_until(h, bot_joined, notices, 10000));
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/server_notice", NULL,
	                        "{\"user\":\"@bot:hs\",\"text\":\"This server has exceeded its monthly active user "
	                        "limit\",\"type\":\"m.server_notice.usage_limit_reached\"}", NULL));
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/server_notice", NULL,
	                        "{\"user\":\"@bot:hs\",\"text\":\"!ping please accept the new terms\","
	                        "\"msgtype\":\"m.text\"}", NULL));
	assert_true(run_until(h, warned, "please accept the new terms", 10000));
	assert_true(warned(h, "server notice (m.server_notice.usage_limit_reached): This server has exceeded its "
	                      "monthly active user limit"));
	/* anyone may send that msgtype elsewhere: not logged, not a command */
	snprintf(body, sizeof body, "{\"msgtype\":\"m.server_notice\",\"body\":\"!ping I am the server\","
	         "\"server_notice_type\":\"m.server_notice.usage_limit_reached\"}");
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/sn1", room);
	json_decref(fakemx_call(&h->mx.fake, "PUT", path, ann, body, NULL));
	say(h, ann, room, "!ping after");
	assert_true(run_until(h, has_ev, &msg, 10000));
	run_for(h, 500);
	assert_int_equal(messages_in(h, notices), 0);
	assert_null(strstr(h->warnlog, "I am the server"));
	/* after a restart the room is still known for what it is */
	client_down(h);
	client_up(h);
	assert_true(run_until(h, is_up, NULL, 10000));
	json_decref(fakemx_call(&h->mx.fake, "POST", "/_fake/server_notice", NULL,
	                        "{\"user\":\"@bot:hs\",\"text\":\"!ping the server restarts at noon\"}", NULL));
	assert_true(run_until(h, warned, "the server restarts at noon", 10000));
	assert_int_equal(messages_in(h, notices), 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_history_replay_restart_and_direct_rooms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discovery_and_versions, setup_tls, teardown_tls),
		cmocka_unit_test_setup_teardown(test_server_notices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_message_once_in_order_under_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encryption_allow_list_and_kick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_display_names_per_room, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_limit_shared_by_sends_and_rooms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fold_one_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hands_only_in_a_room_of_two, setup, teardown),
		cmocka_unit_test_setup_teardown(test_server_encrypts_new_rooms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_direct_room, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prompt_pings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bare_429_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_room_bounded_and_found_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_room_upgrade_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_login_token_kept_and_refreshed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_login_token_file_refreshed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_login_token_file_expired_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_login_permanent_errors_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gap_commands_not_applied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_moderators_room_v12, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_disambiguated_and_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replies_joins_since_and_agent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_answers_in_thread, setup, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	/* one test by name (a glob), when working on it */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
