/* bench-hostile.c: the hostile soak of issue 24: nick churn, private floods, ids colliding under the old flood hash and channel flooders, through ngircd, beside two live games; RSS and open files, every seated player answered, every hand with its owner alone. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "probe.h"

/* (Discord's interaction floods and oversized frames: tests/e2e/e2e-discord-hostile.c) */

#define FLOODERS   20
#define PLAYERS    3      /* alice and bob at a duel in #cards; carol beside the computer in #two */
#define CHURN      1      /* one more connection: nick churn, private floods, colliding ids */
#define PACE_MS    2100     /* a player's commands, within the bot's shipped flood_burst/flood_refill */
#define QUESTION_MS 6000    /* a player waiting for their turn asks something this often */
#define ANSWER_MS  60000    /* a command not answered in this long is counted unanswered */
#define MAX_LAT    4096

/* One client of the soak: an ircclient for the setup, then read here without blocking. */
struct peer {
	struct ircclient c;
	bool player;
	/* a player's game */
	int64_t sent_at;         /* a command waits for its answer since then; 0 if none */
	int64_t last_sent;
	char next[64];           /* what to send next */
	char last[64];           /* what was sent last */
	char hand[512];          /* the cards of the last hand told */
	int skip;                /* cards passed over after a refused discard */
	int turns;
	int questions;
	/* a flooder's */
	int64_t next_flood;
	unsigned k;
	char chan[16];           /* a player's table's room */
};

struct soak {
	struct peer peers[PLAYERS + FLOODERS + CHURN];
	int64_t lat[MAX_LAT];
	int nlat, asked, unanswered;
	int leaks;               /* hands (or foots) seen by anyone but their owner */
	int hands;               /* hands told to their owners */
	long lines_in;           /* lines all clients read */
	bool hush;               /* the players ask nothing more */
};

static const char *const names[PLAYERS] = { "alice", "bob", "carol" };
/* nicks that share a player's flood set under the old unkeyed FNV-1a */
static char colliding[8][16];
static int ncolliding;

static int64_t
now_ms(void)
{
	return ircclient_now_us() / 1000;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* A command of a player: sent now, answered when the bot next speaks to them. */
static void
player_send(struct soak *s, struct peer *p, const char *cmd)
{
	ircclient_send(&p->c, "PRIVMSG %s :%s", p->chan, cmd);
	if (getenv("FLOOD_TRACE") != NULL)
		fprintf(stderr, "%s> %s\n", p->c.nick, cmd);
	snprintf(p->last, sizeof p->last, "%s", cmd);
	p->sent_at = p->last_sent = now_ms();
	s->asked++;
}

static void
player_answered(struct soak *s, struct peer *p)
{
	if (p->sent_at == 0)
		return;
	if (s->nlat < MAX_LAT)
		s->lat[s->nlat++] = now_ms() - p->sent_at;
	p->sent_at = 0;
}

/* The card to discard: the first of the hand that is no wild card, past
 * those already refused. */
static bool
discard_pick(struct peer *p, char *out, size_t len)
{
	char copy[512], *tok, *save = NULL;
	int seen = 0;

	snprintf(copy, sizeof copy, "%s", p->hand);
	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char *x = strstr(tok, "×");

		if (x != NULL)
			*x = '\0';
		if (strcmp(tok, "2") == 0 || strcmp(tok, "JK") == 0 || strcmp(tok, "|") == 0 || seen++ < p->skip)
			continue;
		snprintf(out, len, "%s", tok);
		return true;
	}
	p->skip = 0;
	return false;
}

