/* test-tell.c: what the room hears and when: a turn's line of every kind, computer turns held until a person must act, steps and refusals privately, hands only when changed, fairness on a fake clock, and every message a newcomer acts on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake.h"
#include "hftest.h"

static const char *const names[HF_MAX_SEATS] = { "ann", "bob", "cat", "dan" };

/* ------------------------------------------------------------------ helpers */

/* The plain text of styled text, commands with "!". */
static const char *
plain(const char *styled)
{
	static struct rbuf p;

	rbuf_reset(&p);
	style_plain(&p, styled, strlen(styled), "!");
	return p.s;
}

/* The events of a turn, gathered action by action as tell.c gathers them. */
struct turn {
	struct hf_event ev[256];
	size_t n;
};

static void
play(struct hf_game *g, struct turn *t, int seat, const char *text)
{
	const struct hf_event *ev;
	size_t n;

	t_ok(g, seat, text);
	ev = hf_game_events(g, &n);
	for (size_t i = 0; i < n && t->n < 256; i++)
		t->ev[t->n++] = ev[i];
}

/* seat's turn told as the room reads it. */
static const char *
told(struct hf_game *g, struct turn *t, int seat, bool round_over)
{
	static struct rbuf b;
	struct hf_view v;

	rbuf_reset(&b);
	hf_game_view(g, -1, &v);
	render_turn(&b, &v, seat, t->ev, t->n, names, round_over);
	assert_true(style_valid(b.s, b.len, NULL));
	return plain(b.s);
}

/* The last private message to user, NULL if none; count: how many there were. */
static const struct fake_msg *
last_private(struct fake *f, const char *user, int *count)
{
	const struct fake_msg *m = NULL;
	int n = 0;

	for (size_t i = 0; i < f->nmsgs; i++)
		if (f->msgs[i].kind == MSG_PRIVATE && strcmp(f->msgs[i].user, user) == 0) {
			m = &f->msgs[i];
			n++;
		}
	if (count != NULL)
		*count = n;
	return m;
}

static int
room_lines(struct fake *f)
{
	int n = 0;

	for (size_t i = 0; i < f->nmsgs; i++)
		n += f->msgs[i].kind == MSG_ROOM;
	return n;
}

/* A classic table of four people: alice, bob, carol, dave (seats in the order dealt). */
static struct session *
four_people(struct fake *f)
{
	const char *who[4] = { "alice", "bob", "carol", "dave" };

	fake_say(f, "#g", "alice", "!new classic");
	for (int i = 1; i < 4; i++)
		fake_say(f, "#g", who[i], "!join");
	fake_say(f, "#g", "alice", "!start");
	return fake_session(f, "#g");
}

/* Until it is seat's turn, 10 steps at most. */
static void
to_turn(struct fake *f, struct session *s, int seat)
{
	for (int i = 0; i < 10 && hf_game_turn(s->g) != seat; i++)
		fake_advance(f, 1);
}

/* Alice's game of four at #g, three computers with her: advanced until it is her turn (at most 10 steps). */
static struct session *
alice_and_computers(struct fake *f, int *alice)
{
	struct session *s;

	fake_say(f, "#g", "alice", "!play 4 classic");
	s = fake_session(f, "#g");
	*alice = session_seat_of(s, "alice");
	to_turn(f, s, *alice);
	return s;
}

/* cmd: "!discard C", C the lowest card seat holds. */
static void
lowest_discard(struct session *s, int seat, char *cmd, size_t size)
{
	struct hf_view v;

	cmd[0] = '\0';
	hf_game_view(s->g, seat, &v);
	for (int c = HF_FOUR; c <= HF_ACE && cmd[0] == '\0'; c++)
		if (v.hand[c] > 0)
			snprintf(cmd, size, "!discard %s", hf_card_name(c));
}

/* ------------------------------------------------------------------ the turn line, every kind */

static void
test_turn_draw_discard(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };

	(void)state;
	t_turn(g, 0);
	t_hand(g, 0, "7 8 9 10 J Q K A 4 5 6");
	t_stock_top(g, "K Q");
	play(g, &t, 0, "draw");
	play(g, &t, 0, "discard 7");
	/* "draws 2" would read as the card 2 */
	assert_string_equal(told(g, &t, 0, false), "ann drew 2 cards, discarded 7");
	hf_game_free(g);
}

