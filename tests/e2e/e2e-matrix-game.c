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

/* The contents of the bot's messages in room, in order (caller decrefs). */
static json_t *
bot_msgs(struct fakemx *f, const char *room)
{
	json_t *evs = fakemx_events(f, room), *ev, *out = json_array();
	size_t i;

	json_array_foreach(evs, i, ev)
		if (strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") == 0 &&
		    json_is_string(json_object_get(json_object_get(ev, "content"), "body")))
			json_array_append(out, json_object_get(ev, "content"));
	json_decref(evs);
	if (getenv("HF_VERBOSE") != NULL)
		json_array_foreach(out, i, ev)
			fprintf(stderr, "%s\n", json_dumps(ev, JSON_COMPACT));
	return out;
}

static const char *
body_of(json_t *msgs, size_t i)
{
	return json_string_value(json_object_get(json_array_get(msgs, i), "body"));
}

/* The bot's first message in room containing needle, from index from on
 * (caller decrefs); NULL if none. */
static json_t *
bot_msg(struct fakemx *f, const char *room, const char *needle, size_t from)
{
	json_t *msgs = bot_msgs(f, room), *m = NULL;

	for (size_t i = from; i < json_array_size(msgs) && m == NULL; i++)
		if (strstr(body_of(msgs, i), needle) != NULL)
			m = json_incref(json_array_get(msgs, i));
	json_decref(msgs);
	return m;
}

/* The "NAME: your turn" line pings NAME out of band (m.mentions) and carries HTML. */
static void
check_turn_ping(struct fakemx *f, const char *room)
{
	json_t *m = bot_msg(f, room, ": your turn", 0), *ids;
	const char *body, *at, *start;
	char want[64];

	assert_non_null(m);
	body = json_string_value(json_object_get(m, "body"));
	at = strstr(body, ": your turn");
	for (start = at; start > body && start[-1] != ' '; start--)
		;
	snprintf(want, sizeof want, "@%.*s:hs", (int)(at - start), start);
	ids = json_object_get(json_object_get(m, "m.mentions"), "user_ids");
	assert_int_equal(json_array_size(ids), 1);
	assert_string_equal(json_string_value(json_array_get(ids, 0)), want);
	assert_string_equal(json_string_value(json_object_get(m, "format")), "org.matrix.custom.html");
	/* an m.notice would notify no one (.m.rule.suppress_notices) */
	assert_string_equal(json_string_value(json_object_get(m, "msgtype")), "m.text");
	assert_non_null(strstr(json_string_value(json_object_get(m, "formatted_body")), "href=\"https://matrix.to/#/@"));
	assert_non_null(strstr(json_string_value(json_object_get(m, "formatted_body")), ": your turn"));
	json_decref(m);
}

/* Some formatted_body in room carries the colour markup render.c gives. */
static bool
has_markup(struct fakemx *f, const char *room, const char *font)
{
	json_t *msgs = bot_msgs(f, room), *m;
	bool found = false;
	size_t i;

	json_array_foreach(msgs, i, m) {
		const char *html = json_string_value(json_object_get(m, "formatted_body"));

		if (html != NULL && strstr(html, font) != NULL)
			found = true;
	}
	json_decref(msgs);
	return found;
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

/* Waits until the fake has had n more /sync requests than since (only the
 * daemon syncs here): one asked after a thing happened, and one more, means
 * the answer that carried the thing was read. */
static bool
syncs_past(struct fakemx *f, long since, long n, int ms)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	for (int t = 0; t < ms; t += 50) {
		if (fakemx_requests(f, "sync") >= since + n)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static bool bot_is(struct fakemx *f, const char *room, const char *want);

static void
direct_room(struct fakemx *f, const char *user, char *out, size_t len)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	const char *r = json_string_value(json_array_get(json_object_get(json_object_get(json_object_get(j, "account"),
	                                                                                  "@bot:hs m.direct"), user), 0));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(j);
}

/* How many hands (or feet) token's user can read back in room (GET /messages). */
static int
readable_hands(struct fakemx *f, const char *token, const char *room)
{
	return fakemx_readable(f, token, room, "Your hand") + fakemx_readable(f, token, room, "Your foot");
}

/* Every message the bot sent outside the game room went to a room whose
 * joined members were then exactly the bot and one other (the fake records
 * who was in a room with each event). */
static void
assert_hands_private(struct fakemx *f, const char *game)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL), *r, *ev, *m;
	const char *rid, *who;
	size_t i;

	json_object_foreach(json_object_get(j, "rooms"), rid, r) {
		json_t *evs;

		if (strcmp(rid, game) == 0)
			continue;
		evs = fakemx_events(f, rid);
		json_array_foreach(evs, i, ev) {
			int joined = 0;

			if (strcmp(json_string_value(json_object_get(ev, "sender")), "@bot:hs") != 0 ||
			    json_object_get(ev, "state_key") != NULL)
				continue;
			json_object_foreach(json_object_get(ev, "_members"), who, m)
				joined += strcmp(json_string_value(m), "join") == 0;
			if (joined != 2)
				fail_msg("the bot said \"%.40s\" in %s with %d members in it",
				         json_string_value(json_object_get(json_object_get(ev, "content"), "body")), rid, joined);
		}
		json_decref(evs);
	}
	json_decref(j);
}

