/* tell.c: what the room is told, and when: a turn once, when it ends, in one line; computer turns held until a person must act; a player's own steps privately; a hand only when it changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telling.h"

/* ------------------------------------------------------------------ the room's preference */

/* The room's preference into the session, read once, when the session is
 * made or restored: what to say is then decided from the session alone. */
void
tell_load(struct bot *b, struct session *s)
{
	s->tell.pref = tell_room_moves(b, s->ad, s->room) ? TELL_MOVES : TELL_TURNS;
}

/* The room's preference as the store keeps it (a room with no table). */
bool
tell_room_moves(struct bot *b, struct adapter *ad, const char *room)
{
	char who[160], buf[16];

	snprintf(who, sizeof who, "room %s", room);
	return store_pref_get(b->store, ad->id, who, "tell", buf, sizeof buf) == 0 && strcmp(buf, "moves") == 0;
}

bool
tell_moves(const struct session *s)
{
	return s->tell.pref == TELL_MOVES;
}

int
tell_set(struct bot *b, struct adapter *ad, const char *room, bool moves)
{
	struct session *s = session_find(&b->sessions, ad, room);
	char who[160];

	snprintf(who, sizeof who, "room %s", room);
	if (store_pref_set(b->store, ad->id, who, "tell", moves ? "moves" : "turns") < 0)
		return -1;
	if (s != NULL) {
		/* what a line a turn still holds is told before the room changes its mind */
		tell_flush(b, s, false);
		s->tell.nev = 0;
		s->tell.started = false;
		s->tell.pref = moves ? TELL_MOVES : TELL_TURNS;
	}
	return 0;
}

/* ------------------------------------------------------------------ holding */

void
tell_free(struct session *s)
{
	free(s->tell.ev);
	hf_game_free(s->tell.shown);
	free(s->tell.untold);
	hf_game_free(s->tell.told_g);
	rbuf_free(&s->tell.held);
	memset(&s->tell, 0, sizeof s->tell);
}

/* ------------------------------------------------------------------ the story told */

void
tell_keep(struct bot *b, struct session *s)
{
	char key[48], val[24];

	/* lines handed to a paced adapter may wait in its queue: a SIGKILL
	 * loses them, so the story counts as heard once they are all sent */
	if (s->tell.told_seq <= s->tell.told_kept || s->id <= 0 ||
	    (s->ad->ops->pending != NULL && s->ad->ops->pending(s->ad, s->room, PENDING_GAME) > 0))
		return;
	s->tell.told_kept = s->tell.told_seq;
	snprintf(key, sizeof key, "told %lld", (long long)s->id);
	snprintf(val, sizeof val, "%lld", (long long)s->tell.told_kept);
	store_kv_set(b->store, s->ad->id, key, val);
}

/* The room has been handed every move so far: kept in the store once sent
 * (tell_keep), so that a start after a SIGKILL tells the room the moves it
 * never heard. */
static void
tell_told(struct bot *b, struct session *s)
{
	tell_keep(b, s);   /* what was handed before this: sent by now? */
	s->tell.told_seq = s->nactions;
}

const struct hf_game *
tell_shown(const struct session *s, int seat)
{
	if (s->tell.shown == NULL || s->g == NULL || (seat >= 0 && hf_game_turn(s->g) == seat &&
	                                              hf_game_phase(s->g) != HF_PHASE_ASK))
		return s->g;
	return s->tell.shown;
}

/* The room has been handed the story up to now: questions describe this. */
static void
tell_show(struct session *s)
{
	if (s->g == NULL)
		return;
	if (s->tell.shown == NULL)
		s->tell.shown = hf_game_clone(s->g);
	else
		hf_game_copy(s->tell.shown, s->g);
}

static void
tell_push(struct session *s, const struct hf_event *e)
{
	struct tell *t = &s->tell;

	if (t->nev == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->ev = xreallocarray(t->ev, t->cap, sizeof *t->ev);
	}
	t->ev[t->nev++] = *e;
}

/* A line of its own (a deal, a round's end): after what is held. */
void
tell_line(struct session *s, const char *styled)
{
	struct tell *t = &s->tell;

	if (t->held.len > 0)
		rbuf_add(&t->held, t->held_head ? ST_SEP : ST_BR);
	rbuf_add(&t->held, styled);
	t->held_turn = false;
	t->held_head = false;
}

/* One line fewer a deal where lines are the budget: two tables dealt at
 * once on IRC were six lines, and a question asked then waited for them. */
void
tell_heading(struct session *s, const char *styled)
{
	tell_line(s, styled);
	s->tell.held_head = true;
}

