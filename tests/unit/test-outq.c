/* test-outq.c: the one outbound scheduler on a fake clock: lanes round-robin, idle lanes first, strangers behind the games, the quick turn of a lone bystander, a flooder kept to one item in four, supersede, caps, drops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "outq.h"

/* Payloads are string literals; what the queue drops is counted. */
static void
dropped(void *ctx, void *payload)
{
	(void)payload;
	(*(int *)ctx)++;
}

static struct outq *
new_q(size_t lane_items, size_t items, int *drops)
{
	struct outq_limits lim = { .lane_items = lane_items, .items = items };

	*drops = 0;
	return outq_new(&lim, dropped, drops);
}

/* A message that must be delivered to room. */
static struct outq_item *
say(struct outq *q, const char *room, const char *text)
{
	struct outq_msg m = { .target = room, .payload = (void *)text, .bytes = strlen(text) };

	return outq_push(q, &m);
}

/* An answer (key) to asker's question, to target: its facts only (outq_push
 * itself replaces an older one). */
static struct outq_item *
answer(struct outq *q, const char *target, const char *key, const char *asker, bool player, const char *text)
{
	struct outq_msg m = { .target = target, .key = key, .asker = asker, .player = player,
	                      .payload = (void *)text, .bytes = strlen(text) };

	return outq_push(q, &m);
}

/* What goes next (sent: out of the queue), "" if nothing. */
static const char *
pop(struct outq *q)
{
	struct outq_item *it = outq_next(q, NULL, NULL);

	return it != NULL ? outq_remove(q, it) : "";
}

/* IRC's pace: a burst of 5 lines, then one every 2 s. */
struct bucket {
	int64_t at;
	double tokens;
};