static void
test_turn_melds_and_canasta(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };

	(void)state;
	t_turn(g, 0);
	t_meld(g, 0, HF_KING, 6, 0, 0);
	t_hand(g, 0, "K 9 9 9 7 5 6");
	t_stock_top(g, "A Q");
	play(g, &t, 0, "draw");
	play(g, &t, 0, "meld K, 9 9 9");
	play(g, &t, 0, "discard 7");
	assert_string_equal(told(g, &t, 0, false),
	                    "ann drew 2 cards, melded K (on the Ks, closing a clean canasta!) and 9 9 9 (new 9s), "
	                    "discarded 7");
	hf_game_free(g);
}

static void
test_turn_pickup(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };

	(void)state;
	t_turn(g, 0);
	t_meld(g, 0, HF_FIVE, 3, 0, 0);
	t_hand(g, 0, "9 9 7 4 6 8");
	t_pile(g, "5 4 9");
	play(g, &t, 0, "pickup 9 9");
	play(g, &t, 0, "discard 7");
	assert_non_null(strstr(told(g, &t, 0, false), "ann took the pile (3 cards, top 9), melded 9 9 9 (new 9s)"));
	assert_non_null(strstr(told(g, &t, 0, false), ", discarded 7"));
	hf_game_free(g);
}

static void
test_turn_foot(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };

	(void)state;
	/* the foot taken up by discarding the last card: played next turn */
	t_turn(g, 0);
	t_hand(g, 0, "7");
	t_stock_top(g, "K Q");
	play(g, &t, 0, "draw");
	t_hand(g, 0, "7");
	play(g, &t, 0, "discard 7");
	assert_string_equal(told(g, &t, 0, false), "ann drew 2 cards, discarded 7, picked up the foot");
	/* by melding everything: played on at once */
	memset(&t, 0, sizeof t);
	t_turn(g, 1);
	t_meld(g, 1, HF_NINE, 3, 0, 0);
	t_hand(g, 1, "8 8");
	t_stock_top(g, "8 9");
	play(g, &t, 1, "draw");
	play(g, &t, 1, "meld 8 8 8, 9");
	assert_non_null(strstr(told(g, &t, 1, false), "bob drew 2 cards, melded 8 8 8 (new 8s) and 9 (on the 9s), "
	                                               "picked up the foot and played on"));
	hf_game_free(g);
}

static void
test_turn_red3_ask_out(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };
	const char *line;

	(void)state;
	/* red 3s laid out as the turn starts (they come with the turn) */
	t_hand(g, 0, "3h 3h 8 9 10");
	t_turn(g, 0);
	{
		const struct hf_event *ev;
		size_t n;

		ev = hf_game_events(g, &n);
		for (size_t i = 0; i < n; i++)
			t.ev[t.n++] = ev[i];
	}
	/* a side with its canastas and a partner in the foot asks, and goes out */
	for (int i = 0; i < 2; i++)
		t_meld(g, 0, HF_KING - i, 7, 0, 0);
	for (int i = 0; i < 3; i++)
		t_meld(g, 0, HF_SEVEN - i, 5, 1, 1);
	t_foot(g, 2, "");
	g->seats[2].in_foot = true;
	t_foot(g, 0, "");
	g->seats[0].in_foot = true;
	t_stock_top(g, "A Q");
	play(g, &t, 0, "draw");
	play(g, &t, 0, "out");
	play(g, &t, 2, "yes");
	t_hand(g, 0, "7");
	play(g, &t, 0, "discard 7");
	line = told(g, &t, 0, true);
	assert_non_null(strstr(line, "ann laid out 2 red 3s (replaced), drew 2 cards, asked to go out (cat: yes), "));
	assert_non_null(strstr(line, "discarded 7, went out!"));
	hf_game_free(g);
}

static void
test_turn_stock_out(void **state)
{
	struct hf_game *g = t_game("classic", 4, 3);
	struct turn t = { .n = 0 };

	(void)state;
	t_turn(g, 0);
	t_hand(g, 0, "7 8 9");
	t_stock_keep(g, 2);
	play(g, &t, 0, "draw");
	play(g, &t, 0, "discard 7");
	assert_non_null(strstr(told(g, &t, 0, true), "ann drew 2 cards, discarded 7, the stock ran out: the round ends"));
	hf_game_free(g);
}

