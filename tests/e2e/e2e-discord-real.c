/* e2e-discord-real.c: the daemon against the fake Discord as strict as the real service: the Identify budget, dead tokens, lost permissions, closed DMs, stale presses, shards. */
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

#include "dcplay.h"

#define QUICK "classic rounds=1 decks=1 hand=5 foot=5"

/* Entries of the fake's identify_log from index from on, and how many of them had outcome. */
static size_t
identifies(struct dcplay *p, size_t from, const char *outcome, size_t *with)
{
	json_t *s = dcplay_state(p), *log = json_object_get(s, "identify_log"), *e;
	size_t n = json_array_size(log), i;

	*with = 0;
	json_array_foreach(log, i, e)
		if (i >= from && outcome != NULL &&
		    strcmp(json_string_value(json_object_get(e, "outcome")) ?: "", outcome) == 0)
			(*with)++;
	json_decref(s);
	return n > from ? n - from : 0;
}

static json_int_t
state_int(struct dcplay *p, const char *key)
{
	json_t *s = dcplay_state(p);
	json_int_t v = json_is_array(json_object_get(s, key)) ? (json_int_t)json_array_size(json_object_get(s, key))
	                                                       : json_integer_value(json_object_get(s, key));

	json_decref(s);
	return v;
}

static bool
wait_log(struct dcplay *p, const char *needle, int ms)
{
	for (int t = 0; t <= ms; t += 100) {
		if (e2e_daemon_log_has(&p->d, needle))
			return true;
		usleep(100 * 1000);
	}
	return false;
}

/* The fake's clock (s) at the last heartbeat it had, on any link. */
static double
last_heartbeat(struct dcplay *p)
{
	json_t *s = dcplay_state(p), *c, *h;
	size_t i, k;
	double t = 0;

	json_array_foreach(json_object_get(s, "connections"), i, c)
		json_array_foreach(json_object_get(c, "heartbeats"), k, h)
			if (json_number_value(json_object_get(h, "t")) > t)
				t = json_number_value(json_object_get(h, "t"));
	json_decref(s);
	return t;
}

/* Waits for a heartbeat at the fake's clock t or later. */
static bool
heartbeat_after(struct dcplay *p, double t, int ms)
{
	for (int w = 0; w <= ms; w += 200) {
		if (last_heartbeat(p) >= t)
			return true;
		e2e_sleep_ms(200);
	}
	return false;
}

/* A slash command answered in time: the bot is up and the game still there. */
static void
still_playing(struct dcplay *p, int i, int ms)
{
	const char *id = NULL;
	json_t *m;

	/* the interaction reaches the bot only once its session is up */
	for (int t = 0; t <= ms && id == NULL; t += 200) {
		json_t *s = dcplay_state(p), *sess;
		const char *k;
		bool live = false;

		json_object_foreach(json_object_get(s, "sessions"), k, sess)
			live |= json_is_true(json_object_get(sess, "live")) && !json_is_true(json_object_get(sess, "invalid"));
		json_decref(s);
		if (live)
			id = dcplay_command(p, i, "hand", NULL);
		else
			usleep(200 * 1000);
	}
	assert_non_null(id);
	assert_non_null(m = dcplay_reply(p, id, "Your hand", 10000));
	json_decref(m);
}

/* ------------------------------------------------------------------ the Identify budget */

/* An outage past the READY deadline (Discord answers heartbeats, READY never comes) with one
 * Identify left: the daemon keeps the link instead of identifying again,
 * never goes past the budget (Discord would reset the token), and is up as
 * soon as Discord issues the session. */
static void
test_outage_keeps_the_link_within_the_budget(void **state)
{
	struct dcplay *p;
	json_t *turn;
	size_t before, n, past;
	int who;

	p = dcplay_setup_state(state, "dc-outage", 4, NULL, NULL);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"heartbeat_interval\":1000}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	before = identifies(p, 0, NULL, &past);

	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"outage\":true,\"start_remaining\":1,"
	                            "\"start_reset_after_ms\":3600000}"), 0);
	/* the session ends: a new one is needed, in the middle of the outage */
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"close\",\"code\":4009}"), 0);
	/* the daemon's own timers, not shortened for tests: READY is awaited
	 * DISCORD_GW_READY_TIMEOUT (30 s) after the Identify; then the link is
	 * kept, and looked at again one heartbeat and DISCORD_GW_PROBE_TIMEOUT
	 * (11 s) later: that second look has its chance too */
	assert_int_equal(e2e_daemon_wait_log(&p->d, "READY is late", 60000), 0);
	assert_true(heartbeat_after(p, last_heartbeat(p) + 12.0, 30000));
	n = identifies(p, before, "past the budget", &past);
	assert_true(n >= 1);
	assert_true(n <= 3);
	assert_int_equal(past, 0);
	assert_int_equal(state_int(p, "token_resets"), 0);
	assert_true(e2e_daemon_log_has(&p->d, "READY is late"));

	/* Discord recovers: the kept link gets its session, no Identify more */
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"outage\":false}"), 0);
	still_playing(p, who, 10000);
	assert_int_equal(identifies(p, before, "past the budget", &past), n + 1 /* the late READY */);
	dcplay_end(p);
}

