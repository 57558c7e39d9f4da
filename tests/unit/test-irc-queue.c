/* test-irc-queue.c: the IRC send queue on a fake clock: lanes served round-robin under the token bucket, idle lanes first, answers replaced and apart, a flooder and a second room, strangers behind the games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "irc/irc.h"

static size_t
pop(struct irc_queue *q, char *buf, size_t len)
{
	return irc_queue_pop(q, buf, len);
}

/* A newer answer replaces the same one still queued; pending counts only
 * what must be delivered; a full lane refuses. */
static void
test_answers(void **state)
{
	struct irc_queue q;
	char buf[64];

	(void)state;
	irc_queue_init(&q, 4);
	assert_int_equal(irc_queue_push(&q, "#a", "turn 1", 6), 0);
	assert_int_equal(irc_queue_push_key(&q, "answers x", 7, "pile 1", 6), 0);
	assert_int_equal(irc_queue_push_key(&q, "answers x", 7, "pile 1b", 7), 0);
	assert_int_equal(irc_queue_drop(&q, "answers x", 7), 2);
	assert_int_equal(irc_queue_push_key(&q, "answers x", 7, "pile 2", 6), 0);
	assert_int_equal(irc_queue_count(&q, "answers x"), 1);
	assert_int_equal(irc_queue_count_keep(&q, "answers x"), 0);
	assert_int_equal(irc_queue_count_keep(&q, "#A"), 1);   /* case-folded */
	for (int i = 0; i < 3; i++)
		assert_int_equal(irc_queue_push(&q, "#a", "turn", 4), 0);
	assert_int_equal(irc_queue_push(&q, "#a", "turn", 4), -1);
	/* the game's line first, then the answer (one question, no backlog)
	 * after that one line, then the game's lines */
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "turn 1");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "pile 2");
	for (int i = 0; i < 3; i++) {
		pop(&q, buf, sizeof buf);
		assert_string_equal(buf, "turn");
	}
	assert_int_equal(q.lines, 0);
	irc_queue_clear(&q);
	assert_int_equal(q.lines, 0);
}

/* A lane that had nothing queued is served next (least recently served
 * first); one that was served goes to the back. */
static void
test_idle_lane_first(void **state)
{
	struct irc_queue q;
	char buf[64];

	(void)state;
	irc_queue_init(&q, 40);
	for (int i = 0; i < 5; i++)
		irc_queue_push(&q, "#busy", "busy", 4);
	pop(&q, buf, sizeof buf);
	irc_queue_push(&q, "#quiet", "quiet", 5);
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "quiet");
	/* two lanes waking together keep their order */
	irc_queue_push(&q, "#one", "one", 3);
	irc_queue_push(&q, "#two", "two", 3);
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "one");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "two");
	irc_queue_clear(&q);
}

/* On a fake clock, at the shipped pace (burst 5, a line per 2 s): room #a's
 * computers put out a fold of two lines whenever their lane is empty (they
 * wait for it), room #b has a turn now and then, a flooder's answers pile up
 * in his own lane, and a watcher (no seat) asks a question every 3 s.
 * Nobody waits behind the flooder's backlog: #b's lines go within two lines
 * of being queued, the watcher's answers behind one game line (and #b's,
 * if it woke first), and the
 * flooder gets only what the others leave. */
