/* test-web.c: the web table's capability links (made, hashed, found, replaced, forgotten, kept in the store) and the frames a page may send. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "daemon.h"
#include "fake.h"
#include "web/web.h"

static void
test_tokens_are_128_random_bits(void **state)
{
	char a[WEB_TOKEN_CHARS + 1], b[WEB_TOKEN_CHARS + 1];
	uint8_t ha[WEB_HASH_BYTES], hb[WEB_HASH_BYTES], again[WEB_HASH_BYTES];
	size_t i;

	(void)state;
	assert_int_equal(web_cap_new(a, ha), 0);
	assert_int_equal(web_cap_new(b, hb), 0);
	assert_int_equal(strlen(a), 32);
	for (i = 0; i < 32; i++)
		assert_non_null(strchr("0123456789abcdef", a[i]));
	assert_string_not_equal(a, b);
	assert_false(web_cap_equal(ha, hb));
	/* the hash is what the page's token hashes to, and nothing else does */
	assert_int_equal(web_cap_hash(a, strlen(a), again), 0);
	assert_true(web_cap_equal(ha, again));
	assert_memory_not_equal(ha, a, 16);
	/* SHA-256 of a known token */
	assert_int_equal(web_cap_hash("00000000000000000000000000000000", 32, again), 0);
	assert_int_equal(again[0], 0x84);
	assert_int_equal(again[31], 0x5a);
}

static void
test_malformed_tokens_refused(void **state)
{
	uint8_t h[WEB_HASH_BYTES];

	(void)state;
	assert_int_equal(web_cap_hash("", 0, h), -1);
	assert_int_equal(web_cap_hash("0123456789abcdef0123456789abcde", 31, h), -1);
	assert_int_equal(web_cap_hash("0123456789abcdef0123456789abcdef0", 33, h), -1);
	assert_int_equal(web_cap_hash("0123456789ABCDEF0123456789abcdef", 32, h), -1);
	assert_int_equal(web_cap_hash("0123456789abcdef0123456789abcde/", 32, h), -1);
	assert_int_equal(web_cap_hash("../../../etc/passwd?xxxxxxxxxxxx", 32, h), -1);
}

static void
test_links_find_their_table_and_seat(void **state)
{
	struct web_tables t = { 0 };
	struct web_table *x, *y;
	char tok[WEB_TOKEN_CHARS + 1], seat1[WEB_TOKEN_CHARS + 1], guess[WEB_TOKEN_CHARS + 1];
	uint8_t h[WEB_HASH_BYTES], hs[WEB_HASH_BYTES], hg[WEB_HASH_BYTES];
	int64_t table = 0;
	int seat = 9;

	(void)state;
	x = web_tables_get(&t, 7, true);
	y = web_tables_get(&t, 8, true);
	assert_ptr_equal(web_tables_get(&t, 7, false), x);
	assert_null(web_tables_get(&t, 9, false));
	assert_int_equal(web_cap_new(tok, h), 0);
	memcpy(x->public_hash, h, sizeof h);
	x->has_public = true;
	assert_int_equal(web_cap_new(seat1, hs), 0);
	memcpy(y->seat_hash[1], hs, sizeof hs);
	y->has_seat[1] = true;

	assert_true(web_tables_find(&t, h, &table, &seat));
	assert_int_equal(table, 7);
	assert_int_equal(seat, -1);
	assert_true(web_tables_find(&t, hs, &table, &seat));
	assert_int_equal(table, 8);
	assert_int_equal(seat, 1);
	/* a guess opens nothing */
	assert_int_equal(web_cap_new(guess, hg), 0);
	assert_false(web_tables_find(&t, hg, &table, &seat));
	/* replaced: the old hash is gone */
	memcpy(y->seat_hash[1], hg, sizeof hg);
	assert_false(web_tables_find(&t, hs, &table, &seat));
	assert_true(web_tables_find(&t, hg, &table, &seat));
	/* the game over: the table and every link of it are forgotten */
	web_tables_del(&t, 8);
	assert_false(web_tables_find(&t, hg, &table, &seat));
	assert_true(web_tables_find(&t, h, &table, &seat));
	web_tables_free(&t);
	assert_false(web_tables_find(&t, h, &table, &seat));
}

