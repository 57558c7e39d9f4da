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
#include "fakemx.h"
#include "memstore.h"

#define MAX_EVS 512

struct rec {
	enum bot_event_type type;
	char room[256], user[256], name[128], text[512];
	bool direct;
};

struct host {
	struct fakemx fake;
	struct loop *loop;
	struct http *http;
	struct memstore *st;
	struct matrix_client *c;
	struct matrix_config cfg;
	struct rec evs[MAX_EVS];
	int nevs;
	bool verbose;
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
		                          .mentions = men, .nmentions = 1 };
		assert_int_equal(matrix_client_send(h->c, &m), 0);
	} else if (strcmp(ev->text, "!turns") == 0) {
		/* a person's turn and the computer turns after it, as the core folds them */
		men[0] = ev->user_id;
		m = (struct adapter_msg){ .kind = MSG_ROOM, .room = ev->room, .prefix = "!", .mentions = men,
		                          .nmentions = 1,
		                          .styled = "ann drew 2 cards, discarded 5" ST_SEP "Ada[bot] drew 2 cards, discarded 9"
		                                    ST_SEP "Alan[bot] took the pile (3 cards, top 9), discarded 4 · pile 4, "
		                                    "1 card · ann: your turn (" ST_COMMAND "draw" ST_END ")" };
		assert_int_equal(matrix_client_send(h->c, &m), 0);
	} else if (strcmp(ev->text, "!hand") == 0) {
		m = (struct adapter_msg){ .kind = MSG_PRIVATE, .room = ev->room, .user_id = ev->user_id,
		                          .styled = "your hand: " ST_CARD "A" ST_END "×2 K 9" ST_BR "foot: 11 cards waiting",
		                          .prefix = "!" };
		assert_int_equal(matrix_client_send(h->c, &m), 0);
	}
}

static void
h_log(void *ctx, int level, const char *msg)
{
	struct host *h = ctx;

	if (h->verbose || level <= LOG_LVL_ERR)
		fprintf(stderr, "<%d>matrix: %s\n", level, msg);
}

static void
client_up(struct host *h)
{
	struct matrix_host mh = {
		.ctx = h, .emit = h_emit, .log = h_log,
		.store = { h->st, memstore_get, memstore_set, memstore_del, memstore_each },
	};

	h->c = matrix_client_new(&h->cfg, &mh, h->loop, h->http);
	assert_non_null(h->c);
	assert_int_equal(matrix_client_start(h->c), 0);
}

static void
client_down(struct host *h)
{
	matrix_client_stop(h->c);
	matrix_client_free(h->c);
	h->c = NULL;
}

static int
setup(void **state)
{
	struct host *h = calloc(1, sizeof *h);
	char tok[128];

	if (h == NULL || fakemx_start(&h->fake) < 0) {
		free(h);
		return -1;
	}
	h->verbose = getenv("HF_VERBOSE") != NULL;
	h->loop = loop_new();
	h->http = http_new(h->loop);
	h->st = memstore_new();
	fakemx_user(&h->fake, "bot", "botpw", tok, sizeof tok);
	snprintf(h->cfg.homeserver, sizeof h->cfg.homeserver, "%s", h->fake.base);
	snprintf(h->cfg.user, sizeof h->cfg.user, "bot");
	snprintf(h->cfg.password, sizeof h->cfg.password, "botpw");
	h->cfg.auto_join = true;
	h->cfg.sync_timeout_ms = 2000;
	*state = h;
	return 0;
}

static int
teardown(void **state)
{
	struct host *h = *state;

	if (h->c != NULL)
		client_down(h);
	http_free(h->http);
	loop_free(h->loop);
	memstore_free(h->st);
	fakemx_stop(&h->fake);
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
		loop_run_once(h->loop, 50);
	}
}