static bool
bucket_take(struct bucket *b, int64_t now)
{
	b->tokens += (double)(now - b->at) / 2000.0;
	if (b->tokens > 5)
		b->tokens = 5;
	b->at = now;
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

/* A newer answer replaces the same one still queued; pending counts only
 * what must be delivered; a full lane refuses. */
static void
test_answers(void **state)
{
	int drops;
	struct outq *q = new_q(4, 0, &drops);

	(void)state;
	assert_non_null(say(q, "#a", "turn 1"));
	assert_non_null(answer(q, "#a", "pile", "x", false, "pile 1"));
	assert_non_null(answer(q, "#a", "pile", "x", false, "pile 2"));
	assert_int_equal(drops, 1);
	assert_int_equal(outq_count(q, "answers x"), 1);
	assert_int_equal(outq_pending(q, "answers x"), 0);
	assert_int_equal(outq_pending(q, "#a"), 1);
	for (int i = 0; i < 3; i++)
		assert_non_null(say(q, "#a", "turn"));
	assert_null(say(q, "#a", "turn"));
	assert_int_equal(outq_queued(q), 5);
	/* the game's line first, then the answer (one question, no backlog)
	 * after that one line, then the game's lines */
	assert_string_equal(pop(q), "turn 1");
	assert_string_equal(pop(q), "pile 2");
	for (int i = 0; i < 3; i++)
		assert_string_equal(pop(q), "turn");
	assert_int_equal(outq_queued(q), 0);
	assert_int_equal(outq_lanes(q), 0);
	outq_free(q);
}

/* The adapter hands facts, outq decides: a newer answer pushed replaces the
 * same one still waiting (no call of the adapter's does it), but never one
 * taken, and a piece of a long answer (its next wire line) continues it
 * instead of replacing it. */
static void
test_push_supersedes(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_item *taken;
	struct outq_msg more = { .target = "#a", .key = "pile", .asker = "x", .piece = true,
	                         .payload = (void *)"pile 3b", .bytes = 7 };

	(void)state;
	taken = answer(q, "#a", "pile", "x", false, "pile 1");
	assert_ptr_equal(outq_next(q, NULL, NULL), taken);
	outq_take(q, taken);
	answer(q, "#a", "pile", "x", false, "pile 2");
	assert_int_equal(drops, 0);   /* the one in flight stays */
	answer(q, "#a", "pile", "x", false, "pile 3");
	assert_int_equal(drops, 1);   /* pile 2 went */
	assert_non_null(outq_push(q, &more));
	assert_int_equal(drops, 1);   /* a piece replaces nothing */
	answer(q, "#a", "table", "x", false, "table");
	answer(q, "#b", "pile", "x", false, "pile elsewhere");
	assert_int_equal(drops, 1);   /* another key, another target: both kept */
	outq_remove(q, taken);
	assert_string_equal(pop(q), "pile 3");
	assert_string_equal(pop(q), "pile 3b");
	assert_string_equal(pop(q), "table");
	assert_string_equal(pop(q), "pile elsewhere");
	assert_int_equal(outq_queued(q), 0);
	outq_free(q);
}

/* An answer to an event owed one of its own (a Discord interaction, which
 * shows its asker "thinking..." until answered) is replaced only by a newer
 * answer to that event; an answer owed to none is replaced by any newer one
 * (as before); and an answer that only points at the same one given a
 * moment ago (again) replaces nothing: the full answer still waiting
 * stands for it, and it is not queued.
 * Before outq decided this, the core's flush and Discord's batch each kept a
 * rule of their own, and a pointer replaced the full answer it pointed at. */
static void
test_supersede_event_and_again(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_msg m = { .target = "#a", .key = "pile", .asker = "x", .bytes = 6 };
	struct outq_item *it;

	(void)state;
	m.event = 7;
	m.payload = (void *)"to 7 a";
	assert_non_null(outq_push(q, &m));
	m.event = 8;
	m.payload = (void *)"to 8";
	assert_non_null(outq_push(q, &m));
	assert_int_equal(drops, 0);           /* each interaction is owed its own */
	m.event = 7;
	m.payload = (void *)"to 7 b";
	assert_non_null(outq_push(q, &m));
	assert_int_equal(drops, 1);           /* "to 7 a" went: the same event's newer answer */
	m.event = 0;
	m.payload = (void *)"typed";
	assert_non_null(outq_push(q, &m));
	assert_int_equal(drops, 1);           /* an answer owed to an event is not a typed one's to replace */
	m.event = 9;
	m.payload = (void *)"to 9";
	assert_non_null(outq_push(q, &m));
	assert_int_equal(drops, 2);           /* "typed" (owed to none) went */
	assert_string_equal(pop(q), "to 8");
	assert_string_equal(pop(q), "to 7 b");
	assert_string_equal(pop(q), "to 9");
	m.event = 0;
	m.payload = (void *)"the pile, whole";
	assert_non_null(outq_push(q, &m));
	m.again = true;
	m.payload = (void *)"the same as 1 s ago";
	assert_non_null(it = outq_push(q, &m));
	/* a pointer replaces nothing; the answer it points at, still waiting,
	 * stands for it: it is not queued, and its payload stays the caller's */
	assert_int_equal(drops, 2);
	assert_string_equal(outq_payload(it), "the pile, whole");
	assert_int_equal(outq_count(q, "answers x"), 1);
	assert_string_equal(pop(q), "the pile, whole");
	assert_string_equal(pop(q), "");
	/* once that answer has gone, a pointer is queued like any answer */
	assert_non_null(it = outq_push(q, &m));
	assert_string_equal(outq_payload(it), "the same as 1 s ago");
	assert_string_equal(pop(q), "the same as 1 s ago");
	assert_int_equal(outq_queued(q), 0);
	outq_free(q);
}

/* The class is outq's, from the facts, whatever lane the adapter names (a
 * name case-folded or persisted): a stranger's answers in a named lane wait
 * behind the game (one item in OUTQ_FIRST_RUN + 1), a seated player's go
 * with it, and a CTCP reply (must be delivered, to a stranger) is not a
 * game's line.  IRC and Matrix once computed the class themselves and a
 * named lane took it as given. */
static void
test_class_from_facts(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_msg x1 = { .lane = "answers x", .target = "#a", .key = "pile", .asker = "x",
	                       .payload = (void *)"x1" };
	struct outq_msg x2 = x1, p1 = x1, ctcp = { .lane = "nick z", .target = "z", .stranger = true,
	                                            .payload = (void *)"ctcp" };

	(void)state;
	x2.key = "table";
	x2.payload = (void *)"x2";
	for (int i = 0; i < 5; i++)
		say(q, "#a", "turn");
	assert_non_null(outq_push(q, &x1));
	assert_non_null(outq_push(q, &x2));
	/* a backlog of two answers: no quick turn; after three game lines */
	for (int i = 0; i < OUTQ_FIRST_RUN; i++)
		assert_string_equal(pop(q), "turn");
	assert_string_equal(pop(q), "x1");
	assert_string_equal(pop(q), "turn");
	/* a seated player's answer in a named lane is first-class */
	p1.lane = "answers p";
	p1.asker = "p";
	p1.player = true;
	p1.payload = (void *)"p1";
	assert_non_null(outq_push(q, &p1));
	assert_non_null(outq_push(q, &ctcp));
	say(q, "#a", "turn");
	say(q, "#a", "turn");
	/* the CTCP reply, one item of the rest that had nothing queued, takes
	 * the quick turn after a game line; then the player's answer, before
	 * the game's next line and the stranger's backlog */
	assert_string_equal(pop(q), "ctcp");
	assert_string_equal(pop(q), "p1");
	assert_string_equal(pop(q), "turn");
	outq_free(q);
}

/* A lane that had nothing queued is served next (least recently served
 * first); one that was served goes to the back. */
static void
test_idle_lane_first(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);

	(void)state;
	for (int i = 0; i < 5; i++)
		say(q, "#busy", "busy");
	pop(q);
	say(q, "#quiet", "quiet");
	assert_string_equal(pop(q), "quiet");
	/* two lanes waking together keep their order */
	say(q, "#one", "one");
	say(q, "#two", "two");
	assert_string_equal(pop(q), "one");
	assert_string_equal(pop(q), "two");
	outq_free(q);
	assert_int_equal(drops, 4);
}

