/* irc.c: the IRC adapter: its life cycle and its ops; the parts are in irc/ (see irc/client.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "irc/client.h"
#include "loop.h"
#include "xorshift.h"
#include "style.h"

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
	irc_queue_init(&c->paced, PROTO_QUEUE);
	return 0;
fail:
	irc_config_free(c);
	a->priv = NULL;
	return -1;
}

static bool
irc_needs_restart(struct adapter *a, struct adapter_cfg *cfg)
{
	struct irc *c = a->priv;

	return c == NULL || irc_config_needs_restart(c, cfg);
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

	/* jitter only: the clock and the instance are seed enough */
	c->rng = xorshift_seed((uint64_t)loop_now(a->loop) ^ (uint64_t)(uintptr_t)c);
	c->stopping = false;
	/* secrets in clear over a network: said once, at start (not to this machine) */
	if (!c->tls && !irc_config_loopback(c->server)) {
		if (c->server_pass[0] != '\0')
			adapter_log(a, LOG_LVL_WARNING, "tls = no: the server password crosses the network in clear");
		if (c->sasl_mech[0] != '\0' && strcmp(c->sasl_mech, "PLAIN") == 0)
			adapter_log(a, LOG_LVL_WARNING, "tls = no: the SASL PLAIN password crosses the network in clear");
		if (c->ns_pass[0] != '\0')
			adapter_log(a, LOG_LVL_WARNING, "tls = no: the NickServ password crosses the network in clear");
	}
	/* channels we were invited to before a restart */
	adapter_state_each(a, "#", add_invited, c);
	adapter_state_each(a, "&", add_invited, c);
	/* renames and addresses remembered before: counted, bounded, expired ones dropped */
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
	irc_queue_clear(&c->paced);
	irc_users_clear(&c->users);
	irc_config_free(c);
	a->priv = NULL;
}

/* Lines still to go out; nothing can go while we are not registered. */
static size_t
irc_queued(struct adapter *a)
{
	struct irc *c = a->priv;

	if (c == NULL || c->state != IRC_READY || c->easy == NULL)
		return 0;
	return c->out.lines + c->proto.lines + c->paced.lines + (c->held_len > 0) + (c->woff < c->wlen ? 1 : 0);
}

ADAPTER_OPS(irc,
	.reload = irc_config_reload,
	.pending = irc_send_pending,
	.is_moderator = irc_modes_is_moderator,
	.queued = irc_queued,
	/* many clients show notices in the status window, not the channel */
	.private_note = "hands come as notices, which many clients show in the status window: "
	                ST_COMMAND "private" ST_END " privmsg puts them in a query");