static void
run_for(struct host *h, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		loop_run_once(h->loop, 50);
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

/* The bodies of the bot's m.room.message events in room, in order. */
static int
bot_bodies(struct host *h, const char *room, char out[][128], int max, json_t **content_of_last)
{
	json_t *evs = fakemx_events(&h->fake, room), *ev;
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
	json_t *j = fakemx_call(&h->fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
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
	j = fakemx_call(&h->fake, "POST", "/_matrix/client/v3/createRoom", token, body, NULL);
	assert_non_null(j);
	snprintf(room, len, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
}

static void
say(struct host *h, const char *token, const char *room, const char *text)
{
	assert_int_equal(fakemx_say(&h->fake, token, room, text), 0);
}

/* Every bot event in room carries a txn id seen once only. */
static void
assert_txn_unique(struct host *h, const char *room)
{
	json_t *evs = fakemx_events(&h->fake, room), *ev;
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
	json_t *j = fakemx_call(&h->fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
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
	json_t *j = fakemx_call(&h->fake, "GET", "/_fake/rooms", NULL, NULL, NULL);
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

/* ---------------------------------------------------------------- tests */

static void
test_history_replay_restart_and_direct_rooms(void **state)
{
	struct host *h = *state;
	char ann[128], btok[128], room[256], dm[256], dm2[256], b[64][128];
	json_t *content = NULL;
	struct want w;
	int n;

	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
	/* another client of the bot's account has direct rooms of its own */
	fakemx_user(&h->fake, "bot", "botpw", btok, sizeof btok);
	json_decref(fakemx_call(&h->fake, "PUT", "/_matrix/client/v3/user/%40bot%3Ahs/account_data/m.direct", btok,
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
		json_decref(fakemx_call(&h->fake, "POST", "/_fake/replay", NULL, body, NULL));
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
		json_decref(fakemx_call(&h->fake, "POST", path, ann, "{}", NULL));
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
	json_decref(fakemx_call(&h->fake, "POST", "/_fake/fail", NULL, json, NULL));
}

static void
test_every_message_once_in_order_under_faults(void **state)
{
	struct host *h = *state;
	char ann[128], bot[128], room[256], b[64][128], t[32];
	struct want w;

	/* a token instead of a password this time */
	fakemx_user(&h->fake, "bot", "botpw", bot, sizeof bot);
	h->cfg.password[0] = '\0';
	snprintf(h->cfg.token, sizeof h->cfg.token, "%s", bot);
	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
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

	snprintf(h->cfg.allow, sizeof h->cfg.allow, "@ann:hs");
	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->fake, "bob", "x", bob, sizeof bob);
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
		json_decref(fakemx_call(&h->fake, "POST", path, ann, body, NULL));
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

	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, NULL, r1, sizeof r1);
	make_room(h, ann, NULL, r2, sizeof r2);
	client_up(h);
	assert_true(run_until(h, bot_joined, r1, 10000));
	assert_true(run_until(h, bot_joined, r2, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
	/* ann is "Annie" in the second room only (a per-room display name) */
	e = curl_easy_escape(NULL, r2, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/state/m.room.member/%%40ann%%3Ahs", e);
	curl_free(e);
	json_decref(fakemx_call(&h->fake, "PUT", path, ann, "{\"membership\":\"join\",\"displayname\":\"Annie\"}", NULL));
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

/* A fold of turns (parts the core marks ST_SEP) is one message on Matrix:
 * a turn a line, the ping at its end, ann mentioned. */
static void
test_fold_one_message(void **state)
{
	struct host *h = *state;
	char ann[128], room[256], b[8][128];
	json_t *content = NULL;
	struct want w;

	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
	make_room(h, ann, NULL, room, sizeof room);
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
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

/* The bot's ratelimit counter in the fake's requests: "limited" or "early". */
static long
limit_count(struct host *h, const char *what)
{
	json_t *j = fakemx_call(&h->fake, "GET", "/_fake/requests", NULL, NULL, NULL);
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

/* Synapse limits a user's sends and room creations from one allowance: a
 * 429 to either makes the other wait as well, never a request before the
 * retry_after_ms of the last 429 has passed. */
static void
test_rate_limit_shared_by_sends_and_rooms(void **state)
{
	struct host *h = *state;
	char ann[128], bob[128], room[256], broom[256], dm[256];
	struct want w;
	long n;

	fakemx_user(&h->fake, "ann", "x", ann, sizeof ann);
	fakemx_user(&h->fake, "bob", "x", bob, sizeof bob);
	make_room(h, ann, NULL, room, sizeof room);
	make_room(h, bob, NULL, broom, sizeof broom);
	client_up(h);
	assert_true(run_until(h, bot_joined, room, 10000));
	assert_true(run_until(h, bot_joined, broom, 10000));
	assert_true(run_until(h, is_up, NULL, 10000));
	json_decref(fakemx_call(&h->fake, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0.25,\"burst\":3,\"user\":\"@bot:hs\"}", NULL));
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
	w = (struct want){ dm, 1 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	w = (struct want){ room, 4 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	assert_int_equal(limit_count(h, "early"), 0);
	/* a room's creation is refused: the sends wait for it */
	run_for(h, 13000);                      /* the allowance fills again */
	n = limit_count(h, "limited") + 1;
	say(h, bob, broom, "!ping 5");
	say(h, bob, broom, "!ping 6");
	say(h, bob, broom, "!ping 7");
	w = (struct want){ broom, 3 };
	assert_true(run_until(h, has_bot_msgs, &w, 10000));
	say(h, bob, broom, "!hand");
	assert_true(run_until(h, was_limited, &n, 10000));
	say(h, bob, broom, "!ping 8");
	w = (struct want){ broom, 4 };
	assert_true(run_until(h, has_bot_msgs, &w, 30000));
	assert_true(run_until(h, has_direct, "@bob:hs", 30000));
	assert_int_equal(limit_count(h, "early"), 0);
	json_decref(fakemx_call(&h->fake, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0,\"burst\":0}", NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_history_replay_restart_and_direct_rooms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_message_once_in_order_under_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_encryption_allow_list_and_kick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_display_names_per_room, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_limit_shared_by_sends_and_rooms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fold_one_message, setup, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
