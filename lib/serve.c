/* serve.c: a service thread calling one step until it is stopped (the Discord Gateway's and the web table's libwebsockets threads). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "serve.h"
#include "xmalloc.h"

struct serve {
	pthread_t thread;
	serve_step_fn *step;
	serve_wake_fn *wake;
	void *ctx;
	atomic_bool stopping;   /* set by serve_stop's thread, read by the service thread */
};

static void *
serve_main(void *arg)
{
	struct serve *s = arg;

	/* the flag is read between steps: a step under way ends first (wake cuts its wait short) */
	while (!atomic_load(&s->stopping))
		if (s->step(s->ctx) < 0)
			break;
	return NULL;
}

struct serve *
serve_start(serve_step_fn *step, serve_wake_fn *wake, void *ctx)
{
	struct serve *s = xcalloc(1, sizeof *s);

	s->step = step;
	s->wake = wake;
	s->ctx = ctx;
	atomic_init(&s->stopping, false);
	if (pthread_create(&s->thread, NULL, serve_main, s) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

void
serve_stop(struct serve *s)
{
	if (s == NULL)
		return;
	atomic_store(&s->stopping, true);
	if (s->wake != NULL)
		s->wake(s->ctx);
	pthread_join(s->thread, NULL);
	free(s);
}