/* On a fake clock, at IRC's pace: room #a's computers put out a fold of two
 * lines whenever their lane is empty (they wait for it), room #b has a turn
 * now and then, a flooder's answers pile up in his own lane, and a watcher
 * (no seat) asks a question every 3 s.  Nobody waits behind the flooder's
 * backlog, and the flooder gets only what the others leave. */
static void
test_flooder_and_second_room(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct bucket b = { 0, 5 };
	int64_t now, b_at = -1, w_at = -1, worst_b = 0, worst_w = 0;
	int a_lines = 0, flood_lines = 0;
	char key[32];

	(void)state;
	for (now = 0; now < 600000; now += 100) {
		if (outq_pending(q, "#a") == 0) {
			say(q, "#a", "a fold 1");
			say(q, "#a", "a fold 2");
		}
		if (now % 1000 == 0 && outq_count(q, "answers eve") < 40) {
			snprintf(key, sizeof key, "q%lld", (long long)now);
			answer(q, "#a", key, "eve", false, "eve");
		}
		if (now % 20000 == 5000) {
			say(q, "#b", "b turn");
			b_at = now;
		}
		if (now % 3000 == 1500 && w_at < 0) {
			answer(q, "#a", "pile", "carol", false, "carol");
			w_at = now;
		}
		while (outq_queued(q) > 0 && bucket_take(&b, now)) {
			const char *s = pop(q);

			if (strcmp(s, "b turn") == 0 && now - b_at > worst_b)
				worst_b = now - b_at;
			if (strcmp(s, "carol") == 0) {
				if (now - w_at > worst_w)
					worst_w = now - w_at;
				w_at = -1;
			}
			a_lines += strncmp(s, "a fold", 6) == 0;
			flood_lines += strcmp(s, "eve") == 0;
		}
	}
	/* at most a line of each other lane that woke before, and the bucket's 2 s */
	assert_true(worst_b <= 6000);
	assert_true(worst_w <= 3 * 2000);
	assert_true(flood_lines < a_lines / 2);
	assert_true(a_lines >= 60);
	outq_free(q);
}

/* 50 strangers, each asking in a lane of their own, never put a game's next
 * line (or a player's answer) behind theirs, and still get one item in
 * OUTQ_FIRST_RUN + 1 while the games are busy. */
