/* e2e-discord-lanes.c: Discord's channel lines take turns in lib/outq's lanes: a stranger's flood of typed commands does not put a game's next turn line behind its backlog in the channel's bucket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcplay.h"

#define QUICK "classic rounds=1"

/* A line in the channel for everyone (not an interaction's answer). */
static bool
channel_line(json_t *m)
{
	const char *via = json_string_value(json_object_get(m, "via"));

	return dcplay_public(m, NULL) && via != NULL && strcmp(via, "channel") == 0;
}

/* The index of the first turn line of user at or after from, -1 after ms. */
static long
turn_index(struct dcplay *p, size_t from, const char *user, int ms)
{
	char want[64];

	/* "hf:draw:USER:N": the turn line's number follows since issue 23 */
	snprintf(want, sizeof want, "hf:draw:%s:", user);
	for (int t = 0; t <= ms; t += 50) {
		json_t *s = dcplay_state(p), *msgs = json_object_get(s, "messages");

		for (size_t i = from; i < json_array_size(msgs); i++) {
			const char *id = dcplay_button(json_array_get(msgs, i), "Draw");

			if (dcplay_public(json_array_get(msgs, i), NULL) && id != NULL && strncmp(id, want, strlen(want)) == 0) {
				json_decref(s);
				return (long)i;
			}
		}
		json_decref(s);
		e2e_sleep_ms(50);
	}
	return -1;
}

/* ann and bob play with two computers; cy, seated nowhere, types a dozen commands at once in
 * the channel (the core's flood control opened wide, so that every one is
 * answered there).  Then the player to move hands the turn to the computer:
 * the next turn line goes after two of cy's answers at most (the two
 * handed to REST before it, POSTS_AHEAD), not behind her backlog waiting
 * in the channel's bucket (5 lines in 5 s on the fake, as on Discord).
 * Before lib/outq on Discord: 9 of her 14 lines went between them. */
static void
test_stranger_flood_behind_the_game(void **state)
{
	static const char *const cmds[] = { "!rules", "!help", "!who", "!table", "!score", "!top", "!stats",
	                                    "!help draw", "!help meld", "!help pickup", "!help discard", "!help auto",
	                                    "!commands", "!pile" };
	struct dcplay *p;
	const char *id;
	json_t *m, *s, *msgs;
	size_t flood_at, mark;
	long turn;
	int who, before = 0, all = 0;

	p = dcplay_setup_state(state, "dc-lanes", 3, "flood_burst = 100\nflood_refill = 100", "message_commands = yes");
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"privileged\":[15]}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(id = dcplay_command(p, 0, "new", "{\"rules\":\"" QUICK "\"}"));
	assert_non_null(m = dcplay_reply(p, id, "opens", 10000));
	json_decref(m);
	assert_non_null(id = dcplay_command(p, 1, "join", NULL));
	assert_non_null(m = dcplay_reply(p, id, "sits down", 10000));
	json_decref(m);
	for (int i = 0; i < 2; i++) {
		assert_non_null(id = dcplay_command(p, 0, "bot", "{\"what\":\"add\"}"));
		assert_true(dcplay_acked(p, id, 5000) >= 0);
	}
	mark = dcplay_count(p);
	assert_non_null(dcplay_command(p, 0, "start", NULL));
	assert_non_null(m = dcplay_turn_line(p, mark, &who, 15000));
	json_decref(m);
	assert_true(who == 0 || who == 1);
	/* cy's flood, all at once; her first answers are out before the turn */
	flood_at = dcplay_count(p);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		assert_int_equal(dcplay_say(p, 2, cmds[i]), 0);
	assert_non_null(m = dcplay_wait(p, flood_at, NULL, NULL, NULL, 10000));
	json_decref(m);
	/* the rest of her first answers go out in the fake's next 300 ms */
	e2e_sleep_ms(300);
	mark = dcplay_count(p);
	assert_non_null(id = dcplay_command(p, who, "auto", NULL));
	turn = turn_index(p, mark, p->user[1 - who], 30000);
	assert_true(turn >= 0);
	/* her last question is answered too, after the game's line (nothing of
	 * hers is lost, only put behind the game): then count */
	assert_non_null(m = dcplay_wait(p, flood_at, "No finished games for cy", NULL, NULL, 15000));
	json_decref(m);
	/* cy's lines in the channel after the turn was handed over and before the next turn line */
	s = dcplay_state(p);
	msgs = json_object_get(s, "messages");
	for (size_t i = flood_at; i < json_array_size(msgs); i++) {
		json_t *x = json_array_get(msgs, i);

		if (!channel_line(x) || dcplay_button(x, "Draw") != NULL)
			continue;
		all += 1;
		before += i >= mark && (long)i < turn;
	}
	json_decref(s);
	printf("cy's flood: %d channel lines in all, %d of them between the turn handed over and the next turn line\n",
	       all, before);
	/* the flood made a backlog beyond the bucket's 5 (else this proves
	 * nothing; newer "help" answers replaced older ones still waiting, and
	 * "how to play is on its way privately" may replace "the rules are on
	 * their way privately", the same key, when that one still waits) */
	assert_true(all >= 6);
	assert_true(before <= 3);
	dcplay_end(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_stranger_flood_behind_the_game, dcplay_teardown_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
