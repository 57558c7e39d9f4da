/* widget.c: the web table's public page as the game room's widget (im.vector.modular.widgets), set at the deal and removed at the end, where our power level lets us, paced with the account's messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"

static void
on_widget(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *err = json_string_value(json_object_get(body, "errcode"));
	struct matrix_power *p = matrix_power_find(c, r->arg);
	int64_t now = loop_now(c->loop);

	if (p != NULL)
		p->widget_flying = false;
	if (status == 429) {
		/* Synapse counts a state event against rc_message, as a message:
		 * the whole account waits, and the change is put again after */
		int64_t wait = r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(1);

		matrix_client_log(c, LOG_LVL_DEBUG, "room widget of %s: rate limited; every send waits %lld ms", r->arg,
		                  (long long)wait);
		matrix_outbox_pause(c->out, now + wait);
		if (p != NULL)
			p->widget_due = true;
	} else if (status < 200 || status >= 300) {
		/* a refusal costs nothing but the widget: the link is in the lines */
		matrix_client_log(c, LOG_LVL_INFO, "the room widget was not set: HTTP %ld%s%s", status,
		                  err != NULL ? " " : "", err != NULL ? err : "");
	}
	matrix_send_kick(c);
}

/* PUTs room's widget (url NULL: empties it); the request, or NULL. */
static struct matrix_req *
widget_put(struct matrix_client *c, const char *room, const char *url)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	struct matrix_req *r = NULL;
	json_t *content;
	char *text;

	if (matrix_text_urlenc(room, enc, sizeof enc) < 0)
		return NULL;
	/* empty content removes a widget (what Element writes when one is removed) */
	content = url == NULL ? json_object() :
	          json_pack("{s:s,s:s,s:s,s:s,s:{s:s}}", "type", "m.custom", "id", MATRIX_WIDGET_KEY, "name",
	                    "Hand and Foot table", "url", url, "data", "title", "The table, live");
	text = content != NULL ? json_dumps(content, JSON_COMPACT) : NULL;
	json_decref(content);
	snprintf(path, sizeof path, MATRIX_API "/rooms/%s/state/" MATRIX_WIDGET_TYPE "/" MATRIX_WIDGET_KEY, enc);
	if (text != NULL && (r = matrix_req_start(c, "PUT", path, text, on_widget, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) != NULL)
		r->arg = xstrdup(room);
	free(text);
	return r;
}

/* Whether we may set p's room widget: our level reaches the widget event's
 * (sync.c), or we created a room of version 12 on, whose creators have
 * infinite power and are in no users list (Synapse 1.163's default version:
 * the rooms we make for tables from a direct message). */
static bool
widget_may(const struct matrix_client *c, const struct matrix_power *p)
{
	return p->widget || (p->privileged && matrix_strlist_has(p->creators, p->ncreators, c->self));
}

void
matrix_widget_room(struct matrix_client *c, const char *room, const char *watch_url)
{
	struct matrix_power *p = matrix_power_find(c, room);

	if (p == NULL)
		return;
	if (watch_url != NULL && strncmp(watch_url, "https://", 8) != 0 && strncmp(watch_url, "http://", 7) != 0)
		watch_url = NULL;
	if (watch_url != NULL && widget_may(c, p) && (p->widget_url == NULL || strcmp(p->widget_url, watch_url) != 0)) {
		free(p->widget_url);
		p->widget_url = xstrdup(watch_url);
		p->widget_due = true;
	} else if (watch_url == NULL && p->widget_url != NULL) {
		/* the game is over (or the bot may set it no longer: removing ours is still tried) */
		free(p->widget_url);
		p->widget_url = NULL;
		p->widget_due = true;
	}
}

bool
matrix_widget_kick(struct matrix_client *c, int64_t now)
{
	struct matrix_power *p;
	int64_t paused = matrix_outbox_paused_until(c->out);

	for (size_t i = 0; i < c->npowers; i++)
		if (c->powers[i].widget_flying)
			return true;
	if (matrix_outbox_busy(c->out) || (p = matrix_power_widget_due(c)) == NULL)
		return false;
	if (paused > now) {
		matrix_send_arm(c, paused - now);
		return false;
	}
	/* what the room should hold now: a change made meanwhile goes in this PUT */
	p->widget_due = false;
	if (widget_put(c, p->room, p->widget_url) == NULL)
		return false;
	p->widget_flying = true;
	return true;
}

void
matrix_widget_stop(struct matrix_client *c)
{
	for (size_t i = 0; i < c->npowers; i++)
		if (c->powers[i].widget_flying) {
			c->powers[i].widget_flying = false;
			c->powers[i].widget_due = true;
		}
}