static void
test_strangers_wait_behind_the_game(void **state)
{
	int drops, strangers = 0;
	struct outq *q = new_q(40, 0, &drops);
	char asker[32];
	const char *s;

	(void)state;
	for (int i = 0; i < 50; i++) {
		snprintf(asker, sizeof asker, "flood%02d", i);
		answer(q, "#cards", "who", asker, false, "stranger");
		answer(q, "#cards", "pile", asker, false, "stranger");
		answer(q, "#cards", "hand", asker, false, "stranger");
	}
	pop(q);
	say(q, "#cards", "turn");
	if (strcmp(s = pop(q), "turn") != 0)
		s = pop(q);
	assert_string_equal(s, "turn");
	answer(q, "#cards", "pile", "alice", true, "alice");
	if (strcmp(s = pop(q), "alice") != 0)
		s = pop(q);
	assert_string_equal(s, "alice");
	for (int i = 0; i < 40; i++) {
		if (outq_count(q, "#cards") < 2)
			say(q, "#cards", "turn");
		strangers += strcmp(pop(q), "stranger") == 0;
	}
	assert_true(strangers >= 40 / (OUTQ_FIRST_RUN + 1));
	assert_true(strangers <= 40 / (OUTQ_FIRST_RUN + 1) + 1);
	outq_free(q);
}

/* The pace bench's busy room on a fake clock, at IRC's pace: two rooms whose
 * computers always have a line waiting, a bystander asking every 3 s, and a
 * flooder whose answers pile up.  The bystander goes after one game line,
 * so she waits two lines (4 s); the flooder gets one in OUTQ_FIRST_RUN + 1. */
static void
test_bystander_beside_busy_rooms(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct bucket b = { 0, 5 };
	int64_t now, w_at = -1, worst_w = 0;
	int game = 0, flood = 0, answered = 0;
	char key[32];

	(void)state;
	for (now = 0; now < 600000; now += 100) {
		if (outq_count(q, "#t1") == 0)
			say(q, "#t1", "t1");
		if (outq_count(q, "#t2") == 0)
			say(q, "#t2", "t2");
		if (now % 1000 == 0 && outq_count(q, "answers dave") < 40) {
			snprintf(key, sizeof key, "q%lld", (long long)now);
			answer(q, "#t1", key, "dave", false, "dave");
		}
		if (now % 3000 == 0 && w_at < 0) {
			answer(q, "#t2", "pile", "carol", false, "carol");
			w_at = now;
		}
		while (outq_queued(q) > 0 && bucket_take(&b, now)) {
			const char *s = pop(q);

			if (strcmp(s, "carol") == 0) {
				if (now - w_at > worst_w)
					worst_w = now - w_at;
				w_at = -1;
				answered++;
			}
			game += s[0] == 't';
			flood += strcmp(s, "dave") == 0;
		}
	}
	assert_true(answered >= 100);
	assert_true(worst_w <= 2 * 2000);
	assert_true(flood <= (game + flood) / (OUTQ_FIRST_RUN + 1) + 1);
	assert_true(game >= 150);
	outq_free(q);
}

/* Matrix's pace, one send at a time: two busy rooms, a flooder's backlog, a
 * bystander asking one question at a time: hers goes after one room
 * message at most (at Synapse's pace four sends would be 20 s). */
static void
test_bystander_after_one_message(void **state)
{
	int drops, waited = 0, worst = 0, asked = 0, flood = 0, sends = 0;
	struct outq *q = new_q(200, 0, &drops);
	struct outq_item *hers = NULL, *it;
	char key[16];

	(void)state;
	for (int i = 0; i < 400; i++) {
		if (outq_pending(q, "!t1") < 2)
			say(q, "!t1", "t1");
		if (outq_pending(q, "!t2") < 2)
			say(q, "!t2", "t2");
		snprintf(key, sizeof key, "q%d", i);
		answer(q, "!t1", key, "@dave", false, "dave");
		if (hers == NULL && i >= 12 && i % 3 == 0) {
			hers = answer(q, "!t1", "pile", "@carol", false, "carol");
			waited = 0;
			asked++;
		}
		it = outq_next(q, NULL, NULL);
		assert_non_null(it);
		outq_take(q, it);
		/* in flight, still counted */
		assert_int_equal(outq_queued(q), outq_count(q, "!t1") + outq_count(q, "!t2") +
		                 outq_count(q, "answers @dave") + outq_count(q, "answers @carol"));
		sends++;
		flood += strcmp(outq_payload(it), "dave") == 0;
		waited++;
		if (it == hers) {
			worst = waited > worst ? waited : worst;
			hers = NULL;
		}
		outq_remove(q, it);
	}
	assert_true(asked >= 100);
	assert_true(worst <= 2);
	assert_true(flood <= sends / (OUTQ_FIRST_RUN + 1) + 1);
	outq_free(q);
}

