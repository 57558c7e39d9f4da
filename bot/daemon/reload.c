/* reload.c: reload_config: apply a re-read configuration to the running bot, or refuse it whole. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
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

/* Appends to out the keys whose value differs between a and b (added,
 * removed or changed), space-separated. */
static void
section_changed(const struct adapter_cfg *a, const struct adapter_cfg *b, struct rbuf *out)
{
	for (size_t i = 0; i < a->nkeys; i++) {
		const char *v = section_value(b, a->keys[i].key);

		if (v == NULL || strcmp(v, a->keys[i].value) != 0)
			rbuf_printf(out, "%s%s", out->len ? " " : "", a->keys[i].key);
	}
	for (size_t i = 0; i < b->nkeys; i++)
		if (section_value(a, b->keys[i].key) == NULL)
			rbuf_printf(out, "%s%s", out->len ? " " : "", b->keys[i].key);
}

static bool
word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p != NULL && *p != '\0'; p += strcspn(p, " "), p += *p == ' ') {
		if (strncmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			return true;
	}
	return false;
}

/* "reload: WHAT: applied: a, b; waits for a restart: c": the changed keys,
 * each said to have taken effect or not, and nothing else. */
static void
report(const char *what, const char *changed, const char *applied)
{
	struct rbuf yes = { 0 }, no = { 0 };
	char word[64];

	for (const char *p = changed; *p != '\0';) {
		size_t n = strcspn(p, " ");

		snprintf(word, sizeof word, "%.*s", (int)n, p);
		if (word_in(applied, word))
			rbuf_printf(&yes, "%s%s", yes.len ? ", " : "", word);
		else
			rbuf_printf(&no, "%s%s", no.len ? ", " : "", word);
		p += n;
		while (*p == ' ')
			p++;
	}
	if (yes.len > 0 || no.len > 0)
		log_msg(LOG_LVL_NOTICE, "reload: %s: %s%s%s%s%s", what, yes.len ? "applied: " : "", yes.len ? yes.s : "",
		        yes.len && no.len ? "; " : "", no.len ? "waits for a restart: " : "", no.len ? no.s : "");
	rbuf_free(&yes);
	rbuf_free(&no);
}

/* The [bot] keys, to say which changed. */
#define BOT_KEY(k, field) { k, offsetof(struct bot_config, field), sizeof ((struct bot_config *)0)->field }
static const struct { const char *key; size_t off, size; } bot_keys[] = {
	BOT_KEY("prefix", prefix), BOT_KEY("database", database), BOT_KEY("rules", rules),
	BOT_KEY("ai_level", ai_level), BOT_KEY("turn_reminder", turn_reminder), BOT_KEY("turn_timeout", turn_timeout),
	BOT_KEY("log_level", log_level), BOT_KEY("table_expiry", table_expiry), BOT_KEY("ai_delay", ai_delay_ms),
	BOT_KEY("flood_burst", flood_burst), BOT_KEY("flood_refill", flood_refill_ms),
};

/* Every [bot] key takes effect at once but the database. */
static void
report_bot(const struct bot_config *old, const struct bot_config *c)
{
	struct rbuf changed = { 0 };

	for (size_t i = 0; i < sizeof bot_keys / sizeof bot_keys[0]; i++)
		if (memcmp((const char *)old + bot_keys[i].off, (const char *)c + bot_keys[i].off, bot_keys[i].size) != 0)
			rbuf_printf(&changed, "%s%s", changed.len ? " " : "", bot_keys[i].key);
	if (changed.len > 0)
		report("[bot]", changed.s, "prefix rules ai_level turn_reminder turn_timeout log_level table_expiry "
		                           "ai_delay flood_burst flood_refill");
	rbuf_free(&changed);
}

/* Inits each adapter section on a scratch adapter and frees it again: init
 * does no I/O, so this finds every error the real init would, before the
 * bot is touched.  Every section is checked: err lists all their errors. */