/* A fold through the core: her turn held, the computers' turns after it in
 * one message with the pile and the ping; her own draw told to her alone. */
static void
test_fold_one_message(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;
	struct session *s;
	size_t sends;
	int alice;
	char cmd[32];

	(void)state;
	s = alice_and_computers(f, &alice);
	assert_int_equal(hf_game_turn(s->g), alice);
	fake_clear(f);
	sends = f->room_sends;
	fake_say(f, "#g", "alice", "!draw");
	/* her step: to her alone, with her hand, in one line */
	assert_int_equal(f->room_sends, sends);
	m = last_private(f, "alice", NULL);
	assert_non_null(m);
	assert_memory_equal(m->text, "You drew ", 9);
	assert_non_null(strstr(m->text, " · Your hand ("));
	lowest_discard(s, alice, cmd, sizeof cmd);
	fake_clear(f);
	fake_say(f, "#g", "alice", cmd);
	/* held: the computers play first */
	assert_int_equal(f->room_sends, sends);
	fake_advance(f, 1);
	assert_int_equal(f->room_sends, sends + 1);
	m = fake_find(f, "alice drew 2 cards, discarded");
	assert_non_null(m);
	m = fake_find(f, "alice: your turn (!draw or !pickup)");
	assert_non_null(m);
	assert_non_null(strstr(m->text, " · pile "));
	assert_non_null(strstr(m->text, " · stock "));
	assert_string_equal(m->prompt, "alice");
	/* three computer turns, a line each for the fake (a part each) */
	assert_non_null(fake_find(f, "Ada[bot] "));
	assert_non_null(fake_find(f, "Alan[bot] "));
	assert_non_null(fake_find(f, "Grace[bot] "));
	fake_free(f);
}

/* A fold of computer turns that takes long (hard searches) goes on at the
 * loop's next turn, over several callbacks, instead of holding every other
 * room: the room still hears it once, when alice must act. */
static void
test_fold_bounded(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;
	struct session *s;
	size_t sends;
	uint32_t before;
	bool machine;
	int parts = 0, alice;
	char cmd[32];

	(void)state;
	s = alice_and_computers(f, &alice);
	assert_int_equal(hf_game_turn(s->g), alice);
	fake_say(f, "#g", "alice", "!draw");
	lowest_discard(s, alice, cmd, sizeof cmd);
	fake_clear(f);
	sends = f->room_sends;
	fake_say(f, "#g", "alice", cmd);
	/* every look at the clock: 10 ms of the computer's work */
	f->clock_step = 10;
	while (parts < 100 && session_waiting(s, &machine) != alice) {
		before = s->nactions;
		fake_advance(f, 0);
		if (s->nactions != before)
			parts++;
		if (session_waiting(s, &machine) != alice)
			assert_int_equal(f->room_sends, sends);   /* held until the fold is done */
	}
	f->clock_step = 0;
	/* three turns of at least two moves each, never all in one callback */
	assert_true(parts > 1);
	assert_int_equal(f->room_sends, sends + 1);
	m = fake_find(f, "alice: your turn (!draw or !pickup)");
	assert_non_null(m);
	assert_non_null(fake_find(f, "Ada[bot] "));
	assert_non_null(fake_find(f, "Alan[bot] "));
	assert_non_null(fake_find(f, "Grace[bot] "));
	fake_free(f);
}

/* A stop between two parts of a fold tells what the fold held: the room
 * hears the turns ended before the stop. */
static void
test_fold_told_at_stop(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	size_t sends;
	uint32_t before;
	int alice;
	char cmd[32];

	(void)state;
	s = alice_and_computers(f, &alice);
	fake_say(f, "#g", "alice", "!draw");
	lowest_discard(s, alice, cmd, sizeof cmd);
	fake_say(f, "#g", "alice", cmd);
	fake_clear(f);
	sends = f->room_sends;
	f->clock_step = 10;
	before = s->nactions;
	fake_advance(f, 0);
	f->clock_step = 0;
	assert_true(s->nactions > before);
	assert_int_equal(f->room_sends, sends);
	bot_stop_begin(f->bot);
	/* alice's turn, held behind the computer's, is told (a turn the
	 * computer had begun is the restart's: it tells where the table stands) */
	assert_int_equal(f->room_sends, sends + 1);
	assert_non_null(fake_find(f, "alice drew 2 cards, discarded "));
	before = s->nactions;
	fake_advance(f, 1000);
	assert_int_equal(s->nactions, before);   /* stopping: nothing more is played */
	fake_free(f);
}

