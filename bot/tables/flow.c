/* flow.c: the flow of a game: moves through the engine, committed then told (tell.c); the deal; turn timers; computer seats, a fold of turns at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "loop.h"

enum { TIMER_NONE, TIMER_EXPIRE, TIMER_AI, TIMER_FOLD, TIMER_REMIND, TIMER_TAKEOVER };

/* How often a computer seat looks again whether the room has been told the last move. */
#define FLOW_PACE_MS 250
/* The most moves the computer makes in one go (a fold of turns is a few dozen). */
#define FLOW_AI_MOVES 400
/* The longest one part of a fold holds the loop: hard searches 10-50 ms a
 * decision, so a fold of three hard turns held every other room 100-200 ms;
 * past this the fold goes on at the loop's next turn, after what waits. */
#define FLOW_FOLD_MS 30

static int64_t flow_timer(struct loop *l, long long id, void *data);

void
flow_cancel(struct bot *b, struct session *s)
{
	if (s->timer != 0)
		loop_timer_del(b->loop, s->timer);
	s->timer = 0;
	s->timer_kind = TIMER_NONE;
}

static void
flow_arm(struct bot *b, struct session *s, int kind, int64_t at)
{
	int64_t ms = at - loop_now(b->loop);

	s->timer = loop_timer_add(b->loop, ms < 0 ? 0 : ms, flow_timer, s);
	s->timer_kind = kind;
}

void
flow_schedule(struct bot *b, struct session *s)
{
	const struct bot_config *c = b->cfg;
	int64_t now = loop_now(b->loop);
	bool machine;
	int w;

	flow_cancel(b, s);
	if (b->stopping)
		return;   /* the next start arms the clocks again, from the store */
	if (s->state == SESS_OPEN) {
		if (c->table_expiry > 0)
			flow_arm(b, s, TIMER_EXPIRE, s->created + (int64_t)c->table_expiry * 1000);
		return;
	}
	if (s->state != SESS_PLAYING || (w = session_waiting(s, &machine)) < 0)
		return;
	if (w != s->wait_seat) {
		s->wait_seat = (int8_t)w;
		s->turn_since = now;
		s->reminded = false;
		s->caught_up = false;
		/* a person's clock is kept: a restart does not start it again */
		if (!machine)
			store_wait_set(b->store, s->id, w, bot_wall_ms(b), false);
	}
	if (machine)
		flow_arm(b, s, TIMER_AI, now + c->ai_delay_ms);
	else if (!s->reminded && clock_remind_ms(b, s) > 0)
		flow_arm(b, s, TIMER_REMIND, s->turn_since + clock_remind_ms(b, s));
	else if (clock_takeover_ms(b, s) > 0)
		flow_arm(b, s, TIMER_TAKEOVER, s->turn_since + clock_takeover_ms(b, s));
}

void
flow_away(struct bot *b, struct session *s, int seat, bool away)
{
	s->seats[seat].away = away;
	s->view_dirty = true;
	store_away_set(b->store, s->id, seat, away);
}

void
flow_back(struct bot *b, struct session *s, int seat)
{
	flow_away(b, s, seat, false);
	s->wait_seat = -1;       /* a fresh wait: reminders start over */
	reply_table(b, s, ST_PLAYER "%s" ST_END " is back.", s->seats[seat].name);
	flow_schedule(b, s);
}

void
flow_catch_up(struct bot *b, struct session *s, int seat)
{
	struct seat *st = &s->seats[seat];
	const char *names[HF_MAX_SEATS];
	struct rbuf out = { 0 };
	struct hf_view v;

	if (s->g == NULL || st->ai >= 0)
		return;
	session_names(s, names);
	hf_game_view(s->g, seat, &v);
	rbuf_printf(&out, "Welcome back, %s. ", st->name);
	render_table(&out, &v, names);
	rbuf_add(&out, ST_BR);
	render_hand(&out, &v);
	reply_answer_queue(b, s->ad, MSG_PRIVATE, s->room, st->user_id, out.s, "hand", st->private_as);
	b->replies.v[b->replies.n - 1].player = true;
	st->hand_told = reply_hand_hash(&v);
	s->caught_up = true;
	rbuf_free(&out);
}

