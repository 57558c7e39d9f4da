/* synapse.h: a real Synapse homeserver for end-to-end tests, started once per test program, and its users as plain client-server API clients.
 *
 * What it is: Synapse as tools/setup-synapse installed it
 * ($HANDFOOT_BUILD/synapse/venv, the version pinned there), run by
 * synapse_start on a free loopback port in a fresh temp dir with a generated
 * config: SQLite (a copy of the template database setup-synapse migrated, and
 * its signing key), server_name "hs", a registration_shared_secret, no
 * federation listener, report_stats off, and Synapse's DEFAULT rate limits
 * (rc_message 0.2/s after a burst of 10, rc_room_creation, rc_login,
 * rc_invites...): a test that needs one raised passes it in extra_yaml and
 * says why.  Its stdout and stderr go to $HANDFOOT_BUILD/e2e-logs/
 * synapse-TAG-PID.log, kept after it stops.  Cost on a shared 2-core machine:
 * about 1.3 s to answer from the template (2.0 s with a fresh database).
 *
 * How a test program uses it: cmocka_run_group_tests(tests,
 * synapse_group_setup, synapse_group_teardown): *state is a struct synapse*
 * in each test (a group setup's state is every test's initial state).  Each
 * test registers its own users (synapse_register: fresh, unique localparts,
 * with the shared secret; never a back door into the database) and makes its
 * own rooms, so rate limits, which Synapse keeps per user, are never shared
 * between tests.  Give the daemon a user's access token (token_file) rather
 * than its password: every login from 127.0.0.1 draws on rc_login.address
 * (0.003/s after a burst of 5).
 *
 * When Synapse is not installed (no network at setup), synapse_start fails
 * with s->error naming what is missing and the command to run; the group
 * setup prints it and every test of the program fails: nothing is skipped.
 *
 * The API is shared by several test programs (and other helpers' tests):
 * add to it, do not change what is here.
 */
#ifndef HF_TEST_SYNAPSE_H
#define HF_TEST_SYNAPSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SYNAPSE_SERVER "hs"    /* server_name: users are @LOCALPART:hs */

struct synapse {
	pid_t pid;                 /* 0 when not running */
	int port;
	char base[64];             /* http://127.0.0.1:PORT */
	char dir[256];             /* its temp dir: config, database, key, media */
	char log[512];             /* its log (stdout and stderr) */
	char secret[64];           /* registration_shared_secret */
	unsigned long seq;         /* makes localparts and txn ids unique */
	char error[2048];          /* why synapse_start failed */
	char kind[16];             /* "synapse", or "dendrite" (dendrite.h) */
};

struct synapse_user {
	char localpart[64];
	char id[128];              /* @localpart:hs */
	char password[80];
	char token[512];           /* an access token (a device of its own) */
};

/* Starts Synapse (tag names its log; extra_yaml, or NULL, is appended to its
 * config) and waits until it answers /_matrix/client/versions (90 s at
 * most).  0, or -1 with s->error set. */
int     synapse_start(struct synapse *s, const char *tag, const char *extra_yaml);
/* SIGTERM (SIGKILL after 10 s), then its temp dir removed; the log stays. */
void    synapse_stop(struct synapse *s);
/* cmocka group fixtures: a calloc'd, started struct synapse in *state (tag:
 * the program's name); the setup prints s->error and fails when it cannot. */
int     synapse_group_setup(void **state);
int     synapse_group_teardown(void **state);

/* For another homeserver's fixture (dendrite.c) on the same helpers:
 * synapse_prepare sets kind, a temp dir, a free port, base, a secret and the
 * log's path (BUILD/e2e-logs/KIND-TAG-PID.log); synapse_launch runs argv
 * (argv[0] a path) in s->dir, its output to the log, and waits as
 * synapse_start does.  0, or -1 with s->error. */
int     synapse_prepare(struct synapse *s, const char *kind, const char *tag);
/* A server as its setup tool left it in the build folder: BUILD/KIND/exe_rel
 * and BUILD/KIND/template, absolute, into exe and tpl; -1 with s->error
 * ("NAME is not installed in ...: advice") when exe is not executable or the
 * template has no tfile. */
int     synapse_find(struct synapse *s, const char *name, const char *exe_rel, const char *tfile, const char *advice,
                     char *exe, size_t elen, char *tpl, size_t tlen);
int     synapse_launch(struct synapse *s, const char *const argv[]);

