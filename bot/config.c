/* config.c: the INI configuration (libinih): [bot] keys checked here, adapter sections kept for their init. */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

struct parse {
	struct bot_config *c;
	int line;                /* the line the reader handed out last */
	struct adapter_cfg *cur; /* NULL while in [bot] or before any section */
	bool in_bot;
	char err[512];
	FILE *f;
};

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
	c->flood_refill_ms = 2000;
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
config_unused(const struct adapter_cfg *s)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (!s->keys[i].used)
			return &s->keys[i];
	return NULL;
}

/* Opens a section seen by the reader: "[bot]" or "[type name]". */
static int
config_section(struct parse *p, char *head)
{
	struct adapter_cfg *s, **ns;
	char *type, *name, *end;
	size_t i;

	end = strchr(head, ']');
	if (end == NULL)
		return 0;               /* inih reports the syntax error */
	*end = '\0';
	type = head;
	while (*type == ' ')
		type++;
	name = type + strcspn(type, " \t");
	if (*name != '\0') {
		*name++ = '\0';
		while (*name == ' ' || *name == '\t')
			name++;
		name[strcspn(name, " \t")] = '\0';
	}
	if (strcmp(type, "bot") == 0 && *name == '\0') {
		p->in_bot = true;
		p->cur = NULL;
		return 0;
	}
	p->in_bot = false;
	if (*type == '\0' || strlen(type) >= sizeof s->type || strlen(name) >= sizeof s->name) {
		snprintf(p->err, sizeof p->err, "%s:%d: bad section name", p->c->file, p->line);
		return -1;
	}
	for (i = 0; i < p->c->nsections; i++) {
		s = p->c->sections[i];
		if (strcmp(s->type, type) == 0 && strcmp(s->name, *name ? name : type) == 0) {
			snprintf(p->err, sizeof p->err, "%s:%d: [%s%s%s] repeats the section of line %d",
			         p->c->file, p->line, type, *name ? " " : "", name, s->line);
			return -1;
		}
	}
	s = xcalloc(1, sizeof *s);
	ns = xreallocarray(p->c->sections, p->c->nsections + 1, sizeof *ns);
	snprintf(s->file, sizeof s->file, "%s", p->c->file);
	snprintf(s->type, sizeof s->type, "%s", type);
	snprintf(s->name, sizeof s->name, "%s", *name ? name : type);
	s->line = p->line;
	ns[p->c->nsections++] = s;
	p->c->sections = ns;
	p->cur = s;
	return 0;
}

/* inih's reader: counts lines and notices section headers, which the
 * handler alone cannot (an empty section never reaches it). */
static char *
config_reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	char *s, head[256];

	if (p->err[0] != '\0' || fgets(str, num, p->f) == NULL)
		return NULL;
	p->line++;
	for (s = str; *s == ' ' || *s == '\t'; s++)
		;
	if (*s == '[') {
		snprintf(head, sizeof head, "%s", s + 1);
		if (config_section(p, head) < 0)
			return NULL;
	}
	return str;
}

