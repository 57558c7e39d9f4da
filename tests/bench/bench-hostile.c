/* bench-hostile.c: the hostile soak of issue 24: one daemon on ngircd and the fake Discord beside three live games; nick churn, private floods, ids colliding under the old flood hash, channel flooders, a seatless member's interaction floods and oversized gateway dispatches; RSS and open files, every seated player answered, every hand with its owner alone. */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcplay.h"
#include "e2e.h"
#include "fakedc.h"
#include "figures.h"
#include "ircserver.h"
#include "soak.h"

#define FLOODERS   20
#define PLAYERS    3      /* alice and bob at a duel in #cards; carol beside the computer in #two */
#define OPEN_FILES 96     /* its open files: its own ~20 and the 64 HTTP connections a host may have */
/* The Discord side, on the fake: ann and bob at a live game, cy (no seat)
 * flooding interactions, the gateway sending oversized dispatches. */
#define DC_ASK_MS    3000    /* a seated Discord player asks something this often */
#define DC_POLL_MS   1000    /* the fake asked for acknowledgements this often */
#define DC_FLOOD_MS  5000    /* cy's burst of interactions this often ... */
#define DC_FLOOD_N   100     /* ... of this many /who at once */
#define DC_FRAME_MS  30000   /* oversized dispatches this often ... */
#define DC_FRAME_MIB 15      /* ... of this size ... */
#define DC_FRAMES    4       /* ... this many at once (60 MiB, past the 32 MiB thread-to-loop cap) */
#define DC_RSS_MIB   300     /* with them, the daemon's resident set at most (docs/RESOURCES.md) */

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

struct dcside {
	struct dcplay p;
	char pending[2][32];     /* a seated player's interaction waiting for its acknowledgement */
	int64_t sent_at[2];
	int64_t last_ask, last_poll, next_flood, next_frame;
	unsigned k;
	int asked, answered, unanswered, flooded, frames;
	double max_ack;          /* the slowest acknowledgement, ms */
};

/* The fake's acknowledgements of the pending interactions; those waited
 * for past SOAK_ANSWER_MS are counted unanswered. */
static void
dc_poll(struct dcside *dc, int64_t t)
{
	json_t *st = NULL, *its;

	for (int i = 0; i < 2; i++) {
		json_t *ack;

		if (dc->pending[i][0] == '\0')
			continue;
		if (st == NULL)
			st = dcplay_state(&dc->p);
		its = json_object_get(st, "interactions");
		ack = json_object_get(json_object_get(its, dc->pending[i]), "ack");
		if (json_is_object(ack)) {
			double ms = json_number_value(json_object_get(ack, "ms"));

			dc->answered++;
			if (ms > dc->max_ack)
				dc->max_ack = ms;
			dc->pending[i][0] = '\0';
		} else if (t - dc->sent_at[i] > SOAK_ANSWER_MS) {
			dc->unanswered++;
			fprintf(stderr, "bench-hostile: %s's Discord command got no answer in %d s\n", dc->p.name[i],
			        SOAK_ANSWER_MS / 1000);
			dc->pending[i][0] = '\0';
		}
	}
	json_decref(st);
}

/* The Discord side's turn: the seated players ask, cy floods, the gateway
 * sends what no client needs. */
static void
dc_tick(struct soak *s, bool flood, void *ctx)
{
	struct dcside *dc = ctx;
	int64_t t = soak_now_ms();
	int i = (int)(dc->k % 2);

	if (!s->hush && t - dc->last_ask >= DC_ASK_MS && dc->pending[i][0] == '\0') {
		const char *id = dcplay_command(&dc->p, i, dc->k % 3 == 2 ? "who" : "hand", NULL);

		dc->asked++;
		if (id == NULL) {
			dc->unanswered++;   /* (the fake refused it: printed) */
		} else {
			snprintf(dc->pending[i], sizeof dc->pending[i], "%s", id);
			dc->sent_at[i] = t;
		}
		dc->last_ask = t;
		dc->k++;
	}
	if (t - dc->last_poll >= DC_POLL_MS) {
		dc_poll(dc, t);
		dc->last_poll = t;
	}
	if (flood && t >= dc->next_flood) {
		char body[512];
		long st = 0;

		snprintf(body, sizeof body, "{\"kind\":\"command\",\"user_id\":\"%s\",\"guild_id\":\"%s\","
		         "\"channel_id\":\"%s\",\"name\":\"who\",\"options\":{},\"repeat\":%d}", dc->p.user[2],
		         dc->p.guild, dc->p.channel, DC_FLOOD_N);
		json_decref(fakedc_call(&dc->p.f, "POST", "/_fake/interaction", NULL, body, &st));
		dc->flooded += st == 200 ? DC_FLOOD_N : 0;
		dc->next_flood = t + DC_FLOOD_MS;
	}
	if (flood && t >= dc->next_frame) {
		if (fakedc_ctl(&dc->p.f, "gateway", "{\"action\":\"flood\",\"size\":%d,\"count\":%d}",
		               DC_FRAME_MIB << 20, DC_FRAMES) == 0)
			dc->frames += DC_FRAMES;
		dc->next_frame = t + DC_FRAME_MS;
	}
}

