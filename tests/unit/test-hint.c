/* test-hint.c: a hint is commands you can type: over thousands of random positions of every preset, typing the hint's commands one after another through the command path is accepted every time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* Types the hint's commands, one after another: none is refused.  Returns how many were typed. */
static int
type_hint(struct fake *f, const char *hint)
{
	char line[1024], *p, *cmd, *end;
	int typed = 0;

	assert_int_equal(strncmp(hint, "hint: ", 6), 0);
	snprintf(line, sizeof line, "%s", hint + 6);
	/* what follows the commands: "(you go out)", ", then !hint again" */
	if ((end = strstr(line, ", then !hint again")) != NULL)
		*end = '\0';
	if ((end = strstr(line, " (")) != NULL)
		*end = '\0';
	for (p = line; p != NULL; p = end) {
		cmd = p;
		if ((end = strstr(p, " · ")) != NULL) {
			*end = '\0';
			end += strlen(" · ");
		}
		/* every step a whole command with its prefix, cards as the hand names them */
		assert_int_equal(cmd[0], '!');
		assert_null(strstr(cmd, "3c"));
		assert_null(strstr(cmd, "x"));
		if (fake_session(f, "#g") == NULL)
			fail_msg("the game ended before \"%s\" of \"%s\"", cmd, hint);
		fake_clear(f);
		fake_say(f, "#g", "alice", cmd);
		if (fake_find(f, "refused") != NULL || fake_find(f, "usage") != NULL)
			fail_msg("hint \"%s\": \"%s\" got \"%s\"", hint, cmd,
			         fake_find(f, "refused") ? fake_find(f, "refused")->text : fake_find(f, "usage")->text);
		typed++;
		fake_advance(f, 1);
	}
	return typed;
}

/* A game of preset for n with alice at seat 0: at each of alice's decisions
 * she asks !hint, and types it (or, one time in three, the computer moves for
 * her, so the positions differ from the hint's own line). */
static int
hint_game(const char *preset, int n, uint64_t seed, int *typed)
{
	struct fake *f = fake_new(":memory:", "ai_budget = 300\nflood_burst = 1000\nflood_refill = 1\nai_level = normal");
	char cmd[96], why[HF_ERRLEN];
	uint64_t rng = seed;
	int hints = 0, steps, seat;

	f->seed = seed;
	snprintf(cmd, sizeof cmd, "!play %d %s rounds=1", n, preset);
	fake_say(f, "#g", "alice", cmd);
	for (steps = 0; steps < 20000; steps++) {
		struct session *s = fake_session(f, "#g");
		const struct fake_msg *m;

		if (s == NULL || s->g == NULL)
			break;
		seat = session_seat_of(s, "alice");
		if (!fake_waits_for(f, "#g", "alice")) {
			fake_advance(f, 5);
			continue;
		}
		fake_clear(f);
		fake_say(f, "#g", "alice", "!hint");
		assert_non_null(m = fake_find(f, "hint: "));
		if (getenv("HINT_SHOW")) printf("%s\n", m->text);
		hints++;
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if ((rng >> 33) % 3 != 0) {
			*typed += type_hint(f, m->text);
		} else {
			struct hf_view v;
			struct hf_action a;

			hf_game_view(s->g, seat, &v);
			hf_ai_decide(&v, HF_AI_EASY, 100, &rng, &a);
			if (flow_apply(f->bot, s, seat, &a, why, sizeof why) < 0)
				fail_msg("the computer's move for alice was refused: %s", why);
			reply_flush(f->bot);
		}
		fake_advance(f, 1);
	}
	fake_free(f);
	return hints;
}

static void
test_typed_hints_accepted(void **state)
{
	static const struct { const char *preset; int n; } tables[] = {
		{ "classic", 4 }, { "classic", 6 }, { "sevens", 4 }, { "sevens", 2 }, { "family", 3 }, { "family", 4 },
		{ "pcio", 4 }, { "duel", 2 },
	};
	const char *env = getenv("HINT_GAMES");
	int games = env != NULL ? atoi(env) : 8, hints = 0, typed = 0, g;
	size_t t;

	(void)state;
	for (t = 0; t < sizeof tables / sizeof tables[0]; t++)
		for (g = 0; g < games; g++)
			hints += hint_game(tables[t].preset, tables[t].n, 0x1234u + (uint64_t)g * 7919u + t, &typed);
	printf("%d hints asked, %d commands typed, none refused\n", hints, typed);
	assert_true(hints >= 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_hints_accepted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