/* A flood just started: dave's 30 questions are a backlog (his lane was
 * served once, and holds many), and two bystanders ask one question each at
 * once.  Both go after one game line, one after the other: the flooder's
 * backlog does not count as a bystander, so it never costs them the quick
 * turn (the first question after a flood waited a rest turn, one line in
 * four, behind the other: 8 lines, 16 s on IRC), and the second does not
 * wait for another game line (6 s on IRC). */
static void
test_bystanders_beside_a_flooders_backlog(void **state)
{
	int drops, carol = -1, erin = -1;
	struct outq *q = new_q(40, 0, &drops);
	char key[16];

	(void)state;
	for (int i = 0; i < 30; i++) {
		snprintf(key, sizeof key, "q%d", i);
		answer(q, "#cards", key, "dave", false, "dave");
	}
	say(q, "#cards", "turn");
	while (strcmp(pop(q), "dave") != 0)
		;
	answer(q, "#other", "pile", "erin", false, "erin");
	answer(q, "#cards", "pile", "carol", false, "carol");
	for (int i = 0; i < 4; i++) {
		const char *s;

		if (outq_count(q, "#cards") < 2)
			say(q, "#cards", "turn");
		s = pop(q);
		erin = strcmp(s, "erin") == 0 ? i : erin;
		carol = strcmp(s, "carol") == 0 ? i : carol;
	}
	assert_int_equal(erin, 1);
	assert_int_equal(carol, 2);
	outq_free(q);

	/* the flood's first burst (three questions at once: a backlog from the
	 * start) does not take the quick turn before a bystander's one
	 * question, two lines long (two pieces of one answer) */
	q = new_q(40, 0, &drops);
	say(q, "#cards", "turn");
	say(q, "#cards", "turn");
	assert_string_equal(pop(q), "turn");
	answer(q, "#cards", "pile", "dave", false, "dave");
	answer(q, "#cards", "table", "dave", false, "dave");
	answer(q, "#cards", "who", "dave", false, "dave");
	answer(q, "#other", "rules", "erin", false, "erin 1");
	assert_non_null(outq_push(q, &(struct outq_msg){ .target = "#other", .key = "rules", .asker = "erin",
	                                                 .piece = true, .payload = (void *)"erin 2" }));
	assert_string_equal(pop(q), "erin 1");
	assert_string_equal(pop(q), "turn");
	outq_free(q);
}

/* The soak's round end: #two's last lines wait while alice's and bob's
 * lanes (a turn, a hand, an answer each) empty at every line and fill again
 * at once, and a stranger's backlog takes its one item in four.  A lane
 * that empties keeps its place behind the lanes not served since, so #two
 * goes within a round of them; it waited two minutes when such a lane came
 * back at the front each time. */
static void
test_backlog_beside_lanes_that_refill(void **state)
{
	int drops, waited = -1;
	struct outq *q = new_q(40, 0, &drops);
	char key[16];

	(void)state;
	for (int i = 0; i < 20; i++) {
		snprintf(key, sizeof key, "q%d", i);
		answer(q, "@r", key, "r", false, "stranger");
	}
	say(q, "#two", "the round ends");
	say(q, "#two", "round scored");
	say(q, "#two", "sheet");
	assert_string_equal(pop(q), "the round ends");
	say(q, "#cards", "turn");
	answer(q, "#cards", "stats", "alice", true, "alice");
	answer(q, "#cards", "stats", "bob", true, "bob");
	for (int i = 0; i < 40 && waited < 0; i++) {
		const char *s = pop(q);

		if (strcmp(s, "round scored") == 0)
			waited = i;
		/* whoever was answered asks again at once */
		if (strcmp(s, "turn") == 0)
			say(q, "#cards", "turn");
		if (strcmp(s, "alice") == 0 || strcmp(s, "bob") == 0)
			answer(q, "#cards", "stats", s, true, s);
	}
	assert_true(waited >= 0);
	assert_true(waited <= 4);
	outq_free(q);
}

