/* bench-web.c: the web table under load: 1,000 sockets on one table and 100 tables watched (move committed to last socket updated), memory per socket, the page's weight. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "adapter.h"
#include "benchtime.h"
#include "daemon.h"
#include "fake.h"
#include "figures.h"
#include "ircserver.h"
#include "wsclient.h"

#define TABLES  100
#define CROWD   1000          /* sockets on table 0 */
#define STEPS   200

extern const struct adapter_ops web_adapter_ops;

/* Forgets what a socket received (the bench keeps counts, not frames). */
static void
drop_msgs(struct wsc *c)
{
	size_t i;

	for (i = 0; i < c->nmsgs; i++)
		free(c->msgs[i]);
	c->nmsgs = c->seen = 0;
}

/* The weight of the page: the page, each file it names, and the first view. */
static long
page_weight(int port, const char *path, struct wsc *first)
{
	static char body[1 << 20];
	const char *p;
	char ref[128];
	long total = 0;

	if (wsc_http_get(port, path, NULL, body, sizeof body) != 200)
		return -1;
	total += (long)strlen(body) + 400;           /* the headers: about 400 bytes an answer */
	for (p = body; (p = strstr(p, "/s/")) != NULL; p += 3) {
		static char file[1 << 20];
		size_t n = strcspn(p, "\"");

		snprintf(ref, sizeof ref, "%.*s", (int)n, p);
		if (wsc_http_get(port, ref, NULL, file, sizeof file) != 200)
			return -1;
		total += (long)strlen(file) + 400;
	}
	if (first->nmsgs > 0)
		total += (long)strlen(first->msgs[0]);
	return total;
}

