/* test-fifo.c: lib/fifo.c (order, pop, take-all leaving it empty) and lib/wakefd.c (a ring wakes poll, a drain quiets it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <stdbool.h>
#include <unistd.h>

#include "fifo.h"
#include "wakefd.h"

struct thing {
	struct fifo_link link;
	int n;
};

static void
test_first_in_first_out(void **state)
{
	struct fifo f = { 0 };
	struct thing t[4];
	struct fifo_link *l;
	int i;

	(void)state;
	assert_null(fifo_pop(&f));
	for (i = 0; i < 4; i++) {
		t[i].n = i;
		fifo_push(&f, &t[i].link);
	}
	assert_int_equal(((struct thing *)fifo_pop(&f))->n, 0);
	assert_int_equal(((struct thing *)fifo_pop(&f))->n, 1);
	/* take-all hands the rest in order and leaves the list empty, usable again */
	l = fifo_take_all(&f);
	assert_null(f.head);
	assert_null(f.tail);
	assert_int_equal(((struct thing *)l)->n, 2);
	assert_int_equal(((struct thing *)l->next)->n, 3);
	assert_null(l->next->next);
	fifo_push(&f, &t[0].link);
	assert_ptr_equal(fifo_pop(&f), &t[0].link);
	/* popping the last one empties the tail too: the next push is the head */
	assert_null(f.tail);
	fifo_push(&f, &t[1].link);
	assert_ptr_equal(f.head, &t[1].link);
	assert_null(fifo_take_all(&(struct fifo){ 0 }));
}

static bool
readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void
test_ring_and_drain(void **state)
{
	int fd = wakefd_open();

	(void)state;
	assert_true(fd >= 0);
	assert_false(readable(fd));
	wakefd_ring(fd);
	wakefd_ring(fd);
	assert_true(readable(fd));
	/* one drain takes every ring so far */
	wakefd_drain(fd);
	assert_false(readable(fd));
	/* draining what is empty does not block (non-blocking) */
	wakefd_drain(fd);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_in_first_out),
		cmocka_unit_test(test_ring_and_drain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
