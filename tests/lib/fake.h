/* fake.h: a fake chat adapter and a fake clock, to drive the bot core in tests. */
#ifndef HF_FAKE_H
#define HF_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon.h"

/* One line as the fake adapter received it: a line of a message, cut to 400 bytes. */
struct fake_msg {
	int kind;                /* MSG_ROOM / MSG_PRIVATE */
	char room[128], user[96];
	char text[1024];         /* plain, commands with the prefix */
	char styled[1024];       /* the line in styled text */
	char mention[96];
	char prompt[96];         /* prompt_user */
	const char *actions[8];
	size_t nactions;
	uint64_t reply_to;
	bool notice;             /* private_as == PRIVATE_QUIET */
	int private_as;          /* enum adapter_private */
	char key[96];            /* supersede: an answer's key, "" for what must be delivered */
	bool player;             /* an answer to a seated player (adapter_msg.player) */
	char asker[96];          /* adapter_msg.asker: whose command it answers, "" if none (the story) */
	size_t room_unsent;      /* fake_pace: its room's lines that must be delivered still
	                          * waiting in the room's queue when it was handed over */
};

struct fake {
	struct loop *loop;
	struct bot *bot;
	struct adapter *ad;
	int64_t now;
	struct fake_msg *msgs;
	size_t nmsgs, cap;
	uint64_t seed;
	/* A paced queue per room like the IRC adapter's lanes (fake_pace):
	 * room lines that must be delivered beyond cap are dropped and
	 * counted; one leaves every drain_ms (answers are not counted: they
	 * wait apart and are never waited for). */
	size_t queue_cap, dropped;
	int64_t drain_ms;
	struct fake_lane {
		char room[128];
		size_t queued;
		int64_t drained_at;
	} lanes[8];
	size_t room_sends;       /* room messages handed over (not lines) */
	uint64_t ref;            /* the ref fake_say and fake_dm give their events */
	const char *moderators[4]; /* user ids the adapter calls moderators (is_moderator) */
	int64_t wall_offset;     /* the wall clock is now + this (bot_wall_ms) */
	int64_t clock_step;      /* each look at the clock moves it on this many ms: the bot's work takes time */
};

/* A bot on a fresh loop with a fake clock, a fake adapter "fake" and the
 * database db (":memory:" is fine); extra_bot is appended to [bot].  The
 * adapter says it is up, as a real one does once started: restored games
 * are told where they stand.  Its wall clock starts at FAKE_WALL_START. */
#define FAKE_WALL_START INT64_C(1700000000000)
struct fake *fake_new(const char *db, const char *extra_bot);
/* The same, with the wall clock at wall_ms when the bot starts (a restart later on). */
struct fake *fake_new_at(const char *db, const char *extra_bot, int64_t wall_ms);
/* The fake clock on the wall, ms. */
int64_t fake_wall(struct fake *f);
void  fake_free(struct fake *f);
void  fake_say(struct fake *f, const char *room, const char *user, const char *text);
void  fake_dm(struct fake *f, const char *user, const char *text);
void  fake_rename(struct fake *f, const char *user, const char *name);
/* Room lines from now on wait in a queue of at most cap lines, one sent
 * every drain_ms of the fake clock; the adapter reports what waits. */
void  fake_pace(struct fake *f, size_t cap, int64_t drain_ms);
/* Advances the fake clock by ms, running due timers, then flushes. */
void  fake_advance(struct fake *f, int64_t ms);
/* Runs timers until the room has no game or steps run out; true if the game ended. */
bool  fake_play_out(struct fake *f, const char *room, int max_steps);
/* The last message containing needle (NULL if none); fake_clear forgets them all. */
const struct fake_msg *fake_find(struct fake *f, const char *needle);
/* Whether a message of kind to user (NULL: any) holds needle. */
bool  fake_said(struct fake *f, int kind, const char *user, const char *needle);
void  fake_clear(struct fake *f);
struct session *fake_session(struct fake *f, const char *room);
/* Whether the table of room waits for user now (their turn, or their answer). */
bool  fake_waits_for(struct fake *f, const char *room, const char *user);
/* A database file of its own for a test that restarts the bot (template
 * "/tmp/hf-XXXXXX", changed in place); fake_rmdb removes it and its WAL. */
/* Calls that do nothing, for a test's own recording adapter (one that only
 * draws tables, say): FAKE_QUIET_CALLS in its adapter_ops. */
int   fake_quiet_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen);
int   fake_quiet_start(struct adapter *a);
int   fake_quiet_send(struct adapter *a, const struct adapter_msg *m);
void  fake_quiet_stop(struct adapter *a, const char *quit);
void  fake_quiet_free(struct adapter *a);
#define FAKE_QUIET_CALLS .init = fake_quiet_init, .start = fake_quiet_start, .send = fake_quiet_send, \
                         .stop = fake_quiet_stop, .free = fake_quiet_free
void  fake_tmpdb(char *db);
void  fake_rmdb(const char *db);

#endif
