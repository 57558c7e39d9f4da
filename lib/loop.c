/* loop.c: the single event loop: poll(2) over fd watchers, a timer heap, an eventfd wake-up. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loop.h"
#include "wakefd.h"
#include "xmalloc.h"

struct watch {
	int fd, mask;
	loop_fd_fn *fn;
	void *data;
};

struct timer {
	long long id;
	int64_t when;
	loop_timer_fn *fn;
	loop_once_fn *once;             /* instead of fn: a loop_once timer */
	long long *slot;                /* a loop_once timer's id, its owner's */
	void *data;
	size_t heap_at;                 /* index in the heap */
};

struct hook {
	loop_hook_fn *fn;
	void *data;
};

#define MAX_HOOKS 16

struct loop {
	struct watch *watches;
	size_t nwatches, capwatches;
	struct pollfd *pfds;
	size_t cappfds;

	/* A binary min-heap on (when, id), and an open-addressing index id -> timer
	 * so that deleting one of 10,000 turn timers is not a linear search. */
	struct timer **heap;
	size_t nheap, capheap;
	struct timer **index;           /* size capindex, a power of two; NULL empty, TOMB deleted */
	size_t capindex, nindex;
	long long next_id;

	struct hook before[MAX_HOOKS], wake[MAX_HOOKS];
	int nbefore, nwake;
	int wakefd;

	loop_clock_fn *clock;
	void *clock_ctx;
	bool stop;
};

static struct timer tomb_timer;
#define TOMB (&tomb_timer)