/* Rates the finished game, and keeps its final scores (rate.c). */
static void
flow_rate(struct bot *b, struct session *s)
{
	struct rate_seat p[HF_MAX_SEATS];
	long long points[HF_MAX_SEATS];
	int i;

	for (i = 0; i < s->nseats; i++)
		p[i] = (struct rate_seat){ .user_id = s->seats[i].user_id, .name = s->seats[i].name,
		                           .ai = s->seats[i].ai, .side = hf_game_side_of(s->g, i) };
	for (i = 0; i < s->nsides; i++)
		points[i] = hf_game_score(s->g, i);
	store_game_scores(b->store, s->id, s->nsides, points);
	rate_game(b->store, s->ad->id, s->rules.name, p, s->nseats, s->nsides, points);
}

static void
flow_over(struct bot *b, struct session *s)
{
	int winner = hf_game_winner(s->g), i;

	if (store_begin(b->store) == 0) {
		store_game_state(b->store, s->id, "over", s->nseats, s->nsides, s->seed);
		store_game_ended(b->store, s->id, bot_wall_ms(b) / 1000);
		for (i = 0; i < s->nseats; i++)
			if (s->seats[i].ai < 0)
				store_stats_add(b->store, s->ad->id, s->seats[i].user_id, s->seats[i].name,
				                winner >= 0 && hf_game_side_of(s->g, i) == winner,
				                hf_game_score(s->g, hf_game_side_of(s->g, i)));
		flow_rate(b, s);
		if (store_commit(b->store) < 0)
			store_rollback(b->store);
	}
	log_msg(LOG_LVL_INFO, "%s %s: game %lld over", s->ad->id, s->room, (long long)s->id);
	bot_session_end(b, s);
}

