/* gateway-acts.c: the Gateway's actions, queued for the host to drain (discord_gateway_next):
 * what to connect, send or close, what to tell, what to log; a SEND holds the token, wiped when freed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fifo.h"
#include "gateway-state.h"
#include "secret.h"
#include "xmalloc.h"

struct act_node {
	struct fifo_link link;                /* first: the node is cast back from it */
	struct discord_gw_act a;
};

void
gw_push(struct discord_gateway *g, enum discord_gw_act_kind kind, int code, const char *text, json_t *d)
{
	struct act_node *n = xcalloc(1, sizeof *n);

	n->a.text = xstrdup(text);
	n->a.kind = kind;
	n->a.code = code;
	n->a.d = d;
	fifo_push(&g->acts, &n->link);
}

void
gw_log(struct discord_gateway *g, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	gw_push(g, DISCORD_GW_LOG, level, line, NULL);
}

void
gw_send(struct discord_gateway *g, json_t *p)
{
	char *text;

	if (p == NULL)
		return;
	text = json_dumps(p, JSON_COMPACT);
	json_decref(p);
	if (text != NULL) {
		gw_push(g, DISCORD_GW_SEND, 0, text, NULL);
		/* the text may hold the token */
		secret_free(text);
	}
}

bool
discord_gateway_next(struct discord_gateway *g, struct discord_gw_act *out)
{
	struct act_node *n = (struct act_node *)fifo_pop(&g->acts);

	if (n == NULL)
		return false;
	*out = n->a;
	free(n);
	return true;
}

void
discord_gateway_act_free(struct discord_gw_act *a)
{
	if (a->text != NULL) {
		/* a SEND holds the token: leave nothing of it in freed memory */
		if (a->kind == DISCORD_GW_SEND)
			secret_wipe(a->text, strlen(a->text));
		free(a->text);
	}
	json_decref(a->d);
	a->text = NULL;
	a->d = NULL;
}
