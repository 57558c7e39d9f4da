/* config.h: the configuration file as the bot reads it ([bot] and the adapters' sections) and its INI reader. */
#ifndef HF_CONFIG_H
#define HF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"

struct bot;
struct session;

/* ---------------------------------------------------------- config.c */
struct cfg_key {
	char *key, *value;
	int line;
	bool used;
};

/* One "[type name]" section (struct adapter_cfg of adapter.h). */
struct adapter_cfg {
	char file[256];
	char type[32];
	char name[64];
	int line;
	size_t nkeys;
	struct cfg_key *keys;
	struct rbuf errors;      /* every adapter_cfg_error, one line each: all are reported, not the first */
	int nerrors;
};

struct bot_config {
	char file[256];
	char prefix[16];
	char database[256];
	char rules[256];
	int ai_level;
	int ai_budget;           /* the hard player's thinking budget per decision (simulated actions) */
	int turn_reminder;       /* seconds; 0 = never */
	int turn_timeout;        /* seconds; 0 = never */
	int log_level;
	int table_expiry;        /* seconds an unstarted table lives */
	int ai_delay_ms;         /* pause before a computer seat moves */
	int flood_burst;         /* commands a user may send at once */
	int flood_refill_ms;     /* one more command allowed per this many ms */
	int max_tables;          /* tables in play at once per adapter; 0 = no limit */
	int max_tables_per_user; /* tables one player sits at at once per adapter; 0 = no limit */
	int game_retention;      /* days a finished game's rows and moves are kept; 0 = for ever */
	size_t nsections;
	struct adapter_cfg **sections;   /* adapter sections, in file order */
	bool broken;             /* config_read: errors were found (the caller has them) */
};

/* ------------------------------------------------------------- ini.c */
#define INI_MAX_LINE 4096
/* What the reader finds, line by line (numbered from 1). */
struct ini_cb {
	void *ctx;
	void (*section)(void *ctx, int line, const char *head);   /* "[head]" */
	void (*key)(void *ctx, int line, const char *key, const char *value);
	void (*error)(void *ctx, int line, const char *msg);
};
/* Reads an INI file: "[section]", "key = value" (spaces around either
 * trimmed), comments from ";" or "#" at a line's start or " ;" inside it.
 * Every line that is none of these is an error.  -1 if reading failed. */
int ini_read(FILE *f, const struct ini_cb *cb);

/* Reads a configuration; NULL with err on error: every error found, one per
 * line ("FILE:LINE: [section] key: ..."). */
struct bot_config *config_load(const char *path, char *err, size_t errlen);
/* The same, but a file with errors is still read as far as it goes (broken
 * set, err listing them), so that its adapter sections can be checked too
 * and one run reports everything; NULL only if it cannot be read. */
struct bot_config *config_read(const char *path, char *err, size_t errlen);
/* The same from a string (embedded defaults); name is used in messages. */
struct bot_config *config_load_string(const char *text, const char *name, char *err, size_t errlen);
void config_free(struct bot_config *c);
/* First key of a section never looked up (after the key after, or from the start when after is NULL), or NULL. */
const struct cfg_key *config_unused(const struct adapter_cfg *s);
const struct cfg_key *config_unused_after(const struct adapter_cfg *s, const struct cfg_key *after);
/* Logs each line of a multi-line error message at level. */
void config_log_errors(int level, const char *prefix, const char *err);

#endif