int
flow_apply(struct bot *b, struct session *s, int seat, const struct hf_action *a, char *why, size_t whylen)
{
	char text[512];

	/* the game as it was, in case the store refuses the move */
	if (b->undo == NULL && (b->undo = hf_game_clone(s->g)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	hf_game_copy(b->undo, s->g);
	tell_keep(b, s);   /* a person's move, or the computer's: the lines before it were sent? */
	if (hf_apply(s->g, seat, a, why, whylen) != HF_OK)
		return -1;
	hf_action_format(a, text, sizeof text);
	/* Committed before anyone hears of it: a crash can lose nothing that was told. */
	if (store_action_add(b->store, s->id, s->nactions + 1, seat, text) < 0) {
		hf_game_copy(s->g, b->undo);
		snprintf(why, whylen, "the move could not be saved; try again");
		return -1;
	}
	s->nactions++;
	log_msg(LOG_LVL_DEBUG, "%s %s: game %lld #%u seat %d: %s", s->ad->id, s->room, (long long)s->id,
	        s->nactions, seat, text);
	tell_action(b, s, seat, a, b->undo);
	if (hf_game_phase(s->g) == HF_PHASE_OVER) {
		flow_over(b, s);
		return 1;
	}
	flow_schedule(b, s);
	return 0;
}

/* Seats in the order the engine wants (the side a seat plays for is the
 * engine's hf_seat_side): each seat goes to the first free place whose side
 * is its team (table_teams).  Teams of the wrong sizes leave the order as it is. */
static void
flow_arrange(struct session *s, const int team[HF_MAX_SEATS], int nsides)
{
	struct seat out[HF_MAX_SEATS];
	bool used[HF_MAX_SEATS] = { false };
	int i, p, n = s->nseats;

	for (i = 0; i < n; i++) {
		for (p = 0; p < n && (used[p] || hf_seat_side(p, nsides) != team[i]); p++)
			;
		if (p == n)
			return;
		used[p] = true;
		out[p] = s->seats[i];
		out[p].team = (int8_t)team[i];
	}
	memcpy(s->seats, out, (size_t)n * sizeof out[0]);
}

int
flow_save_seats(struct bot *b, struct session *s)
{
	struct store_seat st[HF_MAX_SEATS];
	int i;

	for (i = 0; i < s->nseats; i++) {
		st[i].seat = i;
		st[i].user_id = s->seats[i].user_id;
		st[i].name = s->seats[i].name;
		st[i].ai = s->seats[i].ai;
		st[i].team = s->seats[i].team;
	}
	return store_seats_set(b->store, s->id, st, s->nseats);
}

/* Where an adapter draws tables: the table's page on the deal's line, and
 * each person's own page to them alone (a seat's link never goes to a room). */
static void
flow_links(struct bot *b, struct session *s, struct rbuf *deal)
{
	char url[512], line[640];
	int i;

	if (view_link(b, s, -1, false, url, sizeof url) < 0)
		return;
	rbuf_printf(deal, " Watch: %s", url);
	for (i = 0; i < s->nseats; i++) {
		if (s->seats[i].ai >= 0 || view_link(b, s, i, true, url, sizeof url) < 0)
			continue;
		snprintf(line, sizeof line, "Your cards on a page you can play from (keep the link to yourself): %s", url);
		reply_seat(b, s, i, line);
	}
}

int
flow_start(struct bot *b, struct session *s, char *why, size_t whylen)
{
	struct hf_game *g;
	const char *names[HF_MAX_SEATS];
	struct hf_view v;
	struct rbuf out = { 0 };
	int nsides, i, team[HF_MAX_SEATS];

	if (s->nseats < 2 || s->nseats > HF_MAX_SEATS) {
		snprintf(why, whylen, "%s is not played by %d players.", s->rules.name, s->nseats);
		return -1;
	}
	if ((nsides = table_teams(s, team, true, why, whylen)) < 0 ||
	    hf_rules_check_table(&s->rules, s->nseats, nsides, why, whylen) != HF_OK)
		return -1;
	s->nsides = nsides;
	s->seed = bot_new_seed(b);
	if (hf_game_new(&g, &s->rules, s->nseats, nsides, s->seed, why, whylen) != HF_OK)
		return -1;
	flow_arrange(s, team, nsides);
	if (store_begin(b->store) < 0)
		goto fail;
	if (flow_save_seats(b, s) < 0 || store_game_state(b->store, s->id, "playing", s->nseats, nsides, s->seed) < 0) {
		store_rollback(b->store);
		goto fail;
	}
	if (store_commit(b->store) < 0)
		goto fail;
	s->g = g;
	s->state = SESS_PLAYING;
	s->ai_rng = s->seed ^ 0x5eedu;
	s->wait_seat = -1;
	session_names(s, names);
	hf_game_view(g, -1, &v);
	rbuf_printf(&out, "Dealing %s for %d: ", s->rules.name, s->nseats);
	for (i = 0; i < nsides; i++) {
		if (i > 0)
			rbuf_add(&out, " vs ");
		render_side_name(&out, &v, i, names);
	}
	rbuf_add(&out, ".");
	flow_links(b, s, &out);
	tell_heading(s, out.s);
	rbuf_free(&out);
	s->tell.told_seq = s->tell.told_kept = -1;   /* nothing told yet: the deal's lines, once sent, keep "told 0" */
	tell_action(b, s, -1, NULL, NULL);
	flow_schedule(b, s);
	return 0;
fail:
	hf_game_free(g);
	snprintf(why, whylen, "the table could not be saved; try again");
	return -1;
}

/* One move of the computer for seat: 0, 1 if the game ended (s is gone), -1 if none could be made. */
static int
flow_ai_move(struct bot *b, struct session *s, int seat)
{
	struct hf_action a;
	struct hf_view v;
	char why[HF_ERRLEN], text[256];
	int level = s->seats[seat].ai >= 0 ? s->seats[seat].ai : b->cfg->ai_level, rc;

	hf_game_view(s->g, seat, &v);
	memset(&a, 0, sizeof a);
	hf_ai_decide(&v, level, (uint32_t)b->cfg->ai_budget, &s->ai_rng, &a);
	if ((rc = flow_apply(b, s, seat, &a, why, sizeof why)) >= 0)
		return rc;
	/* The engine's rulebook checks every plan the computer makes (engine/legal.c),
	 * so this is a bug, never a position: it is logged, the room hears it, and a
	 * human can take the seat back. Only the kind of move is logged: its cards,
	 * and why they were refused, tell what the seat holds, which may be an idle
	 * human's hand. */
	hf_action_format(&a, text, sizeof text);
	text[strcspn(text, " ")] = '\0';
	log_msg(LOG_LVL_ERR, "%s %s: game %lld: the computer's %s for seat %d was refused; the table waits",
	        s->ad->id, s->room, (long long)s->id, text, seat);
	reply_table(b, s, "The computer found no legal move for " ST_PLAYER "%s" ST_END "; the table waits "
	            "(their player can move, or the owner can " CMD("abort") ").", s->seats[seat].name);
	flow_cancel(b, s);
	return -1;
}

/* The computer plays every seat it holds, turn after turn, until a person
 * must act or the room is told (tell.c: a table of computers is told once
 * it has gone round, and at a round's end); then the next fold waits
 * ai_delay and the room's lines.  Play-by-play: one move a time.  A fold
 * that has held the loop FLOW_FOLD_MS goes on at its next turn: what is
 * held stays held, so the room still hears it once. */
static void
flow_ai(struct bot *b, struct session *s)
{
	unsigned told = s->tell.told;
	int64_t t0 = loop_now(b->loop);
	bool machine, away = false;
	int moves, seat, turn = hf_game_turn(s->g), i;

	/* a person the computer plays for may take the seat back: the
	 * computer then plays a turn every ai_delay, not a fold at once */
	for (i = 0; i < s->nseats; i++)
		away = away || (s->seats[i].ai < 0 && s->seats[i].away);

	for (moves = 0; moves < FLOW_AI_MOVES; moves++) {
		if ((seat = session_waiting(s, &machine)) < 0 || !machine)
			return;
		if (moves > 0 && loop_now(b->loop) - t0 >= FLOW_FOLD_MS) {
			flow_cancel(b, s);
			flow_arm(b, s, TIMER_FOLD, loop_now(b->loop));
			return;
		}
		if (flow_ai_move(b, s, seat) != 0)
			return;   /* the game ended (s is gone), or no move could be made */
		if (tell_moves(s) || s->tell.told != told)
			return;
		if (away && hf_game_turn(s->g) != turn) {
			/* where nothing limits lines (the console) each turn is told as
			 * it is played: the person sees where it stands */
			if (s->ad->ops->pending == NULL)
				tell_flush(b, s, false);
			return;
		}
	}
}

static int64_t
flow_timer(struct loop *l, long long id, void *data)
{
	struct session *s = data;
	struct bot *b = s->ad->host;
	int kind = s->timer_kind, w;

	(void)l;
	(void)id;
	s->timer = 0;
	s->timer_kind = TIMER_NONE;
	switch (kind) {
	case TIMER_EXPIRE:
		reply_table(b, s, "The table nobody started has been cleared.");
		store_game_state(b->store, s->id, "expired", s->nseats, s->nsides, s->seed);
		bot_session_end(b, s);
		break;
	case TIMER_AI:
		if (b->stopping)
			break;   /* stopping: the move is the next start's */
		/* A game the computer plays alone makes lines faster than a paced
		 * chat link carries them; the adapter's capped queue would drop them,
		 * "Game over" included. The computer waits for the room instead. */
		if (s->ad->ops->pending != NULL && s->ad->ops->pending(s->ad, s->room, PENDING_GAME) > 0) {
			flow_arm(b, s, TIMER_AI, loop_now(b->loop) + FLOW_PACE_MS);
			break;
		}
		flow_ai(b, s);
		break;
	case TIMER_FOLD:
		/* the rest of a fold begun: its lines are still held, not queued */
		if (!b->stopping)
			flow_ai(b, s);
		break;
	case TIMER_REMIND:
		w = s->wait_seat;
		s->reminded = true;
		if (w >= 0)
			store_wait_set(b->store, s->id, w, bot_wall_ms(b) - (loop_now(b->loop) - s->turn_since), true);
		if (w >= 0) {
			char line[160];
			size_t nactions;
			const char *const *actions = tell_actions(s, &nactions);

			snprintf(line, sizeof line, ST_PLAYER "%s" ST_END ": reminder, the table is waiting for you.",
			         s->seats[w].name);
			reply_prompt(b, s, line, s->seats[w].user_id, actions, nactions);
		}
		flow_schedule(b, s);
		break;
	case TIMER_TAKEOVER:
		w = s->wait_seat;
		if (w >= 0) {
			flow_away(b, s, w, true);
			reply_table(b, s, ST_PLAYER "%s" ST_END " is away: the computer plays for them until they type again.",
			            s->seats[w].name);
		}
		flow_schedule(b, s);
		break;
	default:
		break;
	}
	return LOOP_NOMORE;
}
