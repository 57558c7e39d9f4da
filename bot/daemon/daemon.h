/* daemon.h: the daemon: the bot's life and its dispatch of events, the adapters stopped, noexec. */
#ifndef HF_DAEMON_H
#define HF_DAEMON_H

#include "cmd.h"

/* ------------------------------------------------------------- bot.c */
/* Creates the bot on loop with cfg (owned from now on; freed even on error)
 * and the adapter table ops (nops entries; the caller's, kept), which the
 * configuration's sections are looked up in.  No I/O yet: see
 * bot_open_store. */
struct bot *bot_new(struct loop *l, struct bot_config *cfg, const struct adapter_ops *const *ops, size_t nops);
void bot_free(struct bot *b);
/* Opens the database and restores every unfinished game (after bot_adapter_add_all). */
int  bot_open_store(struct bot *b, char *err, size_t errlen);
void bot_event(struct bot *b, struct adapter *a, const struct bot_event *ev);
/* SIGTERM: no computer moves from now on, the replies handed to the adapters;
 * then bot_draining says whether an adapter still has lines to send. */
void bot_stop_begin(struct bot *b);
bool bot_draining(struct bot *b);

/* ---------------------------------------------------------- noexec.c */
/* Denies this process (and its threads, and any child) execve and execveat
 * for good: 0, or -1 with why. */
int  noexec_lock(char *err, size_t errlen);

/* ------------------------------------------------------- bot-adapter-stop.c */
/* Says goodbye on every adapter, after the last replies are flushed. */
void bot_adapter_stop_all(struct bot *b, const char *quit);
/* Stops, frees and forgets the adapter at index at (its sessions are the caller's). */
void bot_adapter_remove(struct bot *b, size_t at, const char *quit);

#endif
