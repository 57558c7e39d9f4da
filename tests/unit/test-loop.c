/* test-loop.c: the event loop: timers in order with a fake clock, deletion, one-shot timers, fd watches, wake-ups. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
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

/* ---- loop_once: a one-shot timer whose id its owner keeps */

struct owner {
	struct clock c;
	struct loop *l;
	long long slot;
	long long seen;                 /* the slot as fn found it */
	int runs, again, other;
};

static void
owner_run(void *data)
{
	struct owner *o = data;

	o->seen = o->slot;
	o->runs++;
	if (o->runs < o->again)
		loop_once(o->l, &o->slot, 100, owner_run, o);
}

static void
owner_other(void *data)
{
	((struct owner *)data)->other++;
}

static void
owner_start(struct owner *o)
{
	o->l = loop_new();
	loop_set_clock(o->l, fake_now, &o->c);
}

/* ms go by, then one turn of the loop */
static void
later(struct owner *o, int64_t ms)
{
	o->c.now += ms;
	loop_run_once(o->l, 0);
}

/* The owner reads its slot to know whether one is pending: by the time fn
 * runs, it is not. */
static void
test_once_clears_its_slot_before_it_runs(void **state)
{
	struct owner o = { .seen = -1 };

	(void)state;
	owner_start(&o);
	loop_once(o.l, &o.slot, 50, owner_run, &o);
	assert_true(o.slot > 0);
	later(&o, 0);
	assert_int_equal(o.runs, 0);
	later(&o, 50);
	assert_int_equal(o.runs, 1);
	assert_int_equal(o.seen, 0);
	assert_int_equal(o.slot, 0);
	later(&o, 1000);
	assert_int_equal(o.runs, 1);
	loop_free(o.l);
}

/* fn may schedule the next one in the slot it was called from: that one
 * stays pending (the slot holds it) and runs on a later turn. */
static void
test_once_may_schedule_again_from_fn(void **state)
{
	struct owner o = { .again = 3 };

	(void)state;
	owner_start(&o);
	loop_once(o.l, &o.slot, 0, owner_run, &o);
	later(&o, 0);
	assert_int_equal(o.runs, 1);
	assert_true(o.slot > 0);
	later(&o, 0);                   /* not due yet, and not on the same turn */
	assert_int_equal(o.runs, 1);
	later(&o, 100);
	assert_int_equal(o.runs, 2);
	assert_true(o.slot > 0);
	later(&o, 100);
	assert_int_equal(o.runs, 3);
	assert_int_equal(o.slot, 0);
	later(&o, 1000);
	assert_int_equal(o.runs, 3);
	loop_free(o.l);
}

/* A second loop_once on a pending slot replaces it: only the newer runs,
 * when it is due, even after the older one's time. */
static void
test_once_replaces_the_pending_one(void **state)
{
	struct owner o = { 0 };
	long long first;

	(void)state;
	owner_start(&o);
	loop_once(o.l, &o.slot, 100, owner_other, &o);
	first = o.slot;
	loop_once(o.l, &o.slot, 200, owner_run, &o);
	assert_true(o.slot > first);
	later(&o, 150);
	assert_int_equal(o.other + o.runs, 0);
	later(&o, 100);
	assert_int_equal(o.runs, 1);
	assert_int_equal(o.other, 0);
	loop_free(o.l);
}

static void
test_once_cancel(void **state)
{
	struct owner o = { 0 };

	(void)state;
	owner_start(&o);
	loop_once_cancel(o.l, &o.slot);         /* none pending: harmless */
	loop_once(o.l, &o.slot, 10, owner_other, &o);
	loop_once_cancel(o.l, &o.slot);
	assert_int_equal(o.slot, 0);
	later(&o, 1000);
	assert_int_equal(o.other, 0);
	loop_free(o.l);
}

/* loop_once_at: the same due time asked again keeps the pending timer (its
 * id does not change); a new one moves it, a past one runs at once, -1
 * cancels; once it has run, the same time schedules it again. */
