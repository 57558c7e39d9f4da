/* discover.c: where the homeserver is (.well-known, for a bare server name) and whether it speaks our version (/versions), before the first login. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

static void versions_start(struct matrix_client *c);

/* No answer, a 5xx or a 429: tried again after a backoff (or the 429's wait). */
static bool
transient(long status)
{
	return status == 0 || status == 429 || status >= 500;
}

bool
matrix_discover_versions_ok(json_t *versions)
{
	json_t *v;
	size_t i;

	/* The adapter uses the /v3 endpoints, which every v1.x has (v1.1 on);
	 * r0.x servers predate them, and a v2 is not known to keep them. */
	json_array_foreach(versions, i, v) {
		const char *s = json_string_value(v);
		char *end;
		long minor;

		if (s == NULL || strncmp(s, "v1.", 3) != 0 || s[3] < '0' || s[3] > '9')
			continue;
		minor = strtol(s + 3, &end, 10);
		if (*end == '\0' && minor >= 1)
			return true;
	}
	return false;
}

static void
on_versions(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	json_t *versions = json_object_get(body, "versions"), *v;
	char why[900], list[300];
	size_t i, o = 0;

	c->sync_req = NULL;
	if (transient(status)) {
		matrix_login_failed(c, "GET /_matrix/client/versions", status, r->errcode, r->retry_ms);
		return;
	}
	if (status != 200 || !json_is_array(versions)) {
		snprintf(why, sizeof why, "%s does not answer GET /_matrix/client/versions as a Matrix homeserver does "
		         "(HTTP %ld): check homeserver", c->cfg.homeserver, status);
		matrix_login_fatal(c, why);
		return;
	}
	if (!matrix_discover_versions_ok(versions)) {
		list[0] = '\0';
		json_array_foreach(versions, i, v) {
			const char *s = json_string_value(v);

			if (s != NULL && o < sizeof list)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%.20s", o > 0 ? ", " : "", s);
		}
		snprintf(why, sizeof why, "%s supports none of the Matrix versions this bot speaks (it lists: %s; the bot "
		         "needs v1.1 or a later v1.x): upgrade the homeserver", c->cfg.homeserver,
		         list[0] != '\0' ? list : "none");
		matrix_login_fatal(c, why);
		return;
	}
	c->versions_ok = true;
	c->fails = 0;
	matrix_login_start(c);
}

static void
versions_start(struct matrix_client *c)
{
	c->phase = MX_PH_IDLE;
	matrix_login_step(c, "GET", "/_matrix/client/versions", NULL, on_versions, "GET /_matrix/client/versions");
}

/* The spec's server discovery: a 404 is IGNORE (the server name's own host
 * is tried), anything else that gives no usable base_url stops the account
 * (FAIL_PROMPT / FAIL_ERROR: a person must look), and /versions then
 * validates the URL found. */
static void
on_well_known(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *url = json_string_value(json_object_get(json_object_get(body, "m.homeserver"), "base_url"));
	char why[900];
	size_t n;

	c->sync_req = NULL;
	if (transient(status)) {
		matrix_login_failed(c, "server discovery (GET /.well-known/matrix/client)", status, r->errcode,
		                    r->retry_ms);
		return;
	}
	if (status == 404) {
		matrix_client_log(c, LOG_LVL_INFO, "%s has no /.well-known/matrix/client: using %s", c->cfg.server_name,
		                  c->cfg.homeserver);
	} else if (status != 200 || url == NULL ||
	           (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) ||
	           strlen(url) >= sizeof c->cfg.homeserver || strpbrk(url, " \t\r\n\"\\") != NULL) {
		snprintf(why, sizeof why, "server discovery for %s failed: https://%s/.well-known/matrix/client gave %s "
		         "(HTTP %ld); fix it, or give homeserver as the homeserver's URL", c->cfg.server_name,
		         c->cfg.server_name, status != 200 ? "an error" : url == NULL ? "no m.homeserver base_url"
		                                                        : "a base_url that is not an http(s) URL",
		         status);
		matrix_login_fatal(c, why);
		return;
	} else {
		snprintf(c->cfg.homeserver, sizeof c->cfg.homeserver, "%s", url);
		n = strlen(c->cfg.homeserver);
		/* base_url may end in '/': paths are appended with their own */
		while (n > 0 && c->cfg.homeserver[n - 1] == '/')
			c->cfg.homeserver[--n] = '\0';
		matrix_client_log(c, LOG_LVL_INFO, "%s's homeserver is %s (.well-known)", c->cfg.server_name,
		                  c->cfg.homeserver);
		if (matrix_client_insecure(c->cfg.homeserver))
			matrix_client_log(c, LOG_LVL_WARNING, "%s is plain http: the login and every message cross the "
			                  "network unencrypted", c->cfg.homeserver);
	}
	c->discovered = true;
	versions_start(c);
}

void
matrix_discover_start(struct matrix_client *c)
{
	c->phase = MX_PH_IDLE;
	if (c->cfg.server_name[0] == '\0' || c->discovered) {
		versions_start(c);
		return;
	}
	/* the spec: https on the server name's host (a port, if the operator
	 * wrote one, is kept: the spec's hostname would drop it, but then the
	 * operator could not point the bot at a non-standard port at all) */
	snprintf(c->cfg.homeserver, sizeof c->cfg.homeserver, "https://%s", c->cfg.server_name);
	matrix_login_step(c, "GET", "/.well-known/matrix/client", NULL, on_well_known, "server discovery");
}
