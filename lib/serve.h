/* serve.h: a service thread: one step called again and again until its owner stops it (a libwebsockets context's lws_service, without lib/ knowing libwebsockets). */
#ifndef HF_SERVE_H
#define HF_SERVE_H

struct serve;

/* step does one round of the thread's work and may block (lws_service
 * waiting for its sockets); it returns < 0 to end the thread for good.
 * wake makes a blocked step return (lws_cancel_service); it is called from
 * another thread.  */
typedef int serve_step_fn(void *ctx);
typedef void serve_wake_fn(void *ctx);

/* Starts the thread; NULL if it cannot start (nothing to stop then). */
struct serve *serve_start(serve_step_fn *step, serve_wake_fn *wake, void *ctx);
/* Tells the thread to stop after the step under way, wakes it, waits for
 * its end and frees s: once it returns, no step runs.  NULL: nothing. */
void serve_stop(struct serve *s);

#endif