/* A table the computer plays alone is told once it has gone round: a line
 * per turn at most, and its lines never dropped by a paced queue. */
static void
test_computers_alone_paced(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	size_t sends;
	uint32_t actions;

	(void)state;
	fake_pace(f, 40, 2000);
	fake_say(f, "#g", "alice", "!play 4 classic rounds=1");
	fake_say(f, "#g", "alice", "!auto");
	s = fake_session(f, "#g");
	sends = f->room_sends;
	actions = s->nactions;
	for (int i = 0; i < 400 && fake_session(f, "#g") != NULL; i++)
		fake_advance(f, 250);
	assert_non_null(s = fake_session(f, "#g"));
	/* about 3 actions a turn: far fewer messages than turns */
	assert_true(f->room_sends - sends < (s->nactions - actions) / 3);
	assert_int_equal(f->dropped, 0);
	fake_free(f);
}

/* ------------------------------------------------------------------ hands and refusals */

/* "!yes" changes nothing in the answerer's hand: it is not sent again;
 * a seat on !auto gets no hand. */
static void
test_hand_only_when_changed(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	struct session *s = four_people(f);
	int turn = hf_game_turn(s->g), partner = (turn + 2) % 4, before, after, side = hf_game_side_of(s->g, turn);
	const char *pid = s->seats[partner].user_id;

	(void)state;
	/* the side may go out: canastas laid, the partner in the foot */
	for (int i = 0; i < 2; i++)
		t_meld(s->g, side, HF_KING - i, 7, 0, 0);
	for (int i = 0; i < 3; i++)
		t_meld(s->g, side, HF_SEVEN - i, 5, 1, 1);
	s->g->seats[partner].in_foot = true;
	fake_say(f, "#g", s->seats[turn].user_id, "!draw");
	fake_say(f, "#g", s->seats[turn].user_id, "!out");
	assert_non_null(fake_find(f, "go out? (!yes or !no)"));
	last_private(f, pid, &before);
	fake_say(f, "#g", pid, "!yes");
	last_private(f, pid, &after);
	assert_int_equal(after, before);
	/* the asker hears what the answer means */
	assert_non_null(fake_find(f, "your partners agree: go out"));
	fake_free(f);

	/* a seat the computer plays gets no hand */
	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!play 4 classic");
	fake_say(f, "#g", "alice", "!auto");
	last_private(f, "alice", &before);
	for (int i = 0; i < 50; i++)
		fake_advance(f, 1);
	assert_true(fake_session(f, "#g")->nactions > 20);
	last_private(f, "alice", &after);
	assert_int_equal(after, before);
	fake_free(f);
}

/* A refused move goes to its player alone, beginning with what was
 * refused: an opponent never learns what a hand lacks. */
static void
test_refusals_private(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	struct session *s = four_people(f);
	int turn = hf_game_turn(s->g), other = (turn + 1) % 4;
	const char *me = s->seats[turn].user_id;
	const struct fake_msg *m;
	int rooms;

	(void)state;
	fake_say(f, "#g", me, "!draw");
	t_hand(s->g, turn, "7 8 9 JK");
	rooms = room_lines(f);
	fake_say(f, "#g", me, "!meld Q Q Q");
	m = last_private(f, me, NULL);
	assert_memory_equal(m->text, "!meld Q Q Q refused: ", strlen("!meld Q Q Q refused: "));
	fake_say(f, "#g", me, "!discard JK");
	m = last_private(f, me, NULL);
	assert_memory_equal(m->text, "!discard JK refused: ", strlen("!discard JK refused: "));
	fake_say(f, "#g", s->seats[other].user_id, "!draw");
	m = last_private(f, s->seats[other].user_id, NULL);
	assert_non_null(m);
	assert_memory_equal(m->text, "!draw refused: it is not your turn", strlen("!draw refused: it is not your turn"));
	assert_int_equal(room_lines(f), rooms);
	fake_free(f);
}

/* ------------------------------------------------------------------ answers */

/* A repeated question is answered every time (issue 25: the short pile
 * whole; a long answer is pointed at, test-answers.c); a newer answer
 * replaces an older one in the same flush. */
