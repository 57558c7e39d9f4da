/* sts.c: IRCv3 Strict Transport Security: a plain connection told "sts=port=N" moves to TLS on N; a policy seen over TLS is kept (adapter state "sts") for its duration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "loop.h"

/* The key=value of a comma-separated sts value ("port=6697,duration=300"); -1 if absent. */
static long
sts_field(const char *value, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = value; p != NULL && *p != '\0'; p = strchr(p, ','), p = p != NULL ? p + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == '=')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

void
irc_sts_offered(struct irc *c, const char *value)
{
	long port = sts_field(value, "port"), duration = sts_field(value, "duration");
	char buf[64];

	if (!irc_sts_tls(c)) {
		if (port <= 0 || port > 65535)
			return;
		/* the policy itself is taken only over TLS: first move there */
		c->sts_port = port;
		adapter_log(c->a, LOG_LVL_NOTICE, "the server asks for TLS (sts): reconnecting to port %ld", port);
		backoff_reset(&c->retry);
		irc_conn_disconnect(c, "moving to TLS (sts)");
		return;
	}
	if (duration < 0)
		return;
	if (duration == 0) {
		adapter_state_del(c->a, "sts");
		return;
	}
	snprintf(buf, sizeof buf, "%ld %lld", irc_sts_port(c),
	         (long long)(loop_now(c->a->loop) + (int64_t)duration * 1000));
	adapter_state_set(c->a, "sts", buf);
}

void
irc_sts_load(struct irc *c)
{
	char buf[64];
	long port;
	long long until;

	if (c->tls || c->sts_port != 0 || adapter_state_get(c->a, "sts", buf, sizeof buf) != 0)
		return;
	if (sscanf(buf, "%ld %lld", &port, &until) == 2 && port > 0 && port <= 65535 && until > loop_now(c->a->loop))
		c->sts_port = port;
}

bool
irc_sts_tls(const struct irc *c)
{
	return c->tls || c->sts_port != 0;
}

long
irc_sts_port(const struct irc *c)
{
	return c->sts_port != 0 ? c->sts_port : c->port;
}