/* A line a player read: their hand says what to do next. */
static void
player_line(struct soak *s, struct peer *p, const char *line)
{
	char mine[96], room[96], chan[48], card[48];
	const char *hand, *bar;

	snprintf(mine, sizeof mine, " NOTICE %s :", p->c.nick);
	snprintf(room, sizeof room, " PRIVMSG %s :%s", p->chan, p->c.nick);
	snprintf(chan, sizeof chan, " PRIVMSG %s :", p->chan);
	if (strncmp(line, ":HandFoot!", 10) != 0)
		return;
	if (getenv("FLOOD_TRACE") != NULL)
		fprintf(stderr, "%s| %s\n", p->c.nick, line);
	if (strstr(line, " PRIVMSG #") != NULL && (strstr(line, "Your hand (") || strstr(line, "Your foot ("))) {
		s->leaks++;
		fprintf(stderr, "bench-hostile: a hand in the channel: %s\n", line);
	}
	/* an answer: the bot spoke to this player, or of them in the room
	 * ("alice draws 2 ...", "alice: No finished games ...") */
	if (strstr(line, mine) != NULL || strstr(line, room) != NULL ||
	    (strncmp(p->last, "!stats ", 7) == 0 && strstr(line, p->last + 7) != NULL))
		player_answered(s, p);
	/* the room asks this player to move ("bob: your turn (!draw or !pickup)")
	 * when their hand has not changed since it was told */
	snprintf(card, sizeof card, "%s: your turn", p->c.nick);
	if (strstr(line, chan) != NULL && (bar = strstr(line, card)) != NULL) {
		if (strncmp(bar + strlen(card), " (!draw", 7) == 0) {
			p->turns += strcmp(p->next, "!draw") != 0;   /* once, if the hand says so too */
			snprintf(p->next, sizeof p->next, "!draw");
			p->skip = 0;
		} else if (discard_pick(p, card, sizeof card)) {
			snprintf(p->next, sizeof p->next, "!discard %s", card);
		}
	}
	if (strstr(line, mine) != NULL && strstr(line, " refused") != NULL && strncmp(p->last, "!discard", 8) == 0) {
		p->skip++;    /* refused: another card next time */
		if (discard_pick(p, card, sizeof card))
			snprintf(p->next, sizeof p->next, "!discard %s", card);
		return;
	}
	if (strstr(line, mine) == NULL || (hand = strstr(line, "): ")) == NULL)
		return;
	if (strstr(line, "Your hand (") == NULL && strstr(line, "Your foot (") == NULL)
		return;
	s->hands++;
	bar = strstr(hand + 3, " |");
	snprintf(p->hand, sizeof p->hand, "%.*s", bar ? (int)(bar - hand - 3) : (int)strlen(hand + 3), hand + 3);
	if (strstr(line, "your turn: !draw or !pickup") != NULL) {
		p->turns += strcmp(p->next, "!draw") != 0;   /* once, if the room says so too */
		snprintf(p->next, sizeof p->next, "!draw");
		p->skip = 0;
	} else if (strstr(line, "!meld, then !discard") != NULL && discard_pick(p, card, sizeof card)) {
		snprintf(p->next, sizeof p->next, "!discard %s", card);
	} else if (strncmp(p->next, "!draw", 5) != 0) {
		p->next[0] = '\0';   /* nothing to do until told */
	}
}

/* A line a flooder read: no hand of anyone's may ever reach them. */
static void
flooder_line(struct soak *s, struct peer *p, const char *line)
{
	(void)p;
	if (strncmp(line, ":HandFoot!", 10) == 0 && (strstr(line, "Your hand (") != NULL || strstr(line, "Your foot (") != NULL)) {
		s->leaks++;
		fprintf(stderr, "bench-hostile: a hand reached a flooder: %s\n", line);
	}
}

/* Reads what is there without waiting; PINGs answered. -1 on EOF. */
static int
peer_read(struct soak *s, struct peer *p)
{
	struct ircclient *c = &p->c;
	size_t start = 0;
	ssize_t n;

	for (;;) {
		n = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, MSG_DONTWAIT);
		if (n == 0)
			return -1;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		c->len += (size_t)n;
		start = 0;
		for (size_t i = 0; i < c->len; i++) {
			char *l = c->buf + start;

			if (c->buf[i] != '\n')
				continue;
			c->buf[i] = '\0';
			if (i > start && c->buf[i - 1] == '\r')
				c->buf[i - 1] = '\0';
			s->lines_in++;
			if (strncmp(l, "PING ", 5) == 0)
				ircclient_send(c, "PONG %s", l + 5);
			else if (p->player)
				player_line(s, p, l);
			else
				flooder_line(s, p, l);
			start = i + 1;
		}
		memmove(c->buf, c->buf + start, c->len - start);
		c->len -= start;
		if (c->len == sizeof c->buf - 1)
			c->len = 0;
	}
}

/* What a flooder sends: commands in the channel and to the bot, chatter. */
static void
flooder_send(struct peer *p)
{
	static const char *const room[] = { "!help", "!pile", "!who", "!table", "!hand", "!stats", "!top", "!new",
	                                    "!join", "!draw", "!discard K", "!zzz", "hello there", "!abort",
	                                    "!play 2 duel", "!private privmsg", "HandFoot: help", "!score" };
	static const char *const direct[] = { "!help", "!hand", "help meld", "play", "stats", "!who" };
	const char *cmd = room[p->k % (sizeof room / sizeof room[0])];

	ircclient_send(&p->c, "PRIVMSG %s :%s", p->chan, cmd);
	if (p->k % 2 == 1)
		ircclient_send(&p->c, "PRIVMSG HandFoot :%s", direct[p->k % (sizeof direct / sizeof direct[0])]);
	p->k++;
}

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
churn_send(struct peer *p)
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

