/* synapse-bot.h: the real daemon as a bot account on the test Synapse (synapse.h): its account registered, its config written, started and stopped.
 *
 * synapse_bot_start registers a fresh account for the bot (prefix "bot"),
 * writes a config in a temp dir of its own ([bot] with a fresh database,
 * ai_delay = 0, turn_reminder = 0, turn_timeout = 0, then bot_lines;
 * [matrix t] on the Synapse with the account's access token in token_file,
 * sync_timeout = 2, then matrix_lines), notes the token as a secret
 * (e2e_secret_note) and starts the daemon (e2e_daemon_start, log under
 * e2e-logs), waiting for "matrix/t: up".  The token, not a password: no
 * start logs in, so rc_login (0.003/s per address after a burst of 5) is
 * never met however often a test restarts the daemon.
 */
#ifndef HF_TEST_SYNAPSE_BOT_H
#define HF_TEST_SYNAPSE_BOT_H

#include "e2e.h"
#include "synapse.h"

struct synapse_bot {
	struct synapse_user u;     /* the bot's account */
	char dir[256];             /* its temp dir: config, database, token */
	char conf[320];
	char tag[64];
	struct e2e_daemon d;
};

/* Registers, configures and starts the bot (see above); 0 or -1 (said on stderr). */
int  synapse_bot_start(struct synapse *s, struct synapse_bot *b, const char *tag, const char *bot_lines,
                       const char *matrix_lines);
/* The same with the daemon's own defaults for its pace, as deployed: no
 * ai_delay, turn_reminder, turn_timeout nor sync_timeout line (a benchmark
 * of the pace of play). */
int  synapse_bot_start_defaults(struct synapse *s, struct synapse_bot *b, const char *tag, const char *bot_lines,
                                const char *matrix_lines);
/* Starts the daemon again on the same config and database, waiting for "up"; 0 or -1. */
int  synapse_bot_restart(struct synapse_bot *b);
/* SIGTERM; its exit status (0 expected), -1 if it had to be killed. */
int  synapse_bot_stop(struct synapse_bot *b);
/* Stops it if it runs (killed after 10 s) and removes its temp dir. */
void synapse_bot_end(struct synapse_bot *b);

#endif
