/* config.c: the [irc NAME] section: reading and checking it, and which changes need a new connection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "secret.h"

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

/* Whether host is this machine: secrets sent there in clear cross no network. */
bool
irc_config_loopback(const char *host)
{
	return strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
	       strcmp(host, "[::1]") == 0;
}

/* The section's keys into c (the channel list into chans, the private mode
 * into mode, both to check after); -1 if any is wrong. */
static int
config_keys(struct irc *c, struct adapter_cfg *cfg, char *chans, size_t chanslen, char *mode, size_t modelen,
            char *err, size_t errlen)
{
	long v;
	int bad = 0;

#define TRY(x) do { if ((x) != 0) bad = -1; } while (0)
	TRY(cfg_str(cfg, "server", "localhost", c->server, sizeof c->server, err, errlen));
	TRY(adapter_cfg_bool(cfg, "tls", true, &c->tls, err, errlen));
	TRY(adapter_cfg_int(cfg, "port", c->tls ? 6697 : 6667, 1, 65535, &c->port, err, errlen));
	TRY(cfg_str(cfg, "ca_file", "", c->ca_file, sizeof c->ca_file, err, errlen));
	TRY(cfg_str(cfg, "client_cert", "", c->client_cert, sizeof c->client_cert, err, errlen));
	TRY(cfg_str(cfg, "client_key", "", c->client_key, sizeof c->client_key, err, errlen));
	TRY(cfg_str(cfg, "nick", "HandFoot", c->nick, sizeof c->nick, err, errlen));
	TRY(cfg_str(cfg, "username", "handfoot", c->username, sizeof c->username, err, errlen));
	TRY(cfg_str(cfg, "realname", "Hand and Foot card game bot", c->realname, sizeof c->realname, err, errlen));
	TRY(cfg_str(cfg, "channels", "", chans, chanslen, err, errlen));
	TRY(read_secret(cfg, "password_file", c->server_pass, sizeof c->server_pass, err, errlen));
	TRY(cfg_str(cfg, "sasl_mechanism", "", c->sasl_mech, sizeof c->sasl_mech, err, errlen));
	TRY(cfg_str(cfg, "sasl_user", "", c->sasl_user, sizeof c->sasl_user, err, errlen));
	TRY(read_secret(cfg, "sasl_password_file", c->sasl_pass, sizeof c->sasl_pass, err, errlen));
	TRY(adapter_cfg_bool(cfg, "sasl_required", true, &c->sasl_required, err, errlen));
	TRY(read_secret(cfg, "nickserv_password_file", c->ns_pass, sizeof c->ns_pass, err, errlen));
	TRY(cfg_str(cfg, "nickserv_target", "NickServ", c->ns_target, sizeof c->ns_target, err, errlen));
	TRY(adapter_cfg_bool(cfg, "join_on_invite", false, &c->join_on_invite, err, errlen));
	TRY(cfg_str(cfg, "invite_from", "", c->invite_from, sizeof c->invite_from, err, errlen));
	if (adapter_cfg_int(cfg, "invite_max", 8, 0, IRC_MAX_CHANS, &v, err, errlen) != 0)
		bad = -1;
	c->invite_max = (int)v;
	TRY(adapter_cfg_int(cfg, "flood_burst", 5, 1, 100, &c->burst, err, errlen));
	TRY(adapter_cfg_int(cfg, "flood_rate", 2000, 0, 60000, &c->rate_ms, err, errlen));
	TRY(cfg_str(cfg, "private", "auto", mode, modelen, err, errlen));
	TRY(adapter_cfg_bool(cfg, "colors", true, &c->colors, err, errlen));
	if (adapter_cfg_int(cfg, "ping_interval", 120, 5, 3600, &v, err, errlen) != 0)
		bad = -1;
	c->ping_interval_ms = v * 1000;
	if (adapter_cfg_int(cfg, "ping_timeout", 60, 5, 3600, &v, err, errlen) != 0)
		bad = -1;
	c->ping_timeout_ms = v * 1000;
	if (adapter_cfg_int(cfg, "reconnect_max", 300, 2, 86400, &v, err, errlen) != 0)
		bad = -1;
	c->reconnect_max_ms = v * 1000;
	if (adapter_cfg_int(cfg, "nick_poll", 60, 0, 86400, &v, err, errlen) != 0)
		bad = -1;
	else if (v != 0 && v < 5) {
		adapter_cfg_error(cfg, "nick_poll", err, errlen, "0 (never) or 5 seconds at least");
		bad = -1;
	}
	c->nick_poll_ms = v * 1000;
#undef TRY
	return bad;
}