static bool
dc_waiting(const struct dcside *dc)
{
	return dc->pending[0][0] != '\0' || dc->pending[1][0] != '\0';
}

/* Hands the fake carried to anyone but their owner: in the channel for all
 * to see (dcplay_audit), or answering cy, who holds no seat. */
static int
dc_leaks(struct dcside *dc)
{
	json_t *st = dcplay_state(&dc->p), *its = json_object_get(st, "interactions"), *m;
	int bad = dcplay_audit(&dc->p);
	size_t i;

	json_array_foreach(json_object_get(st, "messages"), i, m) {
		const char *c = json_string_value(json_object_get(m, "content"));
		const char *ia = json_string_value(json_object_get(m, "interaction"));
		const char *uid = ia != NULL ? json_string_value(json_object_get(json_object_get(its, ia), "user_id")) : NULL;

		if (c != NULL && (strstr(c, "Your hand") != NULL || strstr(c, "Your foot") != NULL) && uid != NULL &&
		    strcmp(uid, dc->p.user[2]) == 0) {
			fprintf(stderr, "bench-hostile: a hand answered cy, who holds no seat: %s\n", c);
			bad++;
		}
	}
	json_decref(st);
	return bad;
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
	static struct dcside dc;
	json_t *turn;
	int who = -1, dc_bad;
	struct ircserver srv;
	char text[1024], nick[32];
	int flood_s = soak_seconds(600), rc = 1;
	struct soak_peer *p;

	if (!ircserver_available("ngircd")) {
		printf("bench-hostile: ngircd missing: skipped\n");
		return 0;
	}
	if (ircserver_init(&srv, "ngircd") != 0 || ircserver_start(&srv) != 0) {
		fprintf(stderr, "bench-hostile: ngircd does not start\n");
		return 1;
	}
	/* one daemon on both: the IRC network, and the fake Discord (dcplay's
	 * [bot] and [discord] sections; the [irc] one after them).  The bot's
	 * flood control and caps are the shipped defaults. */
	snprintf(text, sizeof text,
	         "[irc soak]\nserver = 127.0.0.1\nport = %d\ntls = no\nchannels = #cards, #two\n", srv.port);
	if (dcplay_setup(&dc.p, "bench-hostile", 3, getenv("FLOOD_TRACE") != NULL ? "log_level = debug\n" : NULL,
	                 text) != 0) {
		fprintf(stderr, "bench-hostile: the fake Discord does not start\n");
		goto out;
	}

	/* the players, their table, the deal */
	colliding_find();
	for (int i = 0; i < PLAYERS; i++)
		if (soak_add(&s, srv.port, names[i], i < 2 ? "#cards" : "#two", true) == NULL)
			goto out;
	if (dcplay_start(&dc.p) != 0 ||
	    ircclient_wait(&s.peers[0].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL) != 0 ||
	    ircclient_wait(&s.peers[2].c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#two", NULL) != 0)
		goto out;
	/* the second live game: carol beside the computer */
	ircclient_send(&s.peers[2].c, "PRIVMSG #two :!play 2 duel");
	if (ircclient_wait(&s.peers[2].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
		goto out;
	soak_dealt(&s.peers[2]);
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!new duel");
	if (ircclient_wait(&s.peers[0].c, 20000, NULL, 0, "PRIVMSG #cards :", "opens a duel table", NULL) != 0)
		goto out;
	ircclient_send(&s.peers[1].c, "PRIVMSG #cards :!join");
	if (ircclient_wait(&s.peers[1].c, 20000, NULL, 0, "PRIVMSG #cards :", "bob sits down", NULL) != 0)
		goto out;
	ircclient_send(&s.peers[0].c, "PRIVMSG #cards :!start");
	for (int i = 0; i < 2; i++) {
		if (ircclient_wait(&s.peers[i].c, 30000, NULL, 0, "NOTICE", "Your hand", NULL) != 0)
			goto out;
		soak_dealt(&s.peers[i]);
	}
	/* the third live game, on Discord: ann and bob; cy, a member with no
	 * seat, will flood */
	dc.p.nusers = 2;
	if ((turn = dcplay_deal(&dc.p, "duel", &who)) == NULL) {
		fprintf(stderr, "bench-hostile: no game on Discord (log: %s)\n", dc.p.d.log);
		goto out;
	}
	json_decref(turn);
	dc.p.nusers = 3;
	s.tick = dc_tick;
	s.ctx = &dc;
	/* the flooders come in, half in each room, and the churner in none */
	for (int i = 0; i < FLOODERS; i++) {
		snprintf(nick, sizeof nick, "flood%02d", i);
		if (soak_add(&s, srv.port, nick, i % 2 ? "#two" : "#cards", false) == NULL)
			goto out;
	}
	p = &s.peers[s.n];
	if (ircclient_connect_from(&p->c, srv.port, "churn", "127.0.0.9") != 0) {
		fprintf(stderr, "bench-hostile: the churner cannot connect\n");
		goto out;
	}
	s.n++;
	soak_run(&s, dc.p.d.pid, flood_s);
	/* what the Discord players asked last is waited for too */
	for (int64_t t0 = soak_now_ms(); dc_waiting(&dc) && soak_now_ms() - t0 < SOAK_ANSWER_MS + 5000;) {
		soak_turn(&s, false);
		e2e_sleep_ms(50);
	}
	s.after = probe(dc.p.d.pid);
	peak(&s.most, s.after);
	if (!e2e_daemon_alive(&dc.p.d)) {
		fprintf(stderr, "bench-hostile: the daemon died (log: %s)\n", dc.p.d.log);
		goto out;
	}
	dc_bad = dc_leaks(&dc);

	printf("Hostile soak on the real daemon through ngircd and the fake Discord (the bot's shipped flood\n"
	       "defaults; server penalties off), three live games (two on IRC, one on Discord):\n");
	printf("  %d flooders for %d s, each a command in its room every 0.5-0.7 s and one to the bot every other time;\n"
	       "  one churner: a new nick every 0.1 s with a private question or notice, and %d nicks sharing the\n"
	       "  players' flood sets under the old hash\n", FLOODERS, flood_s, ncolliding);
	printf("  Discord: cy (no seat) sent %d /who in bursts of %d every %d s; the gateway sent %d dispatches of\n"
	       "  %d MiB (%d at once every %d s); the link closed %d times\n", dc.flooded, DC_FLOOD_N,
	       DC_FLOOD_MS / 1000, dc.frames, DC_FRAME_MIB, DC_FRAMES, DC_FRAME_MS / 1000,
	       soak_count_log(dc.p.d.log, "link closed"));
	printf("  Discord players' commands: %d asked, %d answered, %d unanswered in %d s; slowest ack %.0f ms\n",
	       dc.asked, dc.answered, dc.unanswered, SOAK_ANSWER_MS / 1000, dc.max_ack);
	rc = soak_report(&s, dc.p.d.log, DC_RSS_MIB, OPEN_FILES);
	rc |= !figure_add("bench-hostile", "soak: Discord hands seen by anyone but their owner", dc_bad, "",
	                  FIGURE_AT_MOST, 0);
	rc |= !figure_add("bench-hostile", "soak: Discord players' commands unanswered", dc.unanswered, "",
	                  FIGURE_AT_MOST, 0);
	rc |= !figure_add("bench-hostile", "soak: Discord players' commands answered", dc.answered, "",
	                  FIGURE_AT_LEAST, dc.asked);
	rc |= !figure_add("bench-hostile", "soak: oversized gateway dispatches sent", dc.frames, "", FIGURE_AT_LEAST, 1);
	fflush(stdout);
	if (rc != 0)
		fprintf(stderr, "bench-hostile: a check failed (daemon log: %s)\n", dc.p.d.log);
out:
	dcplay_teardown(&dc.p);
	soak_close(&s);
	ircserver_free(&srv);
	return rc;
}
