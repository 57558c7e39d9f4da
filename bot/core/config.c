/* config.c: the configuration file: [bot] keys checked here, adapter sections kept for their init; every error listed. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

/* At most this many errors are listed: a wrong file is not a log flood. */
#define CONFIG_MAX_ERRORS 50

struct parse {
	struct bot_config *c;
	struct adapter_cfg *cur; /* NULL while in [bot] or before any section */
	bool in_bot;
	bool in_bad;             /* under a bad section header: its keys are not looked at */
	struct { char key[32]; int line; } bot_seen[32];
	int nbot_seen;
	struct rbuf errs;        /* every error, one "FILE:LINE: ..." line each */
	int nerrs;
};

static void __attribute__((format(printf, 3, 4)))
config_err(struct parse *p, int line, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	if (++p->nerrs > CONFIG_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rbuf_printf(&p->errs, "%s%s:%d: %s", p->errs.len ? "\n" : "", p->c->file, line, msg);
}

static void
config_defaults(struct bot_config *c)
{
	strcpy(c->prefix, "!");
	strcpy(c->database, "/var/lib/handfoot/handfoot.db");
	strcpy(c->rules, "classic");
	c->ai_level = HF_AI_NORMAL;
	c->ai_budget = HF_AI_BUDGET_DEFAULT;
	c->turn_reminder = 120;
	c->turn_timeout = 300;
	c->log_level = LOG_LVL_INFO;
	c->table_expiry = 1800;
	c->ai_delay_ms = 1500;
	c->flood_burst = 5;
	/* stricter than a connection's send rate (IRC: a line per 2 s): no one
	 * user can hold a share of the budget everyone waits on */
	c->flood_refill_ms = 3000;
	c->max_tables = 500;
	c->max_tables_per_user = 4;
	c->game_retention = 30;
}

static void
section_free(struct adapter_cfg *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].key);
		free(s->keys[i].value);
	}
	free(s->keys);
	rbuf_free(&s->errors);
	free(s);
}

void
config_free(struct bot_config *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nsections; i++)
		section_free(c->sections[i]);
	free(c->sections);
	free(c);
}

const struct cfg_key *
config_unused_after(const struct adapter_cfg *s, const struct cfg_key *after)
{
	size_t i = after != NULL ? (size_t)(after - s->keys) + 1 : 0;

	for (; i < s->nkeys; i++)
		if (!s->keys[i].used)
			return &s->keys[i];
	return NULL;
}

const struct cfg_key *
config_unused(const struct adapter_cfg *s)
{
	return config_unused_after(s, NULL);
}

void
config_log_errors(int level, const char *prefix, const char *err)
{
	const char *p = err, *nl;

	do {
		nl = strchr(p, '\n');
		log_msg(level, "%s%.*s", prefix, nl != NULL ? (int)(nl - p) : (int)strlen(p), p);
		p = nl + 1;
	} while (nl != NULL && *p != '\0');
}

/* "[bot]" or "[type name]". */
static void
config_section(void *ctx, int line, const char *head)
{
	struct parse *p = ctx;
	struct adapter_cfg *s, **ns;
	char buf[256], *type, *name;
	size_t i;

	snprintf(buf, sizeof buf, "%s", head);
	type = buf;
	name = type + strcspn(type, " \t");
	if (*name != '\0') {
		*name++ = '\0';
		while (*name == ' ' || *name == '\t')
			name++;
	}
	p->cur = NULL;
	p->in_bot = p->in_bad = false;
	if (strcmp(type, "bot") == 0 && *name == '\0') {
		p->in_bot = true;
		return;
	}
	if (*type == '\0' || strlen(type) >= sizeof s->type || strlen(name) >= sizeof s->name ||
	    name[strcspn(name, " \t")] != '\0' || strlen(head) >= sizeof buf) {
		config_err(p, line, "[%s]: bad section name (\"[type]\" or \"[type name]\")", head);
		p->in_bad = true;
		return;
	}
	for (i = 0; i < p->c->nsections; i++) {
		s = p->c->sections[i];
		if (strcmp(s->type, type) == 0 && strcmp(s->name, *name ? name : type) == 0) {
			config_err(p, line, "[%s%s%s] repeats the section of line %d", type, *name ? " " : "", name, s->line);
			p->in_bad = true;
			return;
		}
	}
	s = xcalloc(1, sizeof *s);
	ns = xreallocarray(p->c->sections, p->c->nsections + 1, sizeof *ns);
	snprintf(s->file, sizeof s->file, "%s", p->c->file);
	snprintf(s->type, sizeof s->type, "%s", type);
	snprintf(s->name, sizeof s->name, "%s", *name ? name : type);
	s->line = line;
	ns[p->c->nsections++] = s;
	p->c->sections = ns;
	p->cur = s;
}