/* What holds only together or only in some forms: private, nick, username, SASL. */
static int
config_check(struct irc *c, struct adapter_cfg *cfg, const char *mode, char *err, size_t errlen)
{
	int bad = 0;

	c->private_auto = strcmp(mode, "auto") == 0;
	if (strcmp(mode, "notice") == 0 || c->private_auto)
		c->private_notice = true;
	else if (strcmp(mode, "privmsg") == 0)
		c->private_notice = false;
	else {
		adapter_cfg_error(cfg, "private", err, errlen, "must be auto, notice or privmsg");
		bad = -1;
	}
	/* NickServ, or its full name (NickServ@services.libera.chat): the
	 * server delivers that only to a user on the services' server, so a
	 * user who took the nick NickServ on a net without services never
	 * gets the password */
	if (c->ns_target[0] == '\0' || c->ns_target[0] == '#' || c->ns_target[0] == ':' ||
	    strpbrk(c->ns_target, " ,!\t") != NULL || strchr(c->ns_target, '@') != strrchr(c->ns_target, '@') ||
	    c->ns_target[strlen(c->ns_target) - 1] == '@') {
		adapter_cfg_error(cfg, "nickserv_target", err, errlen,
		                  "must be a nick, or nick@server such as NickServ@services.libera.chat");
		bad = -1;
	}
	for (char *p = c->nick; *p != '\0'; p++)
		if (*p == ' ' || *p == ',' || *p == ':' || *p == '!' || *p == '@' || *p == '#') {
			adapter_cfg_error(cfg, "nick", err, errlen, "not a valid nickname");
			bad = -1;
			break;
		}
	if (c->nick[0] == '\0') {
		adapter_cfg_error(cfg, "nick", err, errlen, "must not be empty");
		bad = -1;
	}
	if (strchr(c->username, ' ') != NULL || c->username[0] == '\0') {
		adapter_cfg_error(cfg, "username", err, errlen, "must not be empty or hold spaces");
		bad = -1;
	}
	if (c->sasl_mech[0] != '\0') {
		for (char *p = c->sasl_mech; *p != '\0'; p++)
			if (*p >= 'a' && *p <= 'z')
				*p -= 'a' - 'A';
		if (strcmp(c->sasl_mech, "PLAIN") != 0 && strcmp(c->sasl_mech, "EXTERNAL") != 0) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "must be PLAIN or EXTERNAL");
			bad = -1;
		} else if (strcmp(c->sasl_mech, "PLAIN") == 0 && (c->sasl_user[0] == '\0' || c->sasl_pass[0] == '\0')) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "PLAIN needs sasl_user and sasl_password_file");
			bad = -1;
		} else if (strcmp(c->sasl_mech, "EXTERNAL") == 0 && c->client_cert[0] == '\0') {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "EXTERNAL needs client_cert");
			bad = -1;
		}
	}
	return bad;
}

/* "#a, #b key, #c" into the channels to join; -1 on a bad name. */
static int
config_channels(struct irc *c, struct adapter_cfg *cfg, char *chans, char *err, size_t errlen)
{
	char *tok, *save = NULL;
	int bad = 0, i;

	/* "#a, #b key, #c": a word that is no channel name is the key of the one before */
	for (tok = strtok_r(chans, ", ", &save), i = -1; tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		if (!irc_chan_is(tok) && i >= 0 && c->chans[i].key[0] == '\0' && strlen(tok) < sizeof c->chans[i].key) {
			irc_text_copy(c->chans[i].key, sizeof c->chans[i].key, tok);
			continue;
		}
		if ((i = irc_chan_add(c, tok, true)) < 0) {
			adapter_cfg_error(cfg, "channels", err, errlen, "bad channel name \"%s\" (or too many)", tok);
			bad = -1;
			break;
		}
		if (strlen(c->conf_chans) + strlen(c->chans[i].name) + 2 < sizeof c->conf_chans)
			snprintf(c->conf_chans + strlen(c->conf_chans), sizeof c->conf_chans - strlen(c->conf_chans), "%s%s",
			         c->conf_chans[0] != '\0' ? "," : "", c->chans[i].name);
	}
	return bad;
}

