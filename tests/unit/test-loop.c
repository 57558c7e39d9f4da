/* test-loop.c: the event loop: timers in order with a fake clock, deletion, fd watches, wake-ups. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <unistd.h>

#include "loop.h"

struct clock { int64_t now; };

static int64_t
fake_now(void *ctx)
{
	return ((struct clock *)ctx)->now;
}

struct rec { int order[64]; int n; int period_runs; };

static int64_t
once(struct loop *l, long long id, void *data)
{
	struct rec *r = data;

	(void)l;
	r->order[r->n++] = (int)id;
	return LOOP_NOMORE;
}

static int64_t
periodic(struct loop *l, long long id, void *data)
{
	struct rec *r = data;

	(void)l;
	(void)id;
	return ++r->period_runs < 3 ? 100 : LOOP_NOMORE;
}

static void
test_timers_fire_in_time_order(void **state)
{
	struct clock c = { 1000 };
	struct rec r = { .n = 0 };
	struct loop *l = loop_new();
	long long a, b, d;

	(void)state;
	loop_set_clock(l, fake_now, &c);
	a = loop_timer_add(l, 300, once, &r);
	b = loop_timer_add(l, 100, once, &r);
	d = loop_timer_add(l, 200, once, &r);
	loop_timer_del(l, d);
	loop_run_once(l, 0);
	assert_int_equal(r.n, 0);
	c.now += 150;
	loop_run_once(l, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.order[0], b);
	c.now += 1000;
	loop_run_once(l, 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.order[1], a);
	loop_timer_del(l, a);   /* gone already: harmless */
	loop_free(l);
}

static int64_t
forever_again(struct loop *l, long long id, void *data)
{
	struct rec *r = data;

	(void)l;
	(void)id;
	r->period_runs++;
	return INT64_MAX;
}

/* A wait of any length, from any caller (a hostile server's retry_after, a
 * timer's own "again"), is far away, never in the past: now + ms saturates
 * instead of overflowing into a timer that fires at once, every turn. */
static void
test_timer_far_away_does_not_overflow(void **state)
{
	struct clock c = { 5000 };
	struct rec r = { .n = 0 };
	struct loop *l = loop_new();

	(void)state;
	loop_set_clock(l, fake_now, &c);
	loop_timer_add(l, INT64_MAX, once, &r);
	loop_timer_add(l, INT64_MAX - 1000, once, &r);
	loop_timer_add(l, 10, forever_again, &r);
	loop_run_once(l, 0);
	assert_int_equal(r.n, 0);
	c.now += 10;
	loop_run_once(l, 0);
	assert_int_equal(r.period_runs, 1);
	/* the one that asked to run again in INT64_MAX ms does not come back */
	c.now += 1000000;
	loop_run_once(l, 0);
	loop_run_once(l, 0);
	assert_int_equal(r.period_runs, 1);
	assert_int_equal(r.n, 0);
	loop_free(l);
}

static void
test_periodic_timer_and_many_deletions(void **state)
{
	struct clock c = { 0 };
	struct rec r = { .n = 0 };
	struct loop *l = loop_new();
	long long ids[5000];

	(void)state;
	loop_set_clock(l, fake_now, &c);
	for (int i = 0; i < 5000; i++)
		ids[i] = loop_timer_add(l, 1000 + i, once, &r);
	for (int i = 0; i < 5000; i++)
		if (i != 4242)
			loop_timer_del(l, ids[i]);
	loop_timer_add(l, 100, periodic, &r);
	for (int i = 0; i < 5; i++) {
		c.now += 100;
		loop_run_once(l, 0);
	}
	assert_int_equal(r.period_runs, 3);
	c.now += 10000;
	loop_run_once(l, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.order[0], ids[4242]);
	loop_free(l);
}

struct fdrec { int reads; char buf[16]; };

static void
on_read(struct loop *l, int fd, int mask, void *data)
{
	struct fdrec *f = data;

	(void)l;
	assert_true(mask & LOOP_READ);
	assert_int_equal(read(fd, f->buf, sizeof f->buf), 3);
	f->reads++;
}

static void
on_wake(struct loop *l, void *data)
{
	(void)l;
	(*(int *)data)++;
}

static void
test_fd_watch_and_wake(void **state)
{
	struct loop *l = loop_new();
	struct fdrec f = { 0 };
	int p[2], woken = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	loop_watch(l, p[0], LOOP_READ, on_read, &f);
	loop_on_wake(l, on_wake, &woken);
	assert_int_equal(write(p[1], "abc", 3), 3);
	loop_run_once(l, 1000);
	assert_int_equal(f.reads, 1);
	loop_wake(l);
	loop_wake(l);
	loop_run_once(l, 1000);
	assert_int_equal(woken, 1);     /* two wakes before a turn: one call */
	loop_unwatch(l, p[0]);
	assert_int_equal(write(p[1], "abc", 3), 3);
	loop_run_once(l, 0);
	assert_int_equal(f.reads, 1);
	close(p[0]);
	close(p[1]);
	loop_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timers_fire_in_time_order),
		cmocka_unit_test(test_periodic_timer_and_many_deletions),
		cmocka_unit_test(test_timer_far_away_does_not_overflow),
		cmocka_unit_test(test_fd_watch_and_wake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
