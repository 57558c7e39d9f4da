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
static void password_login(struct matrix_client *c);

/* The account stops for good: what went wrong is not fixed by trying again
 * (a bad password, a deactivated account, a server without password
 * logins).  One line says what, and what the operator can do. */
void
matrix_login_fatal(struct matrix_client *c, const char *why)
{
	matrix_client_log(c, LOG_LVL_ERR, "%s; the account stays offline until the configuration is fixed "
	                  "and the daemon reloaded", why);
	if (c->up && !c->said_down) {
		struct bot_event ev = { .type = BOT_EV_DOWN };

		c->said_down = true;
		c->host.emit(c->host.ctx, &ev);
	}
	c->phase = MX_PH_STOPPED;
}

/* The tokens of now, kept so that a restart does not log in again (each
 * login counts against Synapse's rc_login, and a crash loop would lock the
 * account out). */
static void
tokens_store(struct matrix_client *c)
{
	matrix_client_set(c, "access_token", c->token);
	/* whose they are: a run configured for another account logs in anew */
	matrix_client_set(c, "token_user", c->cfg.user);
	if (c->refresh[0] != '\0')
		matrix_client_set(c, "refresh_token", c->refresh);
	else
		matrix_client_del(c, "refresh_token");
}

/* Takes tok (and rt, the next refresh token, if any) as ours: -1 if tok
 * is not a token we can send. */
static int
tokens_take(struct matrix_client *c, const char *tok, const char *rt)
{
	if (tok == NULL || strlen(tok) >= sizeof c->token || !matrix_text_id_ok(tok, 0))
		return -1;
	snprintf(c->token, sizeof c->token, "%s", tok);
	/* a refresh token is used once: an answer may carry the next */
	if (rt != NULL && strlen(rt) < sizeof c->refresh && matrix_text_id_ok(rt, 0))
		snprintf(c->refresh, sizeof c->refresh, "%s", rt);
	else
		c->refresh[0] = '\0';
	tokens_store(c);
	return 0;
}

static void
tokens_forget(struct matrix_client *c)
{
	secret_wipe(c->token, sizeof c->token);
	secret_wipe(c->refresh, sizeof c->refresh);
	matrix_client_del(c, "access_token");
	matrix_client_del(c, "refresh_token");
	matrix_client_del(c, "token_user");
}