static int
parse(const char *s, struct web_frame *f)
{
	char why[128];

	return web_frame_parse(s, strlen(s), f, why, sizeof why);
}

/* The stored links: only those of tables in play come back; bad rows are dropped, never loaded. */
static void
test_stored_links_come_back_bounded(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	struct web w;
	struct web_table t;
	struct session *s;
	char tok[WEB_TOKEN_CHARS + 1], seat_tok[WEB_TOKEN_CHARS + 1], row[WEB_LINKS_VALUE], key[64], buf[1024];
	char huge[4096];
	uint8_t seat_hash[WEB_HASH_BYTES];
	int64_t table;
	int seat;

	(void)state;
	fake_say(f, "#r", "ann", "!play 2 duel");
	s = fake_session(f, "#r");
	assert_non_null(s);
	assert_true(adapter_table_live(f->ad, s->id));
	assert_false(adapter_table_live(f->ad, s->id + 100));
	/* a row as the adapter writes it: the public token, seat 1's hash (never its token) */
	memset(&t, 0, sizeof t);
	assert_int_equal(web_cap_new(t.public_token, t.public_hash), 0);
	t.has_public = true;
	assert_int_equal(web_cap_new(seat_tok, seat_hash), 0);
	memcpy(t.seat_hash[1], seat_hash, sizeof seat_hash);
	t.has_seat[1] = true;
	web_links_value(&t, row, sizeof row);
	assert_null(strstr(row, seat_tok));
	snprintf(tok, sizeof tok, "%s", t.public_token);
	snprintf(key, sizeof key, "link %lld", (long long)s->id);
	assert_int_equal(adapter_state_set(f->ad, key, row), 0);
	/* a table that ended while the daemon was down; rows that are not rows */
	snprintf(key, sizeof key, "link %lld", (long long)s->id + 100);
	assert_int_equal(adapter_state_set(f->ad, key, row), 0);
	assert_int_equal(adapter_state_set(f->ad, "link x", row), 0);
	assert_int_equal(adapter_state_set(f->ad, "link 007", row), 0);
	assert_int_equal(adapter_state_set(f->ad, "link 8", "- - - - - - -"), 0);
	assert_int_equal(adapter_state_set(f->ad, "link 9", "zz - - - - - -"), 0);
	assert_int_equal(adapter_state_set(f->ad, "link 10", "- - -"), 0);
	memset(huge, 'a', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	assert_int_equal(adapter_state_set(f->ad, "link 11", huge), 0);

	memset(&w, 0, sizeof w);
	w.a = f->ad;
	pthread_mutex_init(&w.lock, NULL);
	web_links_load(&w);
	assert_int_equal(w.tables.n, 1);
	assert_true(web_tables_find(&w.tables, t.public_hash, &table, &seat));
	assert_int_equal(table, s->id);
	assert_int_equal(seat, -1);
	assert_true(web_tables_find(&w.tables, seat_hash, &table, &seat));
	assert_int_equal(seat, 1);
	assert_string_equal(web_tables_get(&w.tables, s->id, false)->public_token, tok);
	/* the live row stays; the others are gone from the store */
	snprintf(key, sizeof key, "link %lld", (long long)s->id);
	assert_int_equal(adapter_state_get(f->ad, key, buf, sizeof buf), 0);
	snprintf(key, sizeof key, "link %lld", (long long)s->id + 100);
	assert_int_equal(adapter_state_get(f->ad, key, buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(f->ad, "link x", buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(f->ad, "link 007", buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(f->ad, "link 9", buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(f->ad, "link 11", buf, sizeof buf), -1);
	/* a well-formed row with no link, of no table in play: gone too */
	assert_int_equal(adapter_state_get(f->ad, "link 8", buf, sizeof buf), -1);
	web_tables_free(&w.tables);
	pthread_mutex_destroy(&w.lock);

	/* the game ends: the table is no longer live */
	table = s->id;
	fake_say(f, "#r", "ann", "!abort");
	assert_false(adapter_table_live(f->ad, table));
	fake_free(f);
}

static void
test_frames_a_page_sends(void **state)
{
	struct web_frame f;

	(void)state;
	assert_int_equal(parse("{\"v\":1,\"type\":\"ping\"}", &f), 0);
	assert_int_equal(f.type, WEB_FRAME_PING);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"meld 9 9 2\"}", &f), 0);
	assert_int_equal(f.type, WEB_FRAME_ACT);
	assert_string_equal(f.cmd, "meld 9 9 2");
	assert_int_equal(parse("{\"type\":\"act\",\"v\":1,\"cmd\":\"meld K: 2, 9 9 9\"}", &f), 0);
	assert_string_equal(f.cmd, "meld K: 2, 9 9 9");
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"draw\"}", &f), 0);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"discard 3h\"}", &f), 0);
}

