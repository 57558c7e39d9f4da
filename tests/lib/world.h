/* world.h: one end-to-end fixture: a temp dir, the IRC server a test asks for, the daemon's config written and the daemon run.
 *
 * A group setup calls world_init (servers, paths), each test world_conf +
 * world_daemon (or world_run for both), the group teardown world_stop;
 * world_start does all of it at once and waits until the daemon is up.
 * The daemon is an e2e_daemon, so its log is checked for every noted
 * secret when it exits (e2e.h), whichever way it exits.
 */
#ifndef HF_TEST_WORLD_H
#define HF_TEST_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "e2e.h"
#include "fakemx.h"
#include "ircclient.h"
#include "ircserver.h"

enum world_irc {
	WORLD_IRC_NONE,
	WORLD_NGIRCD,
	WORLD_INSPIRCD,
	WORLD_INSPIRCD_ATHEME,          /* InspIRCd with Atheme's services linked */
};

struct world_spec {
	enum world_irc irc;
	const char *connect_extra;      /* InspIRCd: more attributes of its <connect> class, or NULL */
	const char *conf_extra;         /* InspIRCd: more configuration (modules), or NULL */
	bool matrix;                    /* the fake Matrix homeserver too (w.mx; its base URL in w.mx.base) */
	const char *bot;                /* world_start: lines of [bot] after "database = ", or NULL */
	const char *adapter;            /* world_start: as world_conf's adapter_extra, or NULL */
};

struct world {
	struct ircserver srv;           /* srv.dir is the temp dir when an IRC server runs */
	struct e2e_daemon d;
	char dir[256];                  /* the temp dir (the server's, or one of its own) */
	char conf[512], db[512];        /* dir/handfoot.conf, dir/hf.db */
	enum world_irc irc;
	struct fakemx mx;               /* running if spec.matrix (mx.pid > 0) */
	int tests;                      /* world_next: how many tests the group has begun */
};

/* No server: the temp dir alone; ngircd alone. */
extern const struct world_spec world_none, world_ngircd;

/* The temp dir and the IRC server of spec (started, accepting); no daemon.
 * -1 if the server's packages are missing or it does not start (cmocka's
 * group setup then fails). */
int  world_init(struct world *w, const struct world_spec *spec);
/* Writes w->conf: [bot] with the database and bot_extra, then, with an IRC
 * server, [irc test] on it (127.0.0.1, its port, no TLS, nick HandFoot) and
 * adapter_extra; without one, adapter_extra is whole sections ("[console]\n...").
 * Either may be NULL. Fails the running test if it cannot. */
void world_conf(struct world *w, const char *bot_extra, const char *adapter_extra);
/* Starts the daemon on w->conf, its log named by tag; fails the test if it cannot. */
void world_daemon(struct world *w, const char *tag);
/* world_conf then world_daemon. */
void world_run(struct world *w, const char *tag, const char *bot_extra, const char *adapter_extra);
/* SIGTERM, and the daemon must exit 0 within 15 s (fails the test if not). */
void world_daemon_stop(struct world *w);
/* world_init, world_run with spec's bot and adapter text, and waits until the daemon's log says it is up. 0 or -1. */
int  world_start(struct world *w, const char *tag, const struct world_spec *spec);
/* Kills the daemon if it still runs (its log checked for secrets); the servers keep running. */
void world_daemon_kill(struct world *w);
/* For a group whose tests share the servers (world_init in the group
 * setup), a test's fresh state: world_daemon_kill, and w->db names a new
 * database (dir/hf-N.db), so that no test restores another's games. */
void world_next(struct world *w);
/* Kills a daemon still running (its log checked for secrets), stops the
 * servers, removes the temp dir. */
void world_stop(struct world *w);
/* The same, but a daemon still running is asked to stop first (SIGTERM;
 * killed if not gone within 10 s): for a group's daemon that outlives its tests. */
void world_end(struct world *w);

/* A client c of w's IRC server (no pump) registered as nick from the
 * loopback address from ("127.0.0.2": another host to the server), in chan
 * if not NULL; fails the test if it cannot. */
void world_client(struct ircclient *c, struct world *w, const char *nick, const char *from, const char *chan);
/* c, in #cards, sees the bot join it, opens a duel with the computer
 * (!play 2 duel) and is dealt its hand (by NOTICE); fails the test if not. */
void world_duel_dealt(struct ircclient *c);

/* cmocka setup and teardown: *state a calloc'd world initialised with spec
 * (world_setup_ngircd: ngircd alone; world_setup_none: the temp dir alone),
 * and world_stop + free. */
int  world_setup_with(void **state, const struct world_spec *spec);
/* The same for a test's own struct of size bytes that starts with a struct world. */
int  world_setup_sized(void **state, size_t size, const struct world_spec *spec);
int  world_setup_ngircd(void **state);
int  world_setup_none(void **state);
int  world_teardown(void **state);
/* cmocka teardown for a world the test file owns (*state points to it): world_end, no free. */
int  world_end_state(void **state);

#endif
