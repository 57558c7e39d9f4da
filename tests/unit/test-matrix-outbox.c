/* test-matrix-outbox.c: the Matrix send queue: txn ids persisted before a try, order per room across a restart, a lane bounded, supersede, a hand waiting for its direct room, drops, backoff; the serving policy itself is tested once, in test-outq.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix.h"
#include "memstore.h"

static struct matrix_store
store_of(struct memstore *ms)
{
	struct matrix_store st = { ms, memstore_get, memstore_set, memstore_del, memstore_each };

	return st;
}

static void
test_order_per_room_and_persistence(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	struct matrix_out *a1, *a2, *b1, *m;
	int64_t wait;
	char txn[64];

	(void)state;
	a1 = matrix_outbox_add(o, "!a:hs", NULL, NULL, "one", NULL, NULL, 0);
	a2 = matrix_outbox_add(o, "!a:hs", NULL, NULL, "two", "<b>two</b>", NULL, 0);
	b1 = matrix_outbox_add(o, "!b:hs", NULL, NULL, "three", NULL, NULL, 0);
	assert_non_null(a1);
	assert_string_not_equal(a1->txn, a2->txn);
	/* persisted before any try */
	assert_int_equal(memstore_count(ms, "out/"), 3);
	/* what the bot paces computer seats on: room lines waiting, per room */
	assert_int_equal(matrix_outbox_count_room(o, "!a:hs"), 2);
	assert_int_equal(matrix_outbox_count_room(o, "!b:hs"), 1);
	assert_int_equal(matrix_outbox_count_room(o, "!c:hs"), 0);
	assert_ptr_equal(matrix_outbox_next(o, 0, &wait), a1);
	matrix_outbox_flying(o, a1);
	/* one send in flight for the whole account: the server limits the user */
	assert_null(matrix_outbox_next(o, 0, &wait));
	/* a1 is rate limited: the account waits, every room */
	matrix_outbox_retry(o, a1, 0, 1500);
	matrix_outbox_pause(o, 1500);
	assert_null(matrix_outbox_next(o, 1000, &wait));
	assert_int_equal(wait, 500);
	/* then the rooms in turn: b's turn now, a's next (a2 still behind a1) */
	assert_ptr_equal(matrix_outbox_next(o, 1500, &wait), b1);
	matrix_outbox_flying(o, b1);
	matrix_outbox_done(o, b1);
	assert_ptr_equal(matrix_outbox_next(o, 1500, &wait), a1);
	snprintf(txn, sizeof txn, "%s", a1->txn);
	matrix_outbox_flying(o, a1);
	matrix_outbox_done(o, a1);
	assert_ptr_equal(matrix_outbox_next(o, 1500, &wait), a2);
	assert_int_equal(memstore_count(ms, "out/"), 1);
	matrix_outbox_free(o);

	/* after a restart the same message comes back with the same txn id */
	o = matrix_outbox_new(&st);
	assert_int_equal(matrix_outbox_count(o), 1);
	m = matrix_outbox_next(o, 0, &wait);
	assert_non_null(m);
	assert_string_equal(m->body, "two");
	assert_string_equal(m->html, "<b>two</b>");
	/* and new ones never reuse an old txn id */
	m = matrix_outbox_add(o, "!a:hs", NULL, NULL, "four", NULL, NULL, 0);
	assert_string_not_equal(m->txn, txn);
	matrix_outbox_free(o);
	memstore_free(ms);
}

/* A room's lane is bounded: one room cannot make every room's hands drop;
 * and answers wait apart, per asker, so a flood of them pushes no game's
 * line out. */