/* The turn in progress is over: its line joins what is held. */
static void
tell_end_turn(struct session *s, const struct hf_view *v, const char *const names[], bool round_over)
{
	struct tell *t = &s->tell;

	if (t->started && t->nev > 0 && t->seat >= 0 && t->seat < s->nseats) {
		/* turns are parts: a line each, or several a line where lines are the budget */
		if (t->held.len > 0)
			rbuf_add(&t->held, t->held_turn ? ST_SEP : ST_BR);
		render_turn(&t->held, v, t->seat, t->ev, t->nev, names, round_over);
		t->nheld++;
		t->held_turn = true;
		t->held_head = false;
	}
	t->nev = 0;
	t->started = false;
}

/* ------------------------------------------------------------------ prompts */

/* What the seat waited for may do now, for an adapter's buttons. */
const char *const *
tell_actions(const struct session *s, size_t *n)
{
	static const char *const draw[] = { "hand", "draw", "pickup" };
	static const char *const play[] = { "hand", "meld", "discard", "out" };
	static const char *const answer[] = { "yes", "no" };

	switch (hf_game_phase(s->g)) {
	case HF_PHASE_DRAW: *n = 3; return draw;
	case HF_PHASE_PLAY: *n = 4; return play;
	case HF_PHASE_ASK: *n = 2; return answer;
	default: *n = 0; return NULL;
	}
}

/* Appends "NAME: your turn (!draw or !pickup)" (or the question a partner
 * must answer) to out; the user id of the seat asked to act, or NULL if
 * nobody is asked now: pinged once when the wait starts, not after each of
 * their own moves. */
static const char *
tell_ping(struct session *s, struct rbuf *out)
{
	struct hf_view v;
	bool machine;
	int w = session_waiting(s, &machine);
	const char *sep = out->len ? " · " : "";

	if (w < 0 || machine || w == s->wait_seat)
		return NULL;
	if (hf_game_phase(s->g) == HF_PHASE_ASK) {
		rbuf_printf(out, "%s" ST_PLAYER "%s" ST_END ": may " ST_PLAYER "%s" ST_END " go out? (" CMD("yes") " or "
		            CMD("no") ")", sep, s->seats[w].name, s->seats[hf_game_turn(s->g)].name);
		return s->seats[w].user_id;
	}
	hf_game_view(s->g, w, &v);
	if (hf_game_phase(s->g) == HF_PHASE_PLAY && v.asked_this_turn)
		/* back from asking: the answer decides what they do next */
		rbuf_printf(out, "%s" ST_PLAYER "%s" ST_END ": %s", sep, s->seats[w].name,
		            v.permission ? "your partners agree: go out (" CMD("meld") " or " CMD("discard")
		                           " your last cards)"
		                         : "your partners said no: play on (" CMD("meld") ", then " CMD("discard") ")");
	else if (hf_game_phase(s->g) == HF_PHASE_DRAW)
		rbuf_printf(out, "%s" ST_PLAYER "%s" ST_END ": your turn (" CMD("draw") " or " CMD("pickup") ")", sep,
		            s->seats[w].name);
	else
		rbuf_printf(out, "%s" ST_PLAYER "%s" ST_END ": your turn (" CMD("meld") ", then " CMD("discard") ")", sep,
		            s->seats[w].name);
	return s->seats[w].user_id;
}

/* Queues out for the room: a prompt for mention if not NULL. */
static void
tell_queue(struct bot *b, struct session *s, const char *styled, const char *mention)
{
	size_t nactions = 0;
	const char *const *actions = mention != NULL ? tell_actions(s, &nactions) : NULL;
	struct reply *r;

	reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, styled, mention, PRIVATE_DEFAULT);
	story_told(b, s, styled);
	if (mention != NULL) {
		r = &b->replies.v[b->replies.n - 1];
		r->prompt = true;
		r->actions = actions;
		r->nactions = nactions;
	}
}

void
tell_flush(struct bot *b, struct session *s, bool prompt)
{
	struct tell *t = &s->tell;
	struct rbuf out = { 0 };
	const char *mention = NULL;
	struct hf_view v;

	if (t->held.len == 0 && !prompt)
		return;
	rbuf_addn(&out, "", 0);
	if (t->held.len > 0)
		rbuf_addn(&out, t->held.s, t->held.len);
	/* the pile after the last turn told: what the next player weighs */
	if (t->held_turn && s->g != NULL && hf_game_phase(s->g) != HF_PHASE_OVER) {
		hf_game_view(s->g, -1, &v);
		rbuf_add(&out, " · ");
		render_pile_short(&out, &v);
	}
	if (prompt && s->g != NULL && hf_game_phase(s->g) != HF_PHASE_OVER)
		mention = tell_ping(s, &out);
	rbuf_reset(&t->held);
	t->nheld = 0;
	t->held_turn = false;
	t->held_head = false;
	if (out.len > 0) {
		tell_queue(b, s, out.s, mention);
		t->told++;
		tell_told(b, s);
		tell_show(s);
	}
	rbuf_free(&out);
}

