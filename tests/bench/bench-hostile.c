/* bench-hostile.c: the hostile soak of issue 24: nick churn, private floods, ids colliding under the old flood hash and channel flooders, through ngircd, beside two live games; RSS and open files, every seated player answered, every hand with its owner alone. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "ircserver.h"
#include "soak.h"

#define FLOODERS   20
#define PLAYERS    3      /* alice and bob at a duel in #cards; carol beside the computer in #two */
#define RSS_MIB    64     /* the daemon's resident set at most, flood or not */
#define OPEN_FILES 32     /* and its open files */

static const char *const names[PLAYERS] = { "alice", "bob", "carol" };
/* nicks that share a player's flood set under the old unkeyed FNV-1a */
static char colliding[8][16];
static int ncolliding;

static unsigned
fnv_set(const char *adapter, const char *user)
{
	uint64_t h = 1469598103934665603ull;
	const char *parts[2] = { adapter, user };

	for (int i = 0; i < 2; i++) {
		for (const unsigned char *q = (const unsigned char *)parts[i]; *q; q++)
			h = (h ^ *q) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return (unsigned)((h | 1) % 1024);
}

/* Four nicks in alice's set and four in bob's, as the old table placed them. */
static void
colliding_find(void)
{
	char id[32], nick[16];

	for (int w = 0; w < 2; w++) {
		snprintf(id, sizeof id, "nick:%s", names[w]);
		for (int i = 0, n = 0; n < 4; i++) {
			char cand[40];

			snprintf(nick, sizeof nick, "c%d", i);
			snprintf(cand, sizeof cand, "nick:%s", nick);
			if (fnv_set("irc/soak", cand) == fnv_set("irc/soak", id)) {
				snprintf(colliding[ncolliding++], sizeof colliding[0], "%s", nick);
				n++;
			}
		}
	}
}

/* The churner, in no channel: a new nick each time, a private question or
 * a notice under it; every other time one of the colliding nicks, spending
 * its allowance. */
static void
churn_send(struct soak_peer *p)
{
	if (p->k % 2 == 0 && ncolliding > 0) {
		ircclient_send(&p->c, "NICK %s", colliding[(p->k / 2) % (unsigned)ncolliding]);
		for (int i = 0; i < 3; i++)
			ircclient_send(&p->c, "PRIVMSG HandFoot :!private");
	} else {
		ircclient_send(&p->c, "NICK r%u", p->k);
		ircclient_send(&p->c, p->k % 3 == 0 ? "PRIVMSG HandFoot :!private" : "NOTICE HandFoot :hi");
	}
	p->k++;
}

/* A flooder's turn: the churner (the last peer) every 0.1 s, the others as soak_flood. */
static void
hostile_flood(struct soak *s, struct soak_peer *p, int64_t now)
{
	if (p != &s->peers[s->n - 1]) {
		soak_flood(s, p, now);
		return;
	}
	churn_send(p);
	p->next_flood = now + 100;
}

int
main(void)
{
	static struct soak s = { .bench = "bench-hostile", .flood = hostile_flood };
	struct ircserver srv;
	struct e2e_daemon d;
	char conf[512], db[512], text[1024], nick[32];
	int flood_s = soak_seconds(600), rc = 1;
	struct soak_peer *p;

	memset(&d, 0, sizeof d);
	if (!ircserver_available("ngircd")) {
		printf("bench-hostile: ngircd missing: skipped\n");
		return 0;
	}
	if (ircserver_init(&srv, "ngircd") != 0 || ircserver_start(&srv) != 0) {
		fprintf(stderr, "bench-hostile: ngircd does not start\n");
		return 1;
	}
	ircserver_path(&srv, "handfoot.conf", conf, sizeof conf);
	ircserver_path(&srv, "hf.db", db, sizeof db);
	/* the shipped defaults, every one of them: the bot's flood control, the
	 * network's pacing (burst 5, a line per 2 s), caps, timers */
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nlog_level = %s\n"
	         "[irc soak]\nserver = 127.0.0.1\nport = %d\ntls = no\nchannels = #cards, #two\n", db,
	         getenv("FLOOD_TRACE") != NULL ? "debug" : "notice", srv.port);
	if (e2e_write_file(conf, text) != 0)
		goto out;

	/* the players, their table, the deal */
	colliding_find();
	for (int i = 0; i < PLAYERS; i++)
		if (soak_add(&s, srv.port, names[i], i < 2 ? "#cards" : "#two", true) == NULL)
			goto out;
	if (e2e_daemon_start(&d, "bench-hostile", conf, NULL) != 0 ||
	    ircclient_wait(&s.peers[0].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL) != 0 ||
	    ircclient_wait(&s.peers[2].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#two", NULL) != 0)
		goto stop;
	/* the second live game: carol beside the computer */
	ircclient_send(&s.peers[2].c, "PRIVMSG #two :!play 2 duel");
	if (ircclient_wait(&s.peers[2].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
		goto stop;
	soak_dealt(&s.peers[2]);
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!new duel");
	if (ircclient_wait(&s.peers[0].c, 20000, NULL, 0, "PRIVMSG #cards :", "opens a duel table", NULL) != 0)
		goto stop;
	ircclient_send(&s.peers[1].c, "PRIVMSG #cards :!join");
	if (ircclient_wait(&s.peers[1].c, 20000, NULL, 0, "PRIVMSG #cards :", "bob sits down", NULL) != 0)
		goto stop;
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!start");
	for (int i = 0; i < 2; i++) {
		if (ircclient_wait(&s.peers[i].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
			goto stop;
		soak_dealt(&s.peers[i]);
	}
	/* the flooders come in, half in each room, and the churner in none */
	for (int i = 0; i < FLOODERS; i++) {
		snprintf(nick, sizeof nick, "flood%02d", i);
		if (soak_add(&s, srv.port, nick, i % 2 ? "#two" : "#cards", false) == NULL)
			goto stop;
	}
	p = &s.peers[s.n];
	if (ircclient_connect_from(&p->c, srv.port, "churn", "127.0.0.9") != 0) {
		fprintf(stderr, "bench-hostile: the churner cannot connect\n");
		goto stop;
	}
	s.n++;
	soak_run(&s, d.pid, flood_s);
	if (!e2e_daemon_alive(&d)) {
		fprintf(stderr, "bench-hostile: the daemon died (log: %s)\n", d.log);
		goto stop;
	}

	printf("Hostile soak on the real daemon through ngircd (shipped defaults; server penalties off), two live games:\n");
	printf("  %d flooders for %d s, each a command in its room every 0.5-0.7 s and one to the bot every other time;\n"
	       "  one churner: a new nick every 0.1 s with a private question or notice, and %d nicks sharing the\n"
	       "  players' flood sets under the old hash\n", FLOODERS, flood_s, ncolliding);
	rc = soak_report(&s, d.log, RSS_MIB, OPEN_FILES);
	fflush(stdout);
	if (rc != 0)
		fprintf(stderr, "bench-hostile: a check failed (daemon log: %s)\n", d.log);
stop:
	if (d.pid > 0) {
		e2e_daemon_signal(&d, SIGTERM);
		e2e_daemon_wait(&d, 10000);
	}
out:
	soak_close(&s);
	ircserver_free(&srv);
	return rc;
}
