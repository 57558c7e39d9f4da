/* soak.c: a hostile soak's IRC side, shared by the soak benches: players at live games, flooders beside them, answers timed, hands checked, the daemon probed, the figures. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "e2e.h"
#include "figures.h"
#include "soak.h"

#define PACE_MS     2100    /* a player's commands, within the bot's shipped flood_burst/flood_refill */
#define QUESTION_MS 6000    /* a player waiting for their turn asks something this often */

int64_t
soak_now_ms(void)
{
	return ircclient_now_us() / 1000;
}

int
soak_seconds(int dflt)
{
	const char *v = getenv("BENCH_SOAK_SECONDS");

	return v != NULL && atoi(v) > 0 ? atoi(v) : dflt;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct soak_peer *
soak_add(struct soak *s, int port, const char *nick, const char *chan, bool player)
{
	struct soak_peer *p;

	if (s->n >= SOAK_MAX_PEERS)
		return NULL;
	p = &s->peers[s->n];
	p->player = player;
	snprintf(p->chan, sizeof p->chan, "%s", chan != NULL ? chan : "");
	if (ircclient_connect(&p->c, port, nick) != 0 || (chan != NULL && ircclient_join(&p->c, chan) != 0)) {
		fprintf(stderr, "%s: %s cannot connect\n", s->bench, nick);
		return NULL;
	}
	s->n++;
	return p;
}

void
soak_dealt(struct soak_peer *p)
{
	/* (no "!hand" first: the hand just told is not told again unchanged;
	 * the one to move draws, whose answer tells the hand) */
	p->last_sent = soak_now_ms();
	if (ircclient_saw(&p->c, "your turn: !draw", NULL))
		snprintf(p->next, sizeof p->next, "!draw");
}

/* A command of a player: sent now, answered when the bot next speaks to them. */
static void
player_send(struct soak *s, struct soak_peer *p, const char *cmd)
{
	ircclient_send(&p->c, "PRIVMSG %s :%s", p->chan, cmd);
	if (getenv("FLOOD_TRACE") != NULL)
		fprintf(stderr, "%lld %s> %s\n", (long long)soak_now_ms(), p->c.nick, cmd);
	snprintf(p->last, sizeof p->last, "%s", cmd);
	p->sent_at = p->last_sent = soak_now_ms();
	s->asked++;
}

static void
player_answered(struct soak *s, struct soak_peer *p)
{
	if (p->sent_at == 0)
		return;
	if (s->nlat < SOAK_MAX_LAT)
		s->lat[s->nlat++] = soak_now_ms() - p->sent_at;
	p->sent_at = 0;
}

/* The card to discard: the first of the hand that is no wild card, past
 * those already refused. */
static bool
discard_pick(struct soak_peer *p, char *out, size_t len)
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
player_line(struct soak *s, struct soak_peer *p, const char *line)
{
	char mine[96], room[96], chan[48], card[48];
	const char *hand, *bar;

	snprintf(mine, sizeof mine, " NOTICE %s :", p->c.nick);
	snprintf(room, sizeof room, " PRIVMSG %s :%s", p->chan, p->c.nick);
	snprintf(chan, sizeof chan, " PRIVMSG %s :", p->chan);
	if (strncmp(line, ":HandFoot!", 10) != 0)
		return;
	if (getenv("FLOOD_TRACE") != NULL)
		fprintf(stderr, "%lld %s| %s\n", (long long)soak_now_ms(), p->c.nick, line);
	if (strstr(line, " PRIVMSG #") != NULL && (strstr(line, "Your hand (") || strstr(line, "Your foot ("))) {
		s->leaks++;
		fprintf(stderr, "%s: a hand in the channel: %s\n", s->bench, line);
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
flooder_line(struct soak *s, const char *line)
{
	if (strncmp(line, ":HandFoot!", 10) == 0 && (strstr(line, "Your hand (") != NULL || strstr(line, "Your foot (") != NULL)) {
		s->leaks++;
		fprintf(stderr, "%s: a hand reached a flooder: %s\n", s->bench, line);
	}
}

/* Reads what is there without waiting; PINGs answered. -1 on EOF. */
static int
peer_read(struct soak *s, struct soak_peer *p)
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
				flooder_line(s, l);
			start = i + 1;
		}
		memmove(c->buf, c->buf + start, c->len - start);
		c->len -= start;
		if (c->len == sizeof c->buf - 1)
			c->len = 0;
	}
}

void
soak_flood(struct soak *s, struct soak_peer *p, int64_t now)
{
	static const char *const room[] = { "!help", "!pile", "!who", "!table", "!hand", "!stats", "!top", "!new",
	                                    "!join", "!draw", "!discard K", "!zzz", "hello there", "!abort",
	                                    "!play 2 duel", "!private privmsg", "HandFoot: help", "!score" };
	static const char *const direct[] = { "!help", "!hand", "help meld", "play", "stats", "!who" };
	const char *cmd = room[p->k % (sizeof room / sizeof room[0])];

	(void)s;
	ircclient_send(&p->c, "PRIVMSG %s :%s", p->chan, cmd);
	if (p->k % 2 == 1)
		ircclient_send(&p->c, "PRIVMSG HandFoot :%s", direct[p->k % (sizeof direct / sizeof direct[0])]);
	p->k++;
	p->next_flood = now + 500 + (int64_t)(p->k * 37 % 200);
}

