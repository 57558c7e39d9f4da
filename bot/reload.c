/* reload.c: reload_config: apply a re-read configuration to the running bot, or refuse it whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "reload.h"

/* The adapter id a section gives ("irc/libera", or "console" for [console]). */
static void
section_id(const struct adapter_cfg *s, char *buf, size_t len)
{
	if (strcmp(s->type, s->name) == 0)
		snprintf(buf, len, "%s", s->type);
	else
		snprintf(buf, len, "%s/%s", s->type, s->name);
}

static struct adapter_cfg *
section_find(struct bot_config *c, const char *id, size_t *at)
{
	char sid[sizeof ((struct adapter *)0)->id];

	for (size_t i = 0; i < c->nsections; i++) {
		section_id(c->sections[i], sid, sizeof sid);
		if (strcmp(sid, id) == 0) {
			if (at != NULL)
				*at = i;
			return c->sections[i];
		}
	}
	return NULL;
}

static const char *
section_value(const struct adapter_cfg *s, const char *key)
{
	for (size_t i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].key, key) == 0)
			return s->keys[i].value;
	return NULL;
}

/* Same keys with the same values, in any order (line numbers do not count). */
static bool
section_same(const struct adapter_cfg *a, const struct adapter_cfg *b)
{
	if (strcmp(a->type, b->type) != 0 || a->nkeys != b->nkeys)
		return false;
	for (size_t i = 0; i < a->nkeys; i++) {
		const char *v = section_value(b, a->keys[i].key);

		if (v == NULL || strcmp(v, a->keys[i].value) != 0)
			return false;
	}
	return true;
}

/* Inits each adapter section on a scratch adapter and frees it again: init
 * does no I/O, so this finds every error the real init would, before the
 * bot is touched. */
static int
check_sections(struct bot *b, struct bot_config *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nsections; i++) {
		struct adapter_cfg *s = c->sections[i];
		const struct adapter_ops *ops = bot_adapter_type(b, s->type);
		const struct cfg_key *k;
		const char *prefix;
		struct adapter scratch;

		if (ops == NULL) {
			snprintf(err, errlen, "%s:%d: [%s %s]: unknown adapter type \"%s\"", s->file, s->line,
			         s->type, s->name, s->type);
			return -1;
		}
		prefix = adapter_cfg_get(s, "prefix", NULL);
		if (prefix != NULL && (strlen(prefix) >= sizeof c->prefix || strchr(prefix, ' ') != NULL)) {
			adapter_cfg_error(s, "prefix", err, errlen, "at most %zu characters, no spaces",
			                  sizeof c->prefix - 1);
			return -1;
		}
		memset(&scratch, 0, sizeof scratch);
		scratch.ops = ops;
		section_id(s, scratch.id, sizeof scratch.id);
		snprintf(scratch.name, sizeof scratch.name, "%s", s->name);
		scratch.loop = b->loop;
		scratch.http = b->http;
		scratch.host = b;
		if (ops->init != NULL && ops->init(&scratch, s, err, errlen) < 0)
			return -1;
		k = config_unused(s);
		if (ops->free != NULL)
			ops->free(&scratch);
		if (k != NULL) {
			adapter_cfg_error(s, k->key, err, errlen, "unknown key");
			return -1;
		}
		/* The real init will look the keys up again. */
		for (size_t j = 0; j < s->nkeys; j++)
			s->keys[j].used = false;
	}
	return 0;
}

/* Drops the sessions of an adapter from memory; their games stay in the database. */
static void
sessions_detach(struct bot *b, struct adapter *a)
{
	struct session *s, *next;
	size_t n = 0;

	for (s = b->sessions.all; s != NULL; s = next) {
		next = s->all_next;
		if (s->ad == a) {
			bot_session_end(b, s);
			n++;
		}
	}
	if (n > 0)
		log_msg(LOG_LVL_NOTICE, "%s: %zu games kept in the database until the adapter is back", a->id, n);
}

static void
adapter_remove(struct bot *b, size_t at)
{
	struct adapter *a = &b->adapters[at]->ad;

	log_msg(LOG_LVL_NOTICE, "reload: %s removed: stopping it", a->id);
	sessions_detach(b, a);
	bot_adapter_remove(b, at, "Configuration reloaded: leaving");
}