static int
config_int(struct parse *p, const char *key, const char *value, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (*value == '\0' || *end != '\0' || errno != 0 || v < min || v > max) {
		snprintf(p->err, sizeof p->err, "%s:%d: [bot] %s: \"%s\" is not a number from %ld to %ld",
		         p->c->file, p->line, key, value, min, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int
config_bot_key(struct parse *p, const char *key, const char *value)
{
	struct bot_config *c = p->c;
	struct hf_rules r;
	char why[HF_ERRLEN];
	int v;

	if (strcmp(key, "prefix") == 0) {
		if (strlen(value) >= sizeof c->prefix || strchr(value, ' ') != NULL) {
			snprintf(p->err, sizeof p->err, "%s:%d: [bot] prefix: at most %zu characters, no spaces",
			         c->file, p->line, sizeof c->prefix - 1);
			return -1;
		}
		snprintf(c->prefix, sizeof c->prefix, "%s", value);
	} else if (strcmp(key, "database") == 0) {
		if (*value == '\0' || strlen(value) >= sizeof c->database) {
			snprintf(p->err, sizeof p->err, "%s:%d: [bot] database: a path is needed", c->file, p->line);
			return -1;
		}
		snprintf(c->database, sizeof c->database, "%s", value);
	} else if (strcmp(key, "rules") == 0) {
		if (strlen(value) >= sizeof c->rules || hf_rules_parse(&r, value, why, sizeof why) != HF_OK) {
			snprintf(p->err, sizeof p->err, "%s:%d: [bot] rules: %s", c->file, p->line,
			         strlen(value) >= sizeof c->rules ? "too long" : why);
			return -1;
		}
		snprintf(c->rules, sizeof c->rules, "%s", value);
	} else if (strcmp(key, "ai_level") == 0) {
		if ((v = hf_ai_level_parse(value)) < 0) {
			snprintf(p->err, sizeof p->err, "%s:%d: [bot] ai_level: \"%s\" is not easy, normal or hard",
			         c->file, p->line, value);
			return -1;
		}
		c->ai_level = v;
	} else if (strcmp(key, "ai_budget") == 0)
		return config_int(p, key, value, 0, 10000000, &c->ai_budget);
	else if (strcmp(key, "log_level") == 0) {
		if ((v = log_level_parse(value)) < 0) {
			snprintf(p->err, sizeof p->err,
			         "%s:%d: [bot] log_level: \"%s\" is not err, warning, notice, info or debug",
			         c->file, p->line, value);
			return -1;
		}
		c->log_level = v;
	} else if (strcmp(key, "turn_reminder") == 0)
		return config_int(p, key, value, 0, 86400, &c->turn_reminder);
	else if (strcmp(key, "turn_timeout") == 0)
		return config_int(p, key, value, 0, 7 * 86400, &c->turn_timeout);
	else if (strcmp(key, "table_expiry") == 0)
		return config_int(p, key, value, 0, 7 * 86400, &c->table_expiry);
	else if (strcmp(key, "ai_delay") == 0)
		return config_int(p, key, value, 0, 60000, &c->ai_delay_ms);
	else if (strcmp(key, "flood_burst") == 0)
		return config_int(p, key, value, 1, 1000, &c->flood_burst);
	else if (strcmp(key, "flood_refill") == 0)
		return config_int(p, key, value, 1, 3600000, &c->flood_refill_ms);
	else {
		snprintf(p->err, sizeof p->err, "%s:%d: [bot] %s: unknown key", c->file, p->line, key);
		return -1;
	}
	return 0;
}

static int
config_handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse *p = user;
	struct adapter_cfg *s = p->cur;
	struct cfg_key *k;
	size_t i;

	(void)section;
	if (p->err[0] != '\0')
		return 0;
	if (p->in_bot)
		return config_bot_key(p, key, value) == 0;
	if (s == NULL) {
		snprintf(p->err, sizeof p->err, "%s:%d: %s: a key outside any section", p->c->file, p->line, key);
		return 0;
	}
	for (i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].key, key) == 0) {
			/* A multi-line value continues the key: keep the last line's text. */
			free(s->keys[i].value);
			s->keys[i].value = xstrdup(value);
			return 1;
		}
	s->keys = xreallocarray(s->keys, s->nkeys + 1, sizeof *s->keys);
	k = &s->keys[s->nkeys];
	k->key = xstrdup(key);
	k->value = xstrdup(value);
	k->line = p->line;
	k->used = false;
	s->nkeys++;
	return 1;
}

static struct bot_config *
config_parse(FILE *f, const char *name, char *err, size_t errlen)
{
	struct parse p;
	int rc;

	memset(&p, 0, sizeof p);
	p.c = xcalloc(1, sizeof *p.c);
	config_defaults(p.c);
	snprintf(p.c->file, sizeof p.c->file, "%s", name);
	p.f = f;
	rc = ini_parse_stream(config_reader, &p, config_handler, &p);
	if (p.err[0] != '\0') {
		snprintf(err, errlen, "%s", p.err);
		config_free(p.c);
		return NULL;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s:%d: syntax error (expected [section] or key = value)", name, rc);
		config_free(p.c);
		return NULL;
	}
	if (p.c->turn_timeout != 0 && p.c->turn_reminder >= p.c->turn_timeout)
		p.c->turn_reminder = 0;   /* a reminder after the takeover would never be seen */
	return p.c;
}

struct bot_config *
config_load(const char *path, char *err, size_t errlen)
{
	struct bot_config *c;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	c = config_parse(f, path, err, errlen);
	fclose(f);
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
	c = config_parse(f, name, err, errlen);
	fclose(f);
	return c;
}
