/* test-serve.c: lib/serve.c (steps run until stopped, a step's < 0 ends the thread, stop wakes a blocked step and joins). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <stdatomic.h>
#include <unistd.h>

#include "serve.h"
#include "wakefd.h"

struct worker {
	int fd;                 /* a step waits on it, as lws_service waits on its sockets */
	atomic_int steps;
	int last;               /* the step that returns < 0; 0: none */
	atomic_int wakes;
};

static int
step(void *ctx)
{
	struct worker *k = ctx;
	struct pollfd p = { .fd = k->fd, .events = POLLIN };
	int n = atomic_fetch_add(&k->steps, 1) + 1;

	if (k->last != 0 && n >= k->last)
		return -1;
	/* blocks until woken: only stop's wake ends this wait */
	(void)poll(&p, 1, -1);
	wakefd_drain(k->fd);
	return 0;
}

static void
wake(void *ctx)
{
	struct worker *k = ctx;

	atomic_fetch_add(&k->wakes, 1);
	wakefd_ring(k->fd);
}

/* A worker whose step last ends the thread (0: none), its thread started. */
static struct serve *
worker_start(struct worker *k, int last)
{
	struct serve *s;

	k->fd = wakefd_open();
	k->last = last;
	assert_true(k->fd >= 0);
	atomic_init(&k->steps, 0);
	atomic_init(&k->wakes, 0);
	assert_non_null(s = serve_start(step, wake, k));
	return s;
}

static void
test_stop_wakes_and_joins(void **state)
{
	struct worker k;
	struct serve *s = worker_start(&k, 0);

	(void)state;
	while (atomic_load(&k.steps) == 0)
		usleep(1000);
	/* the step is blocked in poll: stop must wake it, then wait for its end */
	serve_stop(s);
	assert_int_equal(atomic_load(&k.wakes), 1);
	/* joined: no step runs after stop returned */
	int after = atomic_load(&k.steps);
	usleep(20000);
	assert_int_equal(atomic_load(&k.steps), after);
	serve_stop(NULL);
	close(k.fd);
}

static void
test_step_ends_the_thread(void **state)
{
	struct worker k;
	struct serve *s = worker_start(&k, 3);

	(void)state;
	/* steps 1 and 2 block until rung; the third returns < 0 and ends the thread */
	for (int i = 0; i < 2; i++) {
		while (atomic_load(&k.steps) <= i)
			usleep(1000);
		wakefd_ring(k.fd);
	}
	while (atomic_load(&k.steps) < 3)
		usleep(1000);
	usleep(20000);
	assert_int_equal(atomic_load(&k.steps), 3);
	/* stopping a thread that ended already still joins it */
	serve_stop(s);
	assert_int_equal(atomic_load(&k.steps), 3);
	close(k.fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_wakes_and_joins),
		cmocka_unit_test(test_step_ends_the_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