static void
start_daemon(const char *conf)
{
	const char *argv[] = { "-c", conf, NULL };

	assert_int_equal(proc_start(&p, argv), 0);
}

/* The daemon's configuration in conf (templates filled in): the bot's
 * password in pw, a fresh database at db, the fake at base. */
static void
write_conf(char *conf, char *pw, char *db, const char *base)
{
	int fd = mkstemp(pw);
	FILE *fp;

	assert_true(write(fd, "s3cret\n", 7) == 7);
	close(fd);
	close(mkstemp(db));
	unlink(db);
	fd = mkstemp(conf);
	fp = fdopen(fd, "w");
	/* 1 s syncs (the least): an idle sync, which syncs_past may wait out, is short */
	fprintf(fp, "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = err\n\n"
	            "[matrix test]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 1\n",
	        db, base, pw);
	fclose(fp);
}

/* The fake started with the bot's account (s3cret; its token in bot, 128
 * bytes) and the first n players (their tokens in tok), and the daemon's
 * configuration written (write_conf); the test skipped without a daemon. */
static void
game_world(struct fakemx *f, char *bot, char (*tok)[128], int n, char *conf, char *pw, char *db)
{
	if (access("build/handfoot", X_OK) != 0 && getenv("HANDFOOT_BUILD") == NULL)
		skip();
	assert_int_equal(fakemx_start(f), 0);
	fakemx_user(f, "bot", "s3cret", bot, 128);
	for (int i = 0; i < n; i++)
		fakemx_user(f, names[i], "x", tok[i], sizeof tok[i]);
	write_conf(conf, pw, db, f->base);
}

/* The daemon stopped (SIGTERM), the fake too, and the files of game_world removed. */
static void
game_world_end(struct fakemx *f, const char *conf, const char *pw, const char *db)
{
	proc_close_input(&p);
	kill(p.pid, SIGTERM);
	proc_end(&p);
	fakemx_stop(f);
	unlink(conf);
	unlink(pw);
	unlink(db);
}

