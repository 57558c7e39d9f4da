/* resume.c: after a start that restored a game, its room told where it stands (one line), and whoever must act their hand again. */
#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "loop.h"

/* A SIGKILL can lose lines a player needed: the discard before their turn,
 * "your turn", their hand.  So a restored game says, when its room is
 * reachable again, whose turn it is and what they may do, with the pile
 * they decide on; and each person the game waits for gets their hand. */

void
resume_line(struct rbuf *b, const struct session *s, int *ping)
{
	const char *names[HF_MAX_SEATS];
	int seats[HF_MAX_SEATS], n, i, turn;
	struct hf_view v;

	*ping = -1;
	session_names(s, names);
	hf_game_view(s->g, -1, &v);
	turn = hf_game_turn(s->g);
	n = hf_game_waiting(s->g, seats);
	rbuf_printf(b, "Back after a restart: " ST_BOLD "round %d" ST_END " of %s. ", hf_game_round(s->g), s->rules.name);
	switch (hf_game_phase(s->g)) {
	case HF_PHASE_ASK:
		rbuf_printf(b, ST_PLAYER "%s" ST_END " asks to go out; ", names[turn]);
		for (i = 0; i < n; i++) {
			rbuf_printf(b, "%s" ST_PLAYER "%s" ST_END, i == 0 ? "" : i + 1 == n ? " or " : ", ", names[seats[i]]);
			if (*ping < 0 && s->seats[seats[i]].ai < 0 && !s->seats[seats[i]].away)
				*ping = seats[i];
		}
		rbuf_add(b, " to answer (" CMD("yes") " or " CMD("no") ").");
		return;
	case HF_PHASE_DRAW:
	case HF_PHASE_PLAY:
		break;
	default:
		rbuf_add(b, "The game is over.");
		return;
	}
	if (s->seats[turn].ai >= 0 || s->seats[turn].away) {
		/* a computer seat is never asked to act: the next person is pinged */
		rbuf_printf(b, ST_PLAYER "%s" ST_END " plays now%s", names[turn],
		            s->seats[turn].away ? " (the computer plays for them until they type)" : "");
		for (i = 1; i < s->nseats; i++) {
			int k = (turn + i) % s->nseats;

			if (s->seats[k].ai < 0 && !s->seats[k].away) {
				rbuf_printf(b, ", then " ST_PLAYER "%s" ST_END, names[k]);
				*ping = k;
				break;
			}
		}
		rbuf_add(b, ". ");
	} else if (hf_game_phase(s->g) == HF_PHASE_DRAW) {
		rbuf_printf(b, ST_PLAYER "%s" ST_END " to play: " CMD("draw") " or " CMD("pickup") ". ", names[turn]);
		*ping = turn;
	} else {
		rbuf_printf(b, ST_PLAYER "%s" ST_END " to play, drawn already: " CMD("meld") ", " CMD("discard")
		            " or " CMD("out") ". ", names[turn]);
		*ping = turn;
	}
	render_pile(b, &v);
}

/* Whether the seat to play is the computer's (outside an ask). */
static bool
resume_machine_turn(const struct session *s)
{
	int turn = hf_game_turn(s->g);

	return hf_game_phase(s->g) != HF_PHASE_ASK && (s->seats[turn].ai >= 0 || s->seats[turn].away);
}

void
resume_table(struct bot *b, struct session *s)
{
	struct rbuf out = { 0 };
	int seats[HF_MAX_SEATS], n, i, ping;

	if (s->g == NULL || s->state != SESS_PLAYING || hf_game_phase(s->g) == HF_PHASE_OVER)
		return;
	/* first the moves the room never heard (a SIGKILL before they were told) */
	tell_untold(b, s);
	/* its pages are drawn again (kept links open it after a restart), as where it stands is said */
	s->view_dirty = true;
	resume_line(&out, s, &ping);
	if (ping >= 0 && !resume_machine_turn(s)) {
		size_t nactions;
		const char *const *actions = tell_actions(s, &nactions);

		reply_prompt(b, s, out.s, s->seats[ping].user_id, actions, nactions);
	} else {
		/* the next person is mentioned; nobody is asked to act for a computer */
		reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, out.s, ping >= 0 ? s->seats[ping].user_id : NULL,
		            PRIVATE_DEFAULT);
	}
	rbuf_free(&out);
	n = hf_game_waiting(s->g, seats);
	for (i = 0; i < n; i++)
		if (s->seats[seats[i]].ai < 0 && !s->seats[seats[i]].away)
			reply_hand(b, s, seats[i]);
	/* the line just said is their ping: a reminder due while we were down would say it twice */
	if (s->wait_seat >= 0 && clock_remind_ms(b, s) > 0 &&
	    loop_now(b->loop) - s->turn_since >= clock_remind_ms(b, s) && !s->reminded) {
		s->reminded = true;
		store_wait_set(b->store, s->id, s->wait_seat, bot_wall_ms(b) - (loop_now(b->loop) - s->turn_since), true);
	}
}

/* A restored game that cannot go on (restore.c): its room hears why and that
 * it is kept, rather than finding the table silently gone. */
static void
resume_broken(struct bot *b, struct session *s)
{
	struct rbuf out = { 0 };
	int i, n = 0;

	rbuf_add(&out, "Back after a restart, but the game of ");
	for (i = 0; i < s->nseats; i++)
		if (s->seats[i].ai < 0)
			rbuf_printf(&out, "%s" ST_PLAYER "%s" ST_END, n++ == 0 ? "" : ", ", s->seats[i].name);
	if (n == 0)
		rbuf_add(&out, "this table");
	rbuf_printf(&out, " (game %lld) cannot go on: %s. It is kept for the operator; " CMD("play") " or " CMD("new")
	            " starts a new one.", (long long)s->id, s->broken);
	reply_queue(b, s->ad, MSG_ROOM, s->room, NULL, out.s, NULL, PRIVATE_DEFAULT);
	rbuf_free(&out);
}

void
resume_adapter(struct bot *b, struct adapter *a)
{
	struct session *s, *next;
	size_t n = 0;

	for (s = b->sessions.all; s != NULL; s = next) {
		next = s->all_next;
		if (s->ad != a || !s->resume)
			continue;
		s->resume = false;
		if (s->broken != NULL) {
			resume_broken(b, s);
			story_free(s);
			session_remove(&b->sessions, s);
			continue;
		}
		resume_table(b, s);
		flow_schedule(b, s);
		n++;
	}
	if (n > 0)
		log_msg(LOG_LVL_INFO, "%s: %zu restored game%s told where %s stand%s", a->id, n, n == 1 ? "" : "s",
		        n == 1 ? "it" : "they", n == 1 ? "s" : "");
}
