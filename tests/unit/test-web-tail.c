/* test-web-tail.c: a view goes whole to a page once, then with only the newest lines of its story: the tail is the same view but for the lines it leaves out, and a socket gets it only when it has those lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>
#include <libwebsockets.h>

#include "fake.h"
#include "web/web.h"

/* Blob b's JSON, parsed. */
static json_t *
parsed(const struct web_blob *b)
{
	json_t *v = json_loadb((const char *)b->data + LWS_PRE, b->len, 0, NULL);

	assert_non_null(v);
	return v;
}

/* The tail is the view with its story's lines cut to the newest WEB_STORY_TAIL, from moved on. */
static void
check_tail(const struct web_blob *b)
{
	json_t *full = parsed(b), *tail = parsed(b->tail);
	json_t *fs = json_object_get(full, "story"), *ts = json_object_get(tail, "story");
	json_t *fl = json_object_get(fs, "lines"), *tl = json_object_get(ts, "lines");
	size_t n = json_array_size(fl), i;

	assert_true(n > WEB_STORY_TAIL);
	assert_int_equal(json_array_size(tl), WEB_STORY_TAIL);
	assert_int_equal(json_integer_value(json_object_get(ts, "from")),
	                 json_integer_value(json_object_get(fs, "from")) + (json_int_t)(n - WEB_STORY_TAIL));
	assert_int_equal(json_integer_value(json_object_get(ts, "round")), json_integer_value(json_object_get(fs, "round")));
	for (i = 0; i < WEB_STORY_TAIL; i++)
		assert_string_equal(json_string_value(json_array_get(tl, i)),
		                    json_string_value(json_array_get(fl, n - WEB_STORY_TAIL + i)));
	assert_int_equal(b->story_upto - b->story_from, n);
	assert_int_equal(b->tail->story_from, b->story_upto - WEB_STORY_TAIL);
	/* everything else the same */
	json_object_del(full, "story");
	json_object_del(tail, "story");
	assert_true(json_equal(full, tail));
	json_decref(full);
	json_decref(tail);
}

/* A table the computer plays, its views as the bot writes them, once its
 * round has told more lines than a tail holds. */
static void
test_views_of_a_long_round(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 1000\nai_delay = 0\nai_level = easy\nai_budget = 0");
	struct session *s;
	int steps, seat;

	(void)state;
	fake_say(f, "#g", "alice", "!play 4 classic");
	fake_say(f, "#g", "alice", "!auto");
	for (steps = 0; steps < 5000 && (s = fake_session(f, "#g")) != NULL && s->story.n < 3 * WEB_STORY_TAIL; steps++)
		fake_advance(f, 1);
	assert_non_null(s = fake_session(f, "#g"));
	assert_true(s->story.n >= 3 * WEB_STORY_TAIL);
	for (seat = -1; seat < 4; seat++) {
		struct rbuf json = { 0 };
		struct web_blob *b;

		view_json(&json, s, seat);
		b = web_view_blob(json.s, json.len);
		assert_non_null(b->tail);
		check_tail(b);
		/* the tail is sent only to a socket that has every line before it */
		assert_ptr_equal(web_view_for(b, -1, 0), b);
		assert_ptr_equal(web_view_for(b, b->story_round, b->tail->story_from - 1), b);
		assert_ptr_equal(web_view_for(b, b->story_round, b->tail->story_from), b->tail);
		assert_ptr_equal(web_view_for(b, b->story_round, b->story_upto), b->tail);
		assert_ptr_equal(web_view_for(b, b->story_round, b->story_upto + 1), b);
		assert_ptr_equal(web_view_for(b, b->story_round + 1, b->story_upto), b);
		web_blob_unref(b);
		rbuf_free(&json);
	}
	fake_free(f);
}

/* A short story has no tail; the story is found past a string that quotes its
 * pattern; a view that does not read as the bot writes it is sent whole. */
static void
test_short_quoted_and_broken(void **state)
{
	struct rbuf j = { 0 };
	struct web_blob *b;
	int i;

	(void)state;
	b = web_view_blob("{\"v\":1,\"story\":{\"round\":1,\"from\":0,\"lines\":[\"a\",\"b\"]}}", 55);
	assert_null(b->tail);
	assert_int_equal(b->story_round, 1);
	assert_int_equal(b->story_upto, 2);
	assert_ptr_equal(web_view_for(b, 1, 2), b);
	web_blob_unref(b);

	rbuf_add(&j, "{\"v\":1,\"name\":\"x,\\\"story\\\":{\\\"round\\\":9,\\\"from\\\":0,\\\"lines\\\":[\\\"z\\\"]}\",");
	rbuf_add(&j, "\"story\":{\"round\":2,\"from\":5,\"lines\":[");
	for (i = 0; i < 40; i++)
		rbuf_printf(&j, "%s\"line %d \\\"quoted\\\", ]}\"", i ? "," : "", i);
	rbuf_add(&j, "]},\"seat\":-1}");
	b = web_view_blob(j.s, j.len);
	assert_int_equal(b->story_round, 2);
	assert_int_equal(b->story_from, 5);
	assert_int_equal(b->story_upto, 45);
	assert_non_null(b->tail);
	check_tail(b);
	web_blob_unref(b);

	rbuf_reset(&j);
	rbuf_add(&j, "{\"v\":1,\"story\":{\"round\":2,\"from\":5,\"lines\":[\"never ends");
	b = web_view_blob(j.s, j.len);
	assert_int_equal(b->story_round, -1);
	assert_null(b->tail);
	assert_ptr_equal(web_view_for(b, 2, 5), b);
	web_blob_unref(b);
	rbuf_free(&j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_views_of_a_long_round),
		cmocka_unit_test(test_short_quoted_and_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