int
main(void)
{
	static struct wsc socks[CROWD + TABLES];
	static double lat[STEPS], lat_all[STEPS];
	static int64_t before[TABLES];
	/* (nactions is a uint32_t: -1 marks a table gone) */
	static size_t got[CROWD + TABLES];
	static struct pollfd pfd[CROWD + TABLES];
	struct session *tables[TABLES];
	static char rooms[TABLES][32];
	char err[1024], text[256], url[512], room[32], user[32], origin[64];
	struct bot_config *cfg;
	struct adapter *web;
	struct rlimit rl;
	struct fake *f;
	int port = ircserver_free_port(), i, k, nsocks = 0, steps = 0, misses = 0;
	long rss0 = 0, rss1 = 0, weight = -1;
	double p99, p99_all, mem;

	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max < 8192 ? rl.rlim_max : 8192;
	setrlimit(RLIMIT_NOFILE, &rl);
	f = fake_new(":memory:", "flood_burst = 1000\nai_delay = 0\nai_level = easy\nai_budget = 0");
	snprintf(text, sizeof text, "[web bench]\nlisten = 127.0.0.1:%d\nmax_connections = 5000\nmax_per_address = 5000\n",
	         port);
	snprintf(origin, sizeof origin, "http://127.0.0.1:%d", port);
	if ((cfg = config_load_string(text, "bench", err, sizeof err)) == NULL ||
	    (web = bot_adapter_add(f->bot, &web_adapter_ops, "bench", cfg->sections[0], err, sizeof err)) == NULL ||
	    web->ops->start(web) < 0) {
		fprintf(stderr, "bench-web: %s\n", err);
		return 1;
	}
	/* 100 tables of computer players (their people away), each watched */
	for (i = 0; i < TABLES; i++) {
		snprintf(room, sizeof room, "#w%d", i);
		snprintf(user, sizeof user, "p%d", i);
		fake_say(f, room, user, "!play 4 classic");
		fake_say(f, room, user, "!auto");
		tables[i] = fake_session(f, room);
		snprintf(rooms[i], sizeof rooms[i], "%s", room);
		if (tables[i] == NULL || view_link(f->bot, tables[i], -1, false, url, sizeof url) != 0) {
			fprintf(stderr, "bench-web: no table %d\n", i);
			return 1;
		}
		view_flush(f->bot);
		if (wsc_open(&socks[nsocks++], port, strstr(url, "/t/"), origin, "handfoot-1") < 0) {
			fprintf(stderr, "bench-web: no socket on table %d\n", i);
			return 1;
		}
		if (i == 0) {
			/* the first page's whole weight, then the crowd on table 0 */
			wsc_read(&socks[0], 5000);
			weight = page_weight(port, strstr(url, "/t/"), &socks[0]);
			rss0 = bench_rss_kb();
			for (k = 1; k < CROWD; k++)
				if (wsc_open(&socks[nsocks++], port, strstr(url, "/t/"), origin, "handfoot-1") < 0) {
					fprintf(stderr, "bench-web: socket %d refused\n", k);
					return 1;
				}
			for (k = 0; k < CROWD; k++) {
				while (socks[k].nmsgs == 0 && wsc_read(&socks[k], 5000) > 0)
					;
				drop_msgs(&socks[k]);
			}
			rss1 = bench_rss_kb();
		}
	}
	for (k = 0; k < nsocks; k++) {
		while (wsc_read(&socks[k], 0) > 0)
			;
		drop_msgs(&socks[k]);
		pfd[k].fd = socks[k].fd;
		pfd[k].events = POLLIN;
	}
	mem = (double)(rss1 - rss0) / (CROWD - 1);

	/* moves: every table on a step; time from the moves committed to the last socket with its update */
	for (int tries = 0; steps < STEPS && tries < 20 * STEPS; tries++) {
		double t0, last0 = 0, last = 0, end;
		int waiting = 0, moved0;

		for (i = 0; i < TABLES; i++)
			before[i] = fake_session(f, rooms[i]) == tables[i] ? (int64_t)tables[i]->nactions : -1;
		fake_advance(f, 1);
		t0 = bench_now_ms();
		view_flush(f->bot);
		for (k = 0; k < nsocks; k++) {
			int t = k < CROWD ? 0 : k - CROWD + 1;

			got[k] = 0;
			if (before[t] >= 0 && fake_session(f, rooms[t]) == tables[t] &&
			    (int64_t)tables[t]->nactions != before[t])
				waiting++, got[k] = 1;
		}
		moved0 = got[0] != 0;
		if (waiting == 0)
			continue;       /* a pause (a round's end): no table moved */
		end = t0 + 5000;
		while (waiting > 0 && bench_now_ms() < end) {
			if (poll(pfd, (nfds_t)nsocks, 100) <= 0)
				continue;
			for (k = 0; k < nsocks; k++) {
				if (!(pfd[k].revents & POLLIN))
					continue;
				while (wsc_read(&socks[k], 0) > 0)
					;
				if (got[k] == 1 && socks[k].nmsgs > 0) {
					double t = bench_now_ms() - t0;

					got[k] = 2;
					waiting--;
					if (t > last)
						last = t;
					if (k < CROWD && t > last0)
						last0 = t;
				}
				drop_msgs(&socks[k]);
			}
		}
		if (waiting > 0) {
			misses++;
			fprintf(stderr, "bench-web: step %d: %d sockets not updated (first: %d)\n", steps, waiting,
			        (int)(got[0] == 1 ? 0 : got[CROWD] == 1 ? CROWD : -1));
		}
		lat_all[steps] = last;
		lat[steps] = moved0 ? last0 : -1;
		steps++;
	}
	{
		int n0 = 0;

		for (i = 0; i < steps; i++)
			if (lat[i] >= 0)
				lat[n0++] = lat[i];
		bench_sort(lat, (size_t)n0);
		bench_sort(lat_all, (size_t)steps);
		p99 = bench_pct(lat, (size_t)n0, 990);
		p99_all = bench_pct(lat_all, (size_t)steps, 990);
		printf("web table, %d sockets on one table and %d tables watched (%d sockets), %d steps of moves:\n",
		       CROWD, TABLES, nsocks, steps);
		printf("  move committed -> last of the %d sockets of one table updated: p50 %.1f ms, p99 %.1f ms "
		       "(target p99 <= 50 ms) over %d moves\n", CROWD, bench_pct(lat, (size_t)n0, 500), p99, n0);
		printf("  moves at all %d tables -> last socket updated: p50 %.1f ms, p99 %.1f ms (target p99 <= 50 ms); "
		       "updates lost: %d\n", TABLES, bench_pct(lat_all, (size_t)steps, 500), p99_all, misses);
		printf("  memory per open socket: %.1f KB, both ends in this process (target <= 32 KB)\n", mem);
		printf("  the page's whole transfer (page, its files, first view): %.1f KB (target <= 150 KB)\n",
		       weight / 1024.0);
		fflush(stdout);
		for (k = 0; k < nsocks; k++)
			wsc_close(&socks[k]);
		fake_free(f);
		config_free(cfg);
		/* every figure a row of the figures file, each one's verdict kept */
		{
			bool ok = figure_add("bench-web", "move to the last of 1000 sockets of one table, p99", p99, "ms",
			                     FIGURE_AT_MOST, 50);

			ok &= figure_add("bench-web", "moves at 100 tables to the last socket, p99", p99_all, "ms",
			                 FIGURE_AT_MOST, 50);
			ok &= figure_add("bench-web", "updates lost", misses, "", FIGURE_AT_MOST, 0);
			ok &= figure_add("bench-web", "memory per open socket", mem, "KB", FIGURE_AT_MOST, 32);
			ok &= figure_add("bench-web", "the page's whole transfer", weight > 0 ? weight / 1024.0 : -1, "KB",
			                 FIGURE_AT_MOST, 150);
			return ok ? 0 : 1;
		}
	}
}
