/* bot.h: the bot and the types every floor of bot/ shares (docs/DESIGN.md): adapters as kept, the reply queue, a command's context, its time. */
#ifndef HF_BOT_H
#define HF_BOT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "adapter.h"
#include "handfoot.h"
#include "log.h"
#include "rbuf.h"
#include "utf8.h"
#include "version.h"
#include "xmalloc.h"

#include "config.h"
#include "input.h"
#include "session.h"

struct loop;
struct http;
struct store;
struct bot;

#define BOT_VERSION   HF_VERSION
#define BOT_MAX_INPUT 512      /* longest line accepted from a chat service */
#define BOT_MAX_ARGS  32

/* -------------------------------------------------------- bot-adapter.c */
/* One adapter as the bot keeps it: what the adapter sees, and what the bot
 * knows of it.  Sessions and replies point at the struct adapter inside;
 * bot_adapter_of leads back here in constant time. */
struct bot_adapter {
	struct adapter ad;       /* what the adapter sees (ops, id, loop, priv...) */
	struct bot *bot;
	char prefix[16];         /* the command prefix in force: the section's "prefix", else [bot]'s */
	struct address self;     /* the names it answers to (adapter_set_self) */
};

struct bot_adapter *bot_adapter_of(struct adapter *a);
/* Creates an adapter of type ops named name and inits it with its section
 * cfg (NULL: none, as tests make them); the adapter, or NULL with err. */
struct adapter *bot_adapter_add(struct bot *b, const struct adapter_ops *ops, const char *name,
                                struct adapter_cfg *cfg, char *err, size_t errlen);
/* After an adapter's init on cfg: adds init_err (its failure, NULL if it went
 * through) to the section's errors unless there, and, if it went through,
 * every key it never looked up.  The number of errors (cfg->errors). */
int  bot_adapter_cfg_check(struct adapter_cfg *cfg, const char *init_err);
/* Forgets the lookups and errors of a section inited once already (a check). */
void bot_adapter_cfg_reset(struct adapter_cfg *cfg);
/* Creates and inits the adapters of the configuration's sections (no I/O);
 * on error, err lists every error of every section, one per line. */
int  bot_adapter_add_all(struct bot *b, char *err, size_t errlen);
int  bot_adapter_start_all(struct bot *b);
/* The adapter with that id ("irc/libera"), and its index in b->adapters; NULL if none. */
struct bot_adapter *bot_adapter_find(struct bot *b, const char *id, size_t *at);
void bot_adapter_free_all(struct bot *b);
/* The adapter type of a section ("irc"), from the table main.c gave; NULL if none. */
const struct adapter_ops *bot_adapter_type(const struct bot *b, const char *type);
/* Sets the prefix in force from a section (NULL: none) or [bot]. */
void bot_adapter_prefix(struct bot_adapter *ba, const struct adapter_cfg *s);

/* -------------------------------------------------------------- reply.c: the queue */
/* One message waiting for the flush: the only way anything reaches an adapter. */
struct reply {
	struct adapter *ad;
	enum adapter_msg_kind kind;
	char *room, *user_id;
	char *styled;            /* one logical message in styled text: the adapter encodes and splits it */
	char *mention;           /* one user id pinged, or NULL */
	char *key;               /* an answer's key (adapter_msg.supersede), NULL for what must go */
	char *asker;             /* who asked (an answer to a command), their id; or NULL */
	char *asker_name;        /* ... and the name they are shown by (a repeat's pointer names them) */
	enum adapter_private private_as;
	uint64_t reply_to;       /* the ref of the event being handled when queued, else 0 */
	bool player;             /* an answer to a seated player (adapter_msg.player) */
	bool prompt;             /* the mention is asked to act now, with these commands: */
	const char *const *actions;
	size_t nactions;
};

/* The answers said lately, by target and key: an unchanged one is not said again. */
#define REPLY_SAID    1024
#define REPLY_SAME_MS 60000
struct reply_said {
	uint64_t ident, text;
	uint64_t target;         /* its adapter and target (room or user), to forget it */
	int64_t at;
};

/* A command's own answer (adapter_act): what is queued privately to its
 * player on its adapter while it runs, line after line. */
struct reply_collect {
	const struct adapter *ad;
	const char *user_id;
	struct rbuf *text;
};

struct replies {
	struct reply *v;
	size_t n, cap;
	struct adapter *event_ad; /* the event being handled, whose ref replies carry */
	struct reply_collect *collect; /* a command's own answer being collected, or NULL */
	uint64_t event_ref;
	struct reply_said said[REPLY_SAID];
};

/* -------------------------------------------------------------- cmd.c: its types */
enum cmd_retval { CMD_RETURN_NORMAL, CMD_RETURN_ERROR };

#define CMD_NEEDS_GAME    0x01   /* a table exists in the room */
#define CMD_NEEDS_SEAT    0x02   /* the user sits at it */
#define CMD_YOUR_TURN     0x04   /* the game waits for this seat */
#define CMD_OWNER         0x08   /* the table's owner */
#define CMD_NOT_STARTED   0x10   /* before the deal */
#define CMD_STARTED       0x20   /* after the deal */

struct cmd_ctx {
	struct bot *bot;
	struct adapter *ad;
	const char *room;        /* where to answer publicly (the session's room if direct) */
	const char *user_id, *user_name;
	bool direct;
	struct session *s;       /* the room's table, or NULL */
	int seat;                /* the user's seat, or -1 */
	int argc;
	char **argv;
	const struct command *cmd; /* the command as data: name and typed arguments */
	const char *args;        /* its arguments' canonical text (command_text) */
	char *many;              /* direct, several tables: their rooms */
	const struct cmd_entry *entry;
	bool moved;              /* a move of the game was accepted */
};

struct cmd_entry {
	const char *name;
	const char *alias;
	const char *usage;
	const char *help;        /* one line, under 100 characters (a Discord command's description) */
	int min_args, max_args;  /* max -1: any */
	enum adapter_arg arg;    /* what the arguments are, for services that type them */
	const char *arg_name;    /* and their name there ("cards"), or NULL */
	unsigned flags;
	enum cmd_retval (*exec)(struct cmd_ctx *c);
};

/* ---------------------------------------------------------------- bot.c: the bot */
struct bot {
	struct loop *loop;
	struct http *http;
	struct bot_config *cfg;
	struct store *store;
	struct bot_adapter **adapters;
	size_t nadapters;
	const struct adapter_ops *const *ops;  /* the adapter table (adapters/adapters.c, from main.c) */
	size_t nops;
	struct sessions sessions;
	struct flood *flood;
	struct replies replies;
	struct adapter_command *commands;     /* the command table as the adapters see it */
	size_t ncommands;
	uint64_t (*seed_fn)(void *ctx);       /* injected randomness: seeds of new games */
	void *seed_ctx;
	int64_t (*wall_fn)(void *ctx);        /* injected wall clock, ms: deadlines kept across restarts */
	void *wall_ctx;
	bool stopping;                        /* a stop is draining the queues: no new move */
	/* commands read from typed text at the door, and given as data by an
	 * adapter (a slash command, a page's action): never read as text */
	unsigned long commands_typed, commands_given;
	struct hf_game *undo;                 /* flow_apply's copy of a game before a move */
	long long checkpoint_timer;
	long long prune_timer;
};

/* ------------------------------------------------------------- bot-time.c */
uint64_t bot_new_seed(struct bot *b);
/* The wall clock in ms (the loop's clock is monotonic: it does not survive a restart). */
int64_t bot_wall_ms(struct bot *b);

#endif
