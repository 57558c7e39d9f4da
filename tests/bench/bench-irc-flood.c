/* bench-irc-flood.c: a soak: 50 nicks flood the real daemon through ngircd while two players play on; RSS and open files, their commands answered, turns played, every hand with its owner alone. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "ircserver.h"
#include "soak.h"

#define FLOODERS   50
#define PLAYERS    2
#define RSS_MIB    64       /* the daemon's resident set at most, flood or not */
#define OPEN_FILES 32       /* and its open files */

static const char *const names[PLAYERS] = { "alice", "bob" };

int
main(void)
{
	static struct soak s = { .bench = "bench-irc-flood" };
	struct ircserver srv;
	struct e2e_daemon d;
	char conf[512], db[512], text[1024], nick[32];
	int flood_s = getenv("FLOOD_SECONDS") ? atoi(getenv("FLOOD_SECONDS")) : soak_seconds(60), rc = 1;

	memset(&d, 0, sizeof d);
	if (!ircserver_available("ngircd")) {
		printf("bench-irc-flood: ngircd missing: skipped\n");
		return 0;
	}
	if (ircserver_init(&srv, "ngircd") != 0 || ircserver_start(&srv) != 0) {
		fprintf(stderr, "bench-irc-flood: ngircd does not start\n");
		return 1;
	}
	ircserver_path(&srv, "handfoot.conf", conf, sizeof conf);
	ircserver_path(&srv, "hf.db", db, sizeof db);
	/* the shipped defaults, every one of them: the bot's flood control, the
	 * network's pacing (burst 5, a line per 2 s), caps, timers */
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nlog_level = %s\n"
	         "[irc soak]\nserver = 127.0.0.1\nport = %d\ntls = no\nchannels = #cards\n", db,
	         getenv("FLOOD_TRACE") != NULL ? "debug" : "notice", srv.port);
	if (e2e_write_file(conf, text) != 0)
		goto out;

	/* the players, their table, the deal */
	for (int i = 0; i < PLAYERS; i++)
		if (soak_add(&s, srv.port, names[i], "#cards", true) == NULL)
			goto out;
	if (e2e_daemon_start(&d, "bench-irc-flood", conf, NULL) != 0 ||
	    ircclient_wait(&s.peers[0].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL) != 0)
		goto stop;
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!new duel");
	if (ircclient_wait(&s.peers[0].c, 20000, NULL, 0, "PRIVMSG #cards :", "opens a duel table", NULL) != 0)
		goto stop;
	ircclient_send(&s.peers[1].c, "PRIVMSG #cards :!join");
	if (ircclient_wait(&s.peers[1].c, 20000, NULL, 0, "PRIVMSG #cards :", "bob sits down", NULL) != 0)
		goto stop;
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!start");
	for (int i = 0; i < PLAYERS; i++) {
		if (ircclient_wait(&s.peers[i].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
			goto stop;
		s.peers[i].last_sent = soak_now_ms();
		snprintf(s.peers[i].next, sizeof s.peers[i].next, "!hand");
	}
	/* the flooders come in */
	for (int i = 0; i < FLOODERS; i++) {
		snprintf(nick, sizeof nick, "flood%02d", i);
		if (soak_add(&s, srv.port, nick, "#cards", false) == NULL)
			goto stop;
	}
	soak_run(&s, d.pid, flood_s);
	if (!e2e_daemon_alive(&d)) {
		fprintf(stderr, "bench-irc-flood: the daemon died (log: %s)\n", d.log);
		goto stop;
	}

	printf("IRC flood soak on the real daemon through ngircd (shipped defaults; server penalties off):\n");
	printf("  %d flooders for %d s, each a command in #cards every 0.5-0.7 s and one to the bot every other time\n",
	       FLOODERS, flood_s);
	rc = soak_report(&s, d.log, RSS_MIB, OPEN_FILES);
	fflush(stdout);
	if (rc != 0)
		fprintf(stderr, "bench-irc-flood: a check failed (daemon log: %s)\n", d.log);
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