static void
test_answered_once(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	struct session *s = four_people(f);
	const struct fake_msg *m;

	(void)state;
	fake_clear(f);
	fake_say(f, "#g", "bob", "!pile");
	assert_non_null(m = fake_find(f, "Pile: "));
	assert_string_equal(m->key, "pile");
	fake_clear(f);
	fake_say(f, "#g", "carol", "!pile");
	fake_say(f, "#g", "bob", "!pile");
	assert_int_equal(f->nmsgs, 2);
	assert_non_null(strstr(f->msgs[1].text, "Pile: "));
	/* the pile changes: answered again */
	fake_say(f, "#g", s->seats[hf_game_turn(s->g)].user_id, "!draw");
	t_pile(s->g, "5 6 7");
	fake_clear(f);
	fake_say(f, "#g", "bob", "!pile");
	assert_non_null(fake_find(f, "Pile: "));
	/* someone who just joined has not seen it: answered again */
	fake_clear(f);
	fake_say(f, "#g", "bob", "!pile");
	assert_int_equal(f->nmsgs, 1);
	{
		struct bot_event ev = { .type = BOT_EV_JOIN, .room = "#g", .user_id = "erin", .user_name = "erin" };

		adapter_emit(f->ad, &ev);
	}
	fake_say(f, "#g", "erin", "!pile");
	assert_non_null(fake_find(f, "Pile: "));
	/* an answer to an event with its own handle (an interaction) is always given */
	fake_clear(f);
	f->ref = 4242;
	fake_say(f, "#g", "dave", "!pile");
	assert_non_null(fake_find(f, "Pile: "));
	f->ref = 0;
	/* a minute later the same answer may be said again */
	fake_clear(f);
	fake_advance(f, REPLY_SAME_MS);
	fake_say(f, "#g", "dave", "!pile");
	assert_non_null(fake_find(f, "Pile: "));
	fake_free(f);
}

/* ------------------------------------------------------------------ fairness on a fake clock */

/* Room #b's computers play at the same pace whether or not someone floods
 * room #a: a flooder gets a burst and then one answer per flood_refill at
 * most, his answers are never lines that must be delivered (never waited
 * for, dropped first), and #b's game never waits on #a. */
static uint32_t
second_room(bool flood, size_t *answers, size_t *total)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	uint32_t n;

	fake_pace(f, 40, 2000);
	fake_say(f, "#a", "ann", "!play 4 duel");
	fake_say(f, "#b", "bob", "!play 4 classic rounds=1");
	fake_say(f, "#b", "bob", "!auto");
	fake_clear(f);
	for (int t = 0; t < 600; t++) {
		if (flood && t < 100) {
			char cmd[32];
			static const char *const q[] = { "!pile", "!who", "!table", "!score", "!help", "!rules" };

			snprintf(cmd, sizeof cmd, "%s", q[t % 6]);
			fake_say(f, "#a", "eve", t % 7 == 6 ? "!frob" : cmd);
		}
		fake_advance(f, 100);
	}
	s = fake_session(f, "#b");
	n = s != NULL ? s->nactions : 0;
	*answers = *total = 0;
	for (size_t i = 0; i < f->nmsgs; i++) {
		const struct fake_msg *m = &f->msgs[i];

		if (strcmp(m->room, "#a") != 0)
			continue;
		(*total)++;
		*answers += m->key[0] != '\0';
	}
	fake_free(f);
	return n;
}

static void
test_fair_flood_and_second_room(void **state)
{
	size_t answers, total, a0, t0;
	uint32_t quiet, flooded;

	(void)state;
	quiet = second_room(false, &a0, &t0);
	flooded = second_room(true, &answers, &total);
	assert_true(quiet > 30);
	assert_int_equal(flooded, quiet);
	/* every line the flooder caused in #a is an answer (or his refusals) */
	assert_int_equal(answers, total);
	/* 100 commands in 10 s: the burst (5) and one per 3 s, their lines only */
	assert_true(total < 60);
}

/* Whatever a stranger (no seat) says, the bot's lines to it are answers,
 * each with its key and not a player's: they wait in the stranger's own
 * lane, behind the games' lines, are dropped first and never waited for.  A line that must be delivered would wait in
 * the room's lane, ahead of the game's next turn (on IRC, 50 strangers'
 * "!private privmsg" held a duel's turns back for minutes). */
