/* test-replay.c: a finished game's replay frames (bot/replay.c): one per stored move after the deal, each the spectator's view the room saw at that moment with the lines that step told; a room's finished games listed, never an aborted one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "adapter.h"
#include "daemon.h"
#include "fake.h"

/* Every public view the live table was drawn with, from a drawing adapter. */
static char *live[4096];
static size_t nlive;
static int64_t ended_seen;
static bool finished_seen, over_seen;

static void
rec_view(struct adapter *a, const struct adapter_view *v)
{
	(void)a;
	if (v->over) {
		over_seen = true;
		finished_seen = v->finished;
		ended_seen = v->ended;
	}
	if (v->seat == -1 && nlive < sizeof live / sizeof live[0])
		live[nlive++] = strdup(v->json);
}

static int
rec_link(struct adapter *a, int64_t table, int seat, bool renew, char *url, size_t len)
{
	(void)a, (void)renew;
	snprintf(url, len, "https://cards.test/t/%lld-%d", (long long)table, seat);
	return 0;
}

static int
rec_room_link(struct adapter *a, const char *adapter_id, const char *room, char *url, size_t len)
{
	(void)a;
	snprintf(url, len, "https://cards.test/t/room-%s-%s", adapter_id, room);
	return 0;
}

static const struct adapter_ops rec_ops = {
	.type = "rec", FAKE_QUIET_CALLS,
	.view = rec_view, .link = rec_link, .room_link = rec_room_link,
};

static void
live_free(void)
{
	while (nlive > 0)
		free(live[--nlive]);
	over_seen = finished_seen = false;
	ended_seen = 0;
}

/* The part of a view that is the table at one moment: from "round" to the story (names, counts,
 * melds, pile, scores), the same whoever is told it and whenever; but whether a seat is away
 * now, which a replay does not know (the computer played ann's seat: !auto). */
static char *
moment(const char *view)
{
	const char *a = strstr(view, "\"round\":"), *b = strstr(view, ",\"story\":");
	char *m, *p;

	assert_non_null(a);
	assert_non_null(b);
	m = strndup(a, (size_t)(b - a));
	while ((p = strstr(m, "\"away\":true")) != NULL)
		memcpy(p, "\"away\":fals", 12), memmove(p + 12, p + 11, strlen(p + 11) + 1), p[11] = 'e';
	return m;
}

/* A whole game of ann against the computer in room, played by the computer: its id. */
static int64_t
play_game(struct fake *f, const char *room)
{
	struct session *s;
	int64_t id;

	fake_say(f, room, "ann", "!play 2 duel rounds=1");
	s = fake_session(f, room);
	assert_non_null(s);
	id = s->id;
	fake_say(f, room, "ann", "!auto");
	assert_true(fake_play_out(f, room, 200000));
	assert_null(fake_session(f, room));
	return id;
}