/* Supersede: only the same key to the same target, and never one in
 * flight; private lines about a game wait in its room's lane, in order. */
static void
test_supersede_and_private_lines(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_item *first;
	struct outq_msg hand = { .room = "!g", .target = "@ann", .payload = (void *)"ann's hand" };

	(void)state;
	first = answer(q, "!g", "pile", NULL, false, "Pile: 7");
	assert_ptr_equal(outq_next(q, NULL, NULL), first);
	outq_take(q, first);
	answer(q, "!g", "pile", NULL, false, "Pile: 8");
	say(q, "!g", "a turn");
	answer(q, "!g", "pile", NULL, false, "Pile: 9");
	answer(q, "@ann", "hand", NULL, false, "ann 1");
	answer(q, "@bob", "hand", NULL, false, "bob 1");
	answer(q, "@ann", "hand", NULL, false, "ann 2");
	assert_int_equal(drops, 2);
	assert_int_equal(outq_queued(q), 5);
	outq_remove(q, first);
	/* a round's end, then the next round's hand, in the room's lane */
	outq_push(q, &hand);
	assert_int_equal(outq_count(q, "!g"), 2);
	assert_int_equal(outq_pending(q, "!g"), 2);
	/* the room reads the turn, not ann's hand: an answer about the table
	 * waits for the one, never for the other */
	assert_int_equal(outq_pending_room(q, "!g"), 1);
	assert_string_equal(pop(q), "a turn");
	assert_int_equal(outq_pending(q, "!g"), 1);
	assert_int_equal(outq_pending_room(q, "!g"), 0);
	/* bob's answer that must be delivered ("bob steps away") goes in the
	 * room's lane, in order, and counts for the computer seats; it is not
	 * the story, so an answer about the table does not count it */
	struct outq_msg away = { .target = "!g", .asker = "bob", .payload = (void *)"bob steps away" };
	assert_non_null(outq_push(q, &away));
	assert_int_equal(outq_count(q, "!g"), 2);
	assert_int_equal(outq_pending(q, "!g"), 2);
	assert_int_equal(outq_pending_room(q, "!g"), 0);
	say(q, "!g", "a round's end");
	assert_int_equal(outq_pending_room(q, "!g"), 1);
	/* the answers, each in its own lane, and the room's lane in its order */
	const char *room[] = { "ann's hand", "bob steps away", "a round's end" };
	size_t next = 0;
	for (int i = 0; i < 6; i++) {
		const char *s = pop(q);

		if (next < 3 && strcmp(s, room[next]) == 0)
			next++;
		else
			assert_true(strcmp(s, "Pile: 9") == 0 || strcmp(s, "ann 2") == 0 || strcmp(s, "bob 1") == 0);
	}
	assert_int_equal(next, 3);
	assert_int_equal(outq_queued(q), 0);
	outq_free(q);
}

/* Caps: a full lane or queue refuses an answer, and an item that must be
 * delivered makes room by dropping answers (its lane's first), never
 * another item that must be delivered. */