/* One turn of the soak's loop: everyone read, the players and flooders act. */
static void
soak_turn(struct soak *s, int n, bool flood)
{
	struct pollfd pf[PLAYERS + FLOODERS + CHURN];
	int64_t t = now_ms();

	for (int i = 0; i < n; i++) {
		struct peer *p = &s->peers[i];

		if (p->player && p->sent_at != 0 && t - p->sent_at > ANSWER_MS) {
			s->unanswered++;
			fprintf(stderr, "bench-hostile: %s's command \"%s\" got no answer in %d s\n", p->c.nick, p->last,
			        ANSWER_MS / 1000);
			p->sent_at = 0;
			snprintf(p->next, sizeof p->next, "%s", p->last);   /* asked again */
		}
		if (s->hush && p->player) {
			/* the end: only what was asked is waited for */
		} else if (p->player && p->sent_at == 0 && p->next[0] != '\0' && t - p->last_sent >= PACE_MS) {
			player_send(s, p, p->next);
			p->next[0] = '\0';
		} else if (p->player && p->sent_at == 0 && t - p->last_sent >= QUESTION_MS) {
			char q[64];

			/* waiting for the other's turn: a question with a new answer */
			snprintf(q, sizeof q, "!stats %s%d", p->c.nick, p->questions++);
			player_send(s, p, q);
		}
		if (!p->player && flood && t >= p->next_flood) {
			if (i == n - 1) {
				churn_send(p);
				p->next_flood = t + 100;
			} else {
				flooder_send(p);
				p->next_flood = t + 500 + (int64_t)(p->k * 37 % 200);
			}
		}
		pf[i].fd = p->c.fd;
		pf[i].events = POLLIN;
	}
	if (poll(pf, (nfds_t)n, 10) > 0)
		for (int i = 0; i < n; i++)
			if (pf[i].revents != 0 && peer_read(s, &s->peers[i]) < 0 && s->peers[i].player) {
				fprintf(stderr, "bench-hostile: %s was disconnected\n", s->peers[i].c.nick);
				s->unanswered++;
			}
}

static int
count_log(const char *path, const char *needle)
{
	char *log = e2e_read_file(path), *p;
	int n = 0;

	for (p = log; p != NULL && (p = strstr(p, needle)) != NULL; p++)
		n++;
	free(log);
	return n;
}

