/* bench-irc.c: IRC latency through ngircd on loopback: a player's command to the bot's reply in the channel, beside the server's own relay time between two clients. */
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "figures.h"
#include "ircclient.h"
#include "ircserver.h"

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The CPU time the daemon's threads have had, in ns (schedstat: kernel
 * time in its syscalls included); -1 if it cannot be read. */
static int64_t
cpu_ns(pid_t pid)
{
	char path[300];
	long long sum = 0, ns;
	bool any = false;
	struct dirent *e;
	DIR *dir;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fscanf(f, "%lld", &ns) == 1) {
			sum += ns;
			any = true;
		}
		fclose(f);
	}
	closedir(dir);
	return any ? (int64_t)sum : -1;
}

/* The p-th percentile (0..100) of n sorted samples. */
static double
pct(const int64_t *v, int n, double p)
{
	int i = (int)(p / 100.0 * (n - 1) + 0.5);

	return (double)v[i < n ? i : n - 1];
}

static int
run(struct ircserver *srv, int n)
{
	struct e2e_daemon d;
	struct ircclient alice, bob;
	char conf[512], db[512], text[2048], want[64];
	int64_t *bot = calloc((size_t)n, sizeof *bot), *relay = calloc((size_t)n, sizeof *relay);
	int rc = 1;
	int64_t cpu0 = -1, cpu1 = -1;
	bool measured = false;

	ircserver_path(srv, "handfoot.conf", conf, sizeof conf);
	ircserver_path(srv, "hf.db", db, sizeof db);
	/* generous flood settings on both sides: the bench measures latency, not pacing */
	snprintf(text, sizeof text,
	         "[bot]\nprefix = !\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nflood_burst = 1000\n"
	         "flood_refill = 1\nlog_level = notice\n"
	         "[irc bench]\nserver = 127.0.0.1\nport = %d\ntls = no\nnick = HandFoot\nchannels = #cards\n"
	         "flood_burst = 100\nflood_rate = 0\n",
	         db, srv->port);
	alice.pump = bob.pump = NULL;
	if (bot == NULL || relay == NULL || e2e_write_file(conf, text) != 0 ||
	    ircclient_connect(&alice, srv->port, "alice") != 0 || ircclient_join(&alice, "#cards") != 0 ||
	    ircclient_connect(&bob, srv->port, "bob") != 0 || ircclient_join(&bob, "#cards") != 0 ||
	    e2e_daemon_start(&d, "bench-irc", conf, NULL) != 0) {
		fprintf(stderr, "bench-irc: setup failed\n");
		goto out;
	}
	if (ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL) != 0)
		goto stop;
	ircclient_send(&alice, "PRIVMSG #cards :!new duel");
	ircclient_send(&alice, "PRIVMSG #cards :!bot add");
	ircclient_send(&alice, "PRIVMSG #cards :!start");
	if (ircclient_wait(&alice, 10000, NULL, 0, "NOTICE alice :Your ", NULL) != 0)
		goto stop;
	/* let the computer's first turn (if any) pass: from here the bot only answers */
	ircclient_drain(&alice, 1500);
	ircclient_drain(&bob, 200);
	alice.seen = alice.nlines;
	bob.seen = bob.nlines;
	for (int i = -20; i < n; i++) {
		if (i == 0)
			cpu0 = cpu_ns(d.pid);
		int64_t t0;

		/* the server alone: alice to the channel, bob receives */
		snprintf(want, sizeof want, ":relay-%d-end", i);
		t0 = ircclient_now_us();
		ircclient_send(&alice, "PRIVMSG #cards %s", want);
		if (ircclient_wait(&bob, 5000, NULL, 0, want, NULL) != 0)
			goto stop;
		if (i >= 0)
			relay[i] = ircclient_now_us() - t0;
		/* alice's command to the bot's answer in the channel: a question
		 * never asked before (an unchanged answer is said once) */
		t0 = ircclient_now_us();
		ircclient_send(&alice, "PRIVMSG #cards :!stats p%d", i + 100);
		if (ircclient_wait(&alice, 5000, NULL, 0, ":HandFoot!", "PRIVMSG #cards :", NULL) != 0)
			goto stop;
		if (i >= 0)
			bot[i] = ircclient_now_us() - t0;
	}
	cpu1 = cpu_ns(d.pid);
	qsort(bot, (size_t)n, sizeof *bot, cmp_i64);
	qsort(relay, (size_t)n, sizeof *relay, cmp_i64);
	printf("irc latency over ngircd on loopback, %d commands (after 20 to warm up):\n", n);
	printf("  server relay, client to client (one way): p50 %7.0f us   p99 %7.0f us\n",
	       pct(relay, n, 50), pct(relay, n, 99));
	printf("  bot reply to !stats (command to answer):  p50 %7.0f us   p99 %7.0f us\n",
	       pct(bot, n, 50), pct(bot, n, 99));
	/* what the bot itself spends: the rest of its answer's time is the
	 * server's relay both ways and the wake-ups of the processes on the way */
	if (cpu0 >= 0 && cpu1 >= cpu0)
		printf("  the daemon's own CPU time per command (its syscalls included): %7.1f us\n",
		       (double)(cpu1 - cpu0) / 1000.0 / n);
	measured = true;
	rc = figure_add("bench-irc", "bot answer p50 / server relay p50", pct(bot, n, 50) / pct(relay, n, 50), "",
	                FIGURE_AT_MOST, 2.5) ? 0 : 1;
stop:
	if (!measured)
		fprintf(stderr, "bench-irc: no answer in time (daemon log: %s)\n", d.log);
	e2e_daemon_signal(&d, SIGTERM);
	e2e_daemon_wait(&d, 10000);
	ircclient_close(&alice);
	ircclient_close(&bob);
out:
	free(bot);
	free(relay);
	return rc;
}

int
main(void)
{
	struct ircserver srv;
	const char *env = getenv("BENCH_IRC_N");
	int n = env != NULL && atoi(env) > 0 ? atoi(env) : 300, rc;

	if (!ircserver_available("ngircd")) {
		printf("bench-irc: ngircd is not installed: skipped\n");
		return 0;
	}
	/* MaxPenaltyTime = 0 (the default of the test server): ngircd never throttles us */
	if (ircserver_init(&srv, "ngircd") != 0 || ircserver_start(&srv) != 0) {
		fprintf(stderr, "bench-irc: cannot start ngircd\n");
		return 1;
	}
	rc = run(&srv, n);
	ircserver_free(&srv);
	return rc;
}
