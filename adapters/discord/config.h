/* config.h: the [discord NAME] section: token_file, api_url, ca_file, guilds, message_commands, private. */
#ifndef HF_DISCORD_CONFIG_H
#define HF_DISCORD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "interaction.h"

struct adapter_cfg;

#define DISCORD_MAX_GUILDS 100
#define DISCORD_SHARDS_MAX 16            /* shards one process runs (shard_ids) */
#define DISCORD_SHARD_COUNT_MAX 4096

enum discord_private {
	DISCORD_PRIVATE_EPHEMERAL = 0,   /* hands as "only you can see this" replies (flag 64) */
	DISCORD_PRIVATE_DM               /* hands in a direct message */
};

struct discord_config {
	char token[256];                 /* from token_file; never logged */
	char api_url[512];               /* no trailing slash */
	char ca_file[512];
	char guilds[DISCORD_MAX_GUILDS][DISCORD_ID_LEN];
	size_t nguilds;                  /* 0: commands are registered globally and every guild is served */
	bool message_commands;
	enum discord_private private_mode;
	int shards;                      /* 0: auto, GET /gateway/bot's count */
	int shard_ids[DISCORD_SHARDS_MAX];
	size_t nshard_ids;               /* 0: every shard */
};

/* Whether "host[:port][/...]" (after http://) is a loopback address: 127.0.0.0/8, [::1], localhost. */
bool discord_config_loopback(const char *hostport);
/* Reads the section (the token file too). -1 with err ("FILE:LINE: [discord x] key: ...") on a bad key. */
int  discord_config_read(struct adapter_cfg *ac, struct discord_config *cfg, char *err, size_t errlen);
/* Forgets the token. */
void discord_config_wipe(struct discord_config *cfg);
/* True if a and b differ in a way that needs a new connection (a SIGHUP's
 * reload): everything but private, which applies on the live link. */
bool discord_config_differs(const struct discord_config *a, const struct discord_config *b);
/* True if guild is served: in the list, or there is no list. */
bool discord_config_guild_ok(const struct discord_config *cfg, const char *guild);

#endif
