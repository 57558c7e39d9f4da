/* bot-adapter.c: the adapters as the bot keeps them: one struct bot_adapter each (prefix, own names), made from the table main.c gives. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

struct bot_adapter *
bot_adapter_of(struct adapter *a)
{
	return (struct bot_adapter *)((char *)a - offsetof(struct bot_adapter, ad));
}

const struct adapter_ops *
bot_adapter_type(const struct bot *b, const char *type)
{
	size_t i;

	for (i = 0; i < b->nops; i++)
		if (strcmp(b->ops[i]->type, type) == 0)
			return b->ops[i];
	return NULL;
}

void
bot_adapter_prefix(struct bot_adapter *ba, const struct adapter_cfg *s)
{
	const char *p = NULL;
	size_t i;

	/* looked up without marking: init has read the section already */
	for (i = 0; s != NULL && i < s->nkeys; i++)
		if (strcmp(s->keys[i].key, "prefix") == 0)
			p = s->keys[i].value;
	snprintf(ba->prefix, sizeof ba->prefix, "%s", p != NULL ? p : ba->bot->cfg->prefix);
}

int
bot_adapter_cfg_check(struct adapter_cfg *cfg, const char *init_err)
{
	const struct cfg_key *k = NULL;
	char msg[512];

	if (init_err != NULL && init_err[0] != '\0') {
		/* an error the init made without adapter_cfg_error */
		if (cfg->errors.s == NULL || strstr(cfg->errors.s, init_err) == NULL) {
			rbuf_printf(&cfg->errors, "%s%s", cfg->errors.len ? "\n" : "", init_err);
			cfg->nerrors++;
		}
		/* An init that failed may have stopped before looking a key up:
		 * keys are called unknown only when it went through. */
		return cfg->nerrors;
	}
	while ((k = config_unused_after(cfg, k)) != NULL)
		adapter_cfg_error(cfg, k->key, msg, sizeof msg, "unknown key");
	return cfg->nerrors;
}

void
bot_adapter_cfg_reset(struct adapter_cfg *cfg)
{
	for (size_t j = 0; j < cfg->nkeys; j++)
		cfg->keys[j].used = false;
	rbuf_free(&cfg->errors);
	cfg->nerrors = 0;
}

struct adapter *
bot_adapter_add(struct bot *b, const struct adapter_ops *ops, const char *name, struct adapter_cfg *cfg, char *err,
                size_t errlen)
{
	struct bot_adapter *ba = xcalloc(1, sizeof *ba);
	struct adapter *a = &ba->ad;
	const char *prefix;

	ba->bot = b;
	a->ops = ops;
	if (strcmp(name, ops->type) == 0)
		snprintf(a->id, sizeof a->id, "%s", ops->type);
	else
		snprintf(a->id, sizeof a->id, "%s/%s", ops->type, name);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->loop = b->loop;
	a->http = b->http;
	a->host = b;
	if (cfg != NULL) {
		/* The bot's own key in every section: the command prefix. */
		prefix = adapter_cfg_get(cfg, "prefix", NULL);
		if (prefix != NULL && (strlen(prefix) >= sizeof ba->prefix || strchr(prefix, ' '))) {
			adapter_cfg_error(cfg, "prefix", err, errlen, "at most %zu characters, no spaces",
			                  sizeof ba->prefix - 1);
			free(ba);
			return NULL;
		}
	}
	bot_adapter_prefix(ba, cfg);
	err[0] = '\0';
	if (ops->init != NULL && ops->init(a, cfg, err, errlen) < 0) {
		if (err[0] == '\0')
			snprintf(err, errlen, "%s: cannot be set up", a->id);
		if (cfg != NULL && bot_adapter_cfg_check(cfg, err) > 0)
			snprintf(err, errlen, "%s", cfg->errors.s);
		free(ba);
		return NULL;
	}
	if (cfg != NULL && bot_adapter_cfg_check(cfg, NULL) > 0) {
		snprintf(err, errlen, "%s", cfg->errors.s);
		if (ops->free != NULL)
			ops->free(a);
		free(ba);
		return NULL;
	}
	b->adapters = xreallocarray(b->adapters, b->nadapters + 1, sizeof *b->adapters);
	b->adapters[b->nadapters++] = ba;
	return a;
}

int
bot_adapter_add_all(struct bot *b, char *err, size_t errlen)
{
	struct adapter_cfg *s;
	const struct adapter_ops *ops;
	struct rbuf all = { 0 };
	char one[4096];
	size_t i;

	/* every section is tried: one run lists the errors of all of them */
	for (i = 0; i < b->cfg->nsections; i++) {
		s = b->cfg->sections[i];
		if ((ops = bot_adapter_type(b, s->type)) == NULL)
			snprintf(one, sizeof one, "%s:%d: [%s%s%s]: unknown adapter type \"%s\"", s->file, s->line, s->type,
			         strcmp(s->type, s->name) ? " " : "", strcmp(s->type, s->name) ? s->name : "", s->type);
		else if (bot_adapter_add(b, ops, s->name, s, one, sizeof one) != NULL)
			continue;
		rbuf_printf(&all, "%s%s", all.len ? "\n" : "", one);
	}
	if (all.len == 0)
		return 0;
	snprintf(err, errlen, "%s", all.s);
	rbuf_free(&all);
	return -1;
}

int
bot_adapter_start_all(struct bot *b)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->start != NULL && a->ops->start(a) < 0) {
			log_msg(LOG_LVL_ERR, "%s: cannot start", a->id);
			rc = -1;
		}
	}
	return rc;
}

struct bot_adapter *
bot_adapter_find(struct bot *b, const char *id, size_t *at)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++)
		if (strcmp(b->adapters[i]->ad.id, id) == 0) {
			if (at != NULL)
				*at = i;
			return b->adapters[i];
		}
	return NULL;
}

void
bot_adapter_free_all(struct bot *b)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->free != NULL)
			a->ops->free(a);
		free(b->adapters[i]);
	}
	free(b->adapters);
	b->adapters = NULL;
	b->nadapters = 0;
}