static int
config_int(struct parse *p, int line, const char *key, const char *value, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (*value == '\0' || *end != '\0' || errno != 0 || v < min || v > max) {
		config_err(p, line, "[bot] %s: \"%s\" is not a number from %ld to %ld", key, value, min, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int
config_bot_key(struct parse *p, int line, const char *key, const char *value)
{
	struct bot_config *c = p->c;
	struct hf_rules r;
	char why[HF_ERRLEN];
	int v;

	if (strcmp(key, "prefix") == 0) {
		if (strlen(value) >= sizeof c->prefix || strchr(value, ' ') != NULL) {
			config_err(p, line, "[bot] prefix: at most %zu characters, no spaces", sizeof c->prefix - 1);
			return -1;
		}
		snprintf(c->prefix, sizeof c->prefix, "%s", value);
	} else if (strcmp(key, "database") == 0) {
		if (*value == '\0' || strlen(value) >= sizeof c->database) {
			config_err(p, line, "[bot] database: a path is needed (at most %zu bytes)", sizeof c->database - 1);
			return -1;
		}
		snprintf(c->database, sizeof c->database, "%s", value);
	} else if (strcmp(key, "rules") == 0) {
		if (strlen(value) >= sizeof c->rules || hf_rules_parse(&r, value, why, sizeof why) != HF_OK) {
			config_err(p, line, "[bot] rules: %s", strlen(value) >= sizeof c->rules ? "too long" : why);
			return -1;
		}
		snprintf(c->rules, sizeof c->rules, "%s", value);
	} else if (strcmp(key, "ai_level") == 0) {
		if ((v = hf_ai_level_parse(value)) < 0) {
			config_err(p, line, "[bot] ai_level: \"%s\" is not easy, normal or hard", value);
			return -1;
		}
		c->ai_level = v;
	} else if (strcmp(key, "ai_budget") == 0)
		return config_int(p, line, key, value, 0, 10000000, &c->ai_budget);
	else if (strcmp(key, "log_level") == 0) {
		if ((v = log_level_parse(value)) < 0) {
			config_err(p, line, "[bot] log_level: \"%s\" is not err, warning, notice, info or debug", value);
			return -1;
		}
		c->log_level = v;
	} else if (strcmp(key, "turn_reminder") == 0)
		return config_int(p, line, key, value, 0, 86400, &c->turn_reminder);
	else if (strcmp(key, "turn_timeout") == 0)
		return config_int(p, line, key, value, 0, 7 * 86400, &c->turn_timeout);
	else if (strcmp(key, "table_expiry") == 0)
		return config_int(p, line, key, value, 0, 7 * 86400, &c->table_expiry);
	else if (strcmp(key, "ai_delay") == 0)
		return config_int(p, line, key, value, 0, 60000, &c->ai_delay_ms);
	else if (strcmp(key, "flood_burst") == 0)
		return config_int(p, line, key, value, 1, 1000, &c->flood_burst);
	else if (strcmp(key, "flood_refill") == 0)
		return config_int(p, line, key, value, 1, 3600000, &c->flood_refill_ms);
	else if (strcmp(key, "max_tables") == 0)
		return config_int(p, line, key, value, 0, 1000000, &c->max_tables);
	else if (strcmp(key, "max_tables_per_user") == 0)
		return config_int(p, line, key, value, 0, 1000000, &c->max_tables_per_user);
	else if (strcmp(key, "game_retention") == 0)
		return config_int(p, line, key, value, 0, 36500, &c->game_retention);
	else {
		config_err(p, line, "[bot] %s: unknown key", key);
		return -1;
	}
	return 0;
}

static void
config_key(void *ctx, int line, const char *key, const char *value)
{
	struct parse *p = ctx;
	struct adapter_cfg *s = p->cur;
	struct cfg_key *k;
	size_t i;
	int j;

	if (p->in_bad)
		return;
	if (p->in_bot) {
		for (j = 0; j < p->nbot_seen; j++)
			if (strcmp(p->bot_seen[j].key, key) == 0) {
				config_err(p, line, "[bot] %s: given twice (first on line %d)", key, p->bot_seen[j].line);
				return;
			}
		if (p->nbot_seen < (int)(sizeof p->bot_seen / sizeof p->bot_seen[0]) &&
		    strlen(key) < sizeof p->bot_seen[0].key) {
			snprintf(p->bot_seen[p->nbot_seen].key, sizeof p->bot_seen[0].key, "%s", key);
			p->bot_seen[p->nbot_seen++].line = line;
		}
		config_bot_key(p, line, key, value);
		return;
	}
	if (s == NULL) {
		config_err(p, line, "%s: a key outside any section", key);
		return;
	}
	for (i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].key, key) == 0) {
			if (strcmp(s->type, s->name) == 0)
				config_err(p, line, "[%s] %s: given twice (first on line %d)", s->type, key, s->keys[i].line);
			else
				config_err(p, line, "[%s %s] %s: given twice (first on line %d)", s->type, s->name, key,
				           s->keys[i].line);
			return;
		}
	s->keys = xreallocarray(s->keys, s->nkeys + 1, sizeof *s->keys);
	k = &s->keys[s->nkeys];
	k->key = xstrdup(key);
	k->value = xstrdup(value);
	k->line = line;
	k->used = false;
	s->nkeys++;
}

static void
config_syntax(void *ctx, int line, const char *msg)
{
	config_err(ctx, line, "%s", msg);
}

static struct bot_config *
config_parse(FILE *f, const char *name, bool keep, char *err, size_t errlen)
{
	struct parse p;
	struct ini_cb cb = { .section = config_section, .key = config_key, .error = config_syntax };

	memset(&p, 0, sizeof p);
	p.c = xcalloc(1, sizeof *p.c);
	config_defaults(p.c);
	snprintf(p.c->file, sizeof p.c->file, "%s", name);
	cb.ctx = &p;
	if (ini_read(f, &cb) < 0)
		config_err(&p, 0, "%s", strerror(errno));
	if (p.nerrs > 0) {
		if (p.nerrs > CONFIG_MAX_ERRORS)
			rbuf_printf(&p.errs, "\n%s: %d more errors", name, p.nerrs - CONFIG_MAX_ERRORS);
		snprintf(err, errlen, "%s", p.errs.s);
		rbuf_free(&p.errs);
		if (!keep) {
			config_free(p.c);
			return NULL;
		}
		p.c->broken = true;
	}
	if (p.c->turn_timeout != 0 && p.c->turn_reminder >= p.c->turn_timeout)
		p.c->turn_reminder = 0;   /* a reminder after the takeover would never be seen */
	return p.c;
}

struct bot_config *
config_read(const char *path, char *err, size_t errlen)
{
	struct bot_config *c;
	FILE *f;

	err[0] = '\0';
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	c = config_parse(f, path, true, err, errlen);
	fclose(f);
	return c;
}

struct bot_config *
config_load(const char *path, char *err, size_t errlen)
{
	struct bot_config *c = config_read(path, err, errlen);

	if (c != NULL && c->broken) {
		config_free(c);
		return NULL;
	}
	return c;
}

struct bot_config *
config_load_string(const char *text, const char *name, char *err, size_t errlen)
{
	struct bot_config *c;
	FILE *f;

	if ((f = fmemopen((void *)(uintptr_t)text, strlen(text), "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return NULL;
	}
	c = config_parse(f, name, false, err, errlen);
	fclose(f);
	return c;
}