static void
test_stranger_gets_only_answers(void **state)
{
	static const char *const said[] = {
		"!help", "!pile", "!who", "!table", "!hand", "!stats", "!top", "!new", "!join", "!draw",
		"!discard K", "!zzz", "!abort", "!play 2 duel", "!private privmsg", "!private notice", "!private",
		"!score", "!rules", "!tell moves", "!tell", "!leave", "!start", "!bot add", "!auto", "!hint",
	};
	struct fake *f = fake_new(":memory:", "flood_burst = 1000\nmax_tables_per_user = 1");

	(void)state;
	fake_say(f, "#x", "eve", "!new duel");
	fake_say(f, "#g", "alice", "!new classic");
	/* a seat she may not take (a table already), refused */
	fake_clear(f);
	fake_say(f, "#g", "eve", "!join");
	assert_true(f->nmsgs > 0);
	for (size_t i = 0; i < f->nmsgs; i++)
		assert_string_not_equal(f->msgs[i].key, "");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!start");
	fake_advance(f, 1000);
	for (size_t k = 0; k < sizeof said / sizeof said[0]; k++) {
		static const char *const rooms[] = { "#g", "#empty" };

		for (size_t r = 0; r < 2; r++) {
			fake_clear(f);
			fake_say(f, rooms[r], "eve", said[k]);
			for (size_t i = 0; i < f->nmsgs; i++)
				if (f->msgs[i].key[0] == '\0' || f->msgs[i].player)
					fail_msg("eve's %s in %s: a line that must be delivered, or a player's: %s", said[k],
					         rooms[r], f->msgs[i].text);
		}
	}
	/* a player's answers go with the game's lines (adapter_msg.player) */
	fake_clear(f);
	fake_say(f, "#g", "bob", "!stats nobody");
	assert_non_null(fake_find(f, "nobody"));
	assert_true(fake_find(f, "nobody")->player);
	fake_clear(f);
	fake_dm(f, "bob", "!pile");
	assert_non_null(fake_find(f, "Pile"));
	assert_true(fake_find(f, "Pile")->player);
	fake_free(f);
}

/* A quick player is never slowed down by their own moves: an accepted move
 * costs nothing of the allowance (the turn is told once whatever its
 * steps); questions and refused moves do. */
static void
test_moves_not_throttled(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	int seat;

	(void)state;
	fake_say(f, "#g", "alice", "!play 4 classic");
	s = fake_session(f, "#g");
	seat = session_seat_of(s, "alice");
	for (int turn = 0; turn < 12 && (s = fake_session(f, "#g")) != NULL; turn++) {
		char cmd[32];

		to_turn(f, s, seat);
		fake_say(f, "#g", "alice", "!draw");
		lowest_discard(s, seat, cmd, sizeof cmd);
		fake_say(f, "#g", "alice", cmd);
		fake_advance(f, 1);
	}
	assert_null(fake_find(f, "slow down"));
	for (int i = 0; i < 10; i++) {
		char cmd[32];

		snprintf(cmd, sizeof cmd, "!stats x%d", i);
		fake_say(f, "#g", "alice", cmd);
	}
	assert_non_null(fake_find(f, "slow down"));
	fake_free(f);
}

/* ------------------------------------------------------------------ messages a newcomer acts on */

static void
test_player_counts(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	fake_say(f, "#c", "alice", "!new classic");
	assert_non_null(fake_find(f, "classic table for 4 or 6 players"));
	fake_say(f, "#d", "alice", "!new duel");
	assert_non_null(fake_find(f, "duel table for 2 players"));
	fake_say(f, "#f", "alice", "!new family");
	assert_non_null(fake_find(f, "family table for 2 to 6 players"));
	fake_say(f, "#s", "alice", "!new sevens");
	assert_non_null(fake_find(f, "sevens table for 2, 3, 4 or 6 players"));
	fake_say(f, "#p", "bob", "!play 5 classic");
	assert_non_null(fake_find(f, "bob: classic is played by 4 or 6 players, not 5."));
	assert_null(fake_find(f, " to 6 players, not"));
	fake_free(f);
}

static void
test_start_small_table(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	assert_non_null(fake_find(f, "alice: classic is played by 4 or 6 players, and 2 sit here: !bot add fills a seat"));
	fake_free(f);
}

