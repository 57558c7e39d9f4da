/* test-irc-queue.c: the IRC send queue on a fake clock: its wiring to lib/outq (answers apart and replaced, a message rewritten); the serving policy itself is tested once, in test-outq.c. */
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
	assert_int_equal(irc_queue_push_facts(&q, "answers x", &(struct irc_qfacts){ .key = 7, .piece = true }, "pile 1b",
	                                      7), 0);
	assert_int_equal(irc_queue_count(&q, "answers x"), 2);   /* a piece continues its answer */
	/* the newer answer replaces both lines of the older: lib/outq does it */
	assert_int_equal(irc_queue_push_key(&q, "answers x", 7, "pile 2", 6), 0);
	assert_int_equal(irc_queue_count(&q, "answers x"), 1);
	assert_int_equal(irc_queue_count_keep(&q, "answers x"), 0);
	assert_int_equal(irc_queue_count_keep(&q, "#A"), 1);   /* case-folded */
	/* a player's hand waits in the room's lane, aside: the computer waits
	 * for it (count_keep), an answer about the table does not (count_room) */
	assert_int_equal(irc_queue_push_facts(&q, "#a", &(struct irc_qfacts){ .about_room = true }, "NOTICE ann :hand", 16), 0);
	assert_int_equal(irc_queue_count_keep(&q, "#a"), 2);
	assert_int_equal(irc_queue_count_room(&q, "#a"), 1);
	/* an answer that must be delivered, with its asker: kept, not the story */
	assert_int_equal(irc_queue_push_facts(&q, "#a", &(struct irc_qfacts){ .asker = "bob" }, "bob steps away", 14), 0);
	assert_int_equal(irc_queue_count_keep(&q, "#a"), 3);
	assert_int_equal(irc_queue_count_room(&q, "#a"), 1);
	assert_int_equal(irc_queue_push(&q, "#a", "turn", 4), 0);
	assert_int_equal(irc_queue_push(&q, "#a", "turn", 4), -1);
	/* the game's line first, then the answer (one question, no backlog)
	 * after that one line, then the game's lines */
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "turn 1");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "pile 2");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "NOTICE ann :hand");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "bob steps away");
	pop(&q, buf, sizeof buf);
	assert_string_equal(buf, "turn");
	assert_int_equal(q.lines, 0);
	irc_queue_clear(&q);
	assert_int_equal(q.lines, 0);
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
		cmocka_unit_test(test_rewrite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
