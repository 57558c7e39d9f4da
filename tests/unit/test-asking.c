/* test-asking.c: questions asked while a room's lines wait to be sent: answered at once, saying what is on its way, never delaying the computer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* What a run saw: the computer's pace and the answers to "!pile". */
struct asked {
	uint32_t actions;        /* moves made in the run's time */
	size_t asked;            /* questions asked while the room had lines unsent */
	size_t answers;          /* "Pile: ..." answers in the room */
	size_t as_lines;         /* of them, handed over as lines that must be delivered */
	size_t ahead;            /* of them, handed over while the room's lines waited */
	size_t said_so;          /* of those, saying how many lines are on their way */
};

/* bob plays his own turns as the computer would, typed in the room. */
static void
bob_plays(struct fake *f, struct session *s, int seat, uint64_t *rng)
{
	struct hf_view v;
	struct hf_action a;
	char text[256], line[300];
	bool machine;

	if (session_waiting(s, &machine) != seat || machine)
		return;
	hf_game_view(s->g, seat, &v);
	hf_ai_choose(&v, 0, rng, &a);
	hf_action_format(&a, text, sizeof text);
	snprintf(line, sizeof line, "!%s", text);
	fake_say(f, "#g", "bob", line);
}

/* A table of alice (the computer plays for her: !auto), bob and two
 * computer players on a paced room (a line every 2 s); if ask, cy (who
 * plays nothing) and bob ask "!pile" whenever the room has lines unsent. */
static struct asked
run(bool ask)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 1000");
	struct asked r = { 0 };
	struct session *s;
	uint64_t rng = 42;
	int bob;

	fake_pace(f, 40, 2000);
	fake_say(f, "#g", "alice", "!new classic rounds=1");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!bot");
	fake_say(f, "#g", "alice", "!bot");
	fake_say(f, "#g", "alice", "!start");
	assert_non_null(s = fake_session(f, "#g"));
	assert_non_null(s->g);
	bob = session_seat_of(s, "bob");
	assert_true(bob >= 0);
	fake_say(f, "#g", "alice", "!auto");
	fake_clear(f);
	for (int t = 0; t < 1200 && (s = fake_session(f, "#g")) != NULL; t++) {
		bob_plays(f, s, bob, &rng);
		if (ask && t % 5 == 0 && f->ad->ops->pending(f->ad, "#g", PENDING_ROOM) > 0) {
			fake_say(f, "#g", "cy", "!pile");
			fake_say(f, "#g", "bob", "!pile");
			r.asked++;
		}
		fake_advance(f, 100);
	}
	r.actions = (s = fake_session(f, "#g")) != NULL ? s->nactions : UINT32_MAX;
	for (size_t i = 0; i < f->nmsgs; i++) {
		const struct fake_msg *m = &f->msgs[i];

		if (strcmp(m->room, "#g") != 0 || strncmp(m->text, "Pile:", 5) != 0)
			continue;
		r.answers++;
		r.as_lines += m->key[0] == '\0';
		r.ahead += m->room_unsent > 0;
		r.said_so += m->room_unsent > 0 && strstr(m->text, "still on") != NULL;
	}
	fake_free(f);
	return r;
}

/* Asking never delays the computer turns: the same moves in the same time
 * as a table nobody asks at; and each answer goes as an answer (never one
 * of the room's lines, which the computer waits for), at once: one given
 * while the room's lines wait says they are on their way (answers once
 * waited for them: 30 s beside two busy tables). */
static void
test_asking_never_delays(void **state)
{
	struct asked quiet, asked;

	(void)state;
	quiet = run(false);
	asked = run(true);
	print_message("quiet %u, asked %u; %zu asked, %zu answers, %zu as lines, %zu ahead, %zu saying so\n", quiet.actions,
	              asked.actions, asked.asked, asked.answers, asked.as_lines, asked.ahead, asked.said_so);
	assert_true(quiet.actions > 20);
	assert_true(asked.asked > 5);
	assert_int_equal(asked.answers, 2 * asked.asked);   /* every question answered (14 of 466 once) */
	assert_int_equal(asked.as_lines, 0);
	assert_true(asked.ahead > 5);
	assert_int_equal(asked.said_so, asked.ahead);
	assert_int_equal(asked.actions, quiet.actions);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asking_never_delays),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
