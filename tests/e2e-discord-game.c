/* e2e-discord-game.c: whole games through the real daemon and the fake Discord: slash commands, buttons, hands only the player sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "dcplay.h"

/* Small and quick: one round of one deck, small hands: the stock runs out in a few turns. */
#define QUICK "classic rounds=1 decks=1 hand=5 foot=5"

static bool
public_in_guild(json_t *m, void *ctx)
{
	(void)ctx;
	return !json_is_true(json_object_get(m, "ephemeral")) && !json_is_true(json_object_get(m, "dm"));
}

/* The turn line asking user i to draw: a public message whose "Draw" button is i's. */
static bool
turn_of(json_t *m, void *ctx)
{
	const char *want = ctx, *id = dcplay_button(m, "Draw");

	return public_in_guild(m, NULL) && id != NULL && strcmp(id, want) == 0;
}

static json_t *
wait_turn_line(struct dcplay *p, int *who, size_t from)
{
	for (int t = 0; t < 300; t++) {
		for (int i = 0; i < p->nusers; i++) {
			char want[64];
			json_t *m;

			snprintf(want, sizeof want, "hf:draw:%s", p->user[i]);
			if ((m = dcplay_wait(p, from, NULL, turn_of, want, 0)) != NULL) {
				*who = i;
				return m;
			}
		}
		usleep(50 * 1000);
	}
	return NULL;
}

/* The first card of a hand line: "Your hand (13): A×3 Q ..." gives "A". */
static void
first_card(const char *hand, char *out, size_t len)
{
	const char *s = strstr(hand, "): ");
	size_t n;

	assert_non_null(s);
	s += 3;
	n = strcspn(s, " \xc3\x97|\\");
	snprintf(out, len, "%.*s", (int)n, s);
}

static int
teardown(void **state)
{
	struct dcplay *p = *state;

	if (p != NULL) {
		dcplay_teardown(p);
		free(p);
	}
	return 0;
}

static void
test_four_play_with_slash_commands_and_buttons(void **state)
{
	struct dcplay *p = calloc(1, sizeof *p);
	json_t *m, *hand, *turn;
	const char *id, *draw, *myhand;
	char card[16], opts[128], mid[32];
	int who = -1, other;
	size_t from;

	*state = p;
	assert_int_equal(dcplay_setup(p, "dc-game", 4, NULL, NULL), 0);
	assert_int_equal(dcplay_start(p), 0);

	/* /new, /join, /start: each answered in the channel, "Ann used /new" above it */
	assert_non_null(id = dcplay_command(p, 0, "new", "{\"rules\":\"" QUICK "\"}"));
	assert_non_null(m = dcplay_reply(p, id, "opens a classic table", 10000));
	assert_true(public_in_guild(m, NULL));
	assert_string_equal(json_string_value(json_object_get(m, "via")), "callback");
	/* a command in the text is a slash command */
	assert_non_null(strstr(json_string_value(json_object_get(m, "content")), "`/join`"));
	json_decref(m);
	for (int i = 1; i < 4; i++) {
		assert_non_null(id = dcplay_command(p, i, "join", NULL));
		assert_non_null(m = dcplay_reply(p, id, "sits down", 10000));
		json_decref(m);
	}
	/* the shown name: the guild nick wins */
	assert_non_null(m = dcplay_wait(p, 0, "Dee-Nick", NULL, NULL, 5000));
	json_decref(m);
	from = dcplay_count(p);
	assert_non_null(id = dcplay_command(p, 0, "start", NULL));

	/* the deal: the room's line carries the turn buttons; no hand anywhere public */
	assert_non_null(turn = wait_turn_line(p, &who, from));
	assert_non_null(dcplay_button(turn, "My hand"));
	assert_string_equal(dcplay_button(turn, "My hand"), "hf:hand:");
	assert_non_null(dcplay_button(turn, "Pick up"));
	/* the player to move, and only them, is pinged */
	assert_int_equal(json_array_size(json_object_get(json_object_get(turn, "pings"), "users")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(turn, "pings"), "users"), 0)),
	                    p->user[who]);
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn, "id")));
	draw = dcplay_button(turn, "Draw");
	myhand = dcplay_button(turn, "My hand");

	/* someone else presses the player's Draw: told privately, nothing happens */
	other = (who + 1) % 4;
	from = dcplay_count(p);
	assert_non_null(id = dcplay_press(p, other, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "not your turn", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);

	/* anyone's My hand: their own hand, only they see it */
	assert_non_null(id = dcplay_press(p, other, mid, myhand));
	assert_non_null(hand = dcplay_reply(p, id, "Your hand (", 10000));
	assert_true(json_is_true(json_object_get(hand, "ephemeral")));
	json_decref(hand);

	/* the player draws with the button: the room sees it, their new hand is theirs alone */
	assert_non_null(id = dcplay_press(p, who, mid, draw));
	assert_non_null(m = dcplay_reply(p, id, "draws 2", 10000));
	assert_true(public_in_guild(m, NULL));
	json_decref(m);
	assert_non_null(hand = dcplay_reply(p, id, "Your hand (", 10000));
	assert_true(json_is_true(json_object_get(hand, "ephemeral")));
	first_card(json_string_value(json_object_get(hand, "content")), card, sizeof card);
	json_decref(hand);

	/* and discards with the slash command, its card option as typed */
	snprintf(opts, sizeof opts, "{\"card\":\"%s\"}", card);
	assert_non_null(id = dcplay_command(p, who, "discard", opts));
	assert_non_null(m = dcplay_reply(p, id, "discards", 10000));
	json_decref(m);
	json_decref(turn);

	/* everyone hands their seat to the computer: the game runs to its end */
	for (int i = 0; i < 4; i++) {
		assert_non_null(id = dcplay_command(p, i, "auto", NULL));
		assert_true(dcplay_acked(p, id, 5000) >= 0);
	}
	assert_non_null(m = dcplay_wait(p, 0, "Game over", public_in_guild, NULL, 180000));
	json_decref(m);

	/* no hand was ever public; nobody but the player to move was pinged; every interaction answered in time */
	assert_int_equal(dcplay_audit(p), 0);
	assert_int_equal(dcplay_unanswered(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_four_play_with_slash_commands_and_buttons, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
