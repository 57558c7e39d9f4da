/* config.c: reads a [discord NAME] section; every bad value gets a message naming the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter.h"
#include "config.h"
#include "rest.h"
#include "secret.h"

static int
read_guilds(struct adapter_cfg *ac, const char *list, struct discord_config *cfg, char *err, size_t errlen)
{
	const char *p = list;

	cfg->nguilds = 0;
	while (*p != '\0') {
		size_t n;

		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		if (n == 0)
			break;
		if (n >= DISCORD_ID_LEN || strspn(p, "0123456789") < n) {
			adapter_cfg_error(ac, "guilds", err, errlen, "\"%.*s\" is not a guild id (a number such as "
			                  "123456789012345678)", (int)(n > 40 ? 40 : n), p);
			return -1;
		}
		if (cfg->nguilds == DISCORD_MAX_GUILDS) {
			adapter_cfg_error(ac, "guilds", err, errlen, "at most %d guilds", DISCORD_MAX_GUILDS);
			return -1;
		}
		memcpy(cfg->guilds[cfg->nguilds], p, n);
		cfg->guilds[cfg->nguilds][n] = '\0';
		cfg->nguilds++;
		p += n;
	}
	return 0;
}

/* shards = auto | N; shard_ids = the ones this process runs (gateway.mdx, Sharding) */
static int
read_shards(struct adapter_cfg *ac, struct discord_config *cfg, char *err, size_t errlen)
{
	const char *sh = adapter_cfg_get(ac, "shards", "auto"), *p = adapter_cfg_get(ac, "shard_ids", "");
	char *end;
	long v;

	if (strcmp(sh, "auto") == 0)
		cfg->shards = 0;
	else if ((v = strtol(sh, &end, 10)) >= 1 && v <= DISCORD_SHARD_COUNT_MAX && *end == '\0' && sh[0] != '\0')
		cfg->shards = (int)v;
	else {
		adapter_cfg_error(ac, "shards", err, errlen, "must be auto or a number of shards from 1 to %d",
		                  DISCORD_SHARD_COUNT_MAX);
		return -1;
	}
	while (*p != '\0') {
		size_t n;

		p += strspn(p, " \t,");
		if ((n = strcspn(p, " \t,")) == 0)
			break;
		v = strtol(p, &end, 10);
		if (end != p + n || p[0] == '-' || v < 0 || v >= (cfg->shards > 0 ? cfg->shards : DISCORD_SHARD_COUNT_MAX)) {
			adapter_cfg_error(ac, "shard_ids", err, errlen, "\"%.*s\" is not a shard id (0 to shards - 1)",
			                  (int)(n > 20 ? 20 : n), p);
			return -1;
		}
		for (size_t i = 0; i < cfg->nshard_ids; i++)
			if (cfg->shard_ids[i] == (int)v) {
				adapter_cfg_error(ac, "shard_ids", err, errlen, "shard %ld is listed twice", v);
				return -1;
			}
		if (cfg->nshard_ids == DISCORD_SHARDS_MAX) {
			adapter_cfg_error(ac, "shard_ids", err, errlen, "at most %d shards in one process",
			                  DISCORD_SHARDS_MAX);
			return -1;
		}
		cfg->shard_ids[cfg->nshard_ids++] = (int)v;
		p += n;
	}
	return 0;
}

bool
discord_config_loopback(const char *hostport)
{
	size_t n = strcspn(hostport, ":/");

	if (strncmp(hostport, "[::1]", 5) == 0)
		return hostport[5] == '\0' || hostport[5] == ':' || hostport[5] == '/';
	if (n == 9 && strncmp(hostport, "localhost", 9) == 0)
		return true;
	/* 127.0.0.0/8: four decimal parts, the first 127 */
	if (strncmp(hostport, "127.", 4) != 0)
		return false;
	for (size_t i = 4, dots = 0; i <= n; i++) {
		if (i == n)
			return dots == 2 && hostport[i - 1] != '.';
		if (hostport[i] == '.') {
			if (++dots > 2 || hostport[i - 1] == '.')
				return false;
		} else if (hostport[i] < '0' || hostport[i] > '9')
			return false;
	}
	return false;
}

