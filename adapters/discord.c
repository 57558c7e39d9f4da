/* discord.c: the Discord adapter: reads a [discord NAME] section and plugs the client (adapters/discord/) into the adapter API. */
#include <stdio.h>
#include <string.h>

#include "adapter.h"
#include "rbuf.h"
#include "discord/client.h"
#include "discord/config.h"

static int
discord_init(struct adapter *a, struct adapter_cfg *ac, char *err, size_t errlen)
{
	struct discord_config cfg;

	if (discord_config_read(ac, &cfg, err, errlen) < 0)
		return -1;
	a->priv = discord_client_new(a, &cfg);
	discord_config_wipe(&cfg);
	return 0;
}

static int
discord_start(struct adapter *a)
{
	return a->priv != NULL ? discord_client_start(a->priv) : -1;
}

static int
discord_send(struct adapter *a, const struct adapter_msg *m)
{
	return a->priv != NULL ? discord_outbox_send(a->priv, m) : -1;
}

static void
discord_stop(struct adapter *a, const char *quit_message)
{
	(void)quit_message; /* a bot has no quit message: it shows offline */
	if (a->priv != NULL)
		discord_client_stop(a->priv);
}

static void
discord_free(struct adapter *a)
{
	discord_client_free(a->priv);
	a->priv = NULL;
}

static size_t
discord_pending(struct adapter *a, const char *room, enum adapter_pending what)
{
	/* private lines never wait in a channel's lane here (a DM channel, an
	 * ephemeral follow-up): the room's lines are the game's */
	(void)what;
	return a->priv != NULL && room != NULL ? discord_outbox_pending(a->priv, room) : 0;
}

static bool
discord_needs_restart(struct adapter *a, struct adapter_cfg *ac)
{
	struct discord_client *c = a->priv;
	struct discord_config n, old;
	char err[256];
	bool differ;

	if (c == NULL || discord_config_read(ac, &n, err, sizeof err) < 0)
		return true;
	if (c->fatal) {
		/* the token was refused (reset or revoked) or a close code forbade going on:
		 * a reload starts again, with the token_file as it is now */
		discord_config_wipe(&n);
		return true;
	}
	/* the token is kept by the running parts only: a new token_file waits for a restart */
	old = c->cfg;
	discord_config_wipe(&old);
	discord_config_wipe(&n);
	differ = discord_config_differs(&old, &n);
	return differ;
}

/* What needs_restart let through (private, how hands go), applied to the
 * next line on the live link. */
static void
discord_reload(struct adapter *a, struct adapter_cfg *ac, struct rbuf *applied)
{
	struct discord_client *c = a->priv;
	struct discord_config n;
	char err[256];

	if (c == NULL || discord_config_read(ac, &n, err, sizeof err) < 0)
		return;
	discord_config_wipe(&n);
	c->cfg.private_mode = n.private_mode;
	rbuf_add(applied, "private");
}

/* A member who may manage messages in the channel (or an administrator). */
static bool
discord_is_moderator(struct adapter *a, const char *room, const char *user_id)
{
	return a->priv != NULL && discord_events_moderator(a->priv, room, user_id);
}

/* What is still to go out, for a stop to wait on: what is said goes out. */
static size_t
discord_queued(struct adapter *a)
{
	return a->priv != NULL ? discord_outbox_queued(a->priv) : 0;
}

ADAPTER_OPS(discord,
	.pending = discord_pending,
	.is_moderator = discord_is_moderator,
	.reload = discord_reload,
	.queued = discord_queued);