static int64_t
monotonic_ms(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
wake_read(struct loop *l, int fd, int mask, void *data)
{
	(void)mask;
	(void)data;
	wakefd_drain(fd);
	for (int i = 0; i < l->nwake; i++)
		l->wake[i].fn(l, l->wake[i].data);
}

struct loop *
loop_new(void)
{
	struct loop *l = xcalloc(1, sizeof *l);

	l->clock = monotonic_ms;
	l->next_id = 1;
	l->wakefd = wakefd_open();
	if (l->wakefd == -1 || loop_watch(l, l->wakefd, LOOP_READ, wake_read, NULL) == -1) {
		loop_free(l);
		return NULL;
	}
	return l;
}

void
loop_free(struct loop *l)
{
	if (l == NULL)
		return;
	for (size_t i = 0; i < l->nheap; i++)
		free(l->heap[i]);
	free(l->heap);
	free(l->index);
	free(l->watches);
	free(l->pfds);
	if (l->wakefd != -1)
		close(l->wakefd);
	free(l);
}

/* ---- fd watchers */

static struct watch *
watch_find(struct loop *l, int fd)
{
	for (size_t i = 0; i < l->nwatches; i++)
		if (l->watches[i].fd == fd)
			return &l->watches[i];
	return NULL;
}

int
loop_watch(struct loop *l, int fd, int mask, loop_fd_fn *fn, void *data)
{
	struct watch *w;

	if (mask == 0) {
		loop_unwatch(l, fd);
		return 0;
	}
	if ((w = watch_find(l, fd)) == NULL) {
		if (l->nwatches == l->capwatches) {
			size_t cap = l->capwatches ? l->capwatches * 2 : 8;
			l->watches = xreallocarray(l->watches, cap, sizeof *l->watches);
			l->capwatches = cap;
		}
		w = &l->watches[l->nwatches++];
	}
	w->fd = fd;
	w->mask = mask;
	w->fn = fn;
	w->data = data;
	return 0;
}

void
loop_unwatch(struct loop *l, int fd)
{
	struct watch *w = watch_find(l, fd);

	if (w != NULL)
		*w = l->watches[--l->nwatches];
}

/* ---- timers: heap */

static bool
timer_before(const struct timer *a, const struct timer *b)
{
	return a->when < b->when || (a->when == b->when && a->id < b->id);
}

static void
heap_swap(struct loop *l, size_t i, size_t j)
{
	struct timer *t = l->heap[i];

	l->heap[i] = l->heap[j];
	l->heap[j] = t;
	l->heap[i]->heap_at = i;
	l->heap[j]->heap_at = j;
}

static void
heap_up(struct loop *l, size_t i)
{
	while (i > 0 && timer_before(l->heap[i], l->heap[(i - 1) / 2])) {
		heap_swap(l, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void
heap_down(struct loop *l, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, m = i;
		if (c < l->nheap && timer_before(l->heap[c], l->heap[m]))
			m = c;
		if (c + 1 < l->nheap && timer_before(l->heap[c + 1], l->heap[m]))
			m = c + 1;
		if (m == i)
			return;
		heap_swap(l, i, m);
		i = m;
	}
}

static void
heap_remove(struct loop *l, struct timer *t)
{
	size_t i = t->heap_at;

	heap_swap(l, i, --l->nheap);
	if (i < l->nheap) {
		heap_up(l, i);
		heap_down(l, i);
	}
}

/* now + ms, saturated: no caller's wait (a server's retry_after, a timer's
 * own "again") can overflow into a deadline in the past, which would fire at
 * once on every turn.  A negative wait is now. */
static int64_t
deadline(int64_t now, int64_t ms)
{
	if (ms <= 0)
		return now;
	return now > INT64_MAX - ms ? INT64_MAX : now + ms;
}

/* ---- timers: id index */

static size_t
index_slot(long long id, size_t cap)
{
	return ((uint64_t)id * 0x9e3779b97f4a7c15ULL) & (cap - 1);
}

static void
index_grow(struct loop *l)
{
	/* rebuild in place when tombstones, not live timers, filled the table */
	size_t cap = l->capindex == 0 ? 64 : (l->nheap * 4 < l->capindex ? l->capindex : l->capindex * 2);
	struct timer **ni = xcalloc(cap, sizeof *ni);

	for (size_t i = 0; i < l->nheap; i++) {
		size_t s = index_slot(l->heap[i]->id, cap);
		while (ni[s] != NULL)
			s = (s + 1) & (cap - 1);
		ni[s] = l->heap[i];
	}
	free(l->index);
	l->index = ni;
	l->capindex = cap;
	l->nindex = l->nheap;           /* tombstones are gone */
}

static struct timer **
index_find(struct loop *l, long long id)
{
	if (l->capindex == 0)
		return NULL;
	for (size_t s = index_slot(id, l->capindex), n = 0; n < l->capindex;
	     s = (s + 1) & (l->capindex - 1), n++) {
		if (l->index[s] == NULL)
			return NULL;
		if (l->index[s] != TOMB && l->index[s]->id == id)
			return &l->index[s];
	}
	return NULL;
}

static struct timer *
timer_new(struct loop *l, int64_t ms, void *data)
{
	struct timer *t;
	size_t s;

	if ((l->nindex + 1) * 2 > l->capindex)
		index_grow(l);
	if (l->nheap == l->capheap) {
		size_t cap = l->capheap ? l->capheap * 2 : 64;
		l->heap = xreallocarray(l->heap, cap, sizeof *l->heap);
		l->capheap = cap;
	}
	t = xcalloc(1, sizeof *t);
	t->id = l->next_id++;
	t->when = deadline(loop_now(l), ms);
	t->data = data;
	t->heap_at = l->nheap;
	l->heap[l->nheap++] = t;
	heap_up(l, t->heap_at);
	s = index_slot(t->id, l->capindex);
	while (l->index[s] != NULL && l->index[s] != TOMB)
		s = (s + 1) & (l->capindex - 1);
	if (l->index[s] == NULL)
		l->nindex++;
	l->index[s] = t;
	return t;
}

long long
loop_timer_add(struct loop *l, int64_t ms, loop_timer_fn *fn, void *data)
{
	struct timer *t = timer_new(l, ms, data);

	t->fn = fn;
	return t->id;
}

void
loop_timer_del(struct loop *l, long long id)
{
	struct timer **slot = index_find(l, id);
	struct timer *t;

	if (slot == NULL)
		return;
	t = *slot;
	*slot = TOMB;
	heap_remove(l, t);
	free(t);
}

void
loop_once(struct loop *l, long long *slot, int64_t ms, loop_once_fn *fn, void *data)
{
	struct timer *t;

	loop_once_cancel(l, slot);
	t = timer_new(l, ms, data);
	t->once = fn;
	t->slot = slot;
	*slot = t->id;
}

void
loop_once_cancel(struct loop *l, long long *slot)
{
	if (*slot != 0)
		loop_timer_del(l, *slot);
	*slot = 0;
}

void
loop_once_at(struct loop *l, long long *slot, int64_t *slot_at, int64_t at, loop_once_fn *fn, void *data)
{
	int64_t now = loop_now(l);

	if (slot_at != NULL) {
		if (at == *slot_at && *slot != 0)
			return;
		*slot_at = at;
	}
	if (at >= 0)
		loop_once(l, slot, at > now ? at - now : 0, fn, data);
	else
		loop_once_cancel(l, slot);
}

/* A loop_once timer: its owner's slot says "none pending" before fn runs, so
 * that fn may schedule the next one.  t may be gone once fn returns. */
static int64_t
once_run(struct timer *t)
{
	loop_once_fn *fn = t->once;

	*t->slot = 0;
	fn(t->data);
	return LOOP_NOMORE;
}

/* Runs the timers due now; timers added meanwhile wait for the next turn. */
static int
timers_run(struct loop *l)
{
	int64_t now = loop_now(l);
	long long last = l->next_id;
	int n = 0;

	while (l->nheap > 0 && l->heap[0]->when <= now && l->heap[0]->id < last) {
		struct timer *t = l->heap[0];
		long long id = t->id;
		int64_t again = t->once != NULL ? once_run(t) : t->fn(l, id, t->data);
		struct timer **slot = index_find(l, id);

		n++;
		if (slot == NULL)       /* the callback deleted it */
			continue;
		if (again >= 0) {
			t->when = deadline(loop_now(l), again);
			heap_down(l, t->heap_at);
			heap_up(l, t->heap_at);
			/* a rescheduled timer runs at the earliest on the next turn */
			if (t->when <= now)
				break;
		} else {
			*slot = TOMB;
			heap_remove(l, t);
			free(t);
		}
	}
	return n;
}

/* ---- clock, hooks */

int64_t
loop_now(struct loop *l)
{
	return l->clock(l->clock_ctx);
}

void
loop_set_clock(struct loop *l, loop_clock_fn *fn, void *ctx)
{
	l->clock = fn ? fn : monotonic_ms;
	l->clock_ctx = ctx;
}

static int
hook_add(struct hook *hooks, int *n, loop_hook_fn *fn, void *data)
{
	if (*n == MAX_HOOKS)
		return -1;
	hooks[*n].fn = fn;
	hooks[*n].data = data;
	(*n)++;
	return 0;
}

int
loop_before_sleep(struct loop *l, loop_hook_fn *fn, void *data)
{
	return hook_add(l->before, &l->nbefore, fn, data);
}

int
loop_on_wake(struct loop *l, loop_hook_fn *fn, void *data)
{
	return hook_add(l->wake, &l->nwake, fn, data);
}

/* Async-signal-safe: only write(2). */
void
loop_wake(struct loop *l)
{
	wakefd_ring(l->wakefd);
}

/* ---- running */

static int
poll_timeout(struct loop *l, int64_t max_ms)
{
	int64_t t = max_ms;

	if (l->nheap > 0) {
		int64_t now = loop_now(l), due = l->heap[0]->when > now ? l->heap[0]->when - now : 0;

		if (t < 0 || due < t)
			t = due;
	}
	if (t > 60000)
		t = 60000;
	return (int)t;
}

int
loop_run_once(struct loop *l, int64_t max_ms)
{
	size_t n;
	int r, handled = 0;

	for (int i = 0; i < l->nbefore; i++)
		l->before[i].fn(l, l->before[i].data);
	n = l->nwatches;
	if (n > l->cappfds) {
		l->pfds = xreallocarray(l->pfds, n, sizeof *l->pfds);
		l->cappfds = n;
	}
	for (size_t i = 0; i < n; i++) {
		l->pfds[i].fd = l->watches[i].fd;
		l->pfds[i].events = (short)(((l->watches[i].mask & LOOP_READ) ? POLLIN : 0) |
		                            ((l->watches[i].mask & LOOP_WRITE) ? POLLOUT : 0));
		l->pfds[i].revents = 0;
	}
	r = poll(l->pfds, n, poll_timeout(l, max_ms));
	if (r < 0 && errno != EINTR)
		return -1;
	for (size_t i = 0; r > 0 && i < n; i++) {
		struct watch *w;
		int mask = 0;

		if (l->pfds[i].revents == 0)
			continue;
		/* the watch may have gone, or changed, in an earlier callback */
		if ((w = watch_find(l, l->pfds[i].fd)) == NULL)
			continue;
		if (l->pfds[i].revents & (POLLIN | POLLHUP | POLLERR))
			mask |= LOOP_READ;
		if (l->pfds[i].revents & (POLLOUT | POLLERR))
			mask |= LOOP_WRITE;
		mask &= w->mask | ((l->pfds[i].revents & (POLLHUP | POLLERR)) ? w->mask : 0);
		if (mask == 0)
			continue;
		w->fn(l, w->fd, mask, w->data);
		handled++;
	}
	return handled + timers_run(l);
}

void
loop_run(struct loop *l)
{
	l->stop = false;
	while (!l->stop)
		if (loop_run_once(l, -1) == -1)
			break;
}

void
loop_stop(struct loop *l)
{
	l->stop = true;
}