int
discord_config_read(struct adapter_cfg *ac, struct discord_config *cfg, char *err, size_t errlen)
{
	const char *tok = adapter_cfg_get(ac, "token_file", NULL);
	const char *api = adapter_cfg_get(ac, "api_url", DISCORD_API_URL);
	const char *ca = adapter_cfg_get(ac, "ca_file", "");
	const char *guilds = adapter_cfg_get(ac, "guilds", "");
	const char *priv = adapter_cfg_get(ac, "private", "ephemeral");
	size_t n;

	memset(cfg, 0, sizeof *cfg);
	if (adapter_cfg_bool(ac, "message_commands", false, &cfg->message_commands, err, errlen) < 0)
		return -1;
	if (strcmp(priv, "ephemeral") == 0)
		cfg->private_mode = DISCORD_PRIVATE_EPHEMERAL;
	else if (strcmp(priv, "dm") == 0)
		cfg->private_mode = DISCORD_PRIVATE_DM;
	else {
		adapter_cfg_error(ac, "private", err, errlen, "must be ephemeral or dm");
		return -1;
	}
	if ((strncmp(api, "https://", 8) != 0 && strncmp(api, "http://", 7) != 0) || strlen(api) >= sizeof cfg->api_url ||
	    strpbrk(api, " \t\"?#") != NULL) {
		adapter_cfg_error(ac, "api_url", err, errlen, "needs a URL such as %s", DISCORD_API_URL);
		return -1;
	}
	if (strncmp(api, "http://", 7) == 0 && !discord_config_loopback(api + 7)) {
		adapter_cfg_error(ac, "api_url", err, errlen, "http:// would send the bot token in clear: only a loopback "
		                  "address (127.0.0.1, [::1], localhost) may use it; use https://");
		return -1;
	}
	snprintf(cfg->api_url, sizeof cfg->api_url, "%s", api);
	n = strlen(cfg->api_url);
	while (n > 0 && cfg->api_url[n - 1] == '/')
		cfg->api_url[--n] = '\0';
	if (strlen(ca) >= sizeof cfg->ca_file) {
		adapter_cfg_error(ac, "ca_file", err, errlen, "too long");
		return -1;
	}
	if (ca[0] != '\0' && access(ca, R_OK) != 0) {
		adapter_cfg_error(ac, "ca_file", err, errlen, "%s cannot be read", ca);
		return -1;
	}
	snprintf(cfg->ca_file, sizeof cfg->ca_file, "%s", ca);
	if (read_guilds(ac, guilds, cfg, err, errlen) < 0 || read_shards(ac, cfg, err, errlen) < 0)
		return -1;
	if (tok == NULL || tok[0] == '\0') {
		adapter_cfg_error(ac, "token_file", err, errlen, "needs the file holding the bot token");
		return -1;
	}
	if (adapter_read_secret(tok, cfg->token, sizeof cfg->token, err, errlen) < 0)
		return -1;
	n = strlen(cfg->token);
	/* a bot token is three base64url parts joined by dots; anything else (a
	 * "Bot " prefix, quotes) would be refused by Discord: say so, without it */
	if (n < 20 || strspn(cfg->token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") != n) {
		discord_config_wipe(cfg);
		adapter_cfg_error(ac, "token_file", err, errlen,
		                  "does not hold a bot token (the token alone, as the Developer Portal shows it)");
		return -1;
	}
	return 0;
}

void
discord_config_wipe(struct discord_config *cfg)
{
	secret_wipe(cfg->token, sizeof cfg->token);
}

bool
discord_config_differs(const struct discord_config *a, const struct discord_config *b)
{
	/* private is not here: it only routes the next private line, and a
	 * reload applies it on the live link (discord.c) */
	if (strcmp(a->token, b->token) != 0 || strcmp(a->api_url, b->api_url) != 0 ||
	    strcmp(a->ca_file, b->ca_file) != 0 || a->message_commands != b->message_commands ||
	    a->nguilds != b->nguilds || a->shards != b->shards || a->nshard_ids != b->nshard_ids ||
	    memcmp(a->shard_ids, b->shard_ids, sizeof a->shard_ids) != 0)
		return true;
	for (size_t i = 0; i < a->nguilds; i++)
		if (strcmp(a->guilds[i], b->guilds[i]) != 0)
			return true;
	return false;
}

bool
discord_config_guild_ok(const struct discord_config *cfg, const char *guild)
{
	if (cfg->nguilds == 0)
		return true;
	for (size_t i = 0; i < cfg->nguilds; i++)
		if (strcmp(cfg->guilds[i], guild) == 0)
			return true;
	return false;
}
