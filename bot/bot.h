/* bot.h: the daemon core's internal header: the bot, its configuration, sessions, commands, store. */
/* long: the folder's one internal header (STYLE.md), a section per file of bot/. */
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

struct loop;
struct http;
struct store;
struct bot;

#define BOT_VERSION   HF_VERSION
#define BOT_MAX_INPUT 512      /* longest line accepted from a chat service */
#define BOT_MAX_ARGS  32

/* ------------------------------------------------------------------ config.c */
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

/* ------------------------------------------------------------------ ini.c */
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

/* ------------------------------------------------------------------ text.c */
/* Cleans hostile input in place: invalid UTF-8 bytes become '?', tabs
 * spaces, and every other control character (CR/LF included; utf8_hostile)
 * is dropped.  Returns the new length. */
size_t text_clean(char *s);
/* True if s is valid UTF-8 with no control character: safe to echo as it is
 * (a room or user id, which the bot never rewrites). */
bool   text_plain(const char *s);

/* ------------------------------------------------------------------ address.c */
/* The names the bot answers to on one adapter (adapter_set_self). */
struct address {
	char id[128];            /* a user id "@bot:server", or empty */
	char local[96];          /* its localpart "bot" */
	char name[96];           /* a nick or display name */
};
/* Records a name: a "@local:server" id replaces the id (and localpart); anything else the name. */
void address_set(struct address *ad, const char *name);
/* The command in a line addressed to the bot by name, or NULL; *loose when
 * only a space followed the name ("handfoot draw"), where chatter is likely. */
const char *address_strip(const struct address *ad, const char *text, bool *loose);

/* ------------------------------------------------------------------ render.c */
/* (and what it renders by concept: render-table.c, render-scores.c,
 * render-events.c, render-turn.c; what they share: render-parts.h) */
/* Everything the bot says is styled text (lib/style.h): the renderers below
 * and every reply write roles, never a service's codes, and each adapter
 * encodes them.  Text from players is cleaned of control bytes on the way
 * in (text_clean), so it can never carry a mark.  A command named in a
 * reply is written CMD("draw"): the adapter shows it with its prefix. */
#define CMD(name) ST_COMMAND name ST_END

