/* lwsserve.h: a libwebsockets context served on a thread of its own (lib/serve), and libwebsockets' own errors in the log. */
#ifndef HF_LWSSERVE_H
#define HF_LWSSERVE_H

struct lws_context;
struct serve;

/* Starts the thread that runs lws_service on ctx until serve_stop (which
 * wakes it with lws_cancel_service); NULL if it cannot start. */
struct serve *lwsserve_start(struct lws_context *ctx);
/* libwebsockets' errors on stderr, with the log's priority
 * prefix, as "lws: ...".  libwebsockets has one logger for the process:
 * every user of it calls this before creating a context. */
void lwsserve_log(void);

#endif