static void
test_frames_are_the_rooms_views_move_by_move(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	struct store_replayed *r = calloc(1, sizeof *r);
	struct rbuf json = { 0 };
	char err[256], why[160];
	json_t *o, *frames;
	json_error_t e;
	size_t i, k, matched = 0, lines = 0;
	struct timespec t0, t1;
	int64_t id;

	(void)state;
	assert_non_null(bot_adapter_add(f->bot, &rec_ops, "rec", NULL, err, sizeof err));
	id = play_game(f, "#r");
	/* the last view says the game was played to its end, and when (the bot's clock) */
	assert_true(over_seen);
	assert_true(finished_seen);
	assert_int_equal(ended_seen, fake_wall(f) / 1000);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(replay_json(f->bot->store, id, "!", &json, r, why, sizeof why), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	o = json_loads(json.s, 0, &e);
	assert_non_null(o);
	frames = json_object_get(o, "frames");
	/* the deal, then one frame per stored move */
	assert_int_equal(json_array_size(frames), json_integer_value(json_object_get(o, "moves")) + 1);
	assert_true(json_array_size(frames) > 20);
	assert_int_equal(json_integer_value(json_object_get(o, "table")), id);
	assert_string_equal(r->g.adapter, "fake");
	assert_string_equal(r->room, "#r");
	assert_int_equal(r->ended, fake_wall(f) / 1000);
	for (i = 0; i < json_array_size(frames); i++) {
		json_t *fr = json_array_get(frames, i);
		char *text = json_dumps(fr, JSON_COMPACT | JSON_PRESERVE_ORDER);

		/* a spectator's view: never a hand, a foot's cards, nor anything a seat may do */
		assert_int_equal(json_integer_value(json_object_get(fr, "seat")), -1);
		assert_null(json_object_get(fr, "hand"));
		assert_null(json_object_get(fr, "may"));
		assert_null(json_object_get(fr, "foot_waiting"));
		lines += json_array_size(json_object_get(json_object_get(fr, "story"), "lines"));
		free(text);
	}
	/* the last is the game's end */
	assert_string_equal(json_string_value(json_object_get(json_array_get(frames, json_array_size(frames) - 1),
	                                                      "phase")), "over");
	/* each step tells what happened: the lines are the room's play-by-play */
	assert_true(lines >= json_array_size(frames) - 1);
	assert_non_null(strstr(json.s, "discarded") != NULL ? strstr(json.s, "discarded") : strstr(json.s, "discards"));
	/* every view the live table was drawn with is a frame of the replay (the same moment) */
	for (k = 0; k < nlive; k++) {
		char *want = moment(live[k]);

		/* the replay's text holds it whole, up to its story */
		if (strstr(json.s, want) == NULL)
			fail_msg("a live view is no frame of the replay: %s", want);
		matched++;
		free(want);
	}
	assert_true(matched > 0);
	/* a figure, never asserted: what one request costs the loop */
	print_message("%zu frames, %zu story lines, %zu bytes, built in %.1f ms; %zu live views all found\n",
	              json_array_size(frames), lines, json.len,
	              (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6, matched);
	json_decref(o);
	rbuf_free(&json);
	free(r);
	live_free();
	fake_free(f);
}

/* The !play game's rows, and ann's aborted one, through the adapter API. */
struct listed {
	int n;
	int64_t table[8];
	int winner[8];
	bool scored[8];
	char names[8][64];
};

static void
on_game(void *ctx, const struct adapter_game *g)
{
	struct listed *l = ctx;

	assert_true(l->n < 8);
	l->table[l->n] = g->table;
	l->winner[l->n] = g->winner;
	l->scored[l->n] = g->scored;
	snprintf(l->names[l->n], sizeof l->names[0], "%s", g->names[0]);
	assert_string_equal(g->rules, "duel rounds=1");
	assert_int_equal(g->nseats, 2);
	assert_true(g->ended > 0);
	l->n++;
}

static void
test_a_rooms_finished_games_listed(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	struct listed l = { 0 };
	struct rbuf json = { 0 };
	struct store_replayed *r = calloc(1, sizeof *r);
	char err[256], why[160], ad[96], room[128];
	struct adapter *rec;
	int64_t first, second, aborted;

	(void)state;
	rec = bot_adapter_add(f->bot, &rec_ops, "rec", NULL, err, sizeof err);
	assert_non_null(rec);
	first = play_game(f, "#r");
	fake_advance(f, 3600 * 1000);
	second = play_game(f, "#r");
	play_game(f, "#other");
	/* an aborted game is never listed, nor replayed */
	fake_say(f, "#r", "ann", "!play 2 duel rounds=1");
	aborted = fake_session(f, "#r")->id;
	fake_say(f, "#r", "ann", "!abort");
	assert_null(fake_session(f, "#r"));
	assert_false(finished_seen);

	assert_int_equal(adapter_room_games(rec, "fake", "#r", 10, on_game, &l), 2);
	assert_int_equal(l.n, 2);
	/* newest first */
	assert_int_equal(l.table[0], second);
	assert_int_equal(l.table[1], first);
	assert_true(l.scored[0]);
	assert_true(l.winner[0] >= -1 && l.winner[0] <= 1);
	/* at most max */
	memset(&l, 0, sizeof l);
	assert_int_equal(adapter_room_games(rec, "fake", "#r", 1, on_game, &l), 1);
	assert_int_equal(adapter_room_games(rec, "fake", "#none", 10, on_game, &l), 0);

	assert_int_equal(adapter_replay(rec, first, &json, ad, sizeof ad, room, sizeof room), 0);
	assert_string_equal(ad, "fake");
	assert_string_equal(room, "#r");
	rbuf_free(&json);
	assert_int_equal(adapter_replay(rec, aborted, &json, ad, sizeof ad, room, sizeof room), -1);
	assert_int_equal(replay_json(f->bot->store, aborted, "!", &json, r, why, sizeof why), -1);
	assert_int_equal(json.len, 0);
	assert_int_equal(adapter_replay(rec, 99999, &json, ad, sizeof ad, room, sizeof room), -1);
	/* the bot's clock, as the adapters measure days with it */
	assert_int_equal(adapter_wall_s(rec), fake_wall(f) / 1000);
	rbuf_free(&json);
	free(r);
	live_free();
	fake_free(f);
}

/* !watch with no game in play: the room's page; every case answered. */
static void
test_watch_without_a_game_gives_the_rooms_page(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	char err[256];

	(void)state;
	/* no adapter draws tables: said so, as before */
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "bob: this bot shows no table on a page"));
	assert_non_null(bot_adapter_add(f->bot, &rec_ops, "rec", NULL, err, sizeof err));
	fake_clear(f);
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "No game in play here. The room's recent games and their replays: "
	                 "https://cards.test/t/room-fake-#r"));
	/* a table not dealt yet: the room's page too */
	fake_clear(f);
	fake_say(f, "#r", "ann", "!new duel");
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "The game has not started yet (!start deals). The room's recent games"));
	/* dealt: the table's own link, live */
	fake_clear(f);
	fake_say(f, "#r", "bob", "!join");
	fake_say(f, "#r", "ann", "!start");
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "The table, live: https://cards.test/t/"));
	/* privately, with no table: which room is meant is asked for */
	fake_clear(f);
	fake_dm(f, "carol", "!watch");
	assert_true(fake_said(f, MSG_PRIVATE, "carol", "say !watch in a room"));
	live_free();
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_are_the_rooms_views_move_by_move),
		cmocka_unit_test(test_a_rooms_finished_games_listed),
		cmocka_unit_test(test_watch_without_a_game_gives_the_rooms_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