static void
test_leave_after_deal(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_say(f, "#g", "alice", "!leave");
	assert_non_null(fake_find(f, "the cards are dealt: !auto lets the computer play your seat"));
	assert_non_null(fake_find(f, "!abort ends the game"));
	assert_non_null(fake_session(f, "#g"));
	fake_free(f);
}

static void
test_abort_wording(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	/* a stranger is not told that !abort ends a game it cannot end */
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_say(f, "#g", "mallory", "!new");
	assert_non_null(fake_find(f, "mallory: there is a table here already (!who shows it)."));
	assert_null(fake_find(f, "abort ends"));
	fake_say(f, "#g", "alice", "!new");
	assert_non_null(fake_find(f, "!abort ends it"));
	/* a table never dealt is closed, not "over" */
	fake_clear(f);
	fake_say(f, "#h", "bob", "!new duel");
	fake_say(f, "#h", "bob", "!abort");
	assert_non_null(fake_find(f, "The table is closed: ended by bob."));
	assert_null(fake_find(f, "The game is over"));
	fake_free(f);
}

static void
test_play_after_deal(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_say(f, "#g", "bob", "!play");
	assert_non_null(fake_find(f, "bob: a game is being played here (!who shows who plays): watch it, or !play in "
	                             "another room."));
	fake_free(f);
}

static void
test_usage_and_unknown(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_say(f, "#g", "bob", "!join a b");
	assert_non_null(fake_find(f, "bob: usage: !join [team]"));
	fake_say(f, "#g", "bob", "!drwa");
	assert_non_null(fake_find(f, "bob: unknown command \"drwa\": did you mean !draw? (!help lists them all)"));
	fake_free(f);
}

/* Every usage reply starts with the nick it answers: each command of the
 * table given too many arguments, or none where it needs some, in a room
 * with a game and in one without. */
static void
test_every_usage_names_the_asker(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 1000");
	const struct cmd_entry *const *t;
	size_t n, usages = 0;

	(void)state;
	t = cmd_table(&n);
	fake_say(f, "#g", "alice", "!play 2 duel");
	for (size_t i = 0; i < n; i++) {
		static const char *const rooms[] = { "#g", "#empty" };
		char cmd[512];

		for (size_t r = 0; r < 2; r++) {
			if (t[i]->max_args >= 0) {
				int k = snprintf(cmd, sizeof cmd, "!%s", t[i]->name);

				for (int a = 0; a <= t[i]->max_args && k < (int)sizeof cmd - 4; a++)
					k += snprintf(cmd + k, sizeof cmd - (size_t)k, " x%d", a);
				fake_say(f, rooms[r], "zed", cmd);
			}
			if (t[i]->min_args > 0) {
				snprintf(cmd, sizeof cmd, "!%s", t[i]->name);
				fake_say(f, rooms[r], "zed", cmd);
			}
		}
	}
	for (size_t i = 0; i < f->nmsgs; i++) {
		if (strstr(f->msgs[i].text, "usage:") == NULL)
			continue;
		usages++;
		assert_memory_equal(f->msgs[i].text, "zed: usage: !", strlen("zed: usage: !"));
	}
	assert_true(usages > 10);
	fake_free(f);
}

/* !rules privately in four lines at most, after one room line saying so;
 * !help privately, beginning with how to start. */
static void
test_long_answers_private(void **state)
{
	static const char *const presets[] = { "classic", "sevens", "family", "pcio", "duel" };
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	size_t i, first = 0, lines = 0, where = 0;

	(void)state;
	for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
		char cmd[64];

		/* a minute apart: the room line is the same each time, said once a minute */
		fake_advance(f, REPLY_SAME_MS);
		fake_clear(f);
		snprintf(cmd, sizeof cmd, "!rules %s", presets[p]);
		fake_say(f, "#g", "alice", cmd);
		lines = 0;
		where = f->nmsgs;
		for (i = 0; i < f->nmsgs; i++) {
			if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "on their way privately"))
				where = i;
			if (f->msgs[i].kind == MSG_PRIVATE) {
				if (lines++ == 0)
					first = i;
			}
		}
		/* counts as the preset allows them: never "2-2" or "2 to 2" (issue 16) */
		for (i = 0; i < f->nmsgs; i++) {
			assert_null(strstr(f->msgs[i].text, "-2 players"));
			assert_null(strstr(f->msgs[i].text, "2 to 2"));
		}
		if (strcmp(presets[p], "duel") == 0)
			assert_non_null(fake_find(f, "Rules: duel · 2 players;"));
		assert_true(lines >= 1 && lines <= 4);
		assert_true(where < first);
	}
	fake_clear(f);
	fake_say(f, "#g", "alice", "!help");
	assert_non_null(fake_find(f, "alice: how to play is on its way privately."));
	for (i = 0; i < f->nmsgs && f->msgs[i].kind != MSG_PRIVATE; i++)
		;
	assert_true(i < f->nmsgs);
	assert_memory_equal(f->msgs[i].text, "To start: !play ", strlen("To start: !play "));
	fake_free(f);
}