static void
test_once_at_follows_the_due_time(void **state)
{
	struct owner o = { 0 };
	int64_t at = -1;
	long long id;

	(void)state;
	owner_start(&o);
	loop_once_at(o.l, &o.slot, &at, 100, owner_run, &o);
	id = o.slot;
	assert_true(id > 0);
	loop_once_at(o.l, &o.slot, &at, 100, owner_run, &o);
	assert_int_equal(o.slot, id);
	loop_once_at(o.l, &o.slot, &at, 300, owner_run, &o);
	assert_true(o.slot > id);
	later(&o, 200);
	assert_int_equal(o.runs, 0);
	later(&o, 100);
	assert_int_equal(o.runs, 1);
	assert_int_equal(o.slot, 0);
	/* run: the same due time (now past) is pending again, due at once */
	loop_once_at(o.l, &o.slot, &at, 300, owner_run, &o);
	assert_true(o.slot > 0);
	later(&o, 0);
	assert_int_equal(o.runs, 2);
	loop_once_at(o.l, &o.slot, &at, 1000, owner_run, &o);
	loop_once_at(o.l, &o.slot, &at, -1, owner_run, &o);
	assert_int_equal(o.slot, 0);
	later(&o, 2000);
	assert_int_equal(o.runs, 2);
	/* no slot_at: the same time asked again schedules it again (a new id) */
	loop_once_at(o.l, &o.slot, NULL, 3000, owner_run, &o);
	id = o.slot;
	loop_once_at(o.l, &o.slot, NULL, 3000, owner_run, &o);
	assert_true(o.slot > id);
	later(&o, 1000);
	assert_int_equal(o.runs, 3);
	loop_free(o.l);
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

/* A library that owns its socket (libstrophe, libwebsockets): the adapter
 * watches the library's fd with its own pointer, asks for what the library
 * wants next (write while it has output, else read) from inside the
 * callback, and lets go of the fd from inside it when the library closes. */
struct toylib { int fd; size_t out; int reads; bool closed; };
struct toyadapter { struct toylib *lib; int writes; int calls; };

static void
toy_ready(struct loop *l, int fd, int mask, void *data)
{
	struct toyadapter *a = data;
	char c;

	a->calls++;
	assert_int_equal(fd, a->lib->fd);
	if (mask & LOOP_WRITE) {
		assert_int_equal(write(fd, "x", 1), 1);
		a->writes++;
		a->lib->out--;
	}
	if (mask & LOOP_READ) {
		if (read(fd, &c, 1) == 1)
			a->lib->reads++;
		else
			a->lib->closed = true;
	}
	if (a->lib->closed)
		loop_unwatch(l, fd);
	else
		loop_watch(l, fd, LOOP_READ | (a->lib->out ? LOOP_WRITE : 0), toy_ready, a);
}

static void
test_fd_watch_for_a_library_socket(void **state)
{
	struct loop *l = loop_new();
	struct toylib lib = { .out = 2 };
	struct toyadapter a = { .lib = &lib };
	int sv[2];
	char buf[4];
	int calls;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	lib.fd = sv[0];
	assert_int_equal(loop_watch(l, lib.fd, LOOP_READ | LOOP_WRITE, toy_ready, &a), 0);
	loop_run_once(l, 1000);
	loop_run_once(l, 1000);
	assert_int_equal(a.writes, 2);          /* the library's output went out */
	assert_int_equal(read(sv[1], buf, sizeof buf), 2);
	loop_run_once(l, 0);
	assert_int_equal(a.writes, 2);          /* nothing to write: no longer asked */
	assert_int_equal(write(sv[1], "y", 1), 1);
	loop_run_once(l, 1000);
	assert_int_equal(lib.reads, 1);         /* the peer's byte reached the library */
	close(sv[1]);
	loop_run_once(l, 1000);
	assert_true(lib.closed);
	calls = a.calls;
	loop_run_once(l, 0);
	assert_int_equal(a.calls, calls);       /* unwatched from its own callback */
	close(sv[0]);
	loop_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timers_fire_in_time_order),
		cmocka_unit_test(test_periodic_timer_and_many_deletions),
		cmocka_unit_test(test_timer_far_away_does_not_overflow),
		cmocka_unit_test(test_once_clears_its_slot_before_it_runs),
		cmocka_unit_test(test_once_may_schedule_again_from_fn),
		cmocka_unit_test(test_once_replaces_the_pending_one),
		cmocka_unit_test(test_once_cancel),
		cmocka_unit_test(test_once_at_follows_the_due_time),
		cmocka_unit_test(test_fd_watch_and_wake),
		cmocka_unit_test(test_fd_watch_for_a_library_socket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