/* No Identify left: the daemon says until when it waits, and identifies once the budget is reset. */
static void
test_spent_budget_waits_for_the_reset(void **state)
{
	struct dcplay *p;
	json_t *turn;
	size_t before, n, past;
	int who;

	p = dcplay_setup_state(state, "dc-budget", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	before = identifies(p, 0, NULL, &past);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"start_remaining\":0,\"start_reset_after_ms\":8000}"), 0);
	assert_int_equal(fakedc_ctl(&p->f, "gateway", "{\"action\":\"close\",\"code\":4009}"), 0);
	assert_true(wait_log(p, "Identify budget is spent", 10000));
	assert_true(e2e_daemon_log_has(&p->d, "waiting until"));
	still_playing(p, who, 30000);
	n = identifies(p, before, "past the budget", &past);
	assert_int_equal(past, 0);
	assert_int_equal(n, 1);
	assert_int_equal(state_int(p, "token_resets"), 0);
	dcplay_end(p);
}

/* ------------------------------------------------------------------ a dead token */

/* Requests the fake had from index from on, and how many of them it refused with 401. */
static size_t
requests_since(struct dcplay *p, size_t from, size_t *unauthorized)
{
	json_t *s = dcplay_state(p), *reqs = json_object_get(s, "requests"), *r;
	size_t n = json_array_size(reqs), i;

	*unauthorized = 0;
	json_array_foreach(reqs, i, r)
		if (i >= from && json_integer_value(json_object_get(r, "status")) == 401)
			(*unauthorized)++;
	json_decref(s);
	return n > from ? n - from : 0;
}

/* The token is reset while the computer plays a game out (each of its turns
 * a line to post): at most 3 requests follow, the log says once what to do,
 * and the daemon does not reconnect. */
static void
test_token_reset_stops_every_request(void **state)
{
	struct dcplay *p;
	json_t *turn;
	size_t from, n, unauth;
	int who;

	p = dcplay_setup_state(state, "dc-token", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, "classic", &who));
	json_decref(turn);
	assert_int_equal(dcplay_auto_all(p), 0);
	from = requests_since(p, 0, &unauth);
	assert_int_equal(fakedc_ctl(&p->f, "token_reset", "{\"token\":\"MTAwMDAwMDAwMDAwMDAwMDAw.new.token\"}"), 0);
	/* the adapter reports itself down once its link has not come back for
	 * DISCORD_DOWN_GRACE_MS (5 s, its own timer): the computer's turns go on
	 * meanwhile, and a reconnect or request it should not make would be made */
	assert_int_equal(e2e_daemon_wait_log(&p->d, "down, reconnecting", 20000), 0);
	n = requests_since(p, from, &unauth);
	if (n > 3)
		fprintf(stderr, "%zu requests after the token reset, %zu refused\n", n, unauth);
	assert_true(n <= 3);
	assert_true(e2e_daemon_log_has(&p->d, "systemctl reload"));
	/* no reconnect with a refused token: the fake counts one as a violation */
	assert_int_equal(fakedc_violations(&p->f, true), 0);

	/* what the log says to do: the new token in token_file, then a reload
	 * (SIGHUP): the same section, but the adapter asks to start again */
	{
		char path[400];

		snprintf(path, sizeof path, "%s/token", p->dir);
		e2e_secret_note("MTAwMDAwMDAwMDAwMDAwMDAw.new.token");
		assert_int_equal(e2e_write_file(path, "MTAwMDAwMDAwMDAwMDAwMDAw.new.token\n"), 0);
	}
	{
		json_t *st = dcplay_state(p);
		size_t before = json_array_size(json_object_get(st, "connections")), after = before;

		json_decref(st);
		e2e_daemon_signal(&p->d, SIGHUP);
		assert_int_equal(e2e_daemon_wait_log(&p->d, "starting it again, as it asks", 10000), 0);
		/* a new Gateway link that identifies (the fake refuses the old token) */
		for (int t = 0; t < 150 && after == before; t++) {
			e2e_sleep_ms(100);
			st = dcplay_state(p);
			after = json_array_size(json_object_get(st, "connections"));
			json_decref(st);
		}
		assert_true(after > before);
	}
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* ------------------------------------------------------------------ permissions */