static void
test_lane_bound(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	char key[16];
	int i, taken = 0;

	(void)state;
	for (i = 0; i < MATRIX_OUTBOX_LANE + 50; i++)
		taken += matrix_outbox_add(o, "!flood:hs", NULL, NULL, "line", NULL, NULL, 0) != NULL;
	assert_int_equal(taken, MATRIX_OUTBOX_LANE);
	/* another room and a hand elsewhere still go in */
	assert_non_null(matrix_outbox_add(o, "!game:hs", NULL, NULL, "a turn", NULL, NULL, 0));
	assert_non_null(matrix_outbox_add(o, NULL, "@ann:hs", "!game:hs", "Your hand", NULL, NULL, 0));
	/* a flooder's answers fill his own lane, not the game's */
	for (i = 0, taken = 0; i < MATRIX_OUTBOX_LANE + 50; i++) {
		snprintf(key, sizeof key, "k%d", i);
		taken += matrix_outbox_add_key(o, "!game:hs", NULL, NULL, "an answer", NULL, NULL, 0,
				&(struct matrix_answer){ .key = key, .asker = "@eve:hs" }) != NULL;
	}
	assert_int_equal(taken, MATRIX_OUTBOX_LANE);
	/* the turn counts; ann's hand, waiting for her direct room, does not:
	 * nobody waits on a player who may never join it */
	assert_int_equal(matrix_outbox_count_room(o, "!game:hs"), 1);
	assert_non_null(matrix_outbox_add(o, "!game:hs", NULL, NULL, "the game's end", NULL, NULL, 0));
	assert_non_null(matrix_outbox_add_key(o, "!game:hs", NULL, NULL, "Pile: 7", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "pile", .asker = "@bob:hs" }));
	assert_int_equal(matrix_outbox_count_room(o, "!game:hs"), 2);
	/* bob's hand, his direct room known, is the game's (the computer waits
	 * for it) but not the room's: an answer about the table does not */
	assert_non_null(matrix_outbox_add(o, "!dm-bob:hs", "@bob:hs", "!game:hs", "Your hand", NULL, NULL, 0));
	assert_int_equal(matrix_outbox_count_room(o, "!game:hs"), 3);
	assert_int_equal(matrix_outbox_count_told(o, "!game:hs"), 2);
	/* cy's answer that must be delivered ("cy steps away"): the game's, in
	 * order, but not the story an answer about the table counts */
	assert_non_null(matrix_outbox_add_key(o, "!game:hs", NULL, NULL, "cy steps away", NULL, NULL, 0,
			&(struct matrix_answer){ .key = NULL, .asker = "@cy:hs" }));
	assert_int_equal(matrix_outbox_count_room(o, "!game:hs"), 4);
	assert_int_equal(matrix_outbox_count_told(o, "!game:hs"), 2);
	/* and so after a restart */
	matrix_outbox_free(o);
	o = matrix_outbox_new(&st);
	assert_int_equal(matrix_outbox_count_told(o, "!game:hs"), 2);
	matrix_outbox_free(o);
	memstore_free(ms);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A pointer at an answer said a moment ago ("the same as 3 s ago, above",
 * again) replaces nothing: while that answer still waits it says it, and
 * the pointer is neither queued nor stored; once it has gone, the pointer
 * is queued like any answer. */
static void
test_pointer_said_by_the_answer_waiting(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	struct matrix_out *full, *m;
	int64_t wait;

	(void)state;
	full = matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "Pile: 7 and a long story", NULL, NULL, 0,
	                             &(struct matrix_answer){ .key = "pile", .asker = "@cy:hs" });
	assert_non_null(full);
	m = matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "cy: the same as 3 s ago, above.", NULL, NULL, 0,
	                          &(struct matrix_answer){ .key = "pile", .asker = "@cy:hs", .again = true });
	assert_ptr_equal(m, full);
	assert_int_equal(matrix_outbox_count(o), 1);
	assert_int_equal(memstore_count(ms, "out/"), 1);
	m = matrix_outbox_next(o, 0, &wait);
	assert_ptr_equal(m, full);
	matrix_outbox_flying(o, m);
	matrix_outbox_done(o, m);
	m = matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "cy: the same as 5 s ago, above.", NULL, NULL, 0,
	                          &(struct matrix_answer){ .key = "pile", .asker = "@cy:hs", .again = true });
	assert_non_null(m);
	assert_string_equal(m->body, "cy: the same as 5 s ago, above.");
	assert_int_equal(matrix_outbox_count(o), 1);
	matrix_outbox_free(o);
	memstore_free(ms);
}

/* A newer answer replaces the same answer to the same place still waiting:
 * a flooder's questions queue one answer, not one each. */