static int
check_sections(struct bot *b, struct bot_config *c, char *err, size_t errlen)
{
	struct rbuf all = { 0 };
	char one[4096];

	for (size_t i = 0; i < c->nsections; i++) {
		struct adapter_cfg *s = c->sections[i];
		const struct adapter_ops *ops = bot_adapter_type(b, s->type);
		const char *prefix;
		struct adapter scratch;
		int rc = 0;

		if (ops == NULL) {
			rbuf_printf(&all, "%s%s:%d: [%s %s]: unknown adapter type \"%s\"", all.len ? "\n" : "", s->file,
			            s->line, s->type, s->name, s->type);
			continue;
		}
		prefix = adapter_cfg_get(s, "prefix", NULL);
		if (prefix != NULL && (strlen(prefix) >= sizeof c->prefix || strchr(prefix, ' ') != NULL))
			adapter_cfg_error(s, "prefix", one, sizeof one, "at most %zu characters, no spaces",
			                  sizeof c->prefix - 1);
		memset(&scratch, 0, sizeof scratch);
		scratch.ops = ops;
		section_id(s, scratch.id, sizeof scratch.id);
		snprintf(scratch.name, sizeof scratch.name, "%s", s->name);
		scratch.loop = b->loop;
		scratch.http = b->http;
		scratch.host = b;
		one[0] = '\0';
		if (ops->init != NULL && (rc = ops->init(&scratch, s, one, sizeof one)) < 0 && one[0] == '\0')
			snprintf(one, sizeof one, "%s: cannot be set up", scratch.id);
		if (ops->free != NULL)
			ops->free(&scratch);
		if (bot_adapter_cfg_check(s, rc < 0 ? one : NULL) > 0)
			rbuf_printf(&all, "%s%s", all.len ? "\n" : "", s->errors.s);
		/* The real init will look the keys up again. */
		bot_adapter_cfg_reset(s);
	}
	if (all.len == 0)
		return 0;
	snprintf(err, errlen, "%s", all.s);
	rbuf_free(&all);
	return -1;
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

/* Section i of the new configuration c (the old one is old): an adapter
 * added and started, a live one reloaded in place or restarted, or one
 * untouched; true if it was added.  A section's adapter is of a type of
 * the adapter table, so it has needs_restart (one of the calls every
 * adapter has; only the tests' own adapters, which have no section, lack it). */
static bool
reload_section(struct bot *b, struct bot_config *old, struct bot_config *c, size_t i, char *err, size_t errlen)
{
	struct adapter_cfg *s = c->sections[i], *was, *fresh = s;
	struct bot_adapter *ba;
	struct adapter *a;
	size_t oi, at;
	char id[sizeof ((struct adapter *)0)->id];

	section_id(s, id, sizeof id);
	if ((ba = bot_adapter_find(b, id, &at)) == NULL) {
		const struct adapter_ops *ops = bot_adapter_type(b, s->type);

		log_msg(LOG_LVL_NOTICE, "reload: %s added: starting it", id);
		if ((a = bot_adapter_add(b, ops, s->name, s, err, errlen)) == NULL ||
		    (a->ops->start != NULL && a->ops->start(a) < 0))
			log_msg(LOG_LVL_ERR, "reload: %s: %s", id, a == NULL ? err : "cannot start");
		return true;
	}
	a = &ba->ad;
	was = section_find(old, id, &oi);
	if (was != NULL && section_same(was, s) && a->ops->needs_restart(a, s)) {
		/* The same text, but the adapter asks to start again: a secret
		 * file it reads may hold something new (Discord, after its token
		 * was refused: the operator's new token in token_file). */
		log_msg(LOG_LVL_NOTICE, "reload: %s: starting it again, as it asks (its secret files read anew)", id);
		if (adapter_restart(b, a, s, err, errlen) < 0)
			log_msg(LOG_LVL_ERR, "reload: %s", err);
	} else if (was != NULL && section_same(was, s)) {
		/* Untouched: it keeps the very section it was inited with,
		 * in case it kept pointers into it. */
		c->sections[i] = was;
		old->sections[oi] = s;
	} else if (was != NULL && !a->ops->needs_restart(a, s)) {
		struct rbuf changed = { 0 }, applied = { 0 };

		section_changed(was, s, &changed);
		rbuf_add(&applied, "prefix");   /* the bot's own key */
		if (a->ops->reload != NULL) {
			/* applied on the live connection: the new section is in force */
			rbuf_add(&applied, " ");
			a->ops->reload(a, s, &applied);
		} else {
			/* it keeps the section it was inited with, in case it kept pointers into it */
			c->sections[i] = was;
			old->sections[oi] = s;
		}
		report(id, changed.s != NULL ? changed.s : "", applied.s);
		rbuf_free(&changed);
		rbuf_free(&applied);
	} else {
		struct rbuf changed = { 0 };

		if (was != NULL)
			section_changed(was, s, &changed);
		for (size_t k = 0; k < changed.len; k++)
			if (changed.s[k] == ' ')
				changed.s[k] = ',';
		log_msg(LOG_LVL_NOTICE, "reload: %s: %s changed: reconnecting", id,
		        changed.len ? changed.s : "the section");
		rbuf_free(&changed);
		if (adapter_restart(b, a, s, err, errlen) < 0)
			log_msg(LOG_LVL_ERR, "reload: %s", err);
	}
	/* the prefix is the bot's, not the adapter's: it follows the new file
	 * even when the adapter keeps its old section */
	bot_adapter_prefix(ba, fresh);
	return false;
}

int
reload_config(struct bot *b, const char *path, char *err, size_t errlen)
{
	struct bot_config *old = b->cfg, *c;
	size_t i, nadded = 0, nold;
	char more[8192];

	more[0] = '\0';
	if ((c = config_read(path, err, errlen)) == NULL)
		return -1;
	/* every error of the file and of its sections, in one go */
	if (check_sections(b, c, more, sizeof more) < 0 || c->broken) {
		if (c->broken && more[0] != '\0')
			snprintf(err + strlen(err), errlen - strlen(err), "\n%s", more);
		else if (!c->broken)
			snprintf(err, errlen, "%s", more);
		config_free(c);
		return -1;
	}
	/* From here on the new configuration is in force. */
	report_bot(old, c);
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
	for (i = 0; i < c->nsections; i++)
		if (reload_section(b, old, c, i, err, errlen))
			nadded++;
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