static void
test_flooder_and_second_room(void **state)
{
	struct irc_queue q;
	struct irc_bucket b;
	char buf[64];
	int64_t now, b_at = -1, w_at = -1, worst_b = 0, worst_w = 0;
	int a_lines = 0, flood_lines = 0;

	(void)state;
	irc_queue_init(&q, 40);
	irc_bucket_init(&b, 5, 2000);
	for (now = 0; now < 600000; now += 100) {
		if (irc_queue_count_keep(&q, "#a") == 0) {
			irc_queue_push(&q, "#a", "a fold 1", 8);
			irc_queue_push(&q, "#a", "a fold 2", 8);
		}
		if (now % 1000 == 0 && irc_queue_count(&q, "answers eve") < 40)
			irc_queue_push_key(&q, "answers eve", (uint64_t)now + 1, "eve", 3);
		if (now % 20000 == 5000) {
			irc_queue_push(&q, "#b", "b turn", 6);
			b_at = now;
		}
		if (now % 3000 == 1500 && w_at < 0) {
			irc_queue_push_key(&q, "answers carol", 1, "carol", 5);
			w_at = now;
		}
		while (q.lines > 0 && irc_bucket_wait(&b, now) == 0) {
			irc_bucket_take(&b, now);
			pop(&q, buf, sizeof buf);
			if (strcmp(buf, "b turn") == 0 && now - b_at > worst_b)
				worst_b = now - b_at;
			if (strcmp(buf, "carol") == 0) {
				if (now - w_at > worst_w)
					worst_w = now - w_at;
				w_at = -1;
			}
			a_lines += strncmp(buf, "a fold", 6) == 0;
			flood_lines += strcmp(buf, "eve") == 0;
		}
	}
	/* never behind the flooder's backlog: at most a line of each other
	 * lane that woke before theirs (two), and the bucket's 2 s; the game's
	 * lines go before strangers' answers */
	assert_true(worst_b <= 6000);
	/* the watcher (no seat, one question at a time) waits for one game
	 * line and a line of #b's if it woke first, and the bucket's 2 s */
	assert_true(worst_w <= 3 * 2000);
	/* 300 lines went out in 600 s: the flooder got what the others left */
	assert_true(flood_lines < a_lines / 2);
	assert_true(a_lines >= 60);
	irc_queue_clear(&q);
}

/* 50 strangers, each asking in a lane of their own, never put a game's
 * next line (or a player's answer) behind theirs: it goes within two lines
 * however many of them wait, and they still get one line in
 * IRC_QUEUE_FIRST_RUN + 1 while the games are busy (a flood: no question
 * of theirs goes after a single game line, as a lone bystander's does). */
static void
test_strangers_wait_behind_the_game(void **state)
{
	struct irc_queue q;
	char buf[64], lane[32];
	int strangers = 0;

	(void)state;
	irc_queue_init(&q, 40);
	for (int i = 0; i < 50; i++) {
		snprintf(lane, sizeof lane, "answers flood%02d", i);
		for (int k = 0; k < 3; k++)
			irc_queue_push_key(&q, lane, (uint64_t)k + 1, "stranger", 8);
	}
	pop(&q, buf, sizeof buf);
	irc_queue_push(&q, "#cards", "turn", 4);
	pop(&q, buf, sizeof buf);
	if (strcmp(buf, "turn") != 0)
		pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "turn");
	irc_queue_push_class(&q, "answers alice", 1, true, "alice", 5);
	pop(&q, buf, sizeof buf);
	if (strcmp(buf, "alice") != 0)
		pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "alice");
	/* a busy game: the strangers get a line in every IRC_QUEUE_FIRST_RUN + 1 */
	for (int i = 0; i < 40; i++) {
		if (irc_queue_count(&q, "#cards") < 2)
			irc_queue_push(&q, "#cards", "turn", 4);
		pop(&q, buf, sizeof buf);
		strangers += strcmp(buf, "stranger") == 0;
	}
	assert_true(strangers >= 40 / (IRC_QUEUE_FIRST_RUN + 1));
	assert_true(strangers <= 40 / (IRC_QUEUE_FIRST_RUN + 1) + 1);
	irc_queue_clear(&q);
}

/* The pace bench's busy room on a fake clock, at the shipped pace (burst
 * 5, a line per 2 s): two rooms whose computers always have a line
 * waiting, a bystander (no seat) asking !pile every 3 s, and a flooder
 * whose answers pile up in his lane.  The bystander's question goes after
 * one game line at most, so she waits two lines (4 s) however busy the
 * games are; the flooder's backlog gets no more than one line in
 * IRC_QUEUE_FIRST_RUN + 1, and the games the rest. */