void
soak_turn(struct soak *s, bool flood)
{
	struct pollfd pf[SOAK_MAX_PEERS];
	int64_t t = soak_now_ms();

	for (int i = 0; i < s->n; i++) {
		struct soak_peer *p = &s->peers[i];

		if (p->player && p->sent_at != 0 && t - p->sent_at > SOAK_ANSWER_MS) {
			s->unanswered++;
			fprintf(stderr, "%s: %s's command \"%s\" got no answer in %d s\n", s->bench, p->c.nick, p->last,
			        SOAK_ANSWER_MS / 1000);
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
		if (!p->player && flood && t >= p->next_flood)
			(s->flood != NULL ? s->flood : soak_flood)(s, p, t);
		pf[i].fd = p->c.fd;
		pf[i].events = POLLIN;
	}
	if (poll(pf, (nfds_t)s->n, 10) > 0)
		for (int i = 0; i < s->n; i++)
			if (pf[i].revents != 0 && peer_read(s, &s->peers[i]) < 0 && s->peers[i].player) {
				fprintf(stderr, "%s: %s was disconnected\n", s->bench, s->peers[i].c.nick);
				s->unanswered++;
			}
	if (s->tick != NULL)
		s->tick(s, flood, s->ctx);
}

static bool
waiting(const struct soak *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->peers[i].player && s->peers[i].sent_at != 0)
			return true;
	return false;
}

static int
turns(const struct soak *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->peers[i].turns;
	return n;
}

void
soak_run(struct soak *s, pid_t pid, int flood_s)
{
	int64_t t0;

	s->flood_s = flood_s;
	/* a quiet start: the players alone for 10 s */
	t0 = soak_now_ms();
	while (soak_now_ms() - t0 < 10000)
		soak_turn(s, false);
	s->before = s->most = probe(pid);
	s->turns0 = turns(s);

	/* the flood */
	s->asked_flood = s->asked;
	s->answered_flood = s->nlat;
	t0 = soak_now_ms();
	for (int64_t last = 0; soak_now_ms() - t0 < (int64_t)flood_s * 1000;) {
		soak_turn(s, true);
		if (soak_now_ms() - last >= 1000) {
			peak(&s->most, probe(pid));
			last = soak_now_ms();
		}
	}
	s->turns_flood = turns(s) - s->turns0;
	s->asked_flood = s->asked - s->asked_flood;
	s->answered_flood = s->nlat - s->answered_flood;

	/* after: the players go on; what waited is answered */
	t0 = soak_now_ms();
	while (soak_now_ms() - t0 < 20000)
		soak_turn(s, false);
	/* then the players stop asking, and what they asked is waited for */
	s->hush = true;
	t0 = soak_now_ms();
	while (soak_now_ms() - t0 < SOAK_ANSWER_MS + 5000 && waiting(s))
		soak_turn(s, false);
	for (int i = 0; i < s->n; i++)
		if (s->peers[i].player && s->peers[i].sent_at != 0) {   /* still waiting: unanswered too */
			s->unanswered++;
			s->peers[i].sent_at = 0;
		}
	s->after = probe(pid);
	peak(&s->most, s->after);
}

int
soak_count_log(const char *path, const char *needle)
{
	char *log = e2e_read_file(path), *p;
	int n = 0;

	for (p = log; p != NULL && (p = strstr(p, needle)) != NULL; p++)
		n++;
	free(log);
	return n;
}

int
soak_report(struct soak *s, const char *log, double rss_mib, long fds)
{
	int rc = 0;

	qsort(s->lat, (size_t)s->nlat, sizeof *s->lat, cmp_i64);
	printf("  daemon RSS: %.1f MiB before, %.1f MiB at most, %.1f MiB after\n", s->before.rss_kb / 1024.0,
	       s->most.rss_kb / 1024.0, s->after.rss_kb / 1024.0);
	printf("  daemon open files: %ld before, %ld at most, %ld after\n", s->before.fds, s->most.fds, s->after.fds);
	printf("  players' commands: %d asked, %d answered, %d unanswered in %d s", s->asked, s->nlat, s->unanswered,
	       SOAK_ANSWER_MS / 1000);
	if (s->nlat > 0)
		printf("; p50 %.1f s, p90 %.1f s, max %.1f s", s->lat[s->nlat / 2] / 1000.0,
		       s->lat[s->nlat * 9 / 10] / 1000.0, s->lat[s->nlat - 1] / 1000.0);
	printf("\n  during the flood: %d asked, %d answered; %d turns played (%d before it, in 10 s)\n", s->asked_flood,
	       s->answered_flood, s->turns_flood, s->turns0);
	printf("  hands told to their owners: %d; seen by anyone else: %d\n", s->hands, s->leaks);
	printf("  lines the bot could not queue (a full per-target queue): %d; lines all clients read: %ld\n",
	       soak_count_log(log, "could not be queued") + soak_count_log(log, "dropped"), s->lines_in);
	rc |= !figure_add(s->bench, "soak: daemon RSS at most", s->most.rss_kb / 1024.0, "MiB", FIGURE_AT_MOST, rss_mib);
	rc |= !figure_add(s->bench, "soak: daemon open files at most", (double)s->most.fds, "", FIGURE_AT_MOST,
	                  (double)fds);
	rc |= !figure_add(s->bench, "soak: hands seen by anyone but their owner", s->leaks, "", FIGURE_AT_MOST, 0);
	rc |= !figure_add(s->bench, "soak: players' commands unanswered", s->unanswered, "", FIGURE_AT_MOST, 0);
	rc |= !figure_add(s->bench, "soak: players' commands answered", s->nlat, "", FIGURE_AT_LEAST, s->asked);
	rc |= !figure_add(s->bench, "soak: turns played during the flood", s->turns_flood, "", FIGURE_AT_LEAST, 1);
	return rc;
}

void
soak_close(struct soak *s)
{
	for (int i = 0; i < s->n; i++)
		ircclient_close(&s->peers[i].c);
}
