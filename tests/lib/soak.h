/* soak.h: a hostile soak's IRC side, shared by the soak benches: players at live games through ngircd, flooders beside them, their commands timed and answered, every hand checked for its owner, the daemon's RSS and open files sampled, the figures beside their targets. */
#ifndef HF_TEST_SOAK_H
#define HF_TEST_SOAK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ircclient.h"
#include "probe.h"

#define SOAK_MAX_PEERS   64
#define SOAK_MAX_LAT     4096
#define SOAK_ANSWER_MS   60000   /* a command not answered in this long is counted unanswered */

/* One client of the soak: an ircclient for the setup, then read without blocking. */
struct soak_peer {
	struct ircclient c;
	bool player;
	char chan[16];           /* the room it plays or floods in */
	/* a player's game */
	int64_t sent_at;         /* a command waits for its answer since then; 0 if none */
	int64_t last_sent;
	char next[64];           /* what to send next */
	char last[64];           /* what was sent last */
	char hand[512];          /* the cards of the last hand told */
	int skip;                /* cards passed over after a refused discard */
	int turns;
	int questions;
	/* a flooder's */
	int64_t next_flood;
	unsigned k;
};

struct soak {
	const char *bench;       /* the bench's name, in its messages and figures */
	struct soak_peer peers[SOAK_MAX_PEERS];
	int n;                   /* peers in use; the players first */
	int64_t lat[SOAK_MAX_LAT];
	int nlat, asked, unanswered;
	int leaks;               /* hands (or foots) seen by anyone but their owner */
	int hands;               /* hands told to their owners */
	long lines_in;           /* lines all clients read */
	bool hush;               /* the players ask nothing more */
	/* A flooder's turn when it is due (NULL: soak_flood); sets p->next_flood. */
	void (*flood)(struct soak *s, struct soak_peer *p, int64_t now);
	/* Called on every turn of the loop (NULL: none), flood or not: another
	 * side of the soak (Discord) kept going beside the IRC one. */
	void (*tick)(struct soak *s, bool flood, void *ctx);
	void *ctx;
	/* what soak_run measured */
	struct probe before, most, after;
	int flood_s, turns0, turns_flood, asked_flood, answered_flood;
};

int64_t soak_now_ms(void);
/* The seconds the flood lasts: $BENCH_SOAK_SECONDS, else dflt. */
int     soak_seconds(int dflt);
/* Adds a peer connected as nick (joined to chan unless chan is NULL); -1 if it cannot. */
struct soak_peer *soak_add(struct soak *s, int port, const char *nick, const char *chan, bool player);
/* A player just dealt: told to draw if its hand says so. */
void    soak_dealt(struct soak_peer *p);
/* The shared flooder: a command in its room every 0.5-0.7 s, one to the bot every other time. */
void    soak_flood(struct soak *s, struct soak_peer *p, int64_t now);
/* One turn of the loop: everyone read, the players and flooders act. */
void    soak_turn(struct soak *s, bool flood);
/* The whole soak on the daemon pid: 10 s quiet, flood_s of flood with the
 * daemon probed every second, 20 s after, then what was asked waited for. */
void    soak_run(struct soak *s, pid_t pid, int flood_s);
/* How often needle is in the file at path. */
int     soak_count_log(const char *path, const char *needle);
/* Prints the figures (RSS, open files, answers, latencies, hands) and adds
 * each beside its target (RSS at most rss_mib, open files at most fds);
 * returns 0 if every one is met. */
int     soak_report(struct soak *s, const char *log, double rss_mib, long fds);
/* Closes every peer. */
void    soak_close(struct soak *s);

#endif
