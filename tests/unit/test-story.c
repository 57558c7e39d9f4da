/* test-story.c: the room hears the whole story in order: every round's deal pings who plays, answers wait for the lines they describe, a SIGKILL loses no move from the story, the restart line pings a person. */
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

/* alice moves as the computer would, typed as a person (her seat stays hers). */
static void
alice_moves(struct fake *f, uint64_t *rng)
{
	struct session *s = fake_session(f, "#g");
	int seat = session_seat_of(s, "alice");
	struct hf_view v;
	struct hf_action a;
	char text[512], cmd[600];

	hf_game_view(s->g, seat, &v);
	hf_ai_decide(&v, HF_AI_EASY, 100, rng, &a);
	hf_action_format(&a, text, sizeof text);
	snprintf(cmd, sizeof cmd, "!%s", text);
	fake_say(f, "#g", "alice", cmd);
}

/* Every round's deal line goes out with who plays first pinged: in a duel
 * the room hears "Round N: ..." in a message that ends "alice: your turn". */
static void
test_every_round_pings(void **state)
{
	int rounds = 0, seed;

	(void)state;
	for (seed = 1; seed <= 6; seed++) {
		struct fake *f = fake_new(":memory:", "flood_burst = 1000\nflood_refill = 1");
		uint64_t rng = (uint64_t)seed;
		size_t i;
		int steps;

		f->seed = (uint64_t)seed * 7777u;
		fake_say(f, "#g", "alice", "!play 2 duel rounds=3");
		for (steps = 0; steps < 20000 && fake_session(f, "#g") != NULL; steps++) {
			if (fake_waits_for(f, "#g", "alice"))
				alice_moves(f, &rng);
			else
				fake_advance(f, 1);
		}
		assert_null(fake_session(f, "#g"));
		for (i = 0; i < f->nmsgs; i++) {
			const char *r = strstr(f->msgs[i].text, "Round ");

			if (f->msgs[i].kind != MSG_ROOM || r == NULL || strstr(r, " deals, ") == NULL)
				continue;
			rounds++;
			if (strstr(r, "alice: your turn") != NULL)
				assert_string_equal(f->msgs[i].prompt, "alice");
			else if (strstr(r, "Ada[bot] plays first.") == NULL)
				fail_msg("a deal without who plays: \"%s\"", f->msgs[i].text);
		}
		fake_free(f);
	}
	assert_true(rounds >= 12);
}

/* The plain text of styled text, as the fake adapter shows it. */
static void
plain(const char *styled, char *out, size_t len)
{
	struct rbuf r = { 0 };

	style_plain(&r, styled, strlen(styled), "!");
	snprintf(out, len, "%s", r.s != NULL ? r.s : "");
	rbuf_free(&r);
}

/* carol's !pile while the computer's turn is held (not told yet): answered
 * at once, with the pile as the room was told it, not the pile after the
 * turn the room has not heard. */
static void
test_answer_describes_what_was_told(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 1000\nflood_burst = 1000\nflood_refill = 1");
	struct session *s;
	struct hf_view v;
	struct rbuf told = { 0 }, live = { 0 };
	char want[512], now[512];
	const struct fake_msg *m;
	int tries;

	(void)state;
	fake_say(f, "#g", "alice", "!play 3 family");
	s = fake_session(f, "#g");
	/* until a computer seat has played a turn the room has not been told */
	for (tries = 0; tries < 2000 && !(s->tell.held.len > 0 && !fake_waits_for(f, "#g", "alice")); tries++) {
		if (fake_waits_for(f, "#g", "alice")) {
			uint64_t rng = (uint64_t)tries;

			alice_moves(f, &rng);
		} else {
			fake_advance(f, 100);
		}
	}
	assert_true(s->tell.held.len > 0);
	hf_game_view(tell_shown(s, -1), -1, &v);
	render_pile(&told, &v);
	hf_game_view(s->g, -1, &v);
	render_pile(&live, &v);
	plain(told.s, want, sizeof want);
	plain(live.s, now, sizeof now);
	assert_string_not_equal(want, now);   /* the held turn changed the pile */
	fake_clear(f);
	fake_say(f, "#g", "carol", "!pile");
	assert_non_null(m = fake_find(f, "Pile: "));
	assert_string_equal(m->text, want);
	rbuf_free(&told);
	rbuf_free(&live);
	fake_free(f);
}

/* A SIGKILL after alice's discard, held to go out with the computer's turn:
 * at the restart the room hears "alice ... discarded" first, then where the
 * game stands, pinging alice (who plays next), never the computer. */
static void
test_sigkill_loses_no_move(void **state)
{
	char db[] = "/tmp/hf-story-XXXXXX";
	struct fake *f;
	const struct fake_msg *m;
	struct session *s;
	uint32_t n;
	size_t i, line = 0, back = 0;
	int tries;

	(void)state;
	fake_tmpdb(db);
	f = fake_new(db, "ai_delay = 1000");
	fake_say(f, "#g", "alice", "!play 2 duel");
	s = fake_session(f, "#g");
	for (tries = 0; tries < 200 && !fake_waits_for(f, "#g", "alice"); tries++)
		fake_advance(f, 100);
	assert_true(fake_waits_for(f, "#g", "alice"));
	fake_say(f, "#g", "alice", "!draw");
	fake_clear(f);
	/* her discard: the turn line is held, the computer plays next */
	{
		struct hf_view v;
		int c;

		hf_game_view(s->g, session_seat_of(s, "alice"), &v);
		for (c = HF_FOUR; c <= HF_ACE && v.hand[c] == 0; c++)
			;
		assert_true(c <= HF_ACE);
		char cmd[32];
		snprintf(cmd, sizeof cmd, "!discard %s", hf_card_name(c));
		fake_say(f, "#g", "alice", cmd);
	}
	assert_null(fake_find(f, "alice drew"));
	n = s->nactions;
	fake_free(f);   /* SIGKILL: no stop, nothing flushed */

	f = fake_new(db, "ai_delay = 1000");
	s = fake_session(f, "#g");
	assert_non_null(s);
	assert_int_equal(s->nactions, n);
	for (i = 0; i < f->nmsgs; i++) {
		if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "alice drew") != NULL && line == 0)
			line = i + 1;
		if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "Back after a restart") != NULL && back == 0)
			back = i + 1;
	}
	if (getenv("DUMP"))
		for (i = 0; i < f->nmsgs; i++)
			printf("  [%s %s] %s\n", f->msgs[i].room, f->msgs[i].user, f->msgs[i].text);
	assert_true(line > 0);
	assert_true(back > line);
	m = &f->msgs[back - 1];
	assert_non_null(strstr(m->text, "Ada[bot] plays now, then alice."));
	assert_string_equal(m->mention, "alice");
	assert_string_equal(m->prompt, "");
	/* told once: once sent (the computer's move after it finds nothing
	 * waiting), a second restart says it no more */
	fake_advance(f, 1500);
	fake_free(f);
	f = fake_new(db, "ai_delay = 1000");
	assert_null(fake_find(f, "alice drew"));
	fake_free(f);
	fake_rmdb(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_round_pings),
		cmocka_unit_test(test_answer_describes_what_was_told),
		cmocka_unit_test(test_sigkill_loses_no_move),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
