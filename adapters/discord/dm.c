/* dm.c: discord_dm: a player's direct-message channel, opened once, what waits for it, and what to do when DMs are closed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "button.h"
#include "client.h"
#include "dm.h"
#include "loop.h"
#include "xmalloc.h"

struct discord_dm *
discord_dm_of(struct discord_client *c, const char *user, bool add)
{
	struct discord_dm *d;

	for (d = c->dms; d != NULL; d = d->next)
		if (strcmp(d->user, user) == 0)
			return d;
	if (!add)
		return NULL;
	d = xcalloc(1, sizeof *d);
	snprintf(d->user, sizeof d->user, "%s", user);
	d->waiting = json_array();
	d->next = c->dms;
	c->dms = d;
	return d;
}

void
discord_dm_failed(struct discord_client *c, struct discord_dm *d, const char *why)
{
	struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .text = why };
	char player[DISCORD_ID_LEN + 16], line[200];
	int64_t now = loop_now(c->loop);
	json_t *body;
	const char *hand[] = { DISCORD_BUTTON_HAND };

	json_array_clear(d->waiting);
	if (discord_text_player(d->user, player, sizeof player) == 0) {
		ev.user_id = player;
		adapter_emit(c->a, &ev);
	}
	if (!discord_text_snowflake(d->room) || (d->fallback_at != 0 && now - d->fallback_at < DISCORD_DM_FALLBACK_MS) ||
	    (d->closed && d->told))
		return;
	d->fallback_at = now;
	d->told = d->closed;
	snprintf(line, sizeof line, "<@%s>: I cannot send you direct messages, so your cards stay here: press "
	         "**My hand** to see them%s.", d->user, d->closed ? " (once your DMs are open to me again, "
	         "`/private privmsg` brings them back there)" : "");
	body = discord_outbox_body(line, strlen(line), d->user);
	json_object_set_new(body, "components", discord_button_rows(hand, 1, NULL));
	discord_outbox_channel(c, DISCORD_REQ_ROOM, d->room, NULL, body, NULL);
}

static void
on_dm_open(void *ctx, long status, json_t *body)
{
	struct discord_req *r = ctx;
	struct discord_client *c = r->c;
	struct discord_dm *d = discord_dm_of(c, r->user, false);
	const char *id = json_string_value(json_object_get(body, "id"));
	json_t *who = json_object_get(body, "recipients"), *u, *m;
	bool theirs = json_array_size(who) == 0;
	size_t i;

	json_array_foreach(who, i, u)
		theirs = theirs || (json_is_string(json_object_get(u, "id")) &&
		                    strcmp(json_string_value(json_object_get(u, "id")), r->user) == 0);
	if (d != NULL) {
		d->opening = false;
		/* only a DM (type 1) with this player ever carries their lines */
		if (status == 200 && id != NULL && discord_text_snowflake(id) &&
		    json_integer_value(json_object_get(body, "type")) == 1 && theirs) {
			snprintf(d->channel, sizeof d->channel, "%s", id);
			json_array_foreach(d->waiting, i, m)
				discord_outbox_channel(c, DISCORD_REQ_DM_POST, d->channel, d->user, json_incref(m), NULL);
			json_array_clear(d->waiting);
		} else {
			discord_client_log(c, LOG_LVL_NOTICE, "no direct message channel with %s: HTTP %ld", r->user, status);
			discord_dm_failed(c, d, "no direct message channel");
		}
	}
	discord_client_req_done(r);
}

void
discord_dm_send(struct discord_client *c, const char *user, const char *room, json_t *body)
{
	struct discord_dm *d = discord_dm_of(c, user, true);
	struct discord_req *r;

	if (room != NULL && discord_text_snowflake(room))
		snprintf(d->room, sizeof d->room, "%s", room);
	if (d->closed) {
		/* 50007 before: not tried again (the room's My hand shows it) */
		json_decref(body);
		return;
	}
	/* a DM takes no ephemeral flag */
	json_object_set_new(body, "flags", json_integer(DISCORD_SUPPRESS_EMBEDS));
	if (d->channel[0] != '\0') {
		discord_outbox_channel(c, DISCORD_REQ_DM_POST, d->channel, user, body, NULL);
		return;
	}
	json_array_append_new(d->waiting, body);
	if (d->opening)
		return;
	d->opening = true;
	r = discord_client_req(c, DISCORD_REQ_DM_OPEN);
	snprintf(r->user, sizeof r->user, "%s", user);
	if (discord_client_call(c, "POST", "/users/@me/channels", json_pack("{s:s}", "recipient_id", user), r,
	                        on_dm_open) < 0)
		d->opening = false;
}

bool
discord_dm_closed(struct discord_client *c, const char *user)
{
	struct discord_dm *d = discord_dm_of(c, user, false);

	return d != NULL && d->closed;
}

void
discord_dm_reopen(struct discord_client *c, const char *user)
{
	struct discord_dm *d = discord_dm_of(c, user, false);

	if (d != NULL && d->closed) {
		d->closed = d->told = false;
		d->fallback_at = 0;
	}
}
