/* matrix.c: the Matrix adapter: reads a [matrix NAME] section and plugs the client into the adapter API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "matrix/matrix.h"
#include "secret.h"

struct matrix {
	struct adapter *a;
	struct matrix_config cfg;
	struct matrix_client *client;
};

static void
host_emit(void *ctx, const struct bot_event *ev)
{
	adapter_emit(((struct matrix *)ctx)->a, ev);
}

static void
host_log(void *ctx, int level, const char *msg)
{
	adapter_log(((struct matrix *)ctx)->a, level, "%s", msg);
}

static void
host_self(void *ctx, const char *name)
{
	adapter_set_self(((struct matrix *)ctx)->a, name);
}

static int
host_get(void *ctx, const char *key, char *buf, size_t len)
{
	return adapter_state_get(((struct matrix *)ctx)->a, key, buf, len);
}

static int
host_set(void *ctx, const char *key, const char *value)
{
	return adapter_state_set(((struct matrix *)ctx)->a, key, value);
}

static int
host_del(void *ctx, const char *key)
{
	return adapter_state_del(((struct matrix *)ctx)->a, key);
}

static int
host_each(void *ctx, const char *prefix, void (*fn)(void *fctx, const char *key, const char *value), void *fctx)
{
	return adapter_state_each(((struct matrix *)ctx)->a, prefix, fn, fctx);
}

/* Reads the section's settings into cfg, all but the secret files: what
 * needs_restart compares.  -1 with err on a bad key. */
