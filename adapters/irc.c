/* irc.c: the IRC adapter: its life cycle and its ops; the parts are in irc/ (see irc/client.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "irc/client.h"
#include "loop.h"

#define TARGET_QUEUE    40              /* lines waiting per target before we refuse more */
#define PROTO_QUEUE     64

static int
irc_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	struct irc *c = xcalloc(1, sizeof *c);

	c->a = a;
	c->fd = -1;
	a->priv = c;
	if (irc_config_read(c, cfg, err, errlen) != 0)
		goto fail;
	irc_queue_init(&c->proto, PROTO_QUEUE);
	irc_queue_init(&c->out, TARGET_QUEUE);
	return 0;
fail:
	memset(c->sasl_pass, 0, sizeof c->sasl_pass);
	memset(c->ns_pass, 0, sizeof c->ns_pass);
	free(c);
	a->priv = NULL;
	return -1;
}

static void
add_invited(void *ctx, const char *key, const char *value)
{
	(void)value;
	irc_chan_add(ctx, key, false);
}

static int
irc_start(struct adapter *a)
{
	struct irc *c = a->priv;

	c->rng = (uint64_t)loop_now(a->loop) ^ (uint64_t)(uintptr_t)c ^ UINT64_C(0x9E3779B97F4A7C15);
	if (c->rng == 0)
		c->rng = 1;
	c->stopping = false;
	/* channels we were invited to before a restart */
	adapter_state_each(a, "#", add_invited, c);
	adapter_state_each(a, "&", add_invited, c);
	/* renames remembered before: counted, and bounded */
	irc_nicks_prune(c);
	if (c->tick_timer == 0)
		c->tick_timer = loop_timer_add(a->loop, 1000, irc_conn_tick, c);
	irc_conn_connect(c);
	return 0;
}

static void
irc_stop(struct adapter *a, const char *quit_message)
{
	struct irc *c = a->priv;

	if (c == NULL)
		return;
	irc_conn_stop(c, quit_message);
}

static void
irc_free(struct adapter *a)
{
	struct irc *c = a->priv;

	if (c == NULL)
		return;
	if (c->easy != NULL || c->tick_timer != 0 || c->retry_timer != 0)
		irc_stop(a, NULL);
	irc_queue_clear(&c->out);
	irc_queue_clear(&c->proto);
	irc_users_clear(&c->users);
	memset(c->sasl_pass, 0, sizeof c->sasl_pass);
	memset(c->ns_pass, 0, sizeof c->ns_pass);
	free(c);
	a->priv = NULL;
}

const struct adapter_ops irc_adapter_ops = {
	.type = "irc",
	.init = irc_init,
	.start = irc_start,
	.send = irc_send,
	.stop = irc_stop,
	.free = irc_free,
	.needs_restart = irc_config_needs_restart,
	.pending = irc_send_pending,
};
