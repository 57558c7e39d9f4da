/* session.h: the tables in play as sessions (seats, what is told, the story), kept per room in a hash, and each player's tables. */
#ifndef HF_SESSION_H
#define HF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"
#include "handfoot.h"
#include "rbuf.h"

struct bot;
struct session;

/* --------------------------------------------------------- session.c */
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

#endif