/* The phase that failed, again. */
static void
on_retry_timer(void *data)
{
	struct matrix_client *c = data;

	switch (c->phase) {
	case MX_PH_IDLE:
		matrix_login_start(c);
		break;
	case MX_PH_LOGIN:
		password_login(c);
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
	loop_once(c->loop, &c->sync_timer, ms, on_retry_timer, c);
}

void
matrix_login_step(struct matrix_client *c, const char *method, const char *path, const char *json,
                  matrix_req_done_fn *done, const char *what)
{
	if ((c->sync_req = matrix_req_start_now(c, method, path, json, done, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) ==
	    NULL)
		matrix_login_failed(c, what, 0, NULL, -1);
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
	matrix_login_step(c, "POST", path, matrix_poll_filter, on_filter, "filter");
}

static void
on_whoami(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *uid = json_string_value(json_object_get(body, "user_id"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));

	c->sync_req = NULL;
	if (status == 401) {
		matrix_login_refused(c, "whoami", r->errcode, json_is_true(json_object_get(body, "soft_logout")));
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
	matrix_login_step(c, "GET", MATRIX_API "/account/whoami", NULL, on_whoami, "whoami");
}

static void
on_refresh(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *tok = json_string_value(json_object_get(body, "access_token"));
	const char *rt = json_string_value(json_object_get(body, "refresh_token"));

	c->sync_req = NULL;
	if (status == 200 && tokens_take(c, tok, rt) == 0) {
		matrix_client_log(c, LOG_LVL_INFO, "access token refreshed");
		whoami_start(c);
		return;
	}
	if ((status >= 400 && status < 500 && status != 429) && c->cfg.password[0] == '\0') {
		char why[300];

		/* the refresh token of refresh_token_file (or its successor) is
		 * spent or revoked: only the operator can get new tokens */
		secret_wipe(c->refresh, sizeof c->refresh);
		if (matrix_client_get(c, "access_token", why, sizeof why) >= 0) {
			/* those were the stored tokens: the operator may have put
			 * new ones in the files since */
			secret_wipe(why, sizeof why);
			tokens_forget(c);
			snprintf(c->token, sizeof c->token, "%s", c->cfg.token);
			snprintf(c->refresh, sizeof c->refresh, "%s", c->cfg.refresh);
			whoami_start(c);
			return;
		}
		snprintf(why, sizeof why, "the homeserver refused the refresh token (HTTP %ld, %s): log the bot in "
		         "again, put the new tokens in token_file and refresh_token_file (see adapters/matrix/NOTES.md)",
		         status, r->errcode != NULL ? r->errcode : "no errcode");
		matrix_login_fatal(c, why);
		return;
	}
	if (status == 401 || status == 403 || (status >= 400 && status < 500 && status != 429)) {
		/* the refresh token is spent or revoked */
		matrix_client_log(c, LOG_LVL_NOTICE, "the refresh token was refused (HTTP %ld)", status);
		secret_wipe(c->refresh, sizeof c->refresh);
		matrix_login_refused(c, "refresh", r->errcode, false);
		return;
	}
	c->phase = MX_PH_WHOAMI;   /* retried: the token is still ours to refresh */
	matrix_login_failed(c, "token refresh", status, r->errcode, r->retry_ms);
}

static int
refresh_start(struct matrix_client *c)
{
	json_t *j = json_pack("{s:s}", "refresh_token", c->refresh);
	char *text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;

	json_decref(j);
	c->token[0] = '\0';   /* /refresh takes no access token */
	c->sync_req = text != NULL ? matrix_req_start_now(c, "POST", MATRIX_API "/refresh", text, on_refresh,
	                                                  MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY) : NULL;
	if (text != NULL) {
		memset(text, 0, strlen(text));
		free(text);
	}
	return c->sync_req != NULL ? 0 : -1;
}

void
matrix_login_refused(struct matrix_client *c, const char *what, const char *errcode, bool soft)
{
	if (c->refresh[0] != '\0' && refresh_start(c) == 0)
		return;
	if (c->cfg.password[0] == '\0') {
		char why[300];

		/* a token from token_file: only the operator can get another */
		snprintf(why, sizeof why, "the homeserver refused the access token from token_file (%s at %s): get "
		         "a new one (see adapters/matrix/NOTES.md) and put it in token_file",
		         errcode != NULL ? errcode : "HTTP 401", what);
		matrix_login_fatal(c, why);
		return;
	}
	/* logged in again (same device: soft_logout keeps its keys and txn
	 * ids), after a backoff: a server that refuses every token must not
	 * get a login a second */
	tokens_forget(c);
	c->phase = MX_PH_LOGIN;
	matrix_login_failed(c, soft ? "the session (soft logout), logging in again"
	                            : "the access token (logging in again)", 401, errcode, -1);
}

static void
on_login(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *tok = json_string_value(json_object_get(body, "access_token"));
	const char *rt = json_string_value(json_object_get(body, "refresh_token"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));
	char why[400];

	c->sync_req = NULL;
	if (status == 403 || (status >= 400 && status < 500 && status != 429 && status != 408)) {
		/* a bad password, a deactivated account, a login type refused:
		 * none gets better by trying every 30 s (and Synapse locks an
		 * account out after failed attempts) */
		snprintf(why, sizeof why, "login as %s refused (HTTP %ld, %s)%s", c->cfg.user, status,
		         r->errcode != NULL ? r->errcode : "no errcode",
		         r->errcode != NULL && strcmp(r->errcode, "M_USER_DEACTIVATED") == 0
		             ? ": the account is deactivated"
		             : r->errcode != NULL && strcmp(r->errcode, "M_FORBIDDEN") == 0 ? ": check password_file" : "");
		matrix_login_fatal(c, why);
		return;
	}
	if (status != 200 || tokens_take(c, tok, rt) < 0) {
		matrix_login_failed(c, "login", status, r->errcode, r->retry_ms);
		return;
	}
	if (matrix_text_id_ok(dev, 0) && strlen(dev) < sizeof c->device) {
		snprintf(c->device, sizeof c->device, "%s", dev);
		/* logging in again with the same device keeps txn ids (scoped to
		 * the device) valid across restarts */
		matrix_client_set(c, "device_id", c->device);
	}
	c->fails = 0;
	whoami_start(c);
}

static void
password_login(struct matrix_client *c)
{
	json_t *j;
	char *text;

	c->phase = MX_PH_LOGIN;
	c->token[0] = '\0';
	/* refresh_token: true: a server that expires tokens gives one to renew them */
	j = json_pack("{s:s,s:{s:s,s:s},s:s,s:s,s:b}", "type", "m.login.password",
	              "identifier", "type", "m.id.user", "user", c->cfg.user,
	              "password", c->cfg.password, "initial_device_display_name", "handfoot", "refresh_token", 1);
	if (j != NULL && c->device[0] != '\0')
		json_object_set_new(j, "device_id", json_string(c->device));
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text != NULL)
		matrix_login_step(c, "POST", MATRIX_API "/login", text, on_login, "login");
	else
		matrix_login_failed(c, "login", 0, NULL, -1);
	secret_free(text);   /* it held the password */
}

/* GET /login: the ways in the server offers.  A server behind an OAuth
 * provider (Matrix 2.0, MAS) offers no m.login.password: the operator must
 * give the bot an access token (token_file). */
static void
on_flows(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	json_t *flows = json_object_get(body, "flows"), *f;
	char types[200];
	size_t i, o = 0;
	bool password = false;

	c->sync_req = NULL;
	if (status != 200 || !json_is_array(flows)) {
		if (status == 0 || status >= 500 || status == 429) {
			c->phase = MX_PH_IDLE;
			matrix_login_failed(c, "GET /login", status, r->errcode, r->retry_ms);
			return;
		}
		password_login(c);   /* no list: the password is tried all the same */
		return;
	}
	types[0] = '\0';
	json_array_foreach(flows, i, f) {
		const char *t = json_string_value(json_object_get(f, "type"));

		if (t == NULL)
			continue;
		if (strcmp(t, "m.login.password") == 0)
			password = true;
		if (o < sizeof types)
			o += (size_t)snprintf(types + o, sizeof types - o, "%s%.60s", o > 0 ? ", " : "", t);
	}
	if (!password) {
		char why[1000];

		snprintf(why, sizeof why, "%s offers no password login (only: %s): it logs in through OAuth or "
		         "single sign-on. Log the bot's account in once in a browser-capable client, take its access "
		         "token, put it in token_file and remove password_file (see adapters/matrix/NOTES.md)",
		         c->cfg.homeserver, types[0] != '\0' ? types : "none");
		matrix_login_fatal(c, why);
		return;
	}
	password_login(c);
}

void
matrix_login_start(struct matrix_client *c)
{
	char buf[1024];

	/* where the server is and whether it speaks our version, before any
	 * secret goes to it */
	if (!c->versions_ok) {
		matrix_discover_start(c);
		return;
	}
	if (c->cfg.password[0] == '\0' && c->cfg.refresh[0] == '\0') {
		whoami_start(c);
		return;
	}
	/* the token of the last run, if it is still good: no login at all
	 * (with refresh_token_file, the tokens of token_file were spent by
	 * the first refresh: the stored ones are the live ones) */
	if (!c->stored_tried) {
		c->stored_tried = true;
		/* only the configured account's: after `user` changed, the
		 * stored token would bring the old account up */
		if (matrix_client_get(c, "token_user", buf, sizeof buf) >= 0 && strcmp(buf, c->cfg.user) == 0 &&
		    matrix_client_get(c, "access_token", buf, sizeof buf) >= 0 && matrix_text_id_ok(buf, 0)) {
			snprintf(c->token, sizeof c->token, "%s", buf);
			if (matrix_client_get(c, "refresh_token", buf, sizeof buf) >= 0 && matrix_text_id_ok(buf, 0))
				snprintf(c->refresh, sizeof c->refresh, "%s", buf);
			secret_wipe(buf, sizeof buf);
			whoami_start(c);
			return;
		}
		secret_wipe(buf, sizeof buf);
	}
	if (c->cfg.password[0] == '\0') {
		whoami_start(c);   /* c->token and c->refresh: those of the configuration */
		return;
	}
	c->phase = MX_PH_IDLE;
	c->token[0] = '\0';
	matrix_login_step(c, "GET", MATRIX_API "/login", NULL, on_flows, "GET /login");
}