static void
test_supersede(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	struct matrix_out *m, *first;
	char *sent[4];
	int64_t wait;

	(void)state;
	first = matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "Pile: 7", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "pile", .asker = NULL });
	matrix_outbox_flying(o, first);
	/* one in flight stays: it is on its way already */
	matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "Pile: 8", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "pile", .asker = NULL });
	matrix_outbox_add(o, "!g:hs", NULL, NULL, "a turn", NULL, NULL, 0);
	matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "Pile: 9", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "pile", .asker = NULL });
	/* a hand to ann is not the room's pile, nor bob's hand */
	matrix_outbox_add_key(o, NULL, "@ann:hs", "!g:hs", "ann 1", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "hand", .asker = NULL });
	matrix_outbox_add_key(o, NULL, "@bob:hs", "!g:hs", "bob 1", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "hand", .asker = NULL });
	matrix_outbox_add_key(o, NULL, "@ann:hs", "!g:hs", "ann 2", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "hand", .asker = NULL });
	assert_int_equal(matrix_outbox_count(o), 5);
	assert_int_equal(memstore_count(ms, "out/"), 5);
	matrix_outbox_done(o, first);
	matrix_outbox_resolve(o, "@ann:hs", "!dmann:hs");
	matrix_outbox_resolve(o, "@bob:hs", "!dmbob:hs");
	/* what goes: the turn, the newest pile, bob's hand, ann's newest hand */
	for (int i = 0; i < 4; i++) {
		m = matrix_outbox_next(o, 0, &wait);
		assert_non_null(m);
		sent[i] = xstrdup(m->body);
		matrix_outbox_flying(o, m);
		matrix_outbox_done(o, m);
	}
	assert_null(matrix_outbox_next(o, 0, &wait));
	qsort(sent, 4, sizeof sent[0], cmp_str);
	assert_string_equal(sent[0], "Pile: 9");
	assert_string_equal(sent[1], "a turn");
	assert_string_equal(sent[2], "ann 2");
	assert_string_equal(sent[3], "bob 1");
	for (int i = 0; i < 4; i++)
		free(sent[i]);
	matrix_outbox_free(o);
	memstore_free(ms);
}

/* A long answer cut into two messages keeps both: its second piece
 * continues it, never replaces it (each piece once replaced the one before
 * it); a newer answer replaces both. */
static void
test_pieces_kept(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	struct matrix_out *m;
	int64_t wait;

	(void)state;
	matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "rules 1", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "rules", .asker = "@eve:hs" });
	matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "rules 2", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "rules", .asker = "@eve:hs", .piece = true });
	assert_int_equal(matrix_outbox_count(o), 2);
	matrix_outbox_add_key(o, "!g:hs", NULL, NULL, "rules again", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "rules", .asker = "@eve:hs" });
	assert_int_equal(matrix_outbox_count(o), 1);
	assert_int_equal(memstore_count(ms, "out/"), 1);
	m = matrix_outbox_next(o, 0, &wait);
	assert_non_null(m);
	assert_string_equal(m->body, "rules again");
	matrix_outbox_free(o);
	memstore_free(ms);
}

static void
test_private_waits_for_its_room(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	const char *men[] = { "@ann:hs" };
	struct matrix_out *p, *m;
	int64_t wait;
	char *content;

	(void)state;
	p = matrix_outbox_add(o, NULL, "@ann:hs", "!game:hs", "A×2 K", "<b>A</b>×2 K", men, 1);
	assert_null(matrix_outbox_next(o, 0, &wait));
	assert_int_equal(wait, -1);
	assert_ptr_equal(matrix_outbox_unresolved(o, NULL), p);
	matrix_outbox_resolve(o, "@ann:hs", "!dm:hs");
	m = matrix_outbox_next(o, 0, &wait);
	assert_ptr_equal(m, p);
	assert_string_equal(m->room, "!dm:hs");
	content = matrix_outbox_content(m);
	assert_non_null(strstr(content, "\"msgtype\":\"m.notice\""));
	assert_non_null(strstr(content, "\"format\":\"org.matrix.custom.html\""));
	assert_non_null(strstr(content, "\"m.mentions\":{\"user_ids\":[\"@ann:hs\"]}"));
	free(content);
	matrix_outbox_free(o);
	/* the resolved room was persisted */
	o = matrix_outbox_new(&st);
	m = matrix_outbox_next(o, 0, &wait);
	assert_non_null(m);
	assert_string_equal(m->room, "!dm:hs");
	assert_string_equal(m->context, "!game:hs");
	assert_int_equal(m->nmentions, 1);
	matrix_outbox_free(o);
	memstore_free(ms);
}