/* ------------------------------------------------------------------ hands */

/* Every person's hand that changed, privately (not a seat the computer
 * plays, not one told already); skip: a seat whose hand just went with its
 * step.  A discard's own hand is known to its player: not sent again. */
static void
tell_hands(struct bot *b, struct session *s, int actor, const struct hf_action *a, bool round_end, int skip)
{
	const struct hf_event *ev;
	struct hf_view v;
	size_t n, i;
	int k;

	if (s->g == NULL || hf_game_phase(s->g) == HF_PHASE_OVER)
		return;
	ev = hf_game_events(s->g, &n);
	for (k = 0; k < s->nseats; k++) {
		struct seat *st = &s->seats[k];
		uint32_t h;
		bool only_discard;

		if (st->ai >= 0 || st->away || k == skip)
			continue;
		hf_game_view(s->g, k, &v);
		h = reply_hand_hash(&v);
		if (h == st->hand_told)
			continue;
		only_discard = k == actor && a != NULL && a->type == HF_ACT_DISCARD && !round_end;
		for (i = 0; only_discard && i < n; i++)
			if (ev[i].seat == k && ev[i].type != HF_EV_DISCARD)
				only_discard = false;
		if (only_discard && st->hand_told != 0) {
			st->hand_told = h;
			continue;
		}
		/* the room hears why before a hand changes (a round's end before the next deal) */
		tell_flush(b, s, false);
		reply_hand(b, s, k);
	}
}

/* ------------------------------------------------------------------ play-by-play */

static void
tell_each_move(struct bot *b, struct session *s, int actor, const struct hf_action *a)
{
	const char *names[HF_MAX_SEATS], *mention;
	const struct hf_event *ev;
	struct hf_view v;
	struct rbuf out = { 0 };
	size_t n, i;
	bool round_end = false;

	session_names(s, names);
	ev = hf_game_events(s->g, &n);
	hf_game_view(s->g, -1, &v);
	for (i = 0; i < n; i++)
		round_end = round_end || ev[i].type == HF_EV_ROUND_END;
	if (s->tell.held.len > 0) {
		rbuf_addn(&out, s->tell.held.s, s->tell.held.len);
		rbuf_add(&out, ST_BR);
		rbuf_reset(&s->tell.held);
		s->tell.held_turn = false;
		s->tell.held_head = false;
		s->tell.nheld = 0;
	}
	render_events(&out, &v, ev, n, names);
	mention = hf_game_phase(s->g) == HF_PHASE_OVER ? NULL : tell_ping(s, &out);
	if (out.len > 0)
		tell_queue(b, s, out.s, mention);
	tell_told(b, s);
	tell_show(s);
	rbuf_free(&out);
	if (!s->tell.quiet)
		tell_hands(b, s, actor, a, round_end, -1);
}

/* ------------------------------------------------------------------ a move told */

/* Whether this action was a step of its player's own turn that goes on (a
 * draw, a pickup, a meld): told to them alone, with their hand. */
static bool
tell_is_step(const struct session *s, int actor, const struct hf_action *a, bool round_end)
{
	if (actor < 0 || a == NULL || round_end || hf_game_phase(s->g) == HF_PHASE_OVER)
		return false;
	if (s->seats[actor].ai >= 0 || s->seats[actor].away || hf_game_turn(s->g) != actor)
		return false;
	return a->type == HF_ACT_DRAW || a->type == HF_ACT_PICKUP || a->type == HF_ACT_MELD;
}

/* The game's events into the table's lines (a turn's end, a round's or the
 * game's end, a deal); true if a round ended. */