/* A fresh localpart "PREFIX-PID-N" (lower case as given) in out. */
void    synapse_unique(struct synapse *s, const char *prefix, char *out, size_t len);
/* A request to Synapse; token NULL for none; each 429 waited out for its
 * retry_after_ms (1 s if none), 30 tries at most.  The JSON answer (caller
 * decrefs) or NULL; *status gets the HTTP status (0: no answer) if not NULL. */
json_t *synapse_call(struct synapse *s, const char *method, const char *path, const char *token, const char *body,
                     long *status);
/* Registers a fresh user (a unique localpart from prefix) with the shared
 * secret (admin: a server admin); its id, password and access token in u.
 * 0 or -1 (the reason on stderr). */
int     synapse_register(struct synapse *s, const char *prefix, bool admin, struct synapse_user *u);
/* createRoom as token's user with the JSON body; the room id in room. 0 or -1. */
int     synapse_create_room(struct synapse *s, const char *token, const char *body, char *room, size_t len);
/* POST /rooms/{room}/{what} (join, leave, invite, kick, forget) with body
 * (NULL: {}); the HTTP status. */
long    synapse_room_post(struct synapse *s, const char *token, const char *room, const char *what, const char *body);
/* Invites user to room as token's user; the HTTP status. */
long    synapse_invite(struct synapse *s, const char *token, const char *room, const char *user);
/* Sends an m.text with body text (a unique txn id); 0, or -1 on any status but 200 (said on stderr). */
int     synapse_say(struct synapse *s, const char *token, const char *room, const char *text);
/* The same with m.mentions naming user (as the bot pings); 0 or -1. */
int     synapse_say_mentioning(struct synapse *s, const char *token, const char *room, const char *text,
                               const char *user);
/* synapse_say, waiting out each 429 for its retry_after_ms (1 s if none) as a
 * client must, 30 tries at most: for a user who sends often (a player
 * playing by hand meets rc_message). */
int     synapse_say_waiting(struct synapse *s, const char *token, const char *room, const char *text);
/* The room's events as token's user reads them back (GET /messages, page
 * after page, at most 1000, oldest first; history visibility applied by the
 * server); caller decrefs; an empty array if none or refused. */
json_t *synapse_messages(struct synapse *s, const char *token, const char *room);
/* How many m.room.message events of room token's user can read back have a
 * body containing needle; from: only those sent by this user id (NULL: anyone). */
int     synapse_readable(struct synapse *s, const char *token, const char *room, const char *from, const char *needle);
/* Polls synapse_readable every 200 ms until it reaches n; true if it did within timeout_ms. */
bool    synapse_wait_readable(struct synapse *s, const char *token, const char *room, const char *from,
                              const char *needle, int n, int timeout_ms);
/* The content of a state event as token's user reads it (caller decrefs); NULL if none or refused. */
json_t *synapse_state(struct synapse *s, const char *token, const char *room, const char *type, const char *key);
/* PUT a state event as token's user; the HTTP status. */
long    synapse_put_state(struct synapse *s, const char *token, const char *room, const char *type, const char *key,
                          const char *content);
/* A state field as a string: e.g. ("m.room.join_rules", "join_rule"), into out ("" if none). */
void    synapse_state_str(struct synapse *s, const char *token, const char *room, const char *type, const char *field,
                          char *out, size_t len);
/* The user ids whose membership of room is want ("join", "invite", ...) as
 * token's user sees them (GET /members), sorted, space separated, in out. */
void    synapse_members(struct synapse *s, const char *token, const char *room, const char *want, char *out,
                        size_t len);
/* user's membership of room as token's user sees it ("" if none or unreadable). */
void    synapse_membership(struct synapse *s, const char *token, const char *room, const char *user, char *out,
                           size_t len);
/* Polls synapse_membership every 100 ms until it is want; true if it came within timeout_ms. */
bool    synapse_wait_membership(struct synapse *s, const char *token, const char *room, const char *user,
                                const char *want, int timeout_ms);
/* The user's account data of type (GET /user/{id}/account_data/{type}); caller decrefs; NULL if none. */
json_t *synapse_account_data(struct synapse *s, const struct synapse_user *u, const char *type);
/* The rooms token's user is invited to now (a /sync with a filter of no
 * timeline), space separated in out. */
void    synapse_invites(struct synapse *s, const char *token, char *out, size_t len);
/* GET /notifications (at most 1000, newest first) as token's user: the
 * "notifications" array (caller decrefs; empty if none). */
json_t *synapse_notifications(struct synapse *s, const char *token);
/* True if a notification's actions set the highlight tweak (as Synapse's
 * push rules decided for that user). */
bool    synapse_highlighted(const json_t *notification);

#endif