const char *render_card(int card);            /* "A" "10" "3♦" "3♣" "2" "JK" */
const char *render_rank_plural(int rank);      /* "9s", "As", "jokers" */
void render_hand(struct rbuf *b, const struct hf_view *v);
void render_table(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_pile(struct rbuf *b, const struct hf_view *v);
void render_scores(struct rbuf *b, const struct hf_view *v, const char *const names[]);
/* The last round's score sheet, one line per side, each line starting with "\n". */
void render_last_sheets(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_side_name(struct rbuf *b, const struct hf_view *v, int side, const char *const names[]);
void render_group(struct rbuf *b, const struct hf_group *g);
/* The room line(s) for the events of one accepted action, '\n' between lines
 * (a room that asked for play-by-play). */
void render_events(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
                   const char *const names[]);
/* One turn told when it ends, in the past tense, from its events (seat's,
 * and its partners' answers): "ann took the pile (6 cards, top 9), melded 9 9
 * 9 2 (new 9s), discarded 7".  round_over: the melds are gone from v. */
void render_turn(struct rbuf *b, const struct hf_view *v, int seat, const struct hf_event *ev, size_t n,
                 const char *const names[], bool round_over);
/* A player's own step, told to them alone: "You drew K 9", "You melded 9 9 2
 * (new 9s)"; before and v are their views before and after. */
void render_step(struct rbuf *b, const struct hf_view *before, const struct hf_view *v, const struct hf_event *ev,
                 size_t n);
/* "pile 7, 5 cards, frozen · stock 231" */
void render_pile_short(struct rbuf *b, const struct hf_view *v);
/* The player counts the rules allow: "4 or 6", "2, 3, 4 or 6", "2 to 6", "2". */
void render_counts(struct rbuf *b, const struct hf_rules *r);
/* A round's deal from its events: "Round 2: ann deals, 11 + 11 cards each; the pile starts with 9." */
void render_deal(struct rbuf *b, const struct hf_view *v, const struct hf_event *ev, size_t n,
                 const char *const names[]);
/* "Round 1 scored: ..." and each side's sheet, a line each. */
void render_round_end(struct rbuf *b, const struct hf_view *v, const char *const names[]);
void render_game_end(struct rbuf *b, const struct hf_view *v, int winner, const char *const names[]);

/* ------------------------------------------------------------------ clock.c */
struct session;
/* A clock as typed ("2m", "3h", "1d": from 2m to 7d), in ms; -1 with why. */
int     clock_parse(const char *text, int64_t *ms, char *why, size_t whylen);
void    clock_format(int64_t ms, char *buf, size_t len);
/* Takes a "clock=..." word out of a rules text (in place): *ms, 0 if none; -1 with why. */
int     clock_take(char *rules, int64_t *ms, char *why, size_t whylen);
/* The room's default clock (!clock), 0 if none; setting it: 0, or -1. */
int64_t clock_room(struct bot *b, struct adapter *ad, const char *room);
int     clock_room_set(struct bot *b, struct adapter *ad, const char *room, int64_t ms);
/* A table's clock in the store ("clock ID"), back at a restore, gone with the table. */
void    clock_keep(struct bot *b, struct session *s);
void    clock_load(struct bot *b, struct session *s);
void    clock_forget(struct bot *b, struct session *s);
/* When the reminder and the takeover come after a wait begins, ms (0: never). */
int64_t clock_remind_ms(const struct bot *b, const struct session *s);
int64_t clock_takeover_ms(const struct bot *b, const struct session *s);

/* ------------------------------------------------------------------ hint.c */
/* A hint as one line of commands to type in order ("hint: !meld 4 4 2, 5 5 5
 * · !discard 8"), or one step and "then !hint again"; cards as the hand names them. */
void hint_line(struct rbuf *b, const struct hf_hint *h);

/* ------------------------------------------------------------------ store.c */
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

/* ------------------------------------------------------------ store-rating.c */
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

/* ---------------------------------------------------------- store-finished.c */
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

/* -------------------------------------------------------------------- replay.c */
/* The replay of finished game table, as adapter_replay describes it,
 * appended to json (its lines with commands after prefix); r gets the game
 * as the store has it.  0, or -1 with why (json as it was). */
int     replay_json(struct store *st, int64_t table, const char *prefix, struct rbuf *json, struct store_replayed *r,
                    char *why, size_t whylen);

/* -------------------------------------------------------------------- rate.c */
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

/* ------------------------------------------------------------------ session.c */
enum sess_state { SESS_OPEN, SESS_PLAYING, SESS_OVER };

struct seat {
	char user_id[96];
	char name[64];
	int8_t ai;               /* -1 human, else enum hf_ai_level */
	int8_t team;             /* -1 any */
	bool away;               /* a computer player moves for this human */
	enum adapter_private private_as; /* how this player wants private lines */
	bool abort_vote;
	uint32_t hand_told;      /* reply_hand_hash of the hand last sent to them, 0 none */
	int64_t unreachable_told; /* when the room last heard their private lines fail (ms), 0 never */
};

/* What the room has still to hear (tell.c): the turn in progress, and turns
 * over but not told yet (computer turns, held until a person must act). */
enum tell_pref { TELL_UNREAD, TELL_TURNS, TELL_MOVES };
struct tell {
	struct hf_event *ev;     /* the turn in progress: its events so far */
	size_t nev, cap;
	int8_t seat;             /* whose turn they are */
	bool started;            /* seat is known */
	struct rbuf held;        /* told when flushed: turns (ST_SEP between), deals, round ends */
	int nheld;               /* turns in held */
	bool held_turn;          /* held ends with a turn: the pile after it goes with it */
	bool held_head;          /* held ends with a heading ("Dealing..."): the next line is a part of it */
	enum tell_pref pref;     /* the room's preference, read from the store when the session is made (tell_load) */
	unsigned told;           /* messages told so far (a fold of computer turns ends at one) */
	int64_t told_seq;        /* the moves the room was told up to (handed to the adapter) */
	int64_t told_kept;       /* and up to where the adapter has sent it all: kept in the store ("told ID") */
	bool quiet;              /* moves told again after a restart: no private line */
	struct hf_game *shown;   /* the game as the room was last told it: what questions describe */
	struct hf_game *told_g;  /* restored: the game as the room was told it, and the moves after */
	struct tell_move { int seat; struct hf_action a; } *untold;
	size_t nuntold;
};

/* The round's story as the room was told it (story.c): plain lines, each ending "\n", the newest
 * of the round; first: how many older lines of the round were dropped. */
struct story {
	struct rbuf lines;
	unsigned n, first;
	int round;
};

struct session {
	struct adapter *ad;
	char room[128];
	int64_t id;
	enum sess_state state;
	struct hf_rules rules;
	char owner[96];
	int nseats, nsides;
	struct seat seats[HF_MAX_SEATS];
	struct hf_game *g;
	uint64_t seed;
	uint64_t ai_rng;
	uint32_t nactions;
	long long timer;
	int timer_kind;
	int64_t created;
	int64_t turn_since;      /* when the waiting seat started waiting */
	int8_t wait_seat;        /* the seat the timers are about, -1 none */
	bool reminded;
	bool caught_up;          /* the seat waited for, reminded, was given the table and hand on return */
	bool resume;             /* restored: the room is told where it stands when its adapter is up */
	char *broken;            /* restored but not playable (a move this version refuses): why, told
	                          * to the room when its adapter is up, and the table then closed */
	bool refused_told;       /* the owner was told the room refuses messages */
	bool view_dirty;         /* changed since its views were last handed to adapters that draw (view.c) */
	int64_t clock_ms;        /* the table's clock (clock=1d), 0: the [bot] reminder and takeover */
	char partner[64];        /* !play with NAME: the name asked to sit as the opener's partner */
	int8_t play_count;       /* and the players the deal fills with computers up to */
	struct tell tell;
	struct story story;      /* what the room was told this round, for the pages (story.c) */
	uint32_t hash;
	struct session *next;    /* hash chain */
	struct session *all_next, *all_prev;
};

/* One human seat at one table, indexed by (adapter, user id): a direct
 * message finds the player's tables without scanning every session. */
struct player_seat {
	struct player_seat *next;
	uint32_t hash;
	const struct adapter *ad;
	struct session *s;
	char user_id[96];
};

/* Tables in play on one adapter: what max_tables bounds. */
struct session_count {
	const struct adapter *ad;
	size_t n;
};

struct sessions {
	struct session **buckets;
	size_t nbuckets, count;
	struct session *all;
	struct player_seat **pbuckets;
	size_t npbuckets, pcount;
	struct session_count *counts;   /* one per adapter with tables */
	size_t ncounts;
};
void sessions_init(struct sessions *ss);
void sessions_free(struct sessions *ss, void (*fn)(struct session *s, void *ctx), void *ctx);
struct session *session_find(struct sessions *ss, const struct adapter *ad, const char *room);
struct session *session_add(struct sessions *ss, struct adapter *ad, const char *room);
void session_remove(struct sessions *ss, struct session *s);
/* The table goes on in room (its old room was replaced): -1 if the id is too long. */
int  session_move(struct sessions *ss, struct session *s, const char *room);
/* BOT_EV_ROOM_MOVED (moved.c): the table of ev->room moves to ev->text, both rooms told. */
void bot_room_moved(struct bot *b, struct adapter *a, const struct bot_event *ev);
/* Tables in play on ad. */
size_t session_count(const struct sessions *ss, const struct adapter *ad);
int  session_seat_of(const struct session *s, const char *user_id);
/* The player index: call after a human sits down, before one stands up. */
void session_player_add(struct sessions *ss, struct session *s, const char *user_id);
void session_player_del(struct sessions *ss, struct session *s, const char *user_id);
/* Up to max tables where user_id sits on ad; returns how many there are in all. */
size_t session_player_tables(struct sessions *ss, const struct adapter *ad, const char *user_id,
                             struct session **out, size_t max);
/* Seat names, for renderers. */
void session_names(const struct session *s, const char *names[HF_MAX_SEATS]);
int  session_humans(const struct session *s);
/* Who the table waits for: the seat a timer should act for, a computer (or
 * stand-in) first, else the first person waiting (*machine false); -1 if
 * none.  The session's own state: flow.c and tell.c both ask it. */
int  session_waiting(const struct session *s, bool *machine);

/* A table's rules as stored ("PRESET key=value ..."): a longer set is refused. */
#define HF_RULES_TEXT 1024

/* ------------------------------------------------------------------ flood.c */
/* One bucket per user of an adapter, whatever the room: a user's allowance
 * (flood_burst, flood_refill) is stricter than a connection's send rate, so
 * no one holds a share of the budget.  A set-associative table, bounded
 * however many users pass through. */
#define FLOOD_SLOTS 4096
#define FLOOD_WAYS  4
struct flood_slot {
	uint64_t key;
	int64_t last_ms;         /* tokens counted up to here */
	int64_t seen_ms;         /* last command */
	int32_t tokens_milli;
	bool warned;
};
#define FLOOD_KEY_LEN 16
struct flood {
	struct flood_slot slots[FLOOD_SLOTS];
	uint8_t key[FLOOD_KEY_LEN];   /* the slots' hash key: secret, new at each start */
};
/* Empties the table and sets its key (random: bot_new draws one). */
void flood_init(struct flood *f, const uint8_t key[FLOOD_KEY_LEN]);
enum flood_verdict { FLOOD_OK, FLOOD_WARN, FLOOD_DROP };
enum flood_verdict flood_check(struct flood *f, const char *adapter, const char *user, int64_t now, int burst,
                               int refill_ms);
/* Gives back the command just counted: a move accepted in the player's own
 * turn adds nothing to the budget (the turn is told once, whatever its
 * steps), so a quick player is never slowed down by their own game. */
void flood_refund(struct flood *f, const char *adapter, const char *user, int64_t now, int burst, int refill_ms);

/* ------------------------------------------------------------------ bot-adapter.c */
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
/* Says goodbye on every adapter, after the last replies are flushed. */
void bot_adapter_stop_all(struct bot *b, const char *quit);
/* The adapter with that id ("irc/libera"), and its index in b->adapters; NULL if none. */
struct bot_adapter *bot_adapter_find(struct bot *b, const char *id, size_t *at);
/* Stops, frees and forgets the adapter at index at (its sessions are the caller's). */
void bot_adapter_remove(struct bot *b, size_t at, const char *quit);
void bot_adapter_free_all(struct bot *b);
/* The adapter type of a section ("irc"), from the table main.c gave; NULL if none. */
const struct adapter_ops *bot_adapter_type(const struct bot *b, const char *type);
/* Sets the prefix in force from a section (NULL: none) or [bot]. */
void bot_adapter_prefix(struct bot_adapter *ba, const struct adapter_cfg *s);

/* ------------------------------------------------------------------ reply.c */
/* One message waiting for the flush: the only way anything reaches an adapter. */
struct reply {
	struct adapter *ad;
	enum adapter_msg_kind kind;
	char *room, *user_id;
	char *styled;            /* one logical message in styled text: the adapter encodes and splits it */
	char *mention;           /* one user id pinged, or NULL */
	char *key;               /* an answer's key (adapter_msg.supersede), NULL for what must go */
	char *asker;             /* who asked (an answer to a command), for the log; or NULL */
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
	/* answers about a table held while its room has lines unsent
	 * (reply_release): never counted as the room's, never waited for */
	struct reply *held;
	size_t nheld, heldcap;
};

/* Queues one message (styled text), sent whole at the flush. */
void reply_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
                 const char *user_id, const char *styled, const char *mention, enum adapter_private private_as);
/* An answer (adapter_msg.supersede = key): replaced by a newer one with the
 * same key and target while unsent, and not said again unchanged. */
void reply_answer_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
                        const char *user_id, const char *styled, const char *key, enum adapter_private private_as);
