/* test-matrix-outbox.c: the Matrix send queue: txn ids persisted before a try, order per room, backoff, restore after restart. */
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
	a1->in_flight = true;
	/* a2 waits for a1 (order in a room); b1 may go meanwhile */
	assert_ptr_equal(matrix_outbox_next(o, 0, &wait), b1);
	b1->in_flight = true;
	assert_null(matrix_outbox_next(o, 0, &wait));
	/* a1 is rate limited: a2 still waits behind it */
	matrix_outbox_retry(o, a1, 0, 1500);
	assert_null(matrix_outbox_next(o, 1000, &wait));
	assert_int_equal(wait, 500);
	assert_ptr_equal(matrix_outbox_next(o, 1500, &wait), a1);
	snprintf(txn, sizeof txn, "%s", a1->txn);
	a1->in_flight = true;
	matrix_outbox_done(o, a1);
	assert_ptr_equal(matrix_outbox_next(o, 1500, &wait), a2);
	matrix_outbox_done(o, b1);
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
	                    "<font color=\"#cc0000\">[K K K clean]</font> <font color=\"#555555\">[9 9 2 dirty]</font>");
	/* nested roles close in order, and every role is closed at a line break */
	assert_string_equal(html(ST_BOLD "a " ST_RED "3" ST_BR "b", "!"),
	                    "<b>a <font color=\"#cc0000\">3</font></b><br>b");
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
		cmocka_unit_test(test_private_waits_for_its_room),
		cmocka_unit_test(test_backoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