#define DENIED  "100000000000000003"   /* a channel whose @everyone overwrite denies SEND_MESSAGES */
#define THREAD  "100000000000000004"   /* a public thread of the table's channel */

/* A slash command in another channel of the guild. */
static const char *
command_in(struct dcplay *p, const char *channel, int i, const char *name, const char *opts)
{
	char keep[sizeof p->channel];
	const char *id;

	snprintf(keep, sizeof keep, "%s", p->channel);
	snprintf(p->channel, sizeof p->channel, "%s", channel);
	id = dcplay_command(p, i, name, opts);
	snprintf(p->channel, sizeof p->channel, "%s", keep);
	return id;
}

static size_t
count_in(struct dcplay *p, const char *channel, const char *via)
{
	json_t *s = dcplay_state(p), *m;
	size_t i, n = 0;

	json_array_foreach(json_object_get(s, "messages"), i, m)
		n += strcmp(json_string_value(json_object_get(m, "channel_id")), channel) == 0 &&
		     (via == NULL || strcmp(json_string_value(json_object_get(m, "via")), via) == 0);
	json_decref(s);
	return n;
}

/* The invalid requests (401, 403, 429) the fake counted whose key ("status", "code") is value. */
static size_t
invalid_with(struct dcplay *p, const char *key, long value)
{
	json_t *s = dcplay_state(p), *r;
	size_t i, n = 0;

	json_array_foreach(json_object_get(s, "invalid_requests"), i, r)
		n += json_integer_value(json_object_get(r, key)) == value;
	json_decref(s);
	return n;
}

/* The bot is invited with the old permissions=3072 (no Send Messages in
 * Threads) and a channel denies it Send Messages: a table is refused at /new
 * and /play there, in a sentence naming the permission; nothing is posted and
 * no 403 is spent. A table's channel that later takes the permission away:
 * one 403, the owner is told privately, nothing more is posted there. */