/* Same struct adapter, so every session that points at it stays valid. */
static int
adapter_restart(struct bot *b, struct adapter *a, struct adapter_cfg *s, char *err, size_t errlen)
{
	log_msg(LOG_LVL_NOTICE, "reload: %s changed: reconnecting", a->id);
	if (a->ops->stop != NULL)
		a->ops->stop(a, "Configuration reloaded: reconnecting");
	if (a->ops->free != NULL)
		a->ops->free(a);
	a->priv = NULL;
	if (a->ops->init != NULL && a->ops->init(a, s, err, errlen) < 0)
		return -1;
	if (a->ops->start != NULL && a->ops->start(a) < 0) {
		snprintf(err, errlen, "%s: cannot start", a->id);
		return -1;
	}
	(void)b;
	return 0;
}

int
reload_config(struct bot *b, const char *path, char *err, size_t errlen)
{
	struct bot_config *old = b->cfg, *c;
	size_t i, at, nadded = 0, nold;
	char id[sizeof ((struct adapter *)0)->id];

	if ((c = config_load(path, err, errlen)) == NULL)
		return -1;
	if (check_sections(b, c, err, errlen) < 0) {
		config_free(c);
		return -1;
	}
	/* From here on the new configuration is in force. */
	if (strcmp(c->database, old->database) != 0) {
		log_msg(LOG_LVL_WARNING, "reload: database %s -> %s needs a restart; keeping %s", old->database,
		        c->database, old->database);
		snprintf(c->database, sizeof c->database, "%s", old->database);
	}
	log_level = c->log_level;
	reply_flush(b);

	/* Removed adapters (configured ones only: test adapters have no section). */
	for (i = b->nadapters; i-- > 0;)
		if (section_find(old, b->adapters[i]->ad.id, NULL) != NULL &&
		    section_find(c, b->adapters[i]->ad.id, NULL) == NULL)
			adapter_remove(b, i);

	b->cfg = c;
	nold = b->nadapters;
	for (i = 0; i < c->nsections; i++) {
		struct adapter_cfg *s = c->sections[i], *was, *fresh = s;
		struct bot_adapter *ba;
		struct adapter *a;
		size_t oi;

		section_id(s, id, sizeof id);
		if ((ba = bot_adapter_find(b, id, &at)) == NULL) {
			const struct adapter_ops *ops = bot_adapter_type(b, s->type);

			log_msg(LOG_LVL_NOTICE, "reload: %s added: starting it", id);
			if ((a = bot_adapter_add(b, ops, s->name, s, err, errlen)) == NULL ||
			    (a->ops->start != NULL && a->ops->start(a) < 0))
				log_msg(LOG_LVL_ERR, "reload: %s: %s", id, a == NULL ? err : "cannot start");
			nadded++;
			continue;
		}
		a = &ba->ad;
		was = section_find(old, id, &oi);
		if (was != NULL && section_same(was, s)) {
			/* Untouched: it keeps the very section it was inited with,
			 * in case it kept pointers into it. */
			c->sections[i] = was;
			old->sections[oi] = s;
		} else if (was != NULL && a->ops->needs_restart != NULL && !a->ops->needs_restart(a, s)) {
			log_msg(LOG_LVL_NOTICE, "reload: %s changed, no reconnect needed", id);
			c->sections[i] = was;
			old->sections[oi] = s;
		} else if (adapter_restart(b, a, s, err, errlen) < 0) {
			log_msg(LOG_LVL_ERR, "reload: %s", err);
		}
		/* the prefix is the bot's, not the adapter's: it follows the new file
		 * even when the adapter keeps its old section */
		bot_adapter_prefix(ba, fresh);
	}
	/* Adapters without a section (added by tests) follow [bot] prefix. */
	for (i = 0; i < nold; i++)
		if (section_find(c, b->adapters[i]->ad.id, NULL) == NULL)
			bot_adapter_prefix(b->adapters[i], NULL);
	config_free(old);
	if (nadded > 0)
		restore_games(b);   /* the games that waited for an added adapter */
	log_msg(LOG_LVL_NOTICE, "reload: %s in force (%zu adapters)", path, b->nadapters);
	return 0;
}