static bool
tell_events(struct session *s, const struct hf_view *vp, const char **names, const struct hf_event *ev, size_t n)
{
	bool round_end = false;
	struct rbuf line = { 0 };
	size_t i, j;

	for (i = 0; i < n; i++) {
		switch (ev[i].type) {
		case HF_EV_TURN:
			tell_end_turn(s, vp, names, round_end);
			s->tell.seat = ev[i].seat;
			s->tell.started = true;
			break;
		case HF_EV_ROUND_END:
			tell_end_turn(s, vp, names, true);
			round_end = true;
			rbuf_reset(&line);
			render_round_end(&line, vp, names);
			tell_line(s, line.s);
			break;
		case HF_EV_GAME_END:
			rbuf_reset(&line);
			render_game_end(&line, vp, ev[i].side, names);
			tell_line(s, line.s);
			break;
		case HF_EV_DEAL:
			/* the deal and what comes with it, up to the first turn */
			for (j = i + 1; j < n && ev[j].type != HF_EV_TURN; j++)
				;
			rbuf_reset(&line);
			render_deal(&line, vp, ev + i, j - i, names);
			/* the deal line ends with who plays: a person is pinged when it is
			 * told (tell_ping); a computer is named */
			if (j < n && ev[j].seat >= 0 && ev[j].seat < s->nseats &&
			    (s->seats[ev[j].seat].ai >= 0 || s->seats[ev[j].seat].away))
				rbuf_printf(&line, " · " ST_PLAYER "%s" ST_END " plays first.", names[ev[j].seat]);
			tell_line(s, line.s);
			i = j - 1;
			break;
		default:
			tell_push(s, &ev[i]);
			break;
		}
	}
	rbuf_free(&line);
	return round_end;
}

void
tell_action(struct bot *b, struct session *s, int actor, const struct hf_action *a, const struct hf_game *before)
{
	const char *names[HF_MAX_SEATS];
	const struct hf_event *ev;
	struct hf_view v;
	size_t n;
	bool machine, round_end, over, prompt;
	int w, stepped = -1;
	struct rbuf line = { 0 };

	/* the pages of this table are drawn again in this loop turn, with the room's line */
	s->view_dirty = true;
	if (tell_moves(s)) {
		tell_each_move(b, s, actor, a);
		return;
	}
	session_names(s, names);
	ev = hf_game_events(s->g, &n);
	hf_game_view(s->g, -1, &v);
	if (!s->tell.started && before != NULL) {
		/* a turn begun before a restart: told from here */
		s->tell.seat = (int8_t)hf_game_turn(before);
		s->tell.started = true;
	}
	round_end = tell_events(s, &v, names, ev, n);
	over = hf_game_phase(s->g) == HF_PHASE_OVER;
	w = session_waiting(s, &machine);
	/* Told now: when a person must act (with the ping), when the round or
	 * the game ends, or when a table the computer plays alone has gone
	 * round once; else held, so that computer turns go out together. */
	if (round_end)
		s->wait_seat = -1;   /* a new round: whoever plays first is pinged, even who played last */
	prompt = !over && w >= 0 && !machine && w != s->wait_seat;
	if (prompt || over || round_end || (machine && s->tell.nheld >= s->nseats))
		tell_flush(b, s, prompt);
	if (s->tell.quiet) {
		rbuf_free(&line);
		return;   /* a move told again after a restart: its private lines were said */
	}
	if (tell_is_step(s, actor, a, round_end)) {
		struct hf_view was, now;

		hf_game_view(before, actor, &was);
		hf_game_view(s->g, actor, &now);
		rbuf_reset(&line);
		render_step(&line, &was, &now, ev, n);
		reply_hand_step(b, s, actor, line.s, NULL);
		stepped = actor;
	}
	tell_hands(b, s, actor, a, round_end, stepped);
	rbuf_free(&line);
}

void
tell_untold(struct bot *b, struct session *s)
{
	struct tell *t = &s->tell;
	struct hf_game *final = s->g, *before;
	char why[HF_ERRLEN];
	size_t i;

	if (t->told_g == NULL || t->nuntold == 0 || final == NULL)
		goto done;
	/* played again from where the room heard the story, told as they were
	 * played; the game they end in is the one restored */
	s->g = t->told_g;
	t->told_g = NULL;
	t->quiet = true;
	for (i = 0; i < t->nuntold; i++) {
		before = hf_game_clone(s->g);
		if (before == NULL || hf_apply(s->g, t->untold[i].seat, &t->untold[i].a, why, sizeof why) != HF_OK) {
			hf_game_free(before);
			break;
		}
		tell_action(b, s, t->untold[i].seat, &t->untold[i].a, before);
		hf_game_free(before);
	}
	t->quiet = false;
	if (i < t->nuntold) {
		/* cannot be: the same moves were replayed at the restore */
		hf_game_free(s->g);
		s->g = final;
	} else {
		hf_game_free(final);
	}
	tell_flush(b, s, false);
done:
	tell_show(s);   /* the room is told where the game stands: questions describe it */
	hf_game_free(t->told_g);
	t->told_g = NULL;
	free(t->untold);
	t->untold = NULL;
	t->nuntold = 0;
}
