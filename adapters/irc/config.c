/* config.c: the [irc NAME] section: reading and checking it, and which changes need a new connection. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "client.h"

static int
cfg_str(struct adapter_cfg *cfg, const char *key, const char *def, char *dst, size_t len,
        char *err, size_t errlen)
{
	const char *v = adapter_cfg_get(cfg, key, def);

	if (v == NULL)
		v = "";
	if (strlen(v) >= len) {
		adapter_cfg_error(cfg, key, err, errlen, "too long (at most %zu bytes)", len - 1);
		return -1;
	}
	for (const char *p = v; *p != '\0'; p++)
		if ((unsigned char)*p < ' ') {
			adapter_cfg_error(cfg, key, err, errlen, "control characters are not allowed");
			return -1;
		}
	irc_text_copy(dst, len, v);
	return 0;
}

static int
read_secret(struct adapter_cfg *cfg, const char *key, char *dst, size_t len, char *err, size_t errlen)
{
	const char *path = adapter_cfg_get(cfg, key, NULL);
	char why[256];

	dst[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return 0;
	if (adapter_read_secret(path, dst, len, why, sizeof why) != 0) {
		adapter_cfg_error(cfg, key, err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

/* Fills c from the section; -1 with a message in err if a key is wrong. */
int
irc_config_read(struct irc *c, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	char chans[1024], *tok, *save = NULL, mode[16];
	long v;

	if (cfg_str(cfg, "server", "localhost", c->server, sizeof c->server, err, errlen) ||
	    adapter_cfg_bool(cfg, "tls", true, &c->tls, err, errlen) ||
	    adapter_cfg_int(cfg, "port", c->tls ? 6697 : 6667, 1, 65535, &c->port, err, errlen) ||
	    cfg_str(cfg, "ca_file", "", c->ca_file, sizeof c->ca_file, err, errlen) ||
	    cfg_str(cfg, "client_cert", "", c->client_cert, sizeof c->client_cert, err, errlen) ||
	    cfg_str(cfg, "client_key", "", c->client_key, sizeof c->client_key, err, errlen) ||
	    cfg_str(cfg, "nick", "HandFoot", c->nick, sizeof c->nick, err, errlen) ||
	    cfg_str(cfg, "username", "handfoot", c->username, sizeof c->username, err, errlen) ||
	    cfg_str(cfg, "realname", "Hand and Foot card game bot", c->realname, sizeof c->realname, err, errlen) ||
	    cfg_str(cfg, "channels", "", chans, sizeof chans, err, errlen) ||
	    cfg_str(cfg, "sasl_mechanism", "", c->sasl_mech, sizeof c->sasl_mech, err, errlen) ||
	    cfg_str(cfg, "sasl_user", "", c->sasl_user, sizeof c->sasl_user, err, errlen) ||
	    read_secret(cfg, "sasl_password_file", c->sasl_pass, sizeof c->sasl_pass, err, errlen) ||
	    read_secret(cfg, "nickserv_password_file", c->ns_pass, sizeof c->ns_pass, err, errlen) ||
	    adapter_cfg_bool(cfg, "join_on_invite", false, &c->join_on_invite, err, errlen) ||
	    adapter_cfg_int(cfg, "flood_burst", 5, 1, 100, &c->burst, err, errlen) ||
	    adapter_cfg_int(cfg, "flood_rate", 2000, 0, 60000, &c->rate_ms, err, errlen) ||
	    cfg_str(cfg, "private", "notice", mode, sizeof mode, err, errlen) ||
	    adapter_cfg_bool(cfg, "colors", true, &c->colors, err, errlen) ||
	    adapter_cfg_int(cfg, "ping_interval", 120, 5, 3600, &v, err, errlen))
		return -1;
	c->ping_interval_ms = v * 1000;
	if (adapter_cfg_int(cfg, "ping_timeout", 60, 5, 3600, &v, err, errlen))
		return -1;
	c->ping_timeout_ms = v * 1000;
	if (adapter_cfg_int(cfg, "reconnect_max", 300, 2, 86400, &v, err, errlen))
		return -1;
	c->reconnect_max_ms = v * 1000;
	if (strcmp(mode, "notice") == 0)
		c->private_notice = true;
	else if (strcmp(mode, "privmsg") != 0) {
		adapter_cfg_error(cfg, "private", err, errlen, "must be notice or privmsg");
		return -1;
	}
	for (char *p = c->nick; *p != '\0'; p++)
		if (*p == ' ' || *p == ',' || *p == ':' || *p == '!' || *p == '@' || *p == '#') {
			adapter_cfg_error(cfg, "nick", err, errlen, "not a valid nickname");
			return -1;
		}
	if (c->nick[0] == '\0' || strchr(c->username, ' ') != NULL || c->username[0] == '\0') {
		adapter_cfg_error(cfg, "nick", err, errlen, "nick and username must not be empty or hold spaces");
		return -1;
	}
	if (c->sasl_mech[0] != '\0') {
		for (char *p = c->sasl_mech; *p != '\0'; p++)
			if (*p >= 'a' && *p <= 'z')
				*p -= 'a' - 'A';
		if (strcmp(c->sasl_mech, "PLAIN") != 0 && strcmp(c->sasl_mech, "EXTERNAL") != 0) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "must be PLAIN or EXTERNAL");
			return -1;
		}
		if (strcmp(c->sasl_mech, "PLAIN") == 0 && (c->sasl_user[0] == '\0' || c->sasl_pass[0] == '\0')) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "PLAIN needs sasl_user and sasl_password_file");
			return -1;
		}
		if (strcmp(c->sasl_mech, "EXTERNAL") == 0 && c->client_cert[0] == '\0') {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "EXTERNAL needs client_cert");
			return -1;
		}
	}
	for (tok = strtok_r(chans, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save))
		if (irc_chan_add(c, tok, true) < 0) {
			adapter_cfg_error(cfg, "channels", err, errlen, "bad channel name \"%s\" (or too many)", tok);
			return -1;
		}
	return 0;
}

bool
irc_config_needs_restart(struct adapter *a, struct adapter_cfg *cfg)
{
	struct irc *c = a->priv;
	const struct { const char *key, *def, *now; } k[] = {
		{ "server", "localhost", c->server }, { "nick", "HandFoot", c->nick },
		{ "username", "handfoot", c->username }, { "ca_file", "", c->ca_file },
		{ "client_cert", "", c->client_cert }, { "client_key", "", c->client_key },
		{ "sasl_mechanism", "", c->sasl_mech }, { "sasl_user", "", c->sasl_user },
	};
	char err[8];
	long port;
	bool tls;

	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		const char *v = adapter_cfg_get(cfg, k[i].key, k[i].def);

		if (strcasecmp(v != NULL ? v : "", k[i].now) != 0)
			return true;
	}
	if (adapter_cfg_bool(cfg, "tls", true, &tls, err, sizeof err) != 0 || tls != c->tls)
		return true;
	if (adapter_cfg_int(cfg, "port", tls ? 6697 : 6667, 1, 65535, &port, err, sizeof err) != 0 || port != c->port)
		return true;
	return false;
}