static void
test_tables_only_where_the_bot_may_post(void **state)
{
	struct dcplay *p;
	const char *id;
	json_t *m, *turn;
	int who;

	p = dcplay_setup_state(state, "dc-perms", 4, NULL, NULL);
	assert_int_equal(fakedc_ctl(&p->f, "guild", "{\"id\":\"%s\",\"bot_permissions\":\"3072\",\"channels\":["
	                            "{\"id\":\"" DENIED "\",\"name\":\"quiet\",\"permission_overwrites\":[{\"id\":"
	                            "\"%s\",\"type\":0,\"allow\":\"0\",\"deny\":\"2048\"}]},{\"id\":\"" THREAD "\","
	                            "\"name\":\"side game\",\"type\":11,\"parent_id\":\"%s\"}]}", p->guild, p->guild,
	                            p->channel), 0);
	assert_int_equal(dcplay_start(p), 0);

	assert_non_null(id = command_in(p, DENIED, 0, "new", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Send Messages", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	assert_non_null(id = command_in(p, THREAD, 1, "play", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Send Messages in Threads", 10000));
	json_decref(m);
	/* and no table: a join finds none */
	assert_non_null(id = command_in(p, DENIED, 1, "join", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Send Messages", 10000));
	json_decref(m);
	assert_int_equal(count_in(p, DENIED, "channel"), 0);
	assert_int_equal(count_in(p, THREAD, "channel"), 0);
	assert_int_equal(invalid_with(p, "status", 403), 0);

	/* a table in the channel that allows it; then the permission is taken away */
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_int_equal(fakedc_ctl(&p->f, "guild", "{\"id\":\"%s\",\"channels\":[{\"id\":\"%s\",\"name\":\"cards\","
	                            "\"permission_overwrites\":[{\"id\":\"%s\",\"type\":0,\"allow\":\"0\","
	                            "\"deny\":\"2048\"}]}]}", p->guild, p->channel, p->guild), 0);
	assert_int_equal(dcplay_auto_all(p), 0);
	/* the owner (Ann) hears of it in a DM */
	assert_non_null(m = dcplay_wait(p, 0, "cannot be followed", NULL, NULL, 20000));
	assert_true(json_is_true(json_object_get(m, "dm")));
	json_decref(m);
	/* the computer plays the game out after the 403: every line it makes is
	 * past it; once the daemon has stopped, nothing more can be posted */
	assert_int_equal(e2e_daemon_wait_log(&p->d, "game 1 over", 30000), 0);
	dcplay_end(p);
	assert_int_equal(invalid_with(p, "status", 403), 1);
}

/* ------------------------------------------------------------------ closed DMs */

static size_t
public_with(struct dcplay *p, const char *needle)
{
	json_t *s = dcplay_state(p), *m;
	size_t i, n = 0;

	json_array_foreach(json_object_get(s, "messages"), i, m)
		n += dcplay_public(m, NULL) && strstr(json_string_value(json_object_get(m, "content")), needle) != NULL;
	json_decref(s);
	return n;
}

/* Dee's DMs are closed to the bot, and what she types is answered in a DM
 * (message_commands): a game's worth of her private answers costs one 403
 * (50007), she is told once why and how to get DMs back, and her answers
 * stay behind the room's My hand button. */
static void
test_closed_dm_hit_once(void **state)
{
	struct dcplay *p;
	static const char *const typed[] = { "!hand", "!help", "!rules", "!score", "!hand" };
	json_t *turn, *m;
	int who;

	p = dcplay_setup_state(state, "dc-closed", 4, NULL, "private = dm\nmessage_commands = yes");
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"privileged\":[15]}"), 0);
	assert_int_equal(fakedc_ctl(&p->f, "user", "{\"id\":\"%s\",\"dm_open\":false}", p->user[3]), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_non_null(m = dcplay_wait(p, 0, "cannot send you direct messages", dcplay_public, NULL, 10000));
	json_decref(m);
	for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) {
		size_t from = dcplay_count(p);

		assert_int_equal(dcplay_say(p, 3, typed[i]), 0);
		/* each is answered in the channel ("on its way privately", "press My
		 * hand"), after any DM the bot would have tried for it */
		assert_non_null(m = dcplay_wait(p, from, "", dcplay_public, NULL, 10000));
		json_decref(m);
	}
	assert_int_equal(invalid_with(p, "code", 50007), 1);
	assert_int_equal(public_with(p, "cannot send you direct messages"), 1);
	dcplay_end(p);
}

/* ------------------------------------------------------------------ stale and replayed presses */

/* A Draw press replayed 5 s late is not acted on (the player's fresh press
 * still draws); once the turn has moved on, the old line's Draw is refused
 * privately and the player to move is not disturbed. */