static void
test_bystander_beside_busy_rooms(void **state)
{
	struct irc_queue q;
	struct irc_bucket b;
	char buf[64];
	int64_t now, w_at = -1, worst_w = 0;
	int game = 0, flood = 0, answered = 0;

	(void)state;
	irc_queue_init(&q, 40);
	irc_bucket_init(&b, 5, 2000);
	for (now = 0; now < 600000; now += 100) {
		if (irc_queue_count(&q, "#t1") == 0)
			irc_queue_push(&q, "#t1", "t1", 2);
		if (irc_queue_count(&q, "#t2") == 0)
			irc_queue_push(&q, "#t2", "t2", 2);
		if (now % 1000 == 0 && irc_queue_count(&q, "answers dave") < 40)
			irc_queue_push_key(&q, "answers dave", (uint64_t)now + 1, "dave", 4);
		if (now % 3000 == 0 && w_at < 0) {
			irc_queue_push_key(&q, "answers carol", 1, "carol", 5);
			w_at = now;
		}
		while (q.lines > 0 && irc_bucket_wait(&b, now) == 0) {
			irc_bucket_take(&b, now);
			pop(&q, buf, sizeof buf);
			if (strcmp(buf, "carol") == 0) {
				if (now - w_at > worst_w)
					worst_w = now - w_at;
				w_at = -1;
				answered++;
			}
			game += buf[0] == 't';
			flood += strcmp(buf, "dave") == 0;
		}
	}
	assert_true(answered >= 100);
	/* the bucket's next token, one game line, then hers */
	assert_true(worst_w <= 2 * 2000);
	/* what carol leaves goes one line in IRC_QUEUE_FIRST_RUN + 1 to dave */
	assert_true(flood <= (game + flood) / (IRC_QUEUE_FIRST_RUN + 1) + 1);
	assert_true(game >= 150);
	irc_queue_clear(&q);
}

/* A line rewritten keeps its place and its key; a lane whose every line
 * is dropped leaves the serving order. */
static int
rewrite_b(void *ctx, const char *line, size_t len, char *buf, size_t buflen)
{
	(void)ctx;
	if (len > 0 && line[0] == 'x')
		return -1;
	if (strcmp(line, "b1") == 0)
		return snprintf(buf, buflen, "B1");
	return 0;
}

static void
test_rewrite(void **state)
{
	struct irc_queue q;
	char buf[64];

	(void)state;
	irc_queue_init(&q, 8);
	assert_int_equal(irc_queue_push(&q, "#a", "x1", 2), 0);
	assert_int_equal(irc_queue_push(&q, "#b", "b1", 2), 0);
	assert_int_equal(irc_queue_push_key(&q, "#b", 5, "x2", 2), 0);
	assert_int_equal(irc_queue_push(&q, "#b", "b2", 2), 0);
	assert_int_equal(irc_queue_push(&q, "#a", "x3", 2), 0);
	assert_int_equal(irc_queue_rewrite(&q, rewrite_b, NULL), 4);
	assert_int_equal(q.lines, 2);
	assert_int_equal(irc_queue_count(&q, "#a"), 0);
	assert_int_equal(irc_queue_count_keep(&q, "#b"), 2);
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "B1");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "b2");
	assert_int_equal(pop(&q, buf, sizeof buf), 0);
	assert_int_equal(outq_lanes(q.oq), 0);   /* no lane left in the serving order */
	irc_queue_clear(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_idle_lane_first),
		cmocka_unit_test(test_flooder_and_second_room),
		cmocka_unit_test(test_strangers_wait_behind_the_game),
		cmocka_unit_test(test_bystander_beside_busy_rooms),
		cmocka_unit_test(test_rewrite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
