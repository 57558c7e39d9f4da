/* bench-pace.c: the pace of play on a busy network: a human against three computer players through ngircd with the shipped flood defaults, two busy tables and a !pile asker, a flooder, and the same game through the fake homeserver limiting sends as Synapse does and on a real Synapse at its default rate limits; each figure beside its target. */
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#include "cardpick.h"
#include "e2e.h"
#include "figures.h"
#include "fake.h"
#ifdef HF_WITH_MATRIX
#include "fakemx.h"
#include "matrix-human.h"
#include "synapse-bot.h"
#include "synapse-log.h"
#endif
#include "ircclient.h"
#include "ircserver.h"
#include "loop.h"

#define THINK_MS    1000      /* a quick human: a second to read, a second to type */
#define STUCK_MS    180000    /* no progress for this long: the scenario failed */
#define MAXS        1024      /* samples kept per figure */

/* ------------------------------------------------------------------ figures */

static int64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

struct samples {
	int64_t v[MAXS];
	int n;
};

static void
add(struct samples *s, int64_t x)
{
	if (s->n < MAXS)
		s->v[s->n++] = x;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile (nearest rank) in seconds; -1 with no samples. */
static double
pct(struct samples *s, double p)
{
	int i;

	if (s->n == 0)
		return -1;
	qsort(s->v, (size_t)s->n, sizeof s->v[0], cmp_i64);
	i = (int)(p / 100.0 * s->n + 0.999) - 1;
	if (i < 0)
		i = 0;
	return (double)s->v[i < s->n ? i : s->n - 1] / 1000.0;
}

static int failures;

/* One figure beside its target: "<=" figures must not exceed it. */
static void
figure(const char *what, double value, const char *unit, double target)
{
	if (!figure_add("bench-pace", what, value, unit, FIGURE_AT_MOST, target))
		failures++;
}

/* ------------------------------------------------------------------ text */

/* Takes the mIRC codes out of s in place. */
static void
strip_codes(char *s)
{
	char *o = s;

	for (const char *p = s; *p; p++) {
		if (*p == '\x03') {
			for (int k = 0; k < 2 && p[1] >= '0' && p[1] <= '9'; k++)
				p++;
			if (p[1] == ',' && p[2] >= '0' && p[2] <= '9') {
				p++;
				for (int k = 0; k < 2 && p[1] >= '0' && p[1] <= '9'; k++)
					p++;
			}
			continue;
		}
		if (*p == '\x02' || *p == '\x0f' || *p == '\x1d' || *p == '\x1f' || *p == '\x16')
			continue;
		*o++ = *p;
	}
	*o = '\0';
}

/* How many times needle is in the file at path. */
static int
count_in_file(const char *path, const char *needle)
{
	char *text = e2e_read_file(path), *p;
	int n = 0;

	if (text == NULL)
		return 0;
	for (p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	free(text);
	return n;
}

/* ------------------------------------------------------------------ IRC agents */

enum { H_PING, H_THINK_DRAW, H_HAND, H_THINK_DISCARD };

/* A human at a table: draws, discards her rarest card, says yes when asked. */
struct human {
	struct ircclient c;
	const char *chan;
	int state;
	int64_t due, t_draw, t_discard, last_progress;
	int turns, pings;
	long room_lines;            /* the bot's lines in chan, as she saw them */
	long lines_first, lines_last;
	struct samples wait;        /* her discard to her next "your turn" */
	struct samples answer;      /* her !draw to her hand */
	char pick[8];
	int64_t stuck_ms;           /* no progress for this long is a failure (0: STUCK_MS) */
	FILE *transcript;           /* if not NULL: what she sees, as an IRC client shows it */
	bool over;                  /* the room was told the game is over */
};

/* A watcher who asks !pile every 3 s, or (on_change) after each change the
 * room was told (one question at a time). */
struct asker {
	struct ircclient c;
	const char *chan;
	const char *ask, *expect;   /* what she asks and how its answer starts (NULL: "!pile", "Pile:") */
	bool on_change;             /* ask once the room was told something since her last question */
	bool changed;               /* it was */
	bool waiting;
	int64_t t_query, next;
	int asked, unchanged, lost;
	char last[512];             /* her last answer: one said again unchanged is counted, and timed */
	struct samples answer;
};

static bool
from_bot(const char *l)
{
	return strncmp(l, ":HandFoot!", 10) == 0;
}

/* Whether l is the bot's line in chan or to nick (privately). */
static bool
bot_to(const char *l, const char *target)
{
	char a[96], b[96];

	snprintf(a, sizeof a, " PRIVMSG %s :", target);
	snprintf(b, sizeof b, " NOTICE %s :", target);
	return from_bot(l) && (strstr(l, a) != NULL || strstr(l, b) != NULL);
}

static int
human_step(struct human *h, int64_t now)
{
	char ping[96], ask[96];

	if (ircclient_drain(&h->c, 5) != 0)
		return -1;
	snprintf(ping, sizeof ping, "%s: your turn", h->c.nick);
	snprintf(ask, sizeof ask, "%s:", h->c.nick);
	for (; h->c.seen < h->c.nlines; h->c.seen++) {
		char line[2048];

		snprintf(line, sizeof line, "%s", h->c.lines[h->c.seen]);
		strip_codes(line);
		if (h->transcript != NULL && (bot_to(line, h->chan) || bot_to(line, h->c.nick)))
			fprintf(h->transcript, bot_to(line, h->chan) ? "<HandFoot> %s\n" : "-HandFoot- %s\n",
			        strstr(line + 1, " :") + 2);
		if (bot_to(line, h->chan)) {
			h->room_lines++;
			h->over = h->over || strstr(line, "Game over") != NULL;
			if (strstr(line, ping) != NULL && h->state == H_PING) {
				if (h->pings++ == 0)
					h->lines_first = h->room_lines;
				h->lines_last = h->room_lines;
				if (h->t_discard > 0)
					add(&h->wait, now - h->t_discard);
				h->state = H_THINK_DRAW;
				h->due = now + THINK_MS;
				h->last_progress = now;
			} else if (strstr(line, ask) != NULL && strstr(line, "go out?") != NULL) {
				ircclient_send(&h->c, "PRIVMSG %s :!yes", h->chan);
				if (h->transcript != NULL)
					fprintf(h->transcript, "<%s> !yes\n", h->c.nick);
			}
		} else if (bot_to(line, h->c.nick) && h->state == H_HAND &&
		           (strstr(line, "Your hand (") != NULL || strstr(line, "Your foot (") != NULL)) {
			add(&h->answer, now - h->t_draw);
			cardpick_discard(line, h->pick, sizeof h->pick);
			h->state = H_THINK_DISCARD;
			h->due = now + THINK_MS;
			h->last_progress = now;
		}
	}
	if (h->state == H_THINK_DRAW && now >= h->due) {
		ircclient_send(&h->c, "PRIVMSG %s :!draw", h->chan);
		if (h->transcript != NULL)
			fprintf(h->transcript, "<%s> !draw\n", h->c.nick);
		h->t_draw = now;
		h->state = H_HAND;
	} else if (h->state == H_THINK_DISCARD && now >= h->due) {
		if (h->pick[0] == '\0') {
			fprintf(stderr, "bench-pace: %s has nothing to discard\n", h->c.nick);
			return -1;
		}
		ircclient_send(&h->c, "PRIVMSG %s :!discard %s", h->chan, h->pick);
		if (h->transcript != NULL)
			fprintf(h->transcript, "<%s> !discard %s\n", h->c.nick, h->pick);
		h->t_discard = now;
		h->turns++;
		h->state = H_PING;
	}
	if (now - h->last_progress > (h->stuck_ms > 0 ? h->stuck_ms : STUCK_MS)) {
		fprintf(stderr, "bench-pace: %s waited %d s for the bot\n", h->c.nick, STUCK_MS / 1000);
		return -1;
	}
	return 0;
}

/* The text of an IRC line (after " :"), or "". */
static const char *
text_of(const char *l)
{
	const char *p = strstr(l + 1, " :");

	return p != NULL ? p + 2 : "";
}

/* One step of the asker; ask: she may ask again (false once the time is up). */
static int
asker_step(struct asker *a, int64_t now, bool ask)
{
	if (ircclient_drain(&a->c, 5) != 0)
		return -1;
	for (; a->c.seen < a->c.nlines; a->c.seen++) {
		const char *l = a->c.lines[a->c.seen];

		/* the answer, not a turn's line that mentions the pile */
		const char *expect = a->expect != NULL ? a->expect : "Pile:";

		/* an answer unchanged since it was last said is said again (a long
		 * one pointed at: "carol: the same as 3 s ago, above."): timed too */
		if (a->waiting && (bot_to(l, a->chan) || bot_to(l, a->c.nick)) &&
		    (strncmp(text_of(l), expect, strlen(expect)) == 0 || strstr(text_of(l), ": the same as ") != NULL)) {
			add(&a->answer, now - a->t_query);
			a->unchanged += strcmp(text_of(l), a->last) == 0;
			snprintf(a->last, sizeof a->last, "%s", text_of(l));
			a->waiting = false;
		} else if (bot_to(l, a->chan) && strncmp(text_of(l), expect, strlen(expect)) != 0 &&
		           strstr(text_of(l), ": the same as ") == NULL) {
			a->changed = true;   /* the room was told something: a change to ask about */
		}
	}
	if (a->waiting && now - a->t_query > 60000) {
		a->lost++;
		a->waiting = false;
	}
	if (ask && !a->waiting && (a->on_change ? a->changed : now >= a->next)) {
		a->changed = false;
		ircclient_send(&a->c, "PRIVMSG %s :%s", a->chan, a->ask != NULL ? a->ask : "!pile");
		a->t_query = now;
		a->next = now + 3000;
		a->asked++;
		a->waiting = true;
	}
	return 0;
}

/* ------------------------------------------------------------------ IRC world */

struct irc_world {
	struct ircserver srv;
	struct e2e_daemon d;
	bool up;
};

/* ngircd with its flood penalties on, the daemon with every pacing and flood key at its default. */
static int
irc_world_start(struct irc_world *w, const char *tag, const char *channels)
{
	char conf[512], db[512], text[2048];

	memset(w, 0, sizeof *w);
	if (ircserver_init(&w->srv, "ngircd") != 0)
		return -1;
	w->srv.penalties = true;
	if (ircserver_start(&w->srv) != 0)
		return -1;
	ircserver_path(&w->srv, "handfoot.conf", conf, sizeof conf);
	ircserver_path(&w->srv, "hf.db", db, sizeof db);
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nlog_level = debug\n"
	         "[irc bench]\nserver = 127.0.0.1\nport = %d\ntls = no\nnick = HandFoot\nchannels = %s\n",
	         db, w->srv.port, channels);
	if (e2e_write_file(conf, text) != 0 || e2e_daemon_start(&w->d, tag, conf, NULL) != 0)
		return -1;
	w->up = true;
	return 0;
}

static void
irc_world_stop(struct irc_world *w)
{
	if (w->up) {
		e2e_daemon_signal(&w->d, SIGTERM);
		e2e_daemon_wait(&w->d, 10000);
	}
	ircserver_free(&w->srv);
}

static int
irc_join(struct ircclient *c, struct irc_world *w, const char *nick, const char *chan)
{
	c->pump = NULL;
	if (ircclient_connect(c, w->srv.port, nick) != 0 || ircclient_join(c, chan) != 0)
		return -1;
	if (!ircclient_saw(c, " 353 ", "HandFoot") &&
	    ircclient_wait(c, 20000, NULL, 0, ":HandFoot!", "JOIN", chan, NULL) != 0)
		return -1;
	c->seen = c->nlines;
	return 0;
}

/* The bot was never thrown off the server: no reconnection in its log. */
static bool
never_down(struct irc_world *w)
{
	return !e2e_daemon_log_has(&w->d, ": down,") && !e2e_daemon_log_has(&w->d, "Excess Flood");
}

/* ------------------------------------------------------------------ IRC scenarios */

/* One human and three computer players, classic, until she has played turns turns. */
static int
irc_solo(int turns)
{
	struct irc_world w;
	struct human *h = calloc(1, sizeof *h);
	int64_t t0;
	int rc = -1;

	printf("== IRC, ngircd with flood penalties, the shipped flood defaults: 1 human + 3 computer players, "
	       "classic, %d of her turns\n", turns);
	if (h == NULL || irc_world_start(&w, "bench-pace-solo", "#cards") != 0 || irc_join(&h->c, &w, "alice", "#cards") != 0)
		goto out;
	h->chan = "#cards";
	h->last_progress = t0 = now_ms();
	if (getenv("BENCH_PACE_TRANSCRIPT") != NULL && (h->transcript = fopen(getenv("BENCH_PACE_TRANSCRIPT"), "w")) != NULL)
		fprintf(h->transcript, "<alice> !play 4 classic\n");
	ircclient_send(&h->c, "PRIVMSG #cards :!play 4 classic");
	while (h->pings <= turns && !h->over) {
		if (human_step(h, now_ms()) != 0)
			goto out;
	}
	if (h->pings < 2) {
		fprintf(stderr, "bench-pace: the game ended before her second turn\n");
		goto out;
	}
	printf("  %d turns in %.0f s; the bot's room lines between her first and last turn: %ld\n",
	       4 * (h->pings - 1), (double)(now_ms() - t0) / 1000, h->lines_last - h->lines_first);
	figure("room lines per turn", (double)(h->lines_last - h->lines_first) / (4.0 * (h->pings - 1)), "", 1.5);
	figure("her wait, her discard to her next turn, p50", pct(&h->wait, 50), "s", 8);
	printf("  (her wait p95 %.1f s, max %.1f s; her !draw to her hand p50 %.1f s)\n", pct(&h->wait, 95),
	       pct(&h->wait, 100), pct(&h->answer, 50));
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the solo game failed (daemon log: %s)\n", w.d.log);
	if (h != NULL && h->transcript != NULL)
		fclose(h->transcript);
	if (h != NULL)
		ircclient_close(&h->c);
	free(h);
	irc_world_stop(&w);
	return rc;
}

/* The scenario: two tables played at full speed in two rooms on
 * one connection (bob's on !auto in #t1, the computer playing as fast as
 * the room is told; alice, a quick human, with three computer players in
 * #t2) and carol, a bystander in #t1, asking !pile after each change the
 * room was told, for secs seconds.  Every question answered, her answers'
 * p95 within 5 s, and the tables' pace kept (alice's wait). */
static int
irc_busy(int secs)
{
	struct irc_world w;
	struct ircclient bob;
	struct human *h = calloc(1, sizeof *h);
	struct asker *a = calloc(1, sizeof *a);
	int64_t end;
	int rc = -1;

	printf("== IRC, the same server and defaults: two busy tables on one connection (#t1 on !auto, alice and three "
	       "computer players in #t2), carol asking !pile in #t1 after each change, for %d s\n", secs);
	if (a == NULL || h == NULL || irc_world_start(&w, "bench-pace-busy", "#t1,#t2") != 0 ||
	    irc_join(&bob, &w, "bob", "#t1") != 0 || irc_join(&h->c, &w, "alice", "#t2") != 0 ||
	    irc_join(&a->c, &w, "carol", "#t1") != 0)
		goto out;
	ircclient_send(&bob, "PRIVMSG #t1 :!play 4 classic");
	e2e_sleep_ms(2000);
	ircclient_send(&bob, "PRIVMSG #t1 :!auto");
	h->chan = "#t2";
	h->last_progress = now_ms();
	ircclient_send(&h->c, "PRIVMSG #t2 :!play 4 classic");
	e2e_sleep_ms(3000);
	a->chan = "#t1";
	a->on_change = true;
	end = now_ms() + (int64_t)secs * 1000;
	while (now_ms() < end || a->waiting) {
		if (asker_step(a, now_ms(), now_ms() < end) != 0 || (!h->over && human_step(h, now_ms()) != 0) ||
		    ircclient_drain(&bob, 2) != 0)
			goto out;
	}
	printf("  carol asked %d times: %d answered (%d the same as her last answer), %d lost\n",
	       a->asked, a->answer.n, a->unchanged, a->lost);
	printf("  her waits in the order asked (s):");
	for (int i = 0; i < a->answer.n; i++)
		printf(" %.1f", (double)a->answer.v[i] / 1000.0);
	printf("\n");
	figure("a bystander's questions beside two busy tables, unanswered", (double)(a->asked - a->answer.n), "", 0);
	figure("her answer, !pile after each change to the pile, p95", pct(&a->answer, 95), "s", 5);
	printf("  (p50 %.1f s, max %.1f s)\n", pct(&a->answer, 50), pct(&a->answer, 100));
	figure("alice's wait at the other busy table, her discard to her next turn, p50", pct(&h->wait, 50), "s", 8);
	printf("  (alice played %d turns, her wait p95 %.1f s, max %.1f s)\n", h->turns, pct(&h->wait, 95),
	       pct(&h->wait, 100));
	rc = a->asked < 5 || h->turns < 3 ? -1 : 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the busy tables failed (daemon log: %s)\n", w.d.log);
	if (h != NULL)
		ircclient_close(&h->c);
	ircclient_close(&bob);
	if (a != NULL)
		ircclient_close(&a->c);
	free(a);
	free(h);
	irc_world_stop(&w);
	return rc;
}

/* alice plays, carol asks !pile every 3 s, and dave sends 200 commands at
 * once; for secs seconds from the flood on (alice's game may stall: that is
 * a figure too, not a failure of the bench).  erin, in another room, asks
 * one question as the flood starts: the first answer after a flood is a
 * figure of its own (the later ones are in the p95). */
static int
irc_flood(int secs)
{
	static const char *const cmds[] = { "!pile", "!table", "!who", "!score", "!help", "!rules", "!hand", "!draw",
	                                    "!stats", "!top", "!nonsense" };
	struct irc_world w;
	struct human *h = calloc(1, sizeof *h);
	struct asker *a = calloc(1, sizeof *a), *e = calloc(1, sizeof *e);
	struct ircclient dave;
	struct samples all = { .n = 0 };
	int64_t carol_first = -1;
	char *burst = malloc(200 * 32);
	size_t len = 0;
	int64_t end;
	int rc = -1, turns0;

	printf("== IRC, the same server and defaults: alice plays, carol asks !pile every 3 s, dave sends 200 "
	       "commands at once; %d s from the flood on\n", secs);
	if (h == NULL || a == NULL || e == NULL || burst == NULL ||
	    irc_world_start(&w, "bench-pace-flood", "#cards,#other") != 0 || irc_join(&h->c, &w, "alice", "#cards") != 0 ||
	    irc_join(&a->c, &w, "carol", "#cards") != 0 || irc_join(&dave, &w, "dave", "#cards") != 0 ||
	    irc_join(&e->c, &w, "erin", "#other") != 0)
		goto out;
	h->chan = a->chan = "#cards";
	e->chan = "#other";
	e->ask = "!pile";      /* no table there: a one-line answer */
	e->expect = "";
	h->last_progress = now_ms();
	h->stuck_ms = (int64_t)secs * 1000 * 10;
	ircclient_send(&h->c, "PRIVMSG #cards :!play 4 classic");
	for (int i = 0; i < 200; i++)
		len += (size_t)sprintf(burst + len, "PRIVMSG #cards :%s\r\n", cmds[i % (sizeof cmds / sizeof cmds[0])]);
	while (h->pings < 1)
		if (human_step(h, now_ms()) != 0)
			goto out;
	turns0 = h->turns;
	a->next = e->next = now_ms();
	if (ircclient_send_raw(&dave, burst, len) != 0)
		goto out;
	end = now_ms() + (int64_t)secs * 1000;
	while (now_ms() < end || a->waiting || e->waiting) {
		if (human_step(h, now_ms()) != 0 || asker_step(a, now_ms(), now_ms() < end) != 0 ||
		    asker_step(e, now_ms(), e->asked == 0) != 0)
			goto out;
		if (carol_first < 0 && a->answer.n > 0)
			carol_first = a->answer.v[0];
		ircclient_drain(&dave, 2);
	}
	for (int i = 0; i < h->answer.n; i++)
		add(&all, h->answer.v[i]);
	for (int i = 0; i < a->answer.n; i++)
		add(&all, a->answer.v[i]);
	printf("  alice played %d turns (%d draws answered; her wait p50 %.1f s), carol asked %d times (%d answered, "
	       "%d the same as her last, %d lost); dave's flood: %s\n", h->turns - turns0, h->answer.n, pct(&h->wait, 50),
	       a->asked, a->answer.n, a->unchanged, a->lost,
	       ircclient_saw(&dave, "ERROR", NULL) ? "the server threw him off" : "he stayed");
	figure("everyone else's answers (her draws, carol's !pile), p95", pct(&all, 95), "s", 5);
	figure("first answer after the flood, carol's !pile, same room",
	       carol_first >= 0 ? (double)carol_first / 1000.0 : -1, "s", 5);
	figure("first answer after the flood, erin's !pile, other room",
	       e->answer.n > 0 ? (double)e->answer.v[0] / 1000.0 : -1, "s", 5);
	printf("  (p50 %.1f s, max %.1f s; alice's turns told: %d in %d s)\n", pct(&all, 50), pct(&all, 100),
	       h->pings - 1, secs);
	figure("times the bot was disconnected for flooding", never_down(&w) ? 0 : 1, "", 0);
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the flood failed (daemon log: %s)\n", w.d.log);
	if (h != NULL)
		ircclient_close(&h->c);
	if (a != NULL)
		ircclient_close(&a->c);
	ircclient_close(&dave);
	if (e != NULL)
		ircclient_close(&e->c);
	free(h);
	free(a);
	free(e);
	free(burst);
	irc_world_stop(&w);
	return rc;
}

#ifdef HF_WITH_MATRIX
/* ------------------------------------------------------------------ Matrix */

/* ann's game, on either homeserver: her figures beside their targets.
 * where: before each figure's name ("" for the fake); sends, limited,
 * early: the bot's sends, its 429s and its sends before a 429's
 * retry_after_ms had passed, as the homeserver counted them (early < 0: not
 * measured, a miss). */
static void
mx_figures(const struct mxhuman *h, const char *where, const char *daemon_log, long sends, long limited, long early)
{
	struct samples wait = { .n = 0 };
	char what[160];
	double lost = count_in_file(daemon_log, "dropped") + (h->played > h->told ? h->played - h->told : 0);

	for (int i = 0; i < h->nwait; i++)
		add(&wait, h->wait[i]);
	printf("  %d turns; the bot's room messages between her first and last turn: %zu; her discards played %d, "
	       "told %d\n", 4 * (h->pings - 1), h->last - h->first, h->played, h->told);
	snprintf(what, sizeof what, "%sroom messages per turn", where);
	figure(what, (double)(h->last - h->first) / (4.0 * (h->pings - 1)), "", 1.5);
	snprintf(what, sizeof what, "%sher wait, her discard to her next turn, p50", where);
	figure(what, pct(&wait, 50), "s", 12);
	printf("  (her wait p95 %.1f s, max %.1f s; the bot's sends %ld, 429s %ld)\n", pct(&wait, 95), pct(&wait, 100),
	       sends, limited);
	snprintf(what, sizeof what, "%sthe bot's sends before a retry_after_ms had passed", where);
	figure(what, (double)early, "", 0);
	snprintf(what, sizeof what, "%smessages lost (dropped, or a discard of hers never told)", where);
	figure(what, lost, "", 0);
}

/* A bystander in a Matrix room (cy): she asks !pile after each change the
 * room was told, one question at a time; stepped each time ann reads it. */
struct fk_cy {
	struct fakemx *f;
	char tok[128];
	const char *room;
	size_t seen;                /* the bot's messages in room read so far */
	bool waiting, changed, ask;
	int64_t t_query;
	int asked, lost;
	struct samples answer;
};

static void
cy_step(struct fk_cy *cy)
{
	json_t *j = mxhuman_bot_messages(fakemx_events(cy->f, cy->room), "@bot:hs");
	int64_t now = now_ms();

	for (; cy->seen < json_array_size(j); cy->seen++) {
		json_t *ev = json_array_get(j, cy->seen);
		const char *b = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

		if (b == NULL)
			continue;
		if (strncmp(b, "Pile:", 5) == 0 || strstr(b, ": the same as ") != NULL) {
			if (cy->waiting)
				add(&cy->answer, now - cy->t_query);
			cy->waiting = false;
		} else {
			cy->changed = true;   /* the room was told something: a change to ask about */
		}
	}
	json_decref(j);
	if (cy->waiting && now - cy->t_query > 60000) {
		cy->lost++;
		cy->waiting = false;
	}
	if (cy->ask && !cy->waiting && cy->changed && fakemx_say(cy->f, cy->tok, cy->room, "!pile") == 0) {
		cy->changed = false;
		cy->waiting = true;
		cy->t_query = now;
		cy->asked++;
	}
}

/* The fake homeserver as ann uses it (matrix-human.h); cy, if not NULL,
 * asks in her room. */
struct fk_ann {
	struct fakemx *f;
	char tok[128];
	struct fk_cy *cy;
};

static json_t *
fk_events(void *ctx, const char *room)
{
	struct fk_ann *a = ctx;

	if (a->cy != NULL && strcmp(room, a->cy->room) == 0)
		cy_step(a->cy);
	return mxhuman_bot_messages(fakemx_events(a->f, room), "@bot:hs");
}

/* Sends text as ann, waiting out a 429 as a client must. */
static int
fk_say(void *ctx, const char *room, const char *text)
{
	struct fk_ann *a = ctx;
	static unsigned long txn;
	char path[512], *body, *e = curl_easy_escape(NULL, room, 0);
	json_t *c = json_pack("{s:s,s:s}", "msgtype", "m.text", "body", text), *j;
	long st = 0;

	body = json_dumps(c, JSON_COMPACT);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/bench%lu", e, ++txn);
	for (int tries = 0; tries < 20; tries++) {
		j = fakemx_call(a->f, "PUT", path, a->tok, body, &st);
		if (st == 429) {
			json_int_t ms = json_integer_value(json_object_get(j, "retry_after_ms"));

			json_decref(j);
			e2e_sleep_ms((int)(ms > 0 ? ms : 1000));
			continue;
		}
		json_decref(j);
		break;
	}
	curl_free(e);
	free(body);
	json_decref(c);
	return st == 200 ? 0 : -1;
}

static void
fk_direct(void *ctx, char *out, size_t len)
{
	json_t *j = fakemx_call(((struct fk_ann *)ctx)->f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *list = json_object_get(json_object_get(json_object_get(j, "account"), "@bot:hs m.direct"), "@ann:hs");
	const char *r = json_string_value(json_array_get(list, json_array_size(list) - 1));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(j);
}

static void
fk_join(void *ctx, const char *room)
{
	struct fk_ann *a = ctx;

	fakemx_room_post(a->f, a->tok, room, "join", "{}");
}

static json_int_t
requests_of(struct fakemx *f, const char *what)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/requests", NULL, NULL, NULL);
	json_int_t n = json_integer_value(json_object_get(json_object_get(json_object_get(j, "ratelimit"), what),
	                                                  "@bot:hs"));

	json_decref(j);
	return n;
}

static int
matrix_solo(int turns)
{
	struct fakemx f;
	struct fk_ann a = { .f = &f };
	const struct mxhuman_server srv = { &a, fk_events, fk_say, fk_direct, fk_join };
	struct mxhuman *h = calloc(1, sizeof *h);
	struct e2e_daemon d;
	char bot[128], room[256], conf[512], pw[512], db[512], dir[256], text[2048];
	int rc = -1;
	bool started = false;

	printf("== Matrix, the fake homeserver limiting sends as Synapse does by default (0.2/s, burst 10, per "
	       "user): 1 human + 3 computer players, classic, %d of her turns\n", turns);
	if (h == NULL || fakemx_start(&f) != 0 || e2e_tmpdir(dir, sizeof dir, "bench-pace-mx") != 0) {
		free(h);
		return -1;
	}
	snprintf(pw, sizeof pw, "%s/pw", dir);
	snprintf(db, sizeof db, "%s/hf.db", dir);
	snprintf(conf, sizeof conf, "%s/handfoot.conf", dir);
	fakemx_user(&f, "bot", "s3cret", bot, sizeof bot);
	fakemx_user(&f, "ann", "x", a.tok, sizeof a.tok);
	e2e_secret_note("s3cret");
	snprintf(text, sizeof text, "[bot]\ndatabase = %s\nlog_level = info\n[matrix bench]\nhomeserver = %s\n"
	         "user = bot\npassword_file = %s\n", db, f.base, pw);
	if (e2e_write_file(pw, "s3cret\n") != 0 || e2e_write_file(conf, text) != 0 ||
	    fakemx_room(&f, a.tok, "{\"invite\":[\"@bot:hs\"]}", room, sizeof room) != 0)
		goto out;
	json_decref(fakemx_call(&f, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0.2,\"burst\":10}", NULL));
	if (e2e_daemon_start(&d, "bench-pace-mx", conf, NULL) != 0)
		goto out;
	started = true;
	e2e_sleep_ms(3000);
	h->name = "ann";
	h->room = room;
	if (mxhuman_play(h, &srv, turns) != 0)
		goto out;
	/* what is still queued goes out (nothing lost), then the figures */
	mxhuman_settle(h, &srv, 15000);
	mx_figures(h, "", d.log, (long)requests_of(&f, "sends"), (long)requests_of(&f, "limited"),
	           (long)requests_of(&f, "early"));
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the Matrix game failed (daemon log: %s)\n", started ? d.log : "none");
	if (started) {
		e2e_daemon_signal(&d, SIGTERM);
		e2e_daemon_wait(&d, 10000);
	}
	fakemx_stop(&f);
	free(h);
	return rc;
}

/* The busy tables on Matrix: ann's game as above and bo's table on !auto
 * in another room, through the fake limiting the bot's sends as Synapse
 * does, and cy, a bystander in ann's room, asking !pile after each change
 * the room was told.  Every question answered, her p95 within 5 s, and
 * ann's pace kept. */
static int
matrix_busy(int turns)
{
	struct fakemx f;
	struct fk_cy *cy = calloc(1, sizeof *cy);
	struct fk_ann a = { .f = &f, .cy = cy };
	const struct mxhuman_server srv = { &a, fk_events, fk_say, fk_direct, fk_join };
	struct mxhuman *h = calloc(1, sizeof *h);
	struct e2e_daemon d;
	char bot[128], bo[128], room[256], room2[256], conf[512], pw[512], db[512], dir[256], text[2048];
	int rc = -1;
	bool started = false;

	printf("== Matrix, the fake homeserver limiting sends as Synapse does: ann's game (%d of her turns) and a table "
	       "on !auto in another room, cy asking !pile in ann's room after each change\n", turns);
	if (h == NULL || cy == NULL || fakemx_start(&f) != 0 || e2e_tmpdir(dir, sizeof dir, "bench-pace-mxbusy") != 0) {
		free(h);
		free(cy);
		return -1;
	}
	snprintf(pw, sizeof pw, "%s/pw", dir);
	snprintf(db, sizeof db, "%s/hf.db", dir);
	snprintf(conf, sizeof conf, "%s/handfoot.conf", dir);
	fakemx_user(&f, "bot", "s3cret", bot, sizeof bot);
	fakemx_user(&f, "ann", "x", a.tok, sizeof a.tok);
	fakemx_user(&f, "cy", "x", cy->tok, sizeof cy->tok);
	fakemx_user(&f, "bo", "x", bo, sizeof bo);
	e2e_secret_note("s3cret");
	snprintf(text, sizeof text, "[bot]\ndatabase = %s\nlog_level = info\n[matrix bench]\nhomeserver = %s\n"
	         "user = bot\npassword_file = %s\n", db, f.base, pw);
	if (e2e_write_file(pw, "s3cret\n") != 0 || e2e_write_file(conf, text) != 0 ||
	    fakemx_room(&f, a.tok, "{\"invite\":[\"@bot:hs\",\"@cy:hs\"]}", room, sizeof room) != 0 ||
	    fakemx_room(&f, bo, "{\"invite\":[\"@bot:hs\"]}", room2, sizeof room2) != 0)
		goto out;
	fakemx_room_post(&f, cy->tok, room, "join", "{}");
	json_decref(fakemx_call(&f, "POST", "/_fake/ratelimit", NULL, "{\"per_second\":0.2,\"burst\":10}", NULL));
	if (e2e_daemon_start(&d, "bench-pace-mxbusy", conf, NULL) != 0)
		goto out;
	started = true;
	e2e_sleep_ms(3000);
	if (fakemx_say(&f, bo, room2, "!play 4 classic") != 0)
		goto out;
	e2e_sleep_ms(2000);
	fakemx_say(&f, bo, room2, "!auto");
	cy->f = &f;
	cy->room = room;
	cy->ask = true;
	h->name = "ann";
	h->room = room;
	if (mxhuman_play(h, &srv, turns) != 0)
		goto out;
	cy->ask = false;
	for (int64_t end = now_ms() + 60000; cy->waiting && now_ms() < end;) {
		e2e_sleep_ms(200);
		cy_step(cy);
	}
	printf("  cy asked %d times: %d answered, %d lost; her waits (s):", cy->asked, cy->answer.n, cy->lost);
	for (int i = 0; i < cy->answer.n; i++)
		printf(" %.1f", (double)cy->answer.v[i] / 1000.0);
	printf("\n");
	figure("Matrix: a bystander's questions beside two busy tables, unanswered", (double)(cy->asked - cy->answer.n),
	       "", 0);
	/* 5.5 s, not IRC's 5: the homeserver lets the bot send once in 5 s once
	 * its burst is spent (Synapse's rc_message default), so an answer that
	 * goes with the bot's very next send waits up to 5 s, plus the 0.2 s
	 * this bench polls at and the fake's own time; waiting for the story
	 * would take a send more (10 s) */
	figure("Matrix: her answer, !pile after each change to the pile, p95", pct(&cy->answer, 95), "s", 5.5);
	printf("  (p50 %.1f s, max %.1f s)\n", pct(&cy->answer, 50), pct(&cy->answer, 100));
	{
		struct samples wait = { .n = 0 };

		for (int i = 0; i < h->nwait; i++)
			add(&wait, h->wait[i]);
		figure("Matrix: ann's wait beside them, her discard to her next turn, p50", pct(&wait, 50), "s", 12);
		printf("  (ann's wait p95 %.1f s, max %.1f s, %d turns)\n", pct(&wait, 95), pct(&wait, 100), h->pings - 1);
	}
	rc = cy->asked < 3 ? -1 : 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the Matrix busy tables failed (daemon log: %s)\n", started ? d.log : "none");
	if (started) {
		e2e_daemon_signal(&d, SIGTERM);
		e2e_daemon_wait(&d, 10000);
	}
	fakemx_stop(&f);
	free(h);
	free(cy);
	return rc;
}

/* ------------------------------------------------------------------ Matrix on Synapse */

/* Synapse as ann uses it (matrix-human.h). */
struct sy_ann {
	struct synapse *s;
	struct synapse_user u;
	const struct synapse_user *bot;
};

static json_t *
sy_events(void *ctx, const char *room)
{
	struct sy_ann *a = ctx;

	return mxhuman_bot_messages(synapse_messages(a->s, a->u.token, room), a->bot->id);
}

static int
sy_say(void *ctx, const char *room, const char *text)
{
	struct sy_ann *a = ctx;

	return synapse_say_waiting(a->s, a->u.token, room, text);
}

/* ann's room with the bot, as the bot records it in m.direct (read as the
 * bot: her own /sync without a since token would not do, Synapse answers it
 * from a cache for two minutes). */
static void
sy_direct(void *ctx, char *out, size_t len)
{
	struct sy_ann *a = ctx;
	json_t *d = synapse_account_data(a->s, a->bot, "m.direct");
	const char *r = json_string_value(json_array_get(json_object_get(d, a->u.id), 0));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(d);
}

static void
sy_join(void *ctx, const char *room)
{
	struct sy_ann *a = ctx;

	synapse_room_post(a->s, a->u.token, room, "join", NULL);
}

/* The retry_after_ms of each 429 the daemon met on a send, in order, from its
 * debug log ("send to ROOM: rate limited; every send waits N ms"); how many. */
static int
daemon_waits(const char *log, long *waits, int max)
{
	char *text = e2e_read_file(log), *p;
	const char *needle = ": rate limited; every send waits ";
	int n = 0;

	for (p = text; p != NULL && n < max && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		waits[n++] = atol(p + strlen(needle));
	free(text);
	return n;
}

/* The bot's sends that reached Synapse before the time a 429 named had
 * passed: the 429's answer as Synapse logged it plus the retry_after_ms the
 * daemon was given (a client cannot have it sooner), against each later
 * send's arrival in Synapse's log; -1 if the two logs do not tell the same
 * 429s.  *sends and *limited: what Synapse counted. */
static long
sy_early(struct synapse *s, const char *bot, const char *daemon_log, long *sends, long *limited)
{
	static struct synapse_send sent[4096];
	static long waits[4096];
	int n = synapse_log_sends(s, bot, sent, 4096), nw = daemon_waits(daemon_log, waits, 4096), k = 0;
	int64_t until = 0, closest = -1;
	long early = 0;

	*sends = n;
	*limited = 0;
	for (int i = 0; i < n; i++) {
		early += sent[i].in_ms < until;
		if (i > 0 && sent[i - 1].status == 429 && (closest < 0 || sent[i].in_ms - until < closest))
			closest = sent[i].in_ms - until;
		if (sent[i].status == 429) {
			(*limited)++;
			if (k < nw && sent[i].out_ms + waits[k] > until)
				until = sent[i].out_ms + waits[k];
			k++;
		}
	}
	if (n < 0 || k != nw) {
		fprintf(stderr, "bench-pace: Synapse logged %d 429s of the bot's sends, the daemon %d\n", k, nw);
		return -1;
	}
	printf("  (after a 429, the bot's next send reached Synapse %lld ms after the time it named, at the closest)\n",
	       (long long)closest);
	return early;
}

static int
synapse_solo(int turns)
{
	struct synapse s;
	struct synapse_bot b;
	struct sy_ann a = { .s = &s };
	const struct mxhuman_server srv = { &a, sy_events, sy_say, sy_direct, sy_join };
	struct mxhuman *h = calloc(1, sizeof *h);
	char room[256], body[512];
	long sends, limited, early;
	int rc = -1;
	bool started = false;

	printf("== Matrix on Synapse 1.163.2 at its default rate limits (rc_message 0.2/s after a burst of 10, per "
	       "user): 1 human + 3 computer players, classic, %d of her turns\n", turns);
	if (h == NULL || synapse_start(&s, "bench-pace", NULL) != 0) {
		fprintf(stderr, "bench-pace: %s\n", s.error);
		free(h);
		return -1;
	}
	if (synapse_register(&s, "ann", false, &a.u) != 0 ||
	    synapse_bot_start_defaults(&s, &b, "bench-pace-synapse", "log_level = debug", NULL) != 0)
		goto out;
	started = true;
	a.bot = &b.u;
	snprintf(body, sizeof body, "{\"name\":\"cards\",\"invite\":[\"%s\"]}", b.u.id);
	if (synapse_create_room(&s, a.u.token, body, room, sizeof room) != 0 ||
	    !synapse_wait_membership(&s, a.u.token, room, b.u.id, "join", 30000))
		goto out;
	h->name = a.u.localpart;
	h->room = room;
	if (mxhuman_play(h, &srv, turns) != 0)
		goto out;
	mxhuman_settle(h, &srv, 15000);
	early = sy_early(&s, b.u.id, b.d.log, &sends, &limited);
	mx_figures(h, "Synapse: ", b.d.log, sends, limited, early);
	rc = 0;
out:
	if (rc != 0)
		fprintf(stderr, "bench-pace: the game on Synapse failed (daemon log: %s, Synapse's: %s)\n",
		        started ? b.d.log : "none", s.log);
	if (started)
		synapse_bot_end(&b);
	synapse_stop(&s);
	free(h);
	return rc;
}
#endif

/* ------------------------------------------------------------------ the loop and hard */

/* alice's move at her own turn: her answer when asked, else a draw, else
 * the first card of hers a discard takes; false if none was taken. */
static bool
fold_alice(struct fake *f, struct session *s, int seat)
{
	struct hf_view v;
	uint32_t before = s->nactions;
	char cmd[32];

	if (hf_game_phase(s->g) == HF_PHASE_ASK) {
		fake_say(f, "#g", "alice", "!yes");
		return s->nactions != before;
	}
	if (hf_game_phase(s->g) == HF_PHASE_DRAW) {
		fake_say(f, "#g", "alice", "!draw");
		return s->nactions != before;
	}
	hf_game_view(s->g, seat, &v);
	for (int c = 0; c < HF_NCARD && s->nactions == before; c++) {
		if (v.hand[c] == 0)
			continue;
		snprintf(cmd, sizeof cmd, "!discard %s", hf_card_name(c));
		fake_say(f, "#g", "alice", cmd);
	}
	return s->nactions != before;
}

/* One human and three hard computer players on the bot's own loop (the
 * fake adapter, on the real clock): how long one callback of the loop, a fold
 * of computer turns, holds it, in real time; every other room waits that
 * long. folds: how many callbacks that move to time. */
static int
fold_hard(int folds)
{
	struct fake *f = fake_new(":memory:", "ai_level = hard\n");
	struct samples held = { .n = 0 }, whole = { .n = 0 };
	struct session *s;
	bool machine;
	int timed = 0, moves = 0, seat;
	int64_t fold = 0;               /* the fold under way: its callbacks' time */

	printf("== the loop: 1 human + 3 hard computer players (the bot's loop on the real clock, a fake adapter), "
	       "%d callbacks that move\n", folds);
	loop_set_clock(f->loop, NULL, NULL);   /* the bound on a fold is in real time */
	fake_say(f, "#g", "alice", "!play 4 classic");
	while (timed < folds && (s = fake_session(f, "#g")) != NULL && s->g != NULL) {
		seat = session_waiting(s, &machine);
		if (seat >= 0 && !machine) {
			if (fold > 0)
				add(&whole, fold);
			fold = 0;
			if (!fold_alice(f, s, seat)) {
				fprintf(stderr, "bench-pace: alice found no move\n");
				fake_free(f);
				return -1;
			}
		} else {
			uint32_t before = s->nactions;
			int64_t t0 = now_ms();

			fake_advance(f, 1);
			if ((s = fake_session(f, "#g")) == NULL)
				break;
			if (s->nactions != before) {
				add(&held, now_ms() - t0);
				fold += now_ms() - t0;
				moves += (int)(s->nactions - before);
				timed++;
			}
		}
		if (f->nmsgs > 5000)
			fake_clear(f);
	}
	printf("  %d callbacks that moved (a fold goes on over several), %d computer moves (%.1f a callback)\n", timed, moves,
	       timed > 0 ? (double)moves / timed : 0.0);
	figure("the loop held by one callback of computer moves, max", pct(&held, 100) * 1000, "ms", 100);
	printf("  (p50 %.0f ms, p95 %.0f ms; a whole fold, all its callbacks: p50 %.0f ms, max %.0f ms)\n",
	       pct(&held, 50) * 1000, pct(&held, 95) * 1000, pct(&whole, 50) * 1000, pct(&whole, 100) * 1000);
	fake_free(f);
	return 0;
}

/* ------------------------------------------------------------------ main */

static int
env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v != NULL && atoi(v) > 0 ? atoi(v) : def;
}

int
main(void)
{
	const char *only = getenv("BENCH_PACE");   /* "solo", "busy", "flood", "matrix", "matrix-busy", "synapse",
	                                            * "fold": one scenario */
	int rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!ircserver_available("ngircd")) {
		printf("bench-pace: ngircd is not installed: skipped\n");
		return 0;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if ((only == NULL || strcmp(only, "solo") == 0) && irc_solo(env_int("BENCH_PACE_TURNS", 12)) != 0)
		rc = 1;
	if ((only == NULL || strcmp(only, "busy") == 0) && irc_busy(env_int("BENCH_PACE_SECS", 90)) != 0)
		rc = 1;
	if ((only == NULL || strcmp(only, "flood") == 0) && irc_flood(env_int("BENCH_PACE_FLOOD_SECS", 90)) != 0)
		rc = 1;
#ifdef HF_WITH_MATRIX
	if ((only == NULL || strcmp(only, "matrix") == 0) && matrix_solo(env_int("BENCH_PACE_MX_TURNS", 8)) != 0)
		rc = 1;
	if ((only == NULL || strcmp(only, "matrix-busy") == 0) && matrix_busy(env_int("BENCH_PACE_MX_TURNS", 8)) != 0)
		rc = 1;
	if ((only == NULL || strcmp(only, "synapse") == 0) && synapse_solo(env_int("BENCH_PACE_MX_TURNS", 8)) != 0)
		rc = 1;
#endif
	if ((only == NULL || strcmp(only, "fold") == 0) && fold_hard(env_int("BENCH_PACE_FOLDS", 40)) != 0)
		rc = 1;
	printf("bench-pace: %d figure%s off target\n", failures, failures == 1 ? "" : "s");
	return rc;
}