static void
test_stale_and_replayed_presses_change_nothing(void **state)
{
	struct dcplay *p;
	json_t *turn, *turn2, *m;
	const char *id;
	char mid[32], draw[128], card[16], opts[64], old[32];
	int who, next;
	size_t from;

	p = dcplay_setup_state(state, "dc-stale", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn, "id")));
	snprintf(draw, sizeof draw, "%s", dcplay_button(turn, "Draw"));
	json_decref(turn);

	/* replayed 5 s late: nothing happens (nor can it be answered) */
	assert_non_null(id = dcplay_press_late(p, who, mid, draw, 5000));
	snprintf(old, sizeof old, "%s", id);
	/* the daemon's word that it let the press go (dcplay_unanswered below
	 * checks at the end that it was never answered) */
	assert_int_equal(e2e_daemon_wait_log(&p->d, "too old to answer", 10000), 0);
	assert_true(dcplay_acked(p, old, 0) < 0);

	/* the player's own press now: they draw (had the replay acted, they would have drawn already) */
	assert_non_null(id = dcplay_press(p, who, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "You drew ", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	dcplay_first_card(json_string_value(json_object_get(m, "content")), card, sizeof card);
	json_decref(m);
	/* answered with UPDATE_MESSAGE: the turn line's moves went away, My hand stayed */
	{
		json_t *st = dcplay_state(p), *msg;
		size_t i;
		bool seen = false;

		json_array_foreach(json_object_get(st, "messages"), i, msg)
			if (strcmp(json_string_value(json_object_get(msg, "id")), mid) == 0) {
				seen = true;
				assert_null(dcplay_button(msg, "Draw"));
				assert_non_null(dcplay_button(msg, "My hand"));
			}
		assert_true(seen);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
		                 json_object_get(st, "interactions"), id), "ack"), "type")), 7);
		json_decref(st);
	}
	from = dcplay_count(p);
	snprintf(opts, sizeof opts, "{\"card\":\"%s\"}", card);
	assert_non_null(id = dcplay_command(p, who, "discard", opts));
	assert_non_null(m = dcplay_reply(p, id, "discarded", 10000));
	json_decref(m);
	assert_non_null(turn2 = dcplay_turn_line(p, from, &next, 15000));
	assert_int_not_equal(next, who);
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn2, "id")));
	snprintf(draw, sizeof draw, "%s", dcplay_button(turn2, "Draw"));
	json_decref(turn2);

	/* the next player moves with slash commands: their turn line keeps its buttons */
	assert_non_null(id = dcplay_command(p, next, "draw", NULL));
	assert_non_null(m = dcplay_reply(p, id, "You drew ", 10000));
	dcplay_first_card(json_string_value(json_object_get(m, "content")), card, sizeof card);
	json_decref(m);
	from = dcplay_count(p);
	snprintf(opts, sizeof opts, "{\"card\":\"%s\"}", card);
	assert_non_null(id = dcplay_command(p, next, "discard", opts));
	assert_non_null(m = dcplay_reply(p, id, "discarded", 10000));
	json_decref(m);
	assert_non_null(turn2 = dcplay_turn_line(p, from, &who, 15000));
	json_decref(turn2);

	/* that line's Draw, pressed now: stale, refused privately; the turn now is untouched */
	from = dcplay_count(p);
	assert_non_null(id = dcplay_press(p, next, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "earlier turn", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	assert_null(dcplay_wait(p, from, "", dcplay_public, NULL, 1000));

	assert_int_equal(dcplay_audit(p), 0);
	assert_int_equal(dcplay_unanswered(p), 1);   /* the replay, too old to answer */
	assert_int_equal(dcplay_refused(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* ------------------------------------------------------------------ invalid requests */

/* rate-limits.mdx: 10,000 invalid requests (401, 403, 429 but "shared") in 10
 * minutes ban the IP. A whole game, its turns and hands, DMs closed to one
 * player and a channel that refuses the bot beside it, stays far under. */
static void
test_a_whole_game_costs_few_invalid_requests(void **state)
{
	struct dcplay *p;
	json_t *turn, *m;
	const char *id;
	int who;

	p = dcplay_setup_state(state, "dc-invalid", 4, NULL, "private = dm");
	assert_int_equal(fakedc_ctl(&p->f, "user", "{\"id\":\"%s\",\"dm_open\":false}", p->user[2]), 0);
	assert_int_equal(fakedc_ctl(&p->f, "guild", "{\"id\":\"%s\",\"channels\":[{\"id\":\"" DENIED "\",\"name\":"
	                            "\"quiet\",\"permission_overwrites\":[{\"id\":\"%s\",\"type\":0,\"allow\":\"0\","
	                            "\"deny\":\"2048\"}]}]}", p->guild, p->guild), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(id = command_in(p, DENIED, 3, "new", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Send Messages", 10000));
	json_decref(m);
	assert_non_null(turn = dcplay_deal(p, "classic rounds=2", &who));
	json_decref(turn);
	assert_int_equal(dcplay_auto_all(p), 0);
	assert_non_null(m = dcplay_wait(p, 0, "Game over", dcplay_public, NULL, 240000));
	json_decref(m);
	/* counted once the daemon has stopped: nothing it still had to send is missed */
	dcplay_end(p);
	{
		size_t n = (size_t)state_int(p, "invalid_requests");

		fprintf(stderr, "invalid requests in a whole game: %zu\n", n);
		assert_true(n < 20);
	}
}

/* ------------------------------------------------------------------ shards */

#define GUILD2   "100000000004194305"   /* (id >> 22) % 2 == 1: shard 1 of 2 (dcplay's guild is shard 0's) */
#define CHANNEL2 "100000000004194306"

/* Identifys per shard [id, count] that got a session. */
static int
shard_sessions(struct dcplay *p, int id, int count)
{
	json_t *s = dcplay_state(p), *e;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(s, "identify_log"), i, e) {
		json_t *sh = json_object_get(e, "shard");

		n += strcmp(json_string_value(json_object_get(e, "outcome")), "ready") == 0 &&
		     json_integer_value(json_array_get(sh, 0)) == id && json_integer_value(json_array_get(sh, 1)) == count;
	}
	json_decref(s);
	return n;
}

/* The bot is in 2,600 guilds (Discord requires 2 shards past 2,500):
 * with shards = 2 both identify, a game is played in a guild of each. */
static void
test_two_shards_play_in_a_guild_of_each(void **state)
{
	struct dcplay *p;
	char members[1024];
	size_t n = 0, from;
	json_t *turn;
	int who;

	p = dcplay_setup_state(state, "dc-shards", 5, NULL, "shards = 2\nguilds = 100000000000000001 " GUILD2);
	for (int i = 0; i < p->nusers; i++)
		n += (size_t)snprintf(members + n, sizeof members - n, "%s{\"id\":\"%s\",\"username\":\"u%d\"}",
		                      i ? "," : "", p->user[i], i);
	assert_int_equal(fakedc_ctl(&p->f, "guild", "{\"id\":\"" GUILD2 "\",\"name\":\"second\",\"channels\":[{\"id\":"
	                            "\"" CHANNEL2 "\",\"name\":\"cards\"}],\"members\":[%s]}", members), 0);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"guild_count\":2600}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	/* four players at a table in shard 0's guild */
	p->nusers = 4;
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	p->nusers = 5;
	/* the fifth plays against the computer in shard 1's guild */
	snprintf(p->guild, sizeof p->guild, "%s", GUILD2);
	snprintf(p->channel, sizeof p->channel, "%s", CHANNEL2);
	from = dcplay_count(p);
	/* shard 1 identifies 5 s after shard 0 (max_concurrency 1: one a 5 s) */
	for (int t = 0; t < 200 && shard_sessions(p, 1, 2) == 0; t++)
		usleep(100 * 1000);
	assert_non_null(dcplay_command(p, 4, "play", NULL));
	assert_non_null(turn = dcplay_wait(p, from, "", dcplay_public, NULL, 15000));
	assert_string_equal(json_string_value(json_object_get(turn, "channel_id")), CHANNEL2);
	json_decref(turn);
	assert_int_equal(shard_sessions(p, 0, 2), 1);
	assert_int_equal(shard_sessions(p, 1, 2), 1);
	dcplay_end(p);
}

/* shards = 1 with 2,600 guilds: Discord closes with 4011; the bot says what to set and does not reconnect. */
static void
test_sharding_required_is_said(void **state)
{
	struct dcplay *p;

	p = dcplay_setup_state(state, "dc-4011", 1, NULL, "shards = 1");
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"guild_count\":2600}"), 0);
	assert_int_equal(e2e_daemon_start(&p->d, p->tag, p->conf, NULL), 0);
	p->daemon_up = true;
	assert_true(wait_log(p, "set shards = auto", 10000));
	/* nothing happens, by design: a reconnect would come after the gateway's
	 * backoff for a failed connection (about 1 s), so 2 s give it its chance */
	sleep(2);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

/* shards = auto, and the count Discord gave is stale (the bot grew past
 * 2,500 guilds since): 4011, the count asked again, the shards it says
 * identify, and the game goes on. */
static void
test_auto_shards_start_over_after_4011(void **state)
{
	struct dcplay *p;
	json_t *turn;
	int who;

	p = dcplay_setup_state(state, "dc-reshard", 4, NULL, NULL);
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"guild_count\":2600,\"recommend_shards_once\":1}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_true(e2e_daemon_log_has(&p->d, "asking Discord's count again"));
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	assert_int_equal(shard_sessions(p, 0, 3), 1);
	dcplay_end(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tables_only_where_the_bot_may_post, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_two_shards_play_in_a_guild_of_each, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_sharding_required_is_said, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_auto_shards_start_over_after_4011, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_a_whole_game_costs_few_invalid_requests, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_stale_and_replayed_presses_change_nothing, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_closed_dm_hit_once, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_token_reset_stops_every_request, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_spent_budget_waits_for_the_reset, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_outage_keeps_the_link_within_the_budget, dcplay_teardown_state),
	};

	/* HF_TEST_FILTER=test_token*: one test (the outage one takes some 45 s) */
	if (getenv("HF_TEST_FILTER") != NULL)
		cmocka_set_test_filter(getenv("HF_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