/* Queues the held answers whose room has sent every line they describe:
 * each as the answer it is, in its asker's lane (before the flush, and
 * before a computer moves in a room that has sent all). */
void reply_release(struct bot *b);
/* Forgets the held answers for ad (an adapter going away). */
void reply_drop(struct bot *b, const struct adapter *ad);
/* A line for the table's room, printf-style (styled text). */
void reply_table(struct bot *b, struct session *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A room line that asks user_id to act now, with the commands they may use (static strings). */
void reply_prompt(struct bot *b, struct session *s, const char *styled, const char *user_id,
                  const char *const *actions, size_t nactions);
/* A private line to a seat's player (none for a computer seat). */
void reply_seat(struct bot *b, struct session *s, int seat, const char *styled);
/* The seat's hand, privately (none for a computer seat); step, if not NULL,
 * goes before it on the same line ("You drew K 9"). */
void reply_hand(struct bot *b, struct session *s, int seat);
/* The same with step before it, and as an answer with key (NULL: it must be delivered). */
void reply_hand_step(struct bot *b, struct session *s, int seat, const char *step, const char *key);
/* The hand a view holds, as a number (never 0), to tell a changed one. */
uint32_t reply_hand_hash(const struct hf_view *v);
/* Forgets the answers said to room and to user_id (either may be NULL): who
 * joins a room, or comes back, has not seen them. */
void reply_forget(struct bot *b, struct adapter *ad, const char *room, const char *user_id);
/* Sends every queued message, in order (the loop's before-sleep hook does it). */
void reply_flush(struct bot *b);
void reply_free(struct bot *b);

/* ------------------------------------------------------------------ restore.c */
/* Restores every unfinished game from the store whose adapter is configured
 * and which is not live already: replays its actions, re-arms its timers. */
int  restore_games(struct bot *b);

/* ------------------------------------------------------------------ noexec.c */
/* Denies this process (and its threads, and any child) execve and execveat
 * for good: 0, or -1 with why. */
int  noexec_lock(char *err, size_t errlen);

/* ------------------------------------------------------------------ prune.c */
/* Forgets finished games after game_retention days (store_prune): once now,
 * then hourly. */
void prune_start(struct bot *b);
void prune_stop(struct bot *b);
/* ------------------------------------------------------------------ near.c */
/* Whether a and b are near variants of one name ("bob_", "bob|away", "Bob2"
 * of "bob"), not the same name. */
bool near_variant(const char *a, const char *b);
/* The human seat of s whose name name is a near variant of; -1 if none. */
int  near_seat(const struct session *s, const char *name);

/* ------------------------------------------------------------------ resume.c */
/* The line that tells a restored table where it stands: round, whose turn
 * and what they may do, the pile; *ping gets the seat asked to act (-1 none). */
void resume_line(struct rbuf *b, const struct session *s, int *ping);
/* That line for the room, and the hand of each person the game waits for. */
void resume_table(struct bot *b, struct session *s);
/* On a's first "up" after a restore: every restored table of a told, its timers armed. */
void resume_adapter(struct bot *b, struct adapter *a);

/* ------------------------------------------------------------------ view.c */
/* The table as data for adapters that draw it (adapter_ops.view): seat -1
 * the public view, else that seat's; JSON, docs/WEB.md. */
void view_json(struct rbuf *out, const struct session *s, int seat);
/* Hands the views of every changed table to the adapters that draw (the
 * loop's before-sleep hook, with the replies). */
void view_flush(struct bot *b);
/* A table is ending: its last public view, over (its links die). */
void view_end(struct bot *b, struct session *s);
/* A link to s's page (seat -1) or to seat's (renew: a new one, the old one
 * dies), from the first adapter that makes links: 0; 1 if seat's exists
 * and cannot be shown again (adapter_ops.link); -1 if no adapter makes one. */
int  view_link(struct bot *b, struct session *s, int seat, bool renew, char *url, size_t len);
/* The public page of the table dealt in ad's room (adapter_msg.watch_url), written to url, with no
 * side effect; -1 if there is none (no table dealt there, no adapter draws tables). */
int  view_watch_url(struct bot *b, const struct adapter *ad, const char *room, char *url, size_t len);

/* ------------------------------------------------------------------ bot.c */
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

/* Creates the bot on loop with cfg (owned from now on; freed even on error)
 * and the adapter table ops (nops entries; the caller's, kept), which the
 * configuration's sections are looked up in.  No I/O yet: see
 * bot_open_store. */
struct bot *bot_new(struct loop *l, struct bot_config *cfg, const struct adapter_ops *const *ops, size_t nops);
void bot_free(struct bot *b);
/* Opens the database and restores every unfinished game (after bot_adapter_add_all). */
int  bot_open_store(struct bot *b, char *err, size_t errlen);
void bot_event(struct bot *b, struct adapter *a, const struct bot_event *ev);
uint64_t bot_new_seed(struct bot *b);
/* The wall clock in ms (the loop's clock is monotonic: it does not survive a restart). */
int64_t bot_wall_ms(struct bot *b);
/* SIGTERM: no computer moves from now on, the replies handed to the adapters;
 * then bot_draining says whether an adapter still has lines to send. */
void bot_stop_begin(struct bot *b);
bool bot_draining(struct bot *b);
/* Ends a session: removes its timers and frees it. */
void bot_session_end(struct bot *b, struct session *s);

/* ------------------------------------------------------------------ flow.c */
/* Applies action for seat: engine, store (committed), what is told (tell.c),
 * timers.  0, 1 if the game ended (the session is gone), or -1 with why. */
int  flow_apply(struct bot *b, struct session *s, int seat, const struct hf_action *a, char *why, size_t whylen);
/* Deals: creates the game of an open table and starts play. */
int  flow_start(struct bot *b, struct session *s, char *why, size_t whylen);
/* Re-arms the session's timer for whoever must act now. */
void flow_schedule(struct bot *b, struct session *s);
void flow_cancel(struct bot *b, struct session *s);
/* A human typed: ends the computer stand-in. */
void flow_back(struct bot *b, struct session *s, int seat);
/* A person back at a table that waited (taken over, or reminded): the
 * table and their hand, privately, in one answer. */
void flow_catch_up(struct bot *b, struct session *s, int seat);
/* The computer plays seat for its player (away) or not; kept in the store. */
void flow_away(struct bot *b, struct session *s, int seat, bool away);
/* Writes the seats of the table to the store. */
int  flow_save_seats(struct bot *b, struct session *s);

/* ------------------------------------------------------------------ tell.c */
/* After an accepted action of actor (or the deal: actor -1, a and before
 * NULL; before is the game before it): the turn that ended joins what is
 * held; the room is told when a person must act (with the ping), at a
 * round's end, or once a table of computers has gone round; the actor's own
 * step (draw, pickup, meld) goes to them alone with their hand; every other
 * hand that changed goes to its player, if a person plays it. */
void tell_action(struct bot *b, struct session *s, int actor, const struct hf_action *a, const struct hf_game *before);
/* Everything held, to the room now (with the prompt for whoever must act, if prompt). */
void tell_flush(struct bot *b, struct session *s, bool prompt);
/* A line of its own (a round's end), held with the rest. */
void tell_line(struct session *s, const char *styled);
/* A heading held with the rest ("Dealing..."): the line after it (the
 * deal) is a part of it, which IRC sends on the same line where it fits. */
void tell_heading(struct session *s, const char *styled);
/* The game a question of seat's describes: as the room was last told it
 * (computer turns held to go out together are not told yet), or the live
 * game for the seat whose turn is in progress (their own steps). */
const struct hf_game *tell_shown(const struct session *s, int seat);
/* Keeps in the store how far the room has heard the story, once the
 * adapter has sent every line of the room handed to it (its pending). */
void tell_keep(struct bot *b, struct session *s);
/* After a restart: the moves the room was never told (a SIGKILL), told now. */
void tell_untold(struct bot *b, struct session *s);
/* The commands the seat waited for may use now, for buttons. */
const char *const *tell_actions(const struct session *s, size_t *n);
/* Whether the room asked for play-by-play (every move told as it happens). */
bool tell_moves(const struct session *s);
bool tell_room_moves(struct bot *b, struct adapter *ad, const char *room);
void tell_load(struct bot *b, struct session *s);
/* Sets the room's preference (kept in the store): 0, or -1 if it could not be saved. */
int  tell_set(struct bot *b, struct adapter *ad, const char *room, bool moves);
void tell_free(struct session *s);

/* story.c: a room line told (styled) joins the round's story, kept in the store; loaded at a
 * restore; forgotten when the table ends. */
void story_told(struct bot *b, struct session *s, const char *styled);
void story_load(struct bot *b, struct session *s);
void story_forget(struct bot *b, struct session *s);
void story_free(struct session *s);

/* ------------------------------------------------------------------ table.c */
struct cmd_ctx;
struct session *table_open(struct cmd_ctx *c, const char *rules_text, char *why, size_t whylen);
/* Whether user_id may take one more seat on ad (opening: and one more table
 * there): the caps max_tables and max_tables_per_user.  false with why. */
bool table_may_sit(struct bot *b, struct adapter *ad, const char *user_id, const char *name, bool opening,
                   char *why, size_t whylen);
int  table_sit(struct bot *b, struct session *s, const char *user_id, const char *name, int team);
int  table_add_ai(struct bot *b, struct session *s, int level);
/* Whether the rules deal to n players (with their default sides). */
bool table_count_ok(const struct hf_rules *r, int n);
void table_remove_seat(struct session *s, int seat);
/* The teams a deal would make: the sides (returned), and the team each
 * seat plays in (0-based; a seat that asked for none joins the smallest).
 * The count is the table's, or the next one the rules deal to (or, not
 * dealing, the next one where the teams asked for fit).  -1 with why if the
 * teams asked for cannot be. */
int  table_teams(const struct session *s, int team[HF_MAX_SEATS], bool dealing, char *why, size_t whylen);
/* Puts seat in team (0-based; -1 any) if the teams can still be: 0, else -1 with why. */
int  table_set_team(struct session *s, int seat, int team, char *why, size_t whylen);
/* The player count the table heads for: its own, or the next the rules deal to. */
int  table_target_count(const struct session *s);
/* The partner a !play asked for sits down in the opener's team; the
 * computer fills the rest and deals.  0, or -1 with the refusal said. */
int  table_partner_sits(struct cmd_ctx *c);
/* cmd-play.c: refuses arguments naming players by id ("@bob:server"),
 * which only an adapter that makes rooms handles; true if refused. */
bool play_names_ids(struct cmd_ctx *c);
/* The most teams the rules ever make (a team number goes up to it). */
int  table_team_max(const struct hf_rules *r);
/* Whether the rules seat partners at their biggest table (so one may join as a partner). */
bool table_has_partners(const struct hf_rules *r);
void table_close(struct bot *b, struct session *s, const char *state);

/* ------------------------------------------------------------------ cmd.c */
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

const struct cmd_entry *cmd_find(const char *name, char *why, size_t whylen);
const struct cmd_entry *const *cmd_table(size_t *n);
/* Reads one typed command line (cleaned, prefix stripped) into cmd: its
 * first word the name, the rest read as the table entry's arguments are
 * (cards in groups for a card command, else words).  The one reader of
 * typed text; a bad argument is kept in cmd->why for cmd_run to refuse. */
void cmd_parse(const char *line, struct command *cmd);
/* Checks and runs one command, typed (cmd_parse) or given as data by
 * an adapter: the one path every command takes. */
void cmd_run(struct cmd_ctx *c, const struct command *cmd);
/* "NAME: usage: !meld CARDS", for c->entry. */
void cmd_usage(struct cmd_ctx *c);
/* A player's stored !private choice ("notice" preference: "1" or "0"), read back. */
enum adapter_private cmd_private_stored(const char *value);
/* A seated player's !join N or !team N before the deal: 0, or -1 with the refusal said. */
int  cmd_join_team_change(struct cmd_ctx *c, const char *word);
/* Speaks to the user: in the room (public), or privately (private). */
void reply(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void reply_private(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void reply_room(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An answer to a question (!pile, !table...), keyed (adapter_msg.supersede):
 * where it was asked, or privately. */
void reply_answer(struct cmd_ctx *c, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void reply_answer_private(struct cmd_ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A refusal: privately to a player of this table, else where it was said;
 * keyed per user, so a flood of them queues one. */
void reply_refuse(struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CMD_ENTRY(n) extern const struct cmd_entry cmd_##n##_entry
CMD_ENTRY(new); CMD_ENTRY(join); CMD_ENTRY(leave); CMD_ENTRY(bot); CMD_ENTRY(start);
CMD_ENTRY(draw); CMD_ENTRY(pickup); CMD_ENTRY(meld); CMD_ENTRY(discard); CMD_ENTRY(out);
CMD_ENTRY(yes); CMD_ENTRY(no); CMD_ENTRY(hand); CMD_ENTRY(table); CMD_ENTRY(pile);
CMD_ENTRY(score); CMD_ENTRY(rules); CMD_ENTRY(who); CMD_ENTRY(abort); CMD_ENTRY(stats);
CMD_ENTRY(top); CMD_ENTRY(help); CMD_ENTRY(private); CMD_ENTRY(auto); CMD_ENTRY(play); CMD_ENTRY(tell);
CMD_ENTRY(hint); CMD_ENTRY(watch); CMD_ENTRY(web); CMD_ENTRY(team); CMD_ENTRY(clock);
#undef CMD_ENTRY

#endif
