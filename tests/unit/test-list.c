/* test-list.c: lib/list.h (append, insert before, unlink at the head, the middle and the tail; push and remove on a list without a tail). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "list.h"

struct thing {
	struct thing *prev, *next;
	int n;
};

struct owner {
	struct thing *head, *tail;
};

/* The list's numbers, front to back, checking every back link on the way. */
static int
walk(const struct thing *head, const struct thing *tail, int *out)
{
	int k = 0;
	const struct thing *prev = NULL;

	for (const struct thing *t = head; t != NULL; prev = t, t = t->next) {
		assert_ptr_equal(t->prev, prev);
		out[k++] = t->n;
	}
	if (tail != NULL || head == NULL)
		assert_ptr_equal(prev, tail);
	return k;
}

static void
test_append_insert_unlink(void **state)
{
	struct owner o = { 0 };
	struct thing t[5];
	struct thing *at, *it;
	int got[5];

	(void)state;
	for (int i = 0; i < 5; i++)
		t[i].n = i;
	for (int i = 0; i < 3; i++) {
		it = &t[i];
		LIST_APPEND(o.head, o.tail, it);
	}
	assert_int_equal(walk(o.head, o.tail, got), 3);
	assert_int_equal(got[0] * 100 + got[1] * 10 + got[2], 12);
	/* before the head, before the middle, and at NULL: after the tail */
	at = &t[0], it = &t[3];
	LIST_INSERT_BEFORE(o.head, o.tail, at, it);
	at = &t[2], it = &t[4];
	LIST_INSERT_BEFORE(o.head, o.tail, at, it);
	assert_int_equal(walk(o.head, o.tail, got), 5);
	assert_int_equal(got[0], 3);
	assert_int_equal(got[1], 0);
	assert_int_equal(got[3], 4);
	assert_int_equal(got[4], 2);
	/* unlinking the middle, the head and the tail keeps both ends right */
	it = &t[1];
	LIST_UNLINK(o.head, o.tail, it);
	it = &t[3];
	LIST_UNLINK(o.head, o.tail, it);
	it = &t[2];
	LIST_UNLINK(o.head, o.tail, it);
	assert_int_equal(walk(o.head, o.tail, got), 2);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 4);
	it = &t[1], at = NULL;
	LIST_INSERT_BEFORE(o.head, o.tail, at, it);
	assert_ptr_equal(o.tail, &t[1]);
	/* emptied, both ends are NULL and the next append is the head */
	for (int i = 0; i < 3; i++) {
		it = o.head;
		LIST_UNLINK(o.head, o.tail, it);
	}
	assert_null(o.head);
	assert_null(o.tail);
	it = &t[2];
	LIST_APPEND(o.head, o.tail, it);
	assert_ptr_equal(o.head, &t[2]);
	assert_ptr_equal(o.tail, &t[2]);
}

static void
test_push_remove(void **state)
{
	struct thing *head = NULL, *it;
	struct thing t[3];
	int got[3];

	(void)state;
	for (int i = 0; i < 3; i++) {
		t[i].n = i;
		it = &t[i];
		LIST_PUSH(head, it);
	}
	/* pushed at the front: newest first */
	assert_int_equal(walk(head, NULL, got), 3);
	assert_int_equal(got[0] * 100 + got[1] * 10 + got[2], 210);
	it = &t[1];
	LIST_REMOVE(head, it);
	it = &t[2];
	LIST_REMOVE(head, it);
	assert_int_equal(walk(head, NULL, got), 1);
	assert_int_equal(got[0], 0);
	it = &t[0];
	LIST_REMOVE(head, it);
	assert_null(head);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_insert_unlink),
		cmocka_unit_test(test_push_remove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
