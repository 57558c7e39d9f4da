/* adapter.c: the calls an adapter makes into the bot: events, logging, secrets, its key-value state. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

void
adapter_emit(struct adapter *a, const struct bot_event *ev)
{
	bot_event(a->host, a, ev);
}

const struct adapter_command *
adapter_commands(struct adapter *a, size_t *n)
{
	struct bot *b = a->host;

	*n = b->ncommands;
	return b->commands;
}

void
adapter_set_self(struct adapter *a, const char *name)
{
	address_set(&bot_adapter_of(a)->self, name);
}

void
adapter_log(struct adapter *a, int level, const char *fmt, ...)
{
	char line[900];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log_msg(level, "%s: %s", a->id, line);
}

int
adapter_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	char full[512];
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	FILE *f = NULL;
	size_t n;

	if (path[0] != '/' && dir != NULL) {
		snprintf(full, sizeof full, "%s/%s", dir, path);
		f = fopen(full, "r");
	}
	if (f == NULL && (f = fopen(path, "r")) == NULL) {
		/* The path is named, never the contents. */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: empty", path);
		return -1;
	}
	fclose(f);
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	if (n == 0) {
		snprintf(err, errlen, "%s: empty", path);
		return -1;
	}
	return 0;
}

int
adapter_state_get(struct adapter *a, const char *key, char *buf, size_t len)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_get(b->store, a->id, key, buf, len);
}

int
adapter_state_set(struct adapter *a, const char *key, const char *value)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_set(b->store, a->id, key, value);
}

int
adapter_state_del(struct adapter *a, const char *key)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_del(b->store, a->id, key);
}

int
adapter_state_each(struct adapter *a, const char *prefix, void (*fn)(void *ctx, const char *key, const char *value),
                   void *ctx)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_each(b->store, a->id, prefix, fn, ctx);
}
