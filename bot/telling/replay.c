/* replay.c: a finished game told again step by step for its replay page: its stored moves played through the engine (as rate.c does), after each the view the room could see then; and a room's finished games, for its page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telling.h"
#include "style.h"

/* The games a room's page lists, at most. */
#define REPLAY_ROOM_MAX 50

struct replay {
	struct session *s;         /* the table as a page draws it: the game, its seats' names, one step's story */
	struct rbuf *json;
	const char *prefix;
	uint32_t seq;
	bool failed;
};

/* One frame: the spectator's view of the game now, its story the lines this step told. */
static void
replay_frame(struct replay *r)
{
	const char *names[HF_MAX_SEATS];
	const struct hf_event *ev;
	struct hf_view v;
	struct rbuf styled = { 0 }, plain = { 0 };
	size_t n;
	const char *p, *nl;

	session_names(r->s, names);
	ev = hf_game_events(r->s->g, &n);
	hf_game_view(r->s->g, -1, &v);
	render_events(&styled, &v, ev, n, names);
	style_plain(&plain, styled.s != NULL ? styled.s : "", styled.len, r->prefix);
	rbuf_reset(&r->s->story.lines);
	r->s->story.n = 0;
	r->s->story.round = hf_game_round(r->s->g);
	for (p = plain.s != NULL ? plain.s : ""; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl == p)
			continue;
		rbuf_addn(&r->s->story.lines, p, (size_t)(nl - p));
		rbuf_add(&r->s->story.lines, "\n");
		r->s->story.n++;
	}
	if (r->seq > 0)
		rbuf_add(r->json, ",");
	view_json(r->json, r->s, -1);
	rbuf_free(&styled);
	rbuf_free(&plain);
}

static int
replay_move(void *ctx, uint32_t seq, int seat, const char *text)
{
	struct replay *r = ctx;
	struct hf_action a;
	char why[HF_ERRLEN];

	if (seq != r->seq + 1 || hf_action_parse(&a, text, why, sizeof why) != HF_OK ||
	    hf_apply(r->s->g, seat, &a, why, sizeof why) != HF_OK) {
		r->failed = true;
		return -1;
	}
	r->seq = seq;
	replay_frame(r);
	return 0;
}

int
replay_json(struct store *st, int64_t table, const char *prefix, struct rbuf *json, struct store_replayed *rp,
            char *why, size_t whylen)
{
	struct replay r = { .json = json, .prefix = prefix };
	char err[HF_ERRLEN];
	size_t start = json->len;
	int i, rc = -1;

	if (st == NULL || store_replay_game(st, table, rp) < 0) {
		snprintf(why, whylen, "no game played to its end is kept as %lld", (long long)table);
		return -1;
	}
	r.s = xcalloc(1, sizeof *r.s);
	r.s->id = rp->g.id;
	r.s->nseats = rp->g.nseats;
	r.s->nsides = rp->g.nsides;
	for (i = 0; i < rp->g.nseats; i++) {
		snprintf(r.s->seats[i].name, sizeof r.s->seats[i].name, "%s", rp->g.seats[i].name);
		r.s->seats[i].ai = (int8_t)rp->g.seats[i].ai;
	}
	if (hf_rules_parse(&r.s->rules, rp->g.rules, err, sizeof err) != HF_OK ||
	    hf_game_new(&r.s->g, &r.s->rules, rp->g.nseats, rp->g.nsides, rp->g.seed, err, sizeof err) != HF_OK) {
		snprintf(why, whylen, "game %lld cannot be dealt again: %s", (long long)table, err);
		goto out;
	}
	rbuf_printf(json, "{\"table\":%lld,\"frames\":[", (long long)table);
	replay_frame(&r);
	if (store_finished_moves(st, table, replay_move, &r) < 0 || r.failed ||
	    hf_game_phase(r.s->g) != HF_PHASE_OVER) {
		snprintf(why, whylen, "game %lld does not replay to its end (move %u)", (long long)table, r.seq + 1);
		goto out;
	}
	rbuf_printf(json, "],\"moves\":%u}", r.seq);
	rc = 0;
out:
	if (rc < 0) {
		json->len = start;
		if (json->s != NULL)
			json->s[start] = '\0';
	}
	hf_game_free(r.s->g);
	rbuf_free(&r.s->story.lines);
	free(r.s);
	return rc;
}

/* ------------------------------------------------------------------ the adapter API */

/* The command prefix of the adapter a game was played on, to write commands as its room read them. */
static const char *
replay_prefix(struct bot *b, const char *adapter_id)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++)
		if (strcmp(b->adapters[i]->ad.id, adapter_id) == 0 && b->adapters[i]->prefix[0] != '\0')
			return b->adapters[i]->prefix;
	return "!";
}

int
adapter_replay(struct adapter *a, int64_t table, struct rbuf *json, char *adapter_id, size_t idlen, char *room,
               size_t roomlen)
{
	struct bot *b = a->host;
	struct store_replayed *rp = xcalloc(1, sizeof *rp);
	char why[160];
	int rc;

	if (store_replay_game(b->store, table, rp) < 0)
		rc = -1;
	else
		rc = replay_json(b->store, table, replay_prefix(b, rp->g.adapter), json, rp, why, sizeof why);
	if (rc < 0 && rp->g.id != 0)
		log_msg(LOG_LVL_NOTICE, "replay: %s", why);
	if (rc == 0) {
		snprintf(adapter_id, idlen, "%s", rp->g.adapter);
		snprintf(room, roomlen, "%s", rp->room);
	}
	free(rp);
	return rc;
}

struct room_list {
	void (*fn)(void *ctx, const struct adapter_game *g);
	void *ctx;
};

static void
replay_listed(void *ctx, const struct store_replayed *r)
{
	struct room_list *l = ctx;
	struct adapter_game g;
	const struct store_finished *f = &r->g;
	int i, best = -1;
	bool tie = false;

	memset(&g, 0, sizeof g);
	g.table = f->id;
	g.created = r->created;
	g.ended = r->ended;
	g.rules = f->rules;
	g.nseats = f->nseats;
	g.nsides = f->nsides;
	for (i = 0; i < f->nseats && i < ADAPTER_MAX_SEATS; i++) {
		g.names[i] = f->seats[i].name;
		g.computer[i] = f->seats[i].ai >= 0;
		g.side[i] = hf_seat_side(i, f->nsides);
	}
	g.scored = f->scored;
	/* the winner as the game's end says it: the highest total, a tie if shared */
	for (i = 0; f->scored && i < f->nsides && i < ADAPTER_MAX_SEATS; i++) {
		g.scores[i] = f->points[i];
		if (best < 0 || f->points[i] > f->points[best]) {
			best = i;
			tie = false;
		} else if (f->points[i] == f->points[best])
			tie = true;
	}
	g.winner = !f->scored ? -2 : tie ? -1 : best;
	l->fn(l->ctx, &g);
}

int
adapter_room_games(struct adapter *a, const char *adapter_id, const char *room, int max,
                   void (*fn)(void *ctx, const struct adapter_game *g), void *ctx)
{
	struct bot *b = a->host;
	struct room_list l = { .fn = fn, .ctx = ctx };

	if (b->store == NULL || max <= 0)
		return 0;
	return store_room_games(b->store, adapter_id, room, max < REPLAY_ROOM_MAX ? max : REPLAY_ROOM_MAX,
	                        replay_listed, &l);
}

int64_t
adapter_wall_s(struct adapter *a)
{
	return bot_wall_ms(a->host) / 1000;
}
