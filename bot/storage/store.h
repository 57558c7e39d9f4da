/* store.h: the store (SQLite): games, seats, actions, statistics, ratings, finished games, pruning. */
#ifndef HF_STORE_H
#define HF_STORE_H

#include "bot.h"

/* ----------------------------------------------------------- store.c */
struct store_game {
	int64_t id;
	const char *adapter, *room, *rules, *owner, *state;
	int nplayers, nsides;
	uint64_t seed;
	int64_t created;
};
struct store_seat {
	int seat;
	const char *user_id, *name;
	int ai;                  /* -1 human, else level */
	int team;
};
struct store_stats {
	char adapter[96], user_id[96], name[64];
	int games, wins;
	long long points;
};

struct store *store_open(const char *path, char *err, size_t errlen);
void    store_close(struct store *st);
int64_t store_game_new(struct store *st, const struct store_game *g);
/* The table moved to another room (a Matrix room upgrade). */
int     store_game_room(struct store *st, int64_t id, const char *room);
int     store_game_state(struct store *st, int64_t id, const char *state, int nplayers, int nsides,
                         uint64_t seed);
int     store_seats_set(struct store *st, int64_t id, const struct store_seat *seats, int n);
/* Deletes a game and all its rows (one that ended with nothing worth keeping). */
int     store_game_forget(struct store *st, int64_t id);
int     store_action_add(struct store *st, int64_t game, uint32_t seq, int seat, const char *text);
/* Copies the WAL into the database if it holds at least min_frames (and at
 * least one) pages; called between commands, never inside one. Frames copied, or -1. */
int     store_checkpoint(struct store *st, int min_frames);
int     store_begin(struct store *st);
int     store_commit(struct store *st);
int     store_rollback(struct store *st);
/* A finished game of user_id on adapter (its id, "irc/libera"): records
 * are per adapter and user id, as "nick:x" on two networks is two people. */
int     store_stats_add(struct store *st, const char *adapter, const char *user_id, const char *name, int win,
                        long long points);
/* The statistics of who: the player with that user id on adapter, else the
 * players of that name on any adapter (any case; names are not unique), most
 * games first, up to max of them in out.  Returns how many match (at most
 * STORE_STATS_COUNT_MAX). */
#define STORE_STATS_COUNT_MAX 100
int     store_stats_find(struct store *st, const char *adapter, const char *who, struct store_stats *out, int max);
/* The same when exactly one matches: 0, else -1. */
int     store_stats_get(struct store *st, const char *adapter, const char *who, struct store_stats *out);
int     store_stats_top(struct store *st, struct store_stats *out, int max);
/* A player's !private choice as its "notice" preference is stored ("1" or "0"), and read back. */
const char *store_private_value(enum adapter_private as);
enum adapter_private store_private_as(const char *value);
int     store_pref_get(struct store *st, const char *adapter, const char *user_id, const char *key,
                       char *buf, size_t len);
int     store_pref_set(struct store *st, const char *adapter, const char *user_id, const char *key,
                       const char *value);
int     store_kv_get(struct store *st, const char *adapter, const char *key, char *buf, size_t len);
int     store_kv_set(struct store *st, const char *adapter, const char *key, const char *value);
int     store_kv_del(struct store *st, const char *adapter, const char *key);
int     store_kv_each(struct store *st, const char *adapter, const char *prefix,
                      void (*fn)(void *ctx, const char *key, const char *value), void *ctx);
/* Forgets finished games (over, aborted, expired, abandoned): each is marked
 * ended at now (Unix seconds) the first time a prune sees it, and its row,
 * seats and actions are deleted once it ended at or before before; at most
 * max games in one go (a transaction of its own: never inside a command).
 * Statistics stay.  The games deleted, or -1. */
int     store_prune(struct store *st, int64_t now, int64_t before, int max);
/* Calls the callbacks for every unfinished game: game, then its seats, then its actions. */
struct store_load_cb {
	void *ctx;
	void (*game)(void *ctx, const struct store_game *g);
	void (*seat)(void *ctx, int64_t game, const struct store_seat *s);
	void (*action)(void *ctx, int64_t game, uint32_t seq, int seat, const char *text);
	/* then, if set: the seats the computer plays for, and the seat each game waits for */
	void (*away)(void *ctx, int64_t game, int seat);
	void (*wait)(void *ctx, int64_t game, int seat, int64_t since_ms, bool reminded);
};
int     store_load(struct store *st, const struct store_load_cb *cb);
/* Seat state, kept across restarts: the computer plays seat for its player;
 * the game waits for seat since since_ms (wall clock), reminded or not. */