static void
test_frames_refused(void **state)
{
	struct web_frame f;
	char big[2048];

	(void)state;
	/* not JSON, not an object, another version, unknown or extra fields */
	assert_int_equal(parse("draw", &f), -1);
	assert_int_equal(parse("[1]", &f), -1);
	assert_int_equal(parse("{\"v\":2,\"type\":\"ping\"}", &f), -1);
	assert_int_equal(parse("{\"v\":\"1\",\"type\":\"ping\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"ping\",\"x\":1}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"say\",\"cmd\":\"draw\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"draw\",\"cmd\":\"out\"}", &f), -1);
	/* commands a page does not offer, or that carry more than cards */
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"abort\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"new classic\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"meld 9\\n!abort\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"meld 9; abort\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":\"drawx\"}", &f), -1);
	assert_int_equal(parse("{\"v\":1,\"type\":\"act\",\"cmd\":7}", &f), -1);
	assert_int_equal(web_frame_parse("{\"v\":1,\"type\":\"ping\"}\0x", 23, &f, big, sizeof big), -1);
	assert_int_equal(web_frame_parse("\xff\xfe", 2, &f, big, sizeof big), -1);
	/* oversized */
	memset(big, ' ', sizeof big);
	memcpy(big, "{\"v\":1,\"type\":\"ping\"}", 21);
	assert_int_equal(web_frame_parse(big, WEB_MAX_FRAME + 1, &f, big + 1500, 100), -1);
	snprintf(big, sizeof big, "{\"v\":1,\"type\":\"act\",\"cmd\":\"meld %0300d\"}", 9);
	assert_int_equal(parse(big, &f), -1);
}

/* A finished game's public link opens its replay for replay_days, is answered as gone as long again, then
 * is forgotten; a room's link is made once; both come back from the store, bad rows dropped. */