static int
read_settings(struct adapter_cfg *ac, struct matrix_config *cfg, char *err, size_t errlen)
{
	const char *hs = adapter_cfg_get(ac, "homeserver", NULL);
	const char *user = adapter_cfg_get(ac, "user", NULL);
	const char *allow = adapter_cfg_get(ac, "allow", "");
	const char *ca = adapter_cfg_get(ac, "ca_file", "");
	long timeout;
	size_t n;

	memset(cfg, 0, sizeof *cfg);
	if (adapter_cfg_bool(ac, "auto_join", true, &cfg->auto_join, err, errlen) < 0 ||
	    adapter_cfg_int(ac, "sync_timeout", 30, 1, 300, &timeout, err, errlen) < 0 ||
	    adapter_cfg_int(ac, "max_rooms", MATRIX_MAX_ROOMS, 1, 100000, &cfg->max_rooms, err, errlen) < 0)
		return -1;
	cfg->sync_timeout_ms = timeout * 1000;
	if (hs != NULL && strstr(hs, "://") == NULL && hs[0] != '\0' && strlen(hs) < sizeof cfg->server_name &&
	    strspn(hs, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") == strlen(hs)) {
		/* a bare server name (example.org): the base URL is discovered
		 * at start (https://example.org/.well-known/matrix/client) */
		snprintf(cfg->server_name, sizeof cfg->server_name, "%s", hs);
		snprintf(cfg->homeserver, sizeof cfg->homeserver, "https://%s", hs);
	} else if (hs == NULL || (strncmp(hs, "https://", 8) != 0 && strncmp(hs, "http://", 7) != 0) ||
	           strlen(hs) >= sizeof cfg->homeserver) {
		adapter_cfg_error(ac, "homeserver", err, errlen,
		                  "needs a URL such as https://matrix.example.org, or a server name such as example.org");
		return -1;
	} else
		snprintf(cfg->homeserver, sizeof cfg->homeserver, "%s", hs);
	n = strlen(cfg->homeserver);
	while (n > 0 && cfg->homeserver[n - 1] == '/')
		cfg->homeserver[--n] = '\0';
	if (user == NULL || user[0] == '\0' || strlen(user) >= sizeof cfg->user || strpbrk(user, " \t\"\\") != NULL) {
		adapter_cfg_error(ac, "user", err, errlen, "needs the bot's user id, such as @handfoot:example.org");
		return -1;
	}
	snprintf(cfg->user, sizeof cfg->user, "%s", user);
	if (strlen(allow) >= sizeof cfg->allow || strlen(ca) >= sizeof cfg->ca_file) {
		adapter_cfg_error(ac, strlen(allow) >= sizeof cfg->allow ? "allow" : "ca_file", err, errlen, "too long");
		return -1;
	}
	snprintf(cfg->allow, sizeof cfg->allow, "%s", allow);
	snprintf(cfg->ca_file, sizeof cfg->ca_file, "%s", ca);
	return 0;
}

/* A new server, account or invitation policy, or another sync, needs a new
 * client.  The secret files are not read again: the client keeps the token
 * it has, and a new password or token file waits for a restart, unless the
 * account was stopped by a refused login. */
static bool
matrix_needs_restart(struct adapter *a, struct adapter_cfg *ac)
{
	struct matrix *m = a->priv;
	struct matrix_config n;
	char err[256];

	if (m == NULL || read_settings(ac, &n, err, sizeof err) < 0)
		return true;
	/* the account stopped for good (a password or token refused): a
	 * reload starts again, with the secret files as they are now */
	if (m->client != NULL && matrix_client_stopped(m->client))
		return true;
	return strcmp(n.homeserver, m->cfg.homeserver) != 0 || strcmp(n.user, m->cfg.user) != 0 ||
	       strcmp(n.allow, m->cfg.allow) != 0 || strcmp(n.ca_file, m->cfg.ca_file) != 0 ||
	       n.auto_join != m->cfg.auto_join || n.sync_timeout_ms != m->cfg.sync_timeout_ms ||
	       n.max_rooms != m->cfg.max_rooms;
}

/* Reads the section into cfg, the secret files' contents included; -1 with
 * err on a bad key. */
static int
read_config(struct adapter_cfg *ac, struct matrix_config *cfg, char *err, size_t errlen)
{
	const char *pw = adapter_cfg_get(ac, "password_file", NULL);
	const char *tok = adapter_cfg_get(ac, "token_file", NULL);
	const char *rtok = adapter_cfg_get(ac, "refresh_token_file", NULL);

	if (read_settings(ac, cfg, err, errlen) < 0)
		return -1;
	if ((pw == NULL) == (tok == NULL)) {
		adapter_cfg_error(ac, pw != NULL ? "password_file" : "token_file", err, errlen,
		                  "give exactly one of password_file and token_file");
		return -1;
	}
	if (pw != NULL && adapter_read_secret(pw, cfg->password, sizeof cfg->password, err, errlen) < 0)
		return -1;
	if (tok != NULL && adapter_read_secret(tok, cfg->token, sizeof cfg->token, err, errlen) < 0)
		return -1;
	if ((pw != NULL && cfg->password[0] == '\0') || (tok != NULL && cfg->token[0] == '\0')) {
		adapter_cfg_error(ac, pw != NULL ? "password_file" : "token_file", err, errlen, "the file is empty");
		return -1;
	}
	/* an OAuth token expires: its refresh token renews it (a password
	 * login gets its own refresh token) */
	if (rtok != NULL && tok == NULL) {
		adapter_cfg_error(ac, "refresh_token_file", err, errlen, "goes with token_file, not password_file");
		return -1;
	}
	if (rtok != NULL && adapter_read_secret(rtok, cfg->refresh, sizeof cfg->refresh, err, errlen) < 0)
		return -1;
	if (rtok != NULL && cfg->refresh[0] == '\0') {
		adapter_cfg_error(ac, "refresh_token_file", err, errlen, "the file is empty");
		return -1;
	}
	return 0;
}

static void
wipe(struct matrix_config *cfg)
{
	secret_wipe(cfg->password, sizeof cfg->password);
	secret_wipe(cfg->token, sizeof cfg->token);
	secret_wipe(cfg->refresh, sizeof cfg->refresh);
}

static int
matrix_init(struct adapter *a, struct adapter_cfg *ac, char *err, size_t errlen)
{
	struct matrix *m = xcalloc(1, sizeof *m);

	m->a = a;
	if (read_config(ac, &m->cfg, err, errlen) < 0) {
		wipe(&m->cfg);
		free(m);
		return -1;
	}
	a->priv = m;
	return 0;
}

static int
matrix_start(struct adapter *a)
{
	struct matrix *m = a->priv;
	struct matrix_host host = {
		.ctx = m, .emit = host_emit, .log = host_log, .self = host_self,
		.store = { .ctx = m, .get = host_get, .set = host_set, .del = host_del, .each = host_each },
	};

	if (m->client == NULL && (m->client = matrix_client_new(&m->cfg, &host, a->loop, a->http)) == NULL)
		return -1;
	/* the client keeps its own copy */
	wipe(&m->cfg);
	return matrix_client_start(m->client);
}

static int
matrix_send(struct adapter *a, const struct adapter_msg *msg)
{
	struct matrix *m = a->priv;

	return m->client != NULL ? matrix_client_send(m->client, msg) : -1;
}

static void
matrix_stop(struct adapter *a, const char *quit_message)
{
	struct matrix *m = a->priv;

	(void)quit_message; /* leaving every room would end the games: stay */
	if (m != NULL && m->client != NULL)
		matrix_client_stop(m->client);
}

static void
matrix_free(struct adapter *a)
{
	struct matrix *m = a->priv;

	if (m == NULL)
		return;
	matrix_client_free(m->client);
	wipe(&m->cfg);
	free(m);
	a->priv = NULL;
}

static size_t
matrix_pending(struct adapter *a, const char *room, enum adapter_pending what)
{
	struct matrix *m = a->priv;

	return m != NULL && m->client != NULL ? matrix_client_pending(m->client, room, what) : 0;
}

static bool
matrix_is_moderator(struct adapter *a, const char *room, const char *user_id)
{
	struct matrix *m = a->priv;

	return m != NULL && m->client != NULL && matrix_client_is_moderator(m->client, room, user_id);
}

ADAPTER_OPS(matrix,
	.pending = matrix_pending,
	.is_moderator = matrix_is_moderator);
