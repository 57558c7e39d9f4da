/* login.c: the chain that brings the account up (login, whoami, filter upload, then the sync long-poll) and its retries. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "matrix.h"
#include "secret.h"

static void whoami_start(struct matrix_client *c);
static void filter_start(struct matrix_client *c);

static int64_t
on_retry_timer(struct loop *l, long long id, void *data)
{
	struct matrix_client *c = data;

	(void)l;
	(void)id;
	c->sync_timer = 0;
	switch (c->phase) {
	case MX_PH_IDLE:
	case MX_PH_LOGIN:
		matrix_login_start(c);
		break;
	case MX_PH_WHOAMI:
		whoami_start(c);
		break;
	case MX_PH_FILTER:
		filter_start(c);
		break;
	case MX_PH_ROOMS:
		matrix_rooms_list(c, true);
		break;
	case MX_PH_SYNC:
		matrix_poll_start(c);
		break;
	case MX_PH_STOPPED:
		break;
	}
	return LOOP_NOMORE;
}

void
matrix_login_failed(struct matrix_client *c, const char *what, long status, const char *errcode, int64_t retry_ms)
{
	int64_t ms = retry_ms >= 0 ? retry_ms : matrix_outbox_backoff(++c->fails);
	char why[160];

	/* no status: there was no answer, and errcode says why */
	if (status > 0)
		snprintf(why, sizeof why, "HTTP %ld%s%s", status, errcode != NULL ? ", " : "", errcode != NULL ? errcode : "");
	else
		snprintf(why, sizeof why, "%s", errcode != NULL ? errcode : "no answer");
	matrix_client_log(c, status >= 400 && status < 500 ? LOG_LVL_ERR : LOG_LVL_WARNING,
	                  "%s failed (%s); retrying in %" PRId64 " ms", what, why, ms);
	if (c->up && !c->said_down) {
		struct bot_event ev = { .type = BOT_EV_DOWN };

		c->said_down = true;
		c->host.emit(c->host.ctx, &ev);
	}
	c->sync_timer = loop_timer_add(c->loop, ms, on_retry_timer, c);
}

static void
on_filter(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *id = json_string_value(json_object_get(body, "filter_id"));

	c->sync_req = NULL;
	if (status != 200 || id == NULL || id[0] == '\0' || strlen(id) >= sizeof c->filter ||
	    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.=") != strlen(id)) {
		/* the same filter then goes inline with each /sync */
		matrix_client_log(c, LOG_LVL_WARNING, "filter upload failed (HTTP %ld); sending it with each sync", status);
		c->filter[0] = '\0';
	} else
		snprintf(c->filter, sizeof c->filter, "%s", id);
	(void)r;
	matrix_rooms_list(c, true);
}

static void
filter_start(struct matrix_client *c)
{
	char path[900], enc[3 * MATRIX_MAX_ID + 1];

	c->phase = MX_PH_FILTER;
	matrix_text_urlenc(c->self, enc, sizeof enc);
	snprintf(path, sizeof path, MATRIX_API "/user/%s/filter", enc);
	if ((c->sync_req = matrix_req_start_now(c, "POST", path, matrix_poll_filter, on_filter, MATRIX_REQ_TIMEOUT,
	                                    MATRIX_MAX_BODY)) == NULL)
		matrix_login_failed(c, "filter", 0, NULL, -1);
}

static void
on_whoami(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *uid = json_string_value(json_object_get(body, "user_id"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));

	c->sync_req = NULL;
	if (status == 401 && c->cfg.password[0] != '\0') {
		c->token[0] = '\0';
		matrix_login_start(c);
		return;
	}
	if (status != 200 || !matrix_text_id_ok(uid, '@')) {
		matrix_login_failed(c, "whoami", status, r->errcode, r->retry_ms);
		return;
	}
	snprintf(c->self, sizeof c->self, "%s", uid);
	/* People address us as "@bot:server: draw" or "bot: draw". */
	if (c->host.self != NULL)
		c->host.self(c->host.ctx, c->self);
	if (matrix_text_id_ok(dev, 0))
		snprintf(c->device, sizeof c->device, "%s", dev);
	matrix_client_log(c, LOG_LVL_INFO, "logged in as %s", c->self);
	filter_start(c);
}

static void
whoami_start(struct matrix_client *c)
{
	c->phase = MX_PH_WHOAMI;
	if ((c->sync_req = matrix_req_start_now(c, "GET", MATRIX_API "/account/whoami", NULL, on_whoami,
	                                    MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL)
		matrix_login_failed(c, "whoami", 0, NULL, -1);
}

static void
on_login(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *tok = json_string_value(json_object_get(body, "access_token"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));

	c->sync_req = NULL;
	if (status != 200 || tok == NULL || strlen(tok) >= sizeof c->token || !matrix_text_id_ok(tok, 0)) {
		matrix_login_failed(c, "login", status, r->errcode, r->retry_ms);
		return;
	}
	snprintf(c->token, sizeof c->token, "%s", tok);
	if (matrix_text_id_ok(dev, 0) && strlen(dev) < sizeof c->device) {
		snprintf(c->device, sizeof c->device, "%s", dev);
		/* logging in again with the same device keeps txn ids (scoped to
		 * the device) valid across restarts */
		matrix_client_set(c, "device_id", c->device);
	}
	c->fails = 0;
	whoami_start(c);
}

void
matrix_login_start(struct matrix_client *c)
{
	json_t *j;
	char *text;
	const char *user = c->cfg.user;

	if (c->cfg.password[0] == '\0') {
		whoami_start(c);
		return;
	}
	c->phase = MX_PH_LOGIN;
	c->token[0] = '\0';
	j = json_pack("{s:s,s:{s:s,s:s},s:s,s:s}", "type", "m.login.password",
	              "identifier", "type", "m.id.user", "user", user,
	              "password", c->cfg.password, "initial_device_display_name", "handfoot");
	if (j != NULL && c->device[0] != '\0')
		json_object_set_new(j, "device_id", json_string(c->device));
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (c->sync_req = matrix_req_start_now(c, "POST", MATRIX_API "/login", text, on_login,
	                                                    MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL)
		matrix_login_failed(c, "login", 0, NULL, -1);
	secret_free(text);   /* it held the password */
}