static void
test_caps_drop_answers_first(void **state)
{
	int drops;
	struct outq *q = new_q(3, 5, &drops);
	struct outq_limits lim = { .lane_bytes = 10 };
	struct outq_msg m = { .room = "#a", .target = "bob", .key = "hand", .player = true, .lane = "#a",
	                      .payload = (void *)"bob's hand" };

	(void)state;
	/* an answer in a room's own lane (a lane given) */
	assert_non_null(outq_push(q, &m));
	say(q, "#a", "turn 1");
	say(q, "#a", "turn 2");
	assert_non_null(say(q, "#a", "turn 3"));
	assert_int_equal(drops, 1);
	assert_null(say(q, "#a", "turn 4"));
	answer(q, "#b", "k1", "eve", false, "eve 1");
	answer(q, "#b", "k2", "eve", false, "eve 2");
	assert_null(answer(q, "#b", "k3", "eve", false, "eve 3"));
	/* the queue is full: the oldest waiting answer goes for a room's line */
	assert_non_null(say(q, "#c", "c"));
	assert_int_equal(drops, 2);
	assert_int_equal(outq_count(q, "answers eve"), 1);
	assert_non_null(say(q, "#c", "c"));
	assert_int_equal(drops, 3);
	assert_null(say(q, "#c", "c"));
	assert_int_equal(outq_queued(q), 5);
	outq_free(q);
	/* bytes per lane */
	q = outq_new(&lim, dropped, &drops);
	assert_non_null(say(q, "#a", "12345"));
	assert_non_null(say(q, "#a", "12345"));
	assert_null(say(q, "#a", "1"));
	assert_non_null(say(q, "#b", "1"));
	outq_free(q);
}

/* A seated player's answer is never refused for strangers' answers: in a
 * lane they share (answers to the room naming no asker) the oldest
 * stranger's goes, and when the whole queue is full, a stranger's in any
 * lane; another player's answer never goes for it, and a room's line drops
 * strangers' answers before players'. */
static void
test_player_answer_evicts_strangers(void **state)
{
	int drops;
	struct outq *q = new_q(3, 0, &drops);

	(void)state;
	answer(q, "#cards", "k1", NULL, false, "s1");
	answer(q, "#cards", "k2", NULL, false, "s2");
	answer(q, "#cards", "k3", NULL, false, "s3");
	assert_null(answer(q, "#cards", "k4", NULL, false, "s4"));
	assert_non_null(answer(q, "#cards", "hand", NULL, true, "alice's hand"));
	assert_int_equal(drops, 1);
	assert_int_equal(outq_count(q, "answers #cards"), 3);
	/* the oldest went; the lane keeps its order */
	assert_string_equal(pop(q), "s2");
	assert_string_equal(pop(q), "s3");
	assert_string_equal(pop(q), "alice's hand");
	outq_free(q);

	/* the whole queue full of strangers' answers, each in their lane */
	q = new_q(0, 3, &drops);
	answer(q, "#cards", "k", "s1", false, "s1");
	answer(q, "#cards", "k", "s2", false, "s2");
	answer(q, "#cards", "k", "s3", false, "s3");
	assert_non_null(answer(q, "#cards", "hand", "alice", true, "alice's hand"));
	assert_int_equal(drops, 1);
	assert_int_equal(outq_queued(q), 3);
	/* players' answers only: a player's answer does not drop another's */
	assert_non_null(answer(q, "#cards", "hand", "bob", true, "bob's hand"));
	assert_non_null(answer(q, "#cards", "score", "carol", true, "carol's score"));
	assert_int_equal(drops, 3);
	assert_null(answer(q, "#cards", "score", "dave", true, "dave's score"));
	assert_int_equal(drops, 3);
	outq_free(q);

	/* a room's line: a stranger's answer goes, not an older player's */
	q = new_q(0, 2, &drops);
	answer(q, "#cards", "hand", "alice", true, "alice's hand");
	answer(q, "#cards", "k", "s1", false, "s1");
	assert_non_null(say(q, "#cards", "turn"));
	assert_int_equal(outq_count(q, "answers alice"), 1);
	assert_int_equal(outq_count(q, "answers s1"), 0);
	outq_free(q);
}

/* A lane dropped (a room whose sends are refused), a target dropped (a user
 * who quit), everything dropped; an item in flight stays. */