int
main(void)
{
	static struct soak s;
	struct ircserver srv;
	struct e2e_daemon d;
	struct probe before, most, after;
	char conf[512], db[512], text[1024], nick[32];
	int flood_s = getenv("BENCH_SOAK_SECONDS") ? atoi(getenv("BENCH_SOAK_SECONDS")) : 600, n = 0, rc = 1;
	int turns0 = 0, turns_flood = 0, asked_flood, answered_flood;
	int64_t t0;

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
	for (int i = 0; i < PLAYERS; i++, n++) {
		s.peers[n].player = true;
		snprintf(s.peers[n].chan, sizeof s.peers[n].chan, "%s", i < 2 ? "#cards" : "#two");
		if (ircclient_connect(&s.peers[n].c, srv.port, names[i]) != 0 ||
		    ircclient_join(&s.peers[n].c, s.peers[n].chan) != 0)
			goto out;
	}
	if (e2e_daemon_start(&d, "bench-hostile", conf, NULL) != 0 ||
	    ircclient_wait(&s.peers[0].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL) != 0 ||
	    ircclient_wait(&s.peers[2].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#two", NULL) != 0)
		goto stop;
	/* the second live game: carol beside the computer */
	ircclient_send(&s.peers[2].c, "PRIVMSG #two :!play 2 duel");
	if (ircclient_wait(&s.peers[2].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
		goto stop;
	/* (no "!hand" first: the hand just told is not told again unchanged;
	 * the one to move draws, whose answer tells the hand) */
	s.peers[2].last_sent = now_ms();
	if (ircclient_saw(&s.peers[2].c, "your turn: !draw", NULL))
		snprintf(s.peers[2].next, sizeof s.peers[2].next, "!draw");
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
		s.peers[i].last_sent = now_ms();
		if (ircclient_saw(&s.peers[i].c, "your turn: !draw", NULL))
			snprintf(s.peers[i].next, sizeof s.peers[i].next, "!draw");
	}
	/* the flooders come in, half in each room, and the churner in none */
	for (int i = 0; i < FLOODERS; i++, n++) {
		snprintf(nick, sizeof nick, "flood%02d", i);
		snprintf(s.peers[n].chan, sizeof s.peers[n].chan, "%s", i % 2 ? "#two" : "#cards");
		if (ircclient_connect(&s.peers[n].c, srv.port, nick) != 0 ||
		    ircclient_join(&s.peers[n].c, s.peers[n].chan) != 0) {
			fprintf(stderr, "bench-hostile: %s cannot connect\n", nick);
			goto stop;
		}
	}
	if (ircclient_connect_from(&s.peers[n].c, srv.port, "churn", "127.0.0.9") != 0) {
		fprintf(stderr, "bench-hostile: the churner cannot connect\n");
		goto stop;
	}
	n++;
	/* a quiet minute's start: the players alone for 10 s */
	t0 = now_ms();
	while (now_ms() - t0 < 10000)
		soak_turn(&s, n, false);
	before = most = probe(d.pid);
	for (int i = 0; i < PLAYERS; i++)
		turns0 += s.peers[i].turns;

	/* the flood */
	asked_flood = s.asked;
	answered_flood = s.nlat;
	t0 = now_ms();
	for (int64_t last = 0; now_ms() - t0 < (int64_t)flood_s * 1000;) {
		soak_turn(&s, n, true);
		if (now_ms() - last >= 1000) {
			peak(&most, probe(d.pid));
			last = now_ms();
		}
	}
	for (int i = 0; i < PLAYERS; i++)
		turns_flood += s.peers[i].turns;
	turns_flood -= turns0;
	asked_flood = s.asked - asked_flood;
	answered_flood = s.nlat - answered_flood;

	/* after: the players go on; what waited is answered */
	t0 = now_ms();
	while (now_ms() - t0 < 20000)
		soak_turn(&s, n, false);
	/* then the players stop asking, and what they asked is waited for */
	s.hush = true;
	t0 = now_ms();
	while (now_ms() - t0 < ANSWER_MS + 5000 && (s.peers[0].sent_at != 0 || s.peers[1].sent_at != 0 ||
	                                            s.peers[2].sent_at != 0))
		soak_turn(&s, n, false);
	for (int i = 0; i < PLAYERS; i++)
		if (s.peers[i].sent_at != 0) {   /* still waiting: unanswered too */
			s.unanswered++;
			s.peers[i].sent_at = 0;
		}
	after = probe(d.pid);
	peak(&most, after);
	if (!e2e_daemon_alive(&d)) {
		fprintf(stderr, "bench-hostile: the daemon died (log: %s)\n", d.log);
		goto stop;
	}

	qsort(s.lat, (size_t)s.nlat, sizeof *s.lat, cmp_i64);
	printf("Hostile soak on the real daemon through ngircd (shipped defaults; server penalties off), two live games:\n");
	printf("  %d flooders for %d s, each a command in its room every 0.5-0.7 s and one to the bot every other time;\n"
	       "  one churner: a new nick every 0.1 s with a private question or notice, and %d nicks sharing the\n"
	       "  players' flood sets under the old hash\n", FLOODERS, flood_s, ncolliding);
	printf("  daemon RSS: %.1f MiB before, %.1f MiB at most, %.1f MiB after\n", before.rss_kb / 1024.0,
	       most.rss_kb / 1024.0, after.rss_kb / 1024.0);
	printf("  daemon open files: %ld before, %ld at most, %ld after\n", before.fds, most.fds, after.fds);
	printf("  players' commands: %d asked, %d answered, %d unanswered in %d s", s.asked, s.nlat, s.unanswered,
	       ANSWER_MS / 1000);
	if (s.nlat > 0)
		printf("; p50 %.1f s, p90 %.1f s, max %.1f s", s.lat[s.nlat / 2] / 1000.0, s.lat[s.nlat * 9 / 10] / 1000.0,
		       s.lat[s.nlat - 1] / 1000.0);
	printf("\n  during the flood: %d asked, %d answered; %d turns played (%d before it, in 10 s)\n", asked_flood,
	       answered_flood, turns_flood, turns0);
	printf("  hands told to their owners: %d; seen by anyone else: %d\n", s.hands, s.leaks);
	printf("  lines the bot could not queue (a full per-target queue): %d; lines all clients read: %ld\n",
	       count_log(d.log, "could not be queued") + count_log(d.log, "dropped"), s.lines_in);
	rc = s.leaks == 0 && s.unanswered == 0 && s.nlat == s.asked && turns_flood > 0 ? 0 : 1;
	fflush(stdout);
	if (rc != 0)
		fprintf(stderr, "bench-hostile: a check failed (daemon log: %s)\n", d.log);
stop:
	if (d.pid > 0) {
		e2e_daemon_signal(&d, SIGTERM);
		e2e_daemon_wait(&d, 10000);
	}
out:
	for (int i = 0; i < n; i++)
		ircclient_close(&s.peers[i].c);
	ircserver_free(&srv);
	return rc;
}