static void
test_replays_and_rooms_kept_then_gone(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	struct adapter ad;
	struct web w, again;
	char tok[WEB_TOKEN_CHARS + 1], got[WEB_TOKEN_CHARS + 1], url[256], url2[256], buf[256];
	uint8_t hash[WEB_HASH_BYTES], room_hash[WEB_HASH_BYTES];
	int64_t table, now = fake_wall(f) / 1000;
	int seat;

	(void)state;
	ad = *f->ad;
	memset(&w, 0, sizeof w);
	w.a = &ad;
	ad.priv = &w;
	w.conf.replay_days = 30;
	snprintf(w.conf.base_url, sizeof w.conf.base_url, "https://cards.test/");
	pthread_mutex_init(&w.lock, NULL);
	assert_int_equal(web_cap_new(tok, hash), 0);
	web_replays_ended(&w, 7, tok, now);
	assert_int_equal(web_finished_find(&w.fin, hash, &table, &seat), 1);
	assert_int_equal(table, 7);
	assert_int_equal(seat, WEB_SEAT_REPLAY);
	assert_true(web_replays_token(&w.fin, 7, got));
	assert_string_equal(got, tok);
	assert_false(web_replays_token(&w.fin, 8, got));
	assert_int_equal(adapter_state_get(&ad, "replay 7", buf, sizeof buf), 0);
	/* a room's link: the same each time, found as the room's (an id below 0) */
	assert_int_equal(web_rooms_link(&ad, "irc/x", "#cards", url, sizeof url), 0);
	assert_int_equal(web_rooms_link(&ad, "irc/x", "#cards", url2, sizeof url2), 0);
	assert_string_equal(url, url2);
	assert_int_equal(web_rooms_link(&ad, "irc/x", "#other", url2, sizeof url2), 0);
	assert_string_not_equal(url, url2);
	assert_int_equal(strncmp(url, "https://cards.test/t/", 21), 0);
	assert_int_equal(web_cap_hash(url + 21, strlen(url + 21), room_hash), 0);
	assert_int_equal(web_finished_find(&w.fin, room_hash, &table, &seat), 1);
	assert_int_equal(seat, WEB_SEAT_ROOM);
	assert_true(table < 0);
	assert_string_equal(web_rooms_get(&w.fin, table)->room, "#cards");

	/* back from the store after a restart, rows that are not rows dropped */
	assert_int_equal(adapter_state_set(&ad, "replay x", tok), 0);
	assert_int_equal(adapter_state_set(&ad, "replay 9", "nothex 12"), 0);
	assert_int_equal(adapter_state_set(&ad, "room 5", "- irc/x #cards"), 0);
	memset(&again, 0, sizeof again);
	again.a = &ad;
	ad.priv = &again;
	again.conf.replay_days = 30;
	pthread_mutex_init(&again.lock, NULL);
	web_replays_load(&again);
	assert_int_equal(web_finished_find(&again.fin, hash, &table, &seat), 1);
	assert_int_equal(table, 7);
	assert_int_equal(web_finished_find(&again.fin, room_hash, &table, &seat), 1);
	assert_int_equal(again.fin.nrooms, 2);
	assert_int_equal(adapter_state_get(&ad, "replay x", buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(&ad, "replay 9", buf, sizeof buf), -1);
	assert_int_equal(adapter_state_get(&ad, "room 5", buf, sizeof buf), -1);

	/* 30 days on (the bot's clock): gone, its link said so, and no room's page lists it */
	f->wall_offset += (int64_t)30 * 86400 * 1000;
	web_replays_expire(&again, adapter_wall_s(&ad));
	assert_int_equal(web_finished_find(&again.fin, hash, &table, &seat), 2);
	assert_false(web_replays_token(&again.fin, 7, got));
	assert_int_equal(adapter_state_get(&ad, "replay 7", buf, sizeof buf), 0);
	/* as long again: forgotten, its row too; the room's page stays */
	f->wall_offset += (int64_t)30 * 86400 * 1000;
	web_replays_expire(&again, adapter_wall_s(&ad));
	assert_int_equal(web_finished_find(&again.fin, hash, &table, &seat), 0);
	assert_int_equal(adapter_state_get(&ad, "replay 7", buf, sizeof buf), -1);
	assert_int_equal(web_finished_find(&again.fin, room_hash, &table, &seat), 1);

	web_replays_stop(&again);
	web_finished_free(&again.fin);
	web_finished_free(&w.fin);
	pthread_mutex_destroy(&again.lock);
	pthread_mutex_destroy(&w.lock);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens_are_128_random_bits),
		cmocka_unit_test(test_malformed_tokens_refused),
		cmocka_unit_test(test_links_find_their_table_and_seat),
		cmocka_unit_test(test_stored_links_come_back_bounded),
		cmocka_unit_test(test_replays_and_rooms_kept_then_gone),
		cmocka_unit_test(test_frames_a_page_sends),
		cmocka_unit_test(test_frames_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