/* A room whose sends are refused: its messages go, from the store too; the
 * one in flight stays; with no target, every message. */
static void
test_drop(void **state)
{
	struct memstore *ms = memstore_new();
	struct matrix_store st = store_of(ms);
	struct matrix_outbox *o = matrix_outbox_new(&st);
	struct matrix_out *m;
	int64_t wait;

	(void)state;
	matrix_outbox_add(o, "!a:hs", NULL, NULL, "a1", NULL, NULL, 0);
	matrix_outbox_add(o, "!a:hs", NULL, NULL, "a2", NULL, NULL, 0);
	matrix_outbox_add_key(o, "!a:hs", NULL, NULL, "Pile: 7", NULL, NULL, 0,
			&(struct matrix_answer){ .key = "pile", .asker = "@eve:hs" });
	matrix_outbox_add(o, "!b:hs", NULL, NULL, "b1", NULL, NULL, 0);
	m = matrix_outbox_next(o, 0, &wait);
	assert_string_equal(m->body, "a1");
	matrix_outbox_flying(o, m);
	assert_int_equal(matrix_outbox_drop(o, "!a:hs"), 2);
	assert_int_equal(matrix_outbox_count(o), 2);
	assert_int_equal(memstore_count(ms, "out/"), 2);
	assert_int_equal(matrix_outbox_count_room(o, "!a:hs"), 1);
	matrix_outbox_done(o, m);
	assert_int_equal(matrix_outbox_drop(o, NULL), 1);
	assert_int_equal(matrix_outbox_count(o), 0);
	assert_int_equal(memstore_count(ms, "out/"), 0);
	matrix_outbox_free(o);
	memstore_free(ms);
}

static void
test_backoff(void **state)
{
	(void)state;
	assert_int_equal(matrix_outbox_backoff(1), 500);
	assert_int_equal(matrix_outbox_backoff(2), 1000);
	assert_int_equal(matrix_outbox_backoff(4), 4000);
	assert_int_equal(matrix_outbox_backoff(40), 30000);
}

static const char *
html(const char *m, const char *prefix)
{
	static struct rbuf b;

	rbuf_reset(&b);
	matrix_html(&b, m, strlen(m), prefix);
	return b.s;
}

/* Styled text as org.matrix.custom.html: tags for bold and the colour roles,
 * the text escaped, <br> between lines, commands with the prefix. */
static void
test_html(void **state)
{
	(void)state;
	assert_string_equal(html(ST_BOLD "Round 2" ST_END ": <ann> & \"bob\"", "!"),
	                    "<b>Round 2</b>: &lt;ann&gt; &amp; &quot;bob&quot;");
	assert_string_equal(html(ST_CLEAN "[K K K clean]" ST_END " " ST_DIRTY "[9 9 2 dirty]" ST_END, "!"),
	                    "<span data-mx-color=\"#cc0000\">[K K K clean]</span> <span data-mx-color=\"#555555\">[9 9 2 dirty]</span>");
	/* nested roles close in order, and every role is closed at a line break */
	assert_string_equal(html(ST_BOLD "a " ST_RED "3" ST_BR "b", "!"),
	                    "<b>a <span data-mx-color=\"#cc0000\">3</span></b><br>b");
	assert_string_equal(html(ST_PLAYER "ann" ST_END ": " ST_CARD "3♥" ST_END, "!"), "ann: 3♥");
	assert_string_equal(html("open one with " ST_COMMAND "new" ST_END, "!"), "open one with !new");
	assert_string_equal(html("use " ST_COMMAND "x" ST_END, "<&>"), "use &lt;&amp;&gt;x");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_order_per_room_and_persistence),
		cmocka_unit_test(test_lane_bound),
		cmocka_unit_test(test_supersede),
		cmocka_unit_test(test_pointer_said_by_the_answer_waiting),
		cmocka_unit_test(test_pieces_kept),
		cmocka_unit_test(test_private_waits_for_its_room),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_backoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
