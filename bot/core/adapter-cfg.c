/* adapter-cfg.c: adapter_cfg_*: an adapter's lookups in its own INI section (marking keys as known). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

static struct cfg_key *
cfg_find(struct adapter_cfg *cfg, const char *key)
{
	size_t i;

	for (i = 0; i < cfg->nkeys; i++)
		if (strcmp(cfg->keys[i].key, key) == 0) {
			cfg->keys[i].used = true;
			return &cfg->keys[i];
		}
	return NULL;
}

static void
cfg_verror(struct adapter_cfg *cfg, const char *key, char *err, size_t errlen, const char *fmt, va_list ap)
{
	struct cfg_key *k = NULL;
	size_t i, n;

	for (i = 0; i < cfg->nkeys; i++)
		if (strcmp(cfg->keys[i].key, key) == 0)
			k = &cfg->keys[i];
	if (strcmp(cfg->type, cfg->name) == 0)
		n = (size_t)snprintf(err, errlen, "%s:%d: [%s] %s: ", cfg->file, k ? k->line : cfg->line,
		                     cfg->type, key);
	else
		n = (size_t)snprintf(err, errlen, "%s:%d: [%s %s] %s: ", cfg->file, k ? k->line : cfg->line,
		                     cfg->type, cfg->name, key);
	if (n < errlen)
		vsnprintf(err + n, errlen - n, fmt, ap);
	/* kept as well: the bot lists every error of a section, not only the
	 * last one its init returns (handfoot -t: one run finds them all) */
	if (cfg->errors.s == NULL || strstr(cfg->errors.s, err) == NULL) {
		rbuf_printf(&cfg->errors, "%s%s", cfg->errors.len ? "\n" : "", err);
		cfg->nerrors++;
	}
}

void
adapter_cfg_error(struct adapter_cfg *cfg, const char *key, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cfg_verror(cfg, key, err, errlen, fmt, ap);
	va_end(ap);
}

const char *
adapter_cfg_get(struct adapter_cfg *cfg, const char *key, const char *def)
{
	struct cfg_key *k = cfg_find(cfg, key);

	return k != NULL ? k->value : def;
}

int
adapter_cfg_bool(struct adapter_cfg *cfg, const char *key, bool def, bool *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no", "false", "off", "0" };
	struct cfg_key *k = cfg_find(cfg, key);
	size_t i;

	if (k == NULL) {
		*out = def;
		return 0;
	}
	for (i = 0; i < 4; i++) {
		if (strcasecmp(k->value, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(k->value, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	adapter_cfg_error(cfg, key, err, errlen, "\"%s\" is not yes or no", k->value);
	return -1;
}

int
adapter_cfg_int(struct adapter_cfg *cfg, const char *key, long def, long min, long max, long *out,
                char *err, size_t errlen)
{
	struct cfg_key *k = cfg_find(cfg, key);
	char *end;
	long v;

	if (k == NULL) {
		*out = def;
		return 0;
	}
	errno = 0;
	v = strtol(k->value, &end, 10);
	if (k->value[0] == '\0' || *end != '\0' || errno != 0 || v < min || v > max) {
		adapter_cfg_error(cfg, key, err, errlen, "\"%s\" is not a number from %ld to %ld", k->value, min, max);
		return -1;
	}
	*out = v;
	return 0;
}