/* The room line of one game's end comes before the hand of the next. */
static void
test_end_before_next_hand(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	size_t over = 0, hand = 0;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel rounds=1");
	fake_say(f, "#g", "alice", "!auto");
	assert_true(fake_play_out(f, "#g", 200000));
	fake_say(f, "#g", "alice", "!play 2 duel");
	for (size_t i = 0; i < f->nmsgs; i++) {
		if (strstr(f->msgs[i].text, "Game over") != NULL)
			over = i + 1;
		if (over > 0 && hand == 0 && f->msgs[i].kind == MSG_PRIVATE && strstr(f->msgs[i].text, "Your hand"))
			hand = i + 1;
	}
	assert_true(over > 0);
	assert_true(hand > over);
	fake_free(f);
}

/* A room may ask for play-by-play: every move told as it is made (kept). */
static void
test_tell_moves(void **state)
{
	char db[] = "/tmp/hf-tell-XXXXXX";
	int fd = mkstemp(db);
	struct fake *f;
	struct session *s;

	(void)state;
	close(fd);
	f = fake_new(db, "flood_burst = 100");
	f->moderators[0] = "alice";
	fake_say(f, "#g", "alice", "!tell");
	assert_non_null(fake_find(f, "each turn once, in one line"));
	/* with no table open, the room's moderators decide, no one else (issue 24) */
	fake_say(f, "#g", "bob", "!tell moves");
	assert_non_null(fake_find(f, "only a moderator of this room can change that"));
	assert_null(fake_find(f, "every move as it is made"));
	fake_say(f, "#g", "alice", "!tell moves");
	assert_non_null(fake_find(f, "every move as it is made"));
	fake_free(f);
	f = fake_new(db, "flood_burst = 100");
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	fake_clear(f);
	fake_say(f, "#g", s->seats[hf_game_turn(s->g)].user_id, "!draw");
	assert_non_null(fake_find(f, " draws 2 cards."));
	fake_say(f, "#g", "bob", "!tell turns");
	assert_non_null(fake_find(f, "only the table's owner"));
	fake_free(f);
	unlink(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turn_draw_discard),
		cmocka_unit_test(test_turn_melds_and_canasta),
		cmocka_unit_test(test_turn_pickup),
		cmocka_unit_test(test_turn_foot),
		cmocka_unit_test(test_turn_red3_ask_out),
		cmocka_unit_test(test_turn_stock_out),
		cmocka_unit_test(test_fold_one_message),
		cmocka_unit_test(test_fold_bounded),
		cmocka_unit_test(test_fold_told_at_stop),
		cmocka_unit_test(test_computers_alone_paced),
		cmocka_unit_test(test_hand_only_when_changed),
		cmocka_unit_test(test_refusals_private),
		cmocka_unit_test(test_answered_once),
		cmocka_unit_test(test_fair_flood_and_second_room),
		cmocka_unit_test(test_stranger_gets_only_answers),
		cmocka_unit_test(test_moves_not_throttled),
		cmocka_unit_test(test_player_counts),
		cmocka_unit_test(test_start_small_table),
		cmocka_unit_test(test_leave_after_deal),
		cmocka_unit_test(test_abort_wording),
		cmocka_unit_test(test_play_after_deal),
		cmocka_unit_test(test_usage_and_unknown),
		cmocka_unit_test(test_every_usage_names_the_asker),
		cmocka_unit_test(test_long_answers_private),
		cmocka_unit_test(test_end_before_next_hand),
		cmocka_unit_test(test_tell_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
