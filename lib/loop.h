/* loop.h: the single event loop: fd watchers, timers, a wake-up eventfd (after Redis's ae.c). */
#ifndef HF_LOOP_H
#define HF_LOOP_H

#include <stdint.h>

struct loop;

#define LOOP_READ   1
#define LOOP_WRITE  2
#define LOOP_NOMORE (-1)

/* Called when fd is ready; mask says which of LOOP_READ / LOOP_WRITE (or both). */
typedef void loop_fd_fn(struct loop *l, int fd, int mask, void *data);
/* Called when a timer is due; returns the milliseconds to its next run, or LOOP_NOMORE. */
typedef int64_t loop_timer_fn(struct loop *l, long long id, void *data);
typedef void loop_hook_fn(struct loop *l, void *data);
/* The loop's clock in milliseconds (monotonic by default; tests inject a fake one). */
typedef int64_t loop_clock_fn(void *ctx);

struct loop *loop_new(void);
void         loop_free(struct loop *l);

/* Watches fd for mask (replacing any earlier watch of fd); mask 0 stops watching.
 * Any fd: an adapter's library that owns its socket (libwebsockets,
 * libstrophe) is watched with the adapter's pointer as data; fn may watch
 * the fd again with what the library wants next, or unwatch it. */
int          loop_watch(struct loop *l, int fd, int mask, loop_fd_fn *fn, void *data);
void         loop_unwatch(struct loop *l, int fd);

/* A timer in ms from now; ids are never reused. loop_timer_del of a gone id is harmless. */
long long    loop_timer_add(struct loop *l, int64_t ms, loop_timer_fn *fn, void *data);
void         loop_timer_del(struct loop *l, long long id);

/* A one-shot timer whose id its owner keeps in *slot (0: none pending), so
 * that "is one pending?" and "cancel it" need no callback of their own:
 * loop_once replaces the one pending in *slot, and *slot is 0 again before
 * fn runs, so fn may schedule the next.  *slot must outlive the timer (its
 * owner cancels it before freeing it). */
typedef void loop_once_fn(void *data);
void         loop_once(struct loop *l, long long *slot, int64_t ms, loop_once_fn *fn, void *data);
void         loop_once_cancel(struct loop *l, long long *slot);
/* Keeps *slot's one-shot timer due at loop time at (< 0: none pending), for
 * a state machine asked at every event when it is next due: scheduled again
 * only when at moved from *slot_at, which the owner keeps beside the slot
 * (-1 at first), or when none is pending; slot_at NULL: scheduled again
 * every time. */
void         loop_once_at(struct loop *l, long long *slot, int64_t *slot_at, int64_t at, loop_once_fn *fn,
                          void *data);

int64_t      loop_now(struct loop *l);
void         loop_set_clock(struct loop *l, loop_clock_fn *fn, void *ctx);

/* Runs fn before the loop sleeps (where replies are flushed). Several may be set. */
int          loop_before_sleep(struct loop *l, loop_hook_fn *fn, void *data);
/* Runs fn on the loop after loop_wake() (from any thread, or a signal handler). */
int          loop_on_wake(struct loop *l, loop_hook_fn *fn, void *data);
void         loop_wake(struct loop *l);

/* One iteration: wait at most max_ms (-1: until the next timer or event). */
int          loop_run_once(struct loop *l, int64_t max_ms);
/* Iterates until loop_stop(). */
void         loop_run(struct loop *l);
void         loop_stop(struct loop *l);

#endif