static void
test_four_players_a_restart_and_no_hidden_card(void **state)
{
	struct fakemx f;
	char tok[4][128], bot[128], room[256], conf[] = "/tmp/hf-mx-conf-XXXXXX", pw[] = "/tmp/hf-mx-pw-XXXXXX";
	char db[] = "/tmp/hf-mx-db-XXXXXX", dm[4][256], who[1024], pile[1024], eve[128], own[256];
	int n, ndm[4];
	json_t *before, *after;
	bool dup = false;
	json_t *j;

	(void)state;
	game_world(&f, bot, tok, 4, conf, pw, db);

	/* ann's room, with the bot and three friends */
	j = fakemx_call(&f, "POST", "/_matrix/client/v3/createRoom", tok[0],
	                "{\"invite\":[\"@bot:hs\",\"@bob:hs\",\"@cy:hs\",\"@dee:hs\"]}", NULL);
	snprintf(room, sizeof room, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
	for (int i = 1; i < 4; i++)
		room_call(&f, tok[i], room, "join", "{}");
	fakemx_say(&f, tok[0], room, "!new classic");  /* history: never replayed */
	fakemx_user(&f, "eve", "x", eve, sizeof eve);
	start_daemon(conf);
	/* up, in the room it was invited to, and its timeline (the history) read */
	assert_true(bot_is(&f, room, "join"));
	assert_true(syncs_past(&f, fakemx_requests(&f, "sync"), 2, 15000));
	/* ann opens a direct chat with the bot herself, its history hidden
	 * from later members: the bot takes it for her hands */
	j = fakemx_call(&f, "POST", "/_matrix/client/v3/createRoom", tok[0],
	                "{\"invite\":[\"@bot:hs\"],\"is_direct\":true,\"preset\":\"trusted_private_chat\","
	                "\"initial_state\":[{\"type\":\"m.room.history_visibility\",\"state_key\":\"\","
	                "\"content\":{\"history_visibility\":\"joined\"}}]}", NULL);
	snprintf(own, sizeof own, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
	assert_int_equal(bot_count(&f, room, "", NULL), 0);
	fakemx_say(&f, tok[0], room, "!new classic rounds=1");
	assert_true(wait_for(&f, room, "start", 1, 15000));
	for (int i = 0; i < 4; i++)
		fakemx_say(&f, tok[i], room, "!join");
	assert_true(wait_for(&f, room, "sits down (4 at the table)", 1, 15000));
	fakemx_say(&f, tok[0], room, "!start");
	/* each player's hand arrives in their own direct room */
	for (int i = 0; i < 4; i++) {
		char user[64];
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		snprintf(user, sizeof user, "@%s:hs", names[i]);
		for (int t = 0; t < 100 && (direct_room(&f, user, dm[i], sizeof dm[i]), dm[i][0] == '\0'); t++)
			nanosleep(&ts, NULL);
		assert_string_not_equal(dm[i], "");
		/* the hand waits until its player is in the room (no one else may read it back) */
		room_call(&f, tok[i], dm[i], "join", "{}");
		assert_true(wait_for(&f, dm[i], "Your hand", 1, 15000));
	}
	assert_string_equal(dm[0], own);
	/* the turn ping names the player to move, out of band, with HTML */
	check_turn_ping(&f, room);
	/* ann lets eve into her direct room after hands went there: the bot
	 * drops it at the invite (and leaves), eve reads back none of them, and
	 * ann's hand comes in a room the bot makes, once she accepts it */
	room_call(&f, tok[0], own, "invite", "{\"user_id\":\"@eve:hs\"}");
	{
		char m[32];
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		for (int t = 0; t < 150 && (fakemx_membership(&f, own, "@bot:hs", m, sizeof m), strcmp(m, "join") == 0); t++)
			nanosleep(&ts, NULL);
		assert_string_equal(m, "leave");
	}
	room_call(&f, eve, own, "join", "{}");
	assert_int_equal(readable_hands(&f, eve, own), 0);
	fakemx_say(&f, tok[0], room, "!hand");
	{
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		for (int t = 0; t < 100 && (direct_room(&f, "@ann:hs", dm[0], sizeof dm[0]),
		                            dm[0][0] == '\0' || strcmp(dm[0], own) == 0); t++)
			nanosleep(&ts, NULL);
	}
	assert_string_not_equal(dm[0], own);
	room_call(&f, tok[0], dm[0], "join", "{}");
	assert_true(wait_for(&f, dm[0], "Your hand", 1, 15000));
	/* one move, so that the restart has a mid-turn state to keep: a step of
	 * ann's own turn, answered to her alone (the room hears the turn when it
	 * ends) */
	n = bot_count(&f, room, "", NULL);
	fakemx_say(&f, tok[0], room, "!draw");
	assert_true(wait_for(&f, dm[0], "You drew", 1, 15000));
	/* nothing must follow in the room: a second for a wrong line to show */
	sleep(1);
	assert_int_equal(bot_count(&f, room, "", NULL), n);
	/* the game as the players see it before the restart */
	n = bot_count(&f, room, "", NULL);
	fakemx_say(&f, tok[1], room, "!who");
	assert_true(wait_for(&f, room, "", n + 1, 15000));
	fakemx_say(&f, tok[2], room, "!pile");
	assert_true(wait_for(&f, room, "", n + 2, 15000));
	/* and no third line: a second for one to show */
	sleep(1);
	before = bot_msgs(&f, room);
	n = (int)json_array_size(before);
	/* two askers' answers: in either order */
	snprintf(who, sizeof who, "%s", body_of(before, (size_t)n - (strstr(body_of(before, (size_t)n - 1), "Pile:") ? 2 : 1)));
	snprintf(pile, sizeof pile, "%s", body_of(before, (size_t)n - (strstr(body_of(before, (size_t)n - 1), "Pile:") ? 1 : 2)));
	assert_non_null(strstr(who, "<- to play"));
	assert_non_null(strstr(pile, "Pile:"));
	json_decref(before);
	for (int i = 0; i < 4; i++)
		ndm[i] = bot_count(&f, dm[i], "", NULL);
	/* restart mid-game, with the same two commands said while it is down */
	proc_close_input(&p);
	kill(p.pid, SIGTERM);
	proc_end(&p);
	fakemx_say(&f, tok[1], room, "!who");
	fakemx_say(&f, tok[2], room, "!pile");
	start_daemon(conf);
	assert_true(wait_for(&f, room, "", n + 3, 15000));
	/* nothing more must come (no replay): 3 s give a replayed answer its chance */
	sleep(3);
	/* every command before the restart was answered once: nothing replayed;
	 * the two said while down are answered once each, the state they show
	 * unchanged; and the room is told once where the game stands (a restored
	 * game says so, in case a line was lost), the player to move gets their
	 * hand again, nobody else anything */
	after = bot_msgs(&f, room);
	assert_int_equal(json_array_size(after), n + 3);
	{
		int seen_who = 0, seen_pile = 0, resumed = 0, more = 0;

		for (size_t k = (size_t)n; k < (size_t)n + 3; k++) {
			const char *b = body_of(after, k);

			seen_who += strcmp(b, who) == 0;
			/* the pile as the room was told it: before the restart, the
			 * stock as of the last line told; after it, as the restart's
			 * line tells it (a draw in the turn under way included) */
			seen_pile += strncmp(b, pile, strcspn(pile, "S")) == 0 && strncmp(b, "Pile:", 5) == 0;
			resumed += strstr(b, "Back after a restart") != NULL;
		}
		assert_int_equal(seen_who, 1);
		assert_int_equal(seen_pile, 1);
		assert_int_equal(resumed, 1);
		for (int i = 0; i < 4; i++) {
			int now = bot_count(&f, dm[i], "", NULL);

			assert_true(now == ndm[i] || now == ndm[i] + 1);
			more += now - ndm[i];
		}
		assert_int_equal(more, 1);
	}
	json_decref(after);
	/* everyone hands their seat to the computer and the game runs to its end */
	for (int i = 0; i < 4; i++)
		fakemx_say(&f, tok[i], room, "!auto");
	assert_true(wait_for(&f, room, "Game over", 1, 240000));
	/* a second for a repeated "Game over" (a resent txn) to show */
	sleep(1);
	assert_int_equal(bot_count(&f, room, "Game over", &dup), 1);
	assert_false(dup);
	/* the game room never saw a hand, no room with anyone else in it did,
	 * and eve, in ann's old room, reads none back */
	assert_int_equal(bot_count(&f, room, "Your hand", NULL), 0);
	assert_hands_private(&f, room);
	assert_int_equal(readable_hands(&f, eve, own), 0);
	assert_int_equal(bot_count(&f, room, "Your foot", NULL), 0);
	for (int i = 0; i < 4; i++) {
		dup = false;
		bot_count(&f, dm[i], "", &dup);
		assert_false(dup);
	}
	/* cards and melds in the room carry the colours render.c gives them */
	assert_true(has_markup(&f, room, "<span data-mx-color=\"#cc0000\">"));
	assert_true(has_markup(&f, room, "<span data-mx-color=\"#555555\">"));
	assert_false(has_markup(&f, room, "<font"));
	game_world_end(&f, conf, pw, db);
}

/* A direct chat that token's user opens with the bot, its history hidden
 * from later members (so that the bot may take it for hands). */
static void
own_direct(struct fakemx *f, const char *token, char *out, size_t len)
{
	json_t *j = fakemx_call(f, "POST", "/_matrix/client/v3/createRoom", token,
	                        "{\"invite\":[\"@bot:hs\"],\"is_direct\":true,\"preset\":\"trusted_private_chat\","
	                        "\"initial_state\":[{\"type\":\"m.room.history_visibility\",\"state_key\":\"\","
	                        "\"content\":{\"history_visibility\":\"joined\"}}]}", NULL);

	snprintf(out, len, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
}

/* Waits until the bot's membership of room is want; true if it came. */
static bool
bot_is(struct fakemx *f, const char *room, const char *want)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	char m[32];

	for (int t = 0; t < 150; t++) {
		fakemx_membership(f, room, "@bot:hs", m, sizeof m);
		if (strcmp(m, want) == 0)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* user's direct room once it is another than not; its id in out. */
static void
new_direct_room(struct fakemx *f, const char *user, const char *not, char *out, size_t len)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	for (int t = 0; t < 100 && (direct_room(f, user, out, len), out[0] == '\0' || strcmp(out, not) == 0); t++)
		nanosleep(&ts, NULL);
	assert_string_not_equal(out, "");
	assert_string_not_equal(out, not);
}

/* A third person comes into a player's direct room before the first hand
 * (eve, into ann's) and while a hand waits for it (fay, into bob's, whose
 * first send the server answers with a long 429): the bot drops each room
 * at the invite, the hands go to rooms it makes, and no hand ever reaches a
 * room with anyone else in it, nor can the newcomers read one back. (The
 * case "after a hand" is in the test above.) */
static void
test_third_person_before_and_while_a_hand_waits(void **state)
{
	struct fakemx f;
	char tok[2][128], bot[128], eve[128], fay[128], room[256], own[2][256], dm[2][256], body[512], pat[300];
	char conf[] = "/tmp/hf-mx-conf-XXXXXX", pw[] = "/tmp/hf-mx-pw-XXXXXX", db[] = "/tmp/hf-mx-db-XXXXXX";
	json_t *j;
	size_t o = 0;

	(void)state;
	game_world(&f, bot, tok, 2, conf, pw, db);
	fakemx_user(&f, "eve", "x", eve, sizeof eve);
	fakemx_user(&f, "fay", "x", fay, sizeof fay);
	j = fakemx_call(&f, "POST", "/_matrix/client/v3/createRoom", tok[0], "{\"invite\":[\"@bot:hs\",\"@bob:hs\"]}",
	                NULL);
	snprintf(room, sizeof room, "%s", json_string_value(json_object_get(j, "room_id")));
	json_decref(j);
	room_call(&f, tok[1], room, "join", "{}");
	start_daemon(conf);
	assert_true(bot_is(&f, room, "join"));
	/* each player's own direct chat, taken by the bot */
	for (int i = 0; i < 2; i++) {
		own_direct(&f, tok[i], own[i], sizeof own[i]);
		assert_true(bot_is(&f, own[i], "join"));
	}
	/* before: eve comes into ann's room before any hand was dealt */
	room_call(&f, tok[0], own[0], "invite", "{\"user_id\":\"@eve:hs\"}");
	assert_true(bot_is(&f, own[0], "leave"));
	room_call(&f, eve, own[0], "join", "{}");
	/* while queued: the first send to bob's room gets a 429 that makes the
	 * account wait 8 s (the room id as the adapter writes it in the path) */
	for (const char *c = own[1]; *c != '\0' && o + 4 < sizeof pat; c++)
		o += (size_t)snprintf(pat + o, sizeof pat - o, *c == '!' ? "%%21" : *c == ':' ? "%%3A" : "%c", *c);
	snprintf(body, sizeof body, "{\"method\":\"PUT\",\"path\":\"/rooms/%s/send/\",\"status\":429,"
	         "\"retry_after_ms\":8000,\"count\":1}", pat);
	json_decref(fakemx_call(&f, "POST", "/_fake/fail", NULL, body, NULL));
	fakemx_say(&f, tok[0], room, "!new duel rounds=1");
	assert_true(wait_for(&f, room, "start", 1, 15000));
	for (int i = 0; i < 2; i++)
		fakemx_say(&f, tok[i], room, "!join");
	assert_true(wait_for(&f, room, "sits down (2 at the table)", 1, 15000));
	fakemx_say(&f, tok[0], room, "!start");
	/* the deal, and bob's hand tried (refused) or still queued: the 429 holds
	 * the account 8 s, so no message marks this moment; 2 s let the deal run */
	sleep(2);
	/* bob's hand is waiting (refused once, or not yet sent): fay comes in */
	assert_int_equal(bot_count(&f, own[1], "Your hand", NULL), 0);
	room_call(&f, tok[1], own[1], "invite", "{\"user_id\":\"@fay:hs\"}");
	assert_true(bot_is(&f, own[1], "leave"));
	room_call(&f, fay, own[1], "join", "{}");
	/* each hand comes in a room the bot makes, once its player is in it */
	for (int i = 0; i < 2; i++) {
		char user[64];

		snprintf(user, sizeof user, "@%s:hs", names[i]);
		new_direct_room(&f, user, own[i], dm[i], sizeof dm[i]);
		room_call(&f, tok[i], dm[i], "join", "{}");
		assert_true(wait_for(&f, dm[i], "Your hand", 1, 30000));
	}
	for (int i = 0; i < 2; i++)
		fakemx_say(&f, tok[i], room, "!auto");
	assert_true(wait_for(&f, room, "Game over", 1, 240000));
	/* a second for any last hand still on its way to land where it would */
	sleep(1);
	assert_hands_private(&f, room);
	for (int i = 0; i < 2; i++)
		assert_int_equal(bot_count(&f, own[i], "Your", NULL), 0);
	assert_int_equal(readable_hands(&f, eve, own[0]), 0);
	assert_int_equal(readable_hands(&f, fay, own[1]), 0);
	assert_int_equal(bot_count(&f, room, "Your hand", NULL), 0);
	game_world_end(&f, conf, pw, db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_players_a_restart_and_no_hidden_card),
		cmocka_unit_test(test_third_person_before_and_while_a_hand_waits),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