static void
test_drops(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_msg hand = { .room = "#a", .target = "ann", .payload = (void *)"hand" };
	struct outq_item *it;

	(void)state;
	say(q, "#a", "a1");
	say(q, "#a", "a2");
	outq_push(q, &hand);
	answer(q, "ann", "pile", "ann", false, "pile");
	say(q, "#b", "b1");
	it = outq_next(q, NULL, NULL);
	assert_string_equal(outq_payload(it), "a1");
	outq_take(q, it);
	assert_int_equal(outq_drop_target(q, "ann"), 2);
	assert_int_equal(outq_count(q, "answers ann"), 0);
	assert_int_equal(outq_drop_lane(q, "#a"), 1);
	assert_int_equal(outq_count(q, "#a"), 1);
	assert_int_equal(outq_drop_all(q), 1);
	assert_int_equal(outq_queued(q), 1);
	assert_int_equal(drops, 4);
	outq_untake(q, it);
	assert_int_equal(outq_drop_all(q), 1);
	assert_int_equal(outq_lanes(q), 0);
	outq_free(q);
}

/* The ready callback: an item that cannot go yet but lets the lane's next
 * one go (SKIP), or holds its lane (WAIT); other lanes go meanwhile. */
static enum outq_ready
ready(void *ctx, void *payload)
{
	(void)ctx;
	return strncmp(payload, "skip", 4) == 0 ? OUTQ_SKIP : strncmp(payload, "wait", 4) == 0 ? OUTQ_WAIT : OUTQ_GO;
}

static void
test_ready(void **state)
{
	int drops;
	struct outq *q = new_q(40, 0, &drops);
	struct outq_item *it;

	(void)state;
	say(q, "#a", "skip");
	say(q, "#a", "a");
	say(q, "#b", "wait");
	say(q, "#b", "b");
	say(q, "#c", "c");
	it = outq_next(q, ready, NULL);
	assert_string_equal(outq_payload(it), "a");
	outq_remove(q, it);
	it = outq_next(q, ready, NULL);
	assert_string_equal(outq_payload(it), "c");
	outq_remove(q, it);
	assert_null(outq_next(q, ready, NULL));
	outq_free(q);
}

/* Rewrite: an item changed keeps its place, one dropped goes, and a lane
 * left empty leaves the serving order. */
static int
rewrite_b(void *ctx, void **payload, size_t *bytes, char *target, size_t len)
{
	(void)ctx;
	if (((const char *)*payload)[0] == 'x')
		return -1;
	if (strcmp(*payload, "b1") == 0) {
		*payload = (void *)"B1";
		*bytes = 2;
		snprintf(target, len, "#B");
		return 1;
	}
	return 0;
}

static void
test_rewrite(void **state)
{
	int drops;
	struct outq *q = new_q(8, 0, &drops);

	(void)state;
	say(q, "#a", "x1");
	say(q, "#b", "b1");
	answer(q, "#b", "k", "#b", false, "x2");
	say(q, "#b", "b2");
	say(q, "#a", "x3");
	assert_int_equal(outq_rewrite(q, rewrite_b, NULL), 4);
	assert_int_equal(outq_queued(q), 2);
	assert_int_equal(outq_count(q, "#a"), 0);
	assert_int_equal(outq_pending(q, "#b"), 2);
	assert_int_equal(outq_drop_target(q, "#B"), 1);
	assert_string_equal(pop(q), "b2");
	assert_string_equal(pop(q), "");
	assert_int_equal(outq_lanes(q), 0);
	outq_free(q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_push_supersedes),
		cmocka_unit_test(test_supersede_event_and_again),
		cmocka_unit_test(test_class_from_facts),
		cmocka_unit_test(test_idle_lane_first),
		cmocka_unit_test(test_flooder_and_second_room),
		cmocka_unit_test(test_strangers_wait_behind_the_game),
		cmocka_unit_test(test_bystander_beside_busy_rooms),
		cmocka_unit_test(test_bystander_after_one_message),
		cmocka_unit_test(test_bystanders_beside_a_flooders_backlog),
		cmocka_unit_test(test_backlog_beside_lanes_that_refill),
		cmocka_unit_test(test_supersede_and_private_lines),
		cmocka_unit_test(test_caps_drop_answers_first),
		cmocka_unit_test(test_player_answer_evicts_strangers),
		cmocka_unit_test(test_drops),
		cmocka_unit_test(test_ready),
		cmocka_unit_test(test_rewrite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