/* Fills c from the section; -1 with a message in err if a key is wrong.
 * Every key is looked at even after an error, and each error is recorded
 * (adapter_cfg_error): one run of handfoot -t lists them all. */
int
irc_config_read(struct irc *c, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	char chans[1024], mode[16];
	int bad = 0;

	if (config_keys(c, cfg, chans, sizeof chans, mode, sizeof mode, err, errlen) != 0)
		bad = -1;
	if (config_check(c, cfg, mode, err, errlen) != 0)
		bad = -1;
	if (config_channels(c, cfg, chans, err, errlen) != 0)
		bad = -1;
	return bad;
}

bool
irc_config_needs_restart(const struct irc *c, struct adapter_cfg *cfg)
{
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

/* The keys a live connection takes at once (the secrets are what the next
 * login uses); channels are joined and parted. */
void
irc_config_reload(struct adapter *a, struct adapter_cfg *cfg, struct rbuf *applied)
{
	struct irc *c = a->priv, *fresh = xcalloc(1, sizeof *fresh);
	char err[512];

	fresh->a = a;
	if (irc_config_read(fresh, cfg, err, sizeof err) != 0) {
		/* checked before: cannot happen, but then nothing changes */
		adapter_log(a, LOG_LVL_ERR, "reload: %s", err);
		goto out;
	}
	irc_chan_reconfigure(c, fresh);
	c->colors = fresh->colors;
	c->private_notice = fresh->private_notice;
	c->private_auto = fresh->private_auto;
	c->join_on_invite = fresh->join_on_invite;
	c->invite_max = fresh->invite_max;
	memcpy(c->invite_from, fresh->invite_from, sizeof c->invite_from);
	memcpy(c->conf_chans, fresh->conf_chans, sizeof c->conf_chans);
	c->sasl_required = fresh->sasl_required;
	c->ping_interval_ms = fresh->ping_interval_ms;
	c->ping_timeout_ms = fresh->ping_timeout_ms;
	c->reconnect_max_ms = fresh->reconnect_max_ms;
	c->nick_poll_ms = fresh->nick_poll_ms;
	if (c->burst != fresh->burst || c->rate_ms != fresh->rate_ms) {
		c->burst = fresh->burst;
		c->rate_ms = fresh->rate_ms;
		irc_bucket_init(&c->bucket, (int)c->burst, c->rate_ms);
		for (int i = 0; i < c->nchans; i++)
			irc_chan_pace(c, i);
	}
	memcpy(c->sasl_pass, fresh->sasl_pass, sizeof c->sasl_pass);
	memcpy(c->ns_pass, fresh->ns_pass, sizeof c->ns_pass);
	memcpy(c->ns_target, fresh->ns_target, sizeof c->ns_target);
	memcpy(c->server_pass, fresh->server_pass, sizeof c->server_pass);
	rbuf_add(applied, "channels colors private join_on_invite invite_from invite_max sasl_required ping_interval ping_timeout "
	                  "reconnect_max nick_poll flood_burst flood_rate sasl_password_file "
	                  "nickserv_password_file nickserv_target password_file");
out:
	irc_config_free(fresh);
}

void
irc_config_free(struct irc *c)
{
	for (int i = 0; i < c->nchans; i++)
		irc_chan_forget_recent(&c->chans[i]);
	secret_wipe(c->sasl_pass, sizeof c->sasl_pass);
	secret_wipe(c->ns_pass, sizeof c->ns_pass);
	secret_wipe(c->server_pass, sizeof c->server_pass);
	free(c);
}