int     store_away_set(struct store *st, int64_t game, int seat, bool away);
int     store_wait_set(struct store *st, int64_t game, int seat, int64_t since_ms, bool reminded);

/* ---------------------------------------------------- store-rating.c */
/* The "adapter" of the computer's rows: one per level ("computer:hard"), rated
 * like a person so that beating it counts for what it is, never in !top. */
#define STORE_RATING_COMPUTER "*"
struct store_rated {
	const char *adapter, *user_id, *name;
	int side;
};
struct store_rating {
	char rules[16], name[64];
	double rating;
	int games;
};
/* Rates a finished game of rule set rules (its preset's name): the n seats
 * in p, points[k] the final score of side k (docs/PLAYING.md, "Ratings").
 * Inside the caller's transaction.  0, or -1. */
int     store_rating_game(struct store *st, const char *rules, const struct store_rated *p, int n, int nsides,
                          const long long *points);
/* The best people of rules, up to max: how many, or -1. */
int     store_rating_top(struct store *st, const char *rules, struct store_rating *out, int max);
/* The rule set with the most rated games of people, into buf: 0, or -1 if none. */
int     store_rating_busiest(struct store *st, char *buf, size_t len);
/* One player's ratings, the rule set played most first: how many, or -1. */
int     store_rating_player(struct store *st, const char *adapter, const char *user_id, struct store_rating *out,
                            int max);

/* -------------------------------------------------- store-finished.c */
/* The adapter_state row (adapter "") by which the upgrade that made the
 * ratings table asks for them to be rebuilt from the games finished before. */
#define STORE_RERATE_KEY "ratings rebuild"
/* A finished game's final scores, points[k] side k's, kept on it; in the
 * caller's transaction (the one that marks it over).  0, or -1. */
int     store_game_scores(struct store *st, int64_t id, int nsides, const long long *points);
struct store_finished {
	int64_t id;
	char adapter[96], rules[512];
	int nsides, nseats;
	uint64_t seed;
	bool scored;                        /* its final scores were kept: points */
	long long points[HF_MAX_SEATS];
	struct {
		char user_id[96], name[64];
		int ai;
	} seats[HF_MAX_SEATS];
};
/* Each game played to its end ("over"; never an aborted one), in the order
 * they ended as far as the store knows it (games.ended, then id), to fn;
 * fn's -1 stops.  0, or -1. */
int     store_finished_each(struct store *st, int (*fn)(void *ctx, const struct store_finished *g), void *ctx);
/* Each kept move of game id, in order, to fn; fn's -1 stops.  0, or -1. */
int     store_finished_moves(struct store *st, int64_t id,
                             int (*fn)(void *ctx, uint32_t seq, int seat, const char *text), void *ctx);

/* ------------------------------------------------------------ store-replay.c */
/* Marks game id ended at now (Unix seconds) as it ends, if not already. 0, or -1. */
int     store_game_ended(struct store *st, int64_t id, int64_t now);
/* A finished game with where and when it was played (ended 0: not known). */
struct store_replayed {
	struct store_finished g;
	char room[128];
	int64_t created, ended;
};
/* Game id, if it was played to its end and is still kept, into r: 0, else -1. */
int     store_replay_game(struct store *st, int64_t id, struct store_replayed *r);
/* The games played to their end in room of adapter, newest first, at most
 * max, each to fn: how many, or -1. */
int     store_room_games(struct store *st, const char *adapter, const char *room, int max,
                         void (*fn)(void *ctx, const struct store_replayed *r), void *ctx);

/* ------------------------------------------------------------ rate.c */
struct rate_seat {
	const char *user_id, *name;
	int ai, side;              /* ai: the computer's level, or -1 for a person */
};
/* Rates a finished game of adapter's, rule set rules (its preset's name):
 * people by their ids, the computer by its level; in the caller's
 * transaction.  0, or -1. */
int     rate_game(struct store *st, const char *adapter, const char *rules, const struct rate_seat *seats, int n,
                  int nsides, const long long *points);
/* At the first start after the upgrade that brought ratings (the store asks
 * for it, STORE_RERATE_KEY): every finished game rated, in the order they
 * ended, its kept scores or else its moves replayed; one that cannot be is
 * skipped and counted in the log.  One transaction.  0, or -1. */
int     rate_rebuild(struct store *st);

/* ----------------------------------------------------------- prune.c */
/* Forgets finished games after game_retention days (store_prune): once now,
 * then hourly. */
void prune_start(struct bot *b);
void prune_stop(struct bot *b);

#endif
