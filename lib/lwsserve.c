/* lwsserve.c: a libwebsockets context served on a thread of its own (the Discord Gateway's, the web table's), and libwebsockets' own errors in the log. */
#include <libwebsockets.h>
#include <stdio.h>

#include "log.h"
#include "lwsserve.h"
#include "serve.h"

static int
step(void *ctx)
{
	return lws_service(ctx, 0);
}

static void
wake(void *ctx)
{
	lws_cancel_service(ctx);
}

struct serve *
lwsserve_start(struct lws_context *ctx)
{
	return serve_start(step, wake, ctx);
}

static void
log_line(int level, const char *line)
{
	fprintf(stderr, "<%d>lws: %s", level == LLL_ERR ? LOG_LVL_ERR : LOG_LVL_WARNING, line);
}

void
lwsserve_log(void)
{
	lws_set_log_level(LLL_ERR, log_line);
}
