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

#include "daemon.h"
#include "dcplay.h"

/* Small and quick: one round of one deck, small hands: the stock runs out in a few turns. */
#define QUICK "classic rounds=1 decks=1 hand=5 foot=5"

static void
test_four_play_with_slash_commands_and_buttons(void **state)
{
	struct dcplay *p;
	json_t *m, *hand, *turn;
	const char *id, *draw, *myhand;
	char card[16], opts[128], mid[32];
	int who = -1, other;
	size_t from;

	p = dcplay_setup_state(state, "dc-game", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);

	/* /new, /join, /start: each answered in the channel, "Ann used /new" above it */
	assert_non_null(id = dcplay_command(p, 0, "new", "{\"rules\":\"" QUICK "\"}"));
	assert_non_null(m = dcplay_reply(p, id, "opens a classic table", 10000));
	assert_true(dcplay_public(m, NULL));
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
	assert_non_null(turn = dcplay_turn_line(p, from, &who, 15000));
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

	/* the player draws with the button: a step of their own turn, answered
	 * to them alone with what they drew and their new hand; the room is told
	 * nothing yet */
	assert_non_null(id = dcplay_press(p, who, mid, draw));
	assert_non_null(hand = dcplay_reply(p, id, "You drew ", 10000));
	assert_true(json_is_true(json_object_get(hand, "ephemeral")));
	assert_non_null(strstr(json_string_value(json_object_get(hand, "content")), "Your hand ("));
	dcplay_first_card(json_string_value(json_object_get(hand, "content")), card, sizeof card);
	json_decref(hand);
	assert_null(dcplay_wait(p, from, "drew", dcplay_public, NULL, 0));

	/* and discards with the slash command, its card option as typed: the
	 * turn ends, and the room hears it whole in one line */
	snprintf(opts, sizeof opts, "{\"card\":\"%s\"}", card);
	assert_non_null(id = dcplay_command(p, who, "discard", opts));
	assert_non_null(m = dcplay_reply(p, id, "discarded", 10000));
	assert_true(dcplay_public(m, NULL));
	assert_non_null(strstr(json_string_value(json_object_get(m, "content")), "drew 2 cards"));
	json_decref(m);
	json_decref(turn);

	/* everyone hands their seat to the computer: the game runs to its end */
	for (int i = 0; i < 4; i++) {
		assert_non_null(id = dcplay_command(p, i, "auto", NULL));
		assert_true(dcplay_acked(p, id, 5000) >= 0);
	}
	assert_non_null(m = dcplay_wait(p, 0, "Game over", dcplay_public, NULL, 180000));
	json_decref(m);

	/* no hand was ever public; nobody but the player to move was pinged; every interaction answered in time */
	dcplay_end(p);
}

static bool
is_ephemeral(json_t *m, void *ctx)
{
	(void)ctx;
	return json_is_true(json_object_get(m, "ephemeral"));
}

static bool
wait_dm(struct dcplay *p, int i, const char *needle, int ms)
{
	for (int t = 0; t <= ms; t += 50) {
		if (dcplay_dm_count(p, i, needle) > 0)
			return true;
		usleep(50 * 1000);
	}
	return false;
}

/* With private = dm, every hand that changes outside its player's own
 * interaction goes to their DM; their own interactions are still answered
 * "only you can see this". */
static void
test_private_dm_for_everyone(void **state)
{
	struct dcplay *p;
	json_t *turn, *m;
	const char *id;
	int who;

	p = dcplay_setup_state(state, "dc-dm", 4, NULL, "private = dm");
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	/* Ann dealt: her hand answers her /start, privately; the others' go to their DMs */
	for (int i = 1; i < 4; i++)
		assert_true(wait_dm(p, i, "Your hand", 10000));
	assert_int_equal(dcplay_dm_count(p, 0, "Your hand"), 0);
	assert_non_null(m = dcplay_wait(p, 0, "Your hand", is_ephemeral, NULL, 5000));
	json_decref(m);
	/* /hand is the player's own interaction: answered where they asked, only to them */
	assert_non_null(id = dcplay_command(p, 2, "hand", NULL));
	assert_non_null(m = dcplay_reply(p, id, "Your hand", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	dcplay_end(p);
}

/* Per player, with !private: privmsg is a DM, notice (the default here) the
 * My hand button; a player whose DMs are closed gets the button instead,
 * and the bot is told the DM failed. */
static void
test_private_choice_per_player(void **state)
{
	struct dcplay *p;
	json_t *turn, *m;
	const char *id, *hand;
	char mid[32];
	int who;

	p = dcplay_setup_state(state, "dc-choice", 4, NULL, NULL);
	/* dee's DMs are closed to the bot */
	assert_int_equal(fakedc_ctl(&p->f, "user", "{\"id\":\"%s\",\"dm_open\":false}", p->user[3]), 0);
	assert_int_equal(dcplay_start(p), 0);
	for (int i = 1; i < 4; i += 2) {
		assert_non_null(id = dcplay_command(p, i, "private", "{\"how\":\"privmsg\"}"));
		assert_non_null(m = dcplay_reply(p, id, "privmsg", 10000));
		assert_true(json_is_true(json_object_get(m, "ephemeral")));
		json_decref(m);
	}
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	/* bob chose DMs: his hand is there */
	assert_true(wait_dm(p, 1, "Your hand", 10000));
	/* dee chose DMs, but they are closed: the room offers the hand with a button, pinging her */
	assert_non_null(m = dcplay_wait(p, 0, "cannot send you direct messages", dcplay_public, NULL, 10000));
	assert_non_null(strstr(json_string_value(json_object_get(m, "content")), p->user[3]));
	assert_non_null(hand = dcplay_button(m, "My hand"));
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(m, "id")));
	assert_non_null(id = dcplay_press(p, 3, mid, hand));
	json_decref(m);
	assert_non_null(m = dcplay_reply(p, id, "Your hand", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	assert_true(e2e_daemon_log_has(&p->d, "cannot send you direct messages"));
	/* cy never chose: no DM; the deal's line has My hand for her */
	assert_int_equal(dcplay_dm_count(p, 2, ""), 0);
	assert_non_null(dcplay_button(turn, "My hand"));
	json_decref(turn);
	dcplay_end(p);
}

/* message_commands = yes: "!draw"-style lines and "@handfoot draw" work,
 * with the privileged MESSAGE_CONTENT intent asked for; without it enabled
 * in the Developer Portal, the Gateway's 4014 is logged plainly, once. */
static void
test_typed_commands(void **state)
{
	struct dcplay *p;
	json_t *s, *m;
	size_t from;

	p = dcplay_setup_state(state, "dc-typed", 4, NULL, "message_commands = yes");
	assert_int_equal(fakedc_ctl(&p->f, "config", "{\"privileged\":[15]}"), 0);
	assert_int_equal(dcplay_start(p), 0);
	s = dcplay_state(p);
	assert_true(json_integer_value(json_object_get(json_object_get(json_array_get(json_object_get(s, "connections"),
	                                                                               0), "identify"), "intents")) &
	            (1 << 15));
	json_decref(s);
	from = dcplay_count(p);
	assert_int_equal(dcplay_say(p, 0, "!new " QUICK), 0);
	assert_non_null(m = dcplay_wait(p, from, "opens a classic table", dcplay_public, NULL, 10000));
	assert_string_equal(json_string_value(json_object_get(m, "via")), "channel");
	json_decref(m);
	assert_int_equal(dcplay_say(p, 1, "<@900000000000000002> join"), 0);
	assert_non_null(m = dcplay_wait(p, from, "sits down (2 at the table)", dcplay_public, NULL, 10000));
	json_decref(m);
	/* chatter is not a command: no answer */
	assert_int_equal(dcplay_say(p, 2, "good luck everyone"), 0);
	/* a command typed after it is answered: the chatter was read before it */
	assert_int_equal(dcplay_say(p, 3, "<@900000000000000002> join"), 0);
	assert_non_null(m = dcplay_wait(p, from, "sits down (3 at the table)", dcplay_public, NULL, 10000));
	json_decref(m);
	assert_null(dcplay_wait(p, from, "good luck", NULL, NULL, 0));
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
	dcplay_teardown(p);
	memset(p, 0, sizeof *p);

	/* the intent not enabled: 4014, said plainly, and no retry */
	assert_int_equal(dcplay_setup(p, "dc-4014", 1, NULL, "message_commands = yes"), 0);
	assert_int_equal(e2e_daemon_start(&p->d, p->tag, p->conf, NULL), 0);
	p->daemon_up = true;
	assert_int_equal(e2e_daemon_wait_log(&p->d, "4014", 10000), 0);
	/* nothing happens, by design: a reconnect would come after the gateway's
	 * backoff for a failed connection (about 1 s), so 3 s give it its chance */
	sleep(3);
	s = dcplay_state(p);
	assert_int_equal(json_array_size(json_object_get(s, "connections")), 1);
	json_decref(s);
	assert_true(e2e_daemon_log_has(&p->d, "not reconnecting"));
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_true(e2e_daemon_alive(&p->d));
}

/* Waits until the fake holds a command list for scope (a guild's id or "global") of n commands. */
static bool
scope_has(struct dcplay *p, const char *scope, size_t n, int ms)
{
	for (int t = 0; t <= ms; t += 50) {
		json_t *s = dcplay_state(p), *l = json_object_get(json_object_get(s, "commands"), scope);
		bool ok = json_is_array(l) && json_array_size(l) == n;

		json_decref(s);
		if (ok)
			return true;
		e2e_sleep_ms(50);
	}
	return false;
}

/* Waits until one of the n interactions ids was deferred ("thinking...", ack
 * type 5) and as many messages are deleted. */
static bool
thinking_deleted(struct dcplay *p, char ids[][32], int n, int ms)
{
	for (int t = 0; t <= ms; t += 100) {
		json_t *s = dcplay_state(p), *it, *m;
		const char *key;
		size_t i;
		int deferred = 0, deleted = 0;

		json_object_foreach(json_object_get(s, "interactions"), key, it)
			for (int k = 0; k < n; k++)
				deferred += strcmp(key, ids[k]) == 0 &&
				            json_integer_value(json_object_get(json_object_get(it, "ack"), "type")) == 5;
		json_array_foreach(json_object_get(s, "messages"), i, m)
			deleted += json_is_true(json_object_get(m, "deleted"));
		json_decref(s);
		if (deferred >= 1 && deleted >= deferred)
			return true;
		e2e_sleep_ms(100);
	}
	return false;
}

/* Commands registered globally when no guild is listed (in DMs too); long
 * answers cut under 2000 characters; a command the bot does not answer
 * (a flood dropped) is deferred in time, then its "thinking..." deleted. */
static void
test_global_commands_long_answers_and_silence(void **state)
{
	struct dcplay *p;
	json_t *s, *cmd, *it, *m;
	const char *id, *key;
	char ids[8][32];
	size_t i, ncmds;
	int deferred = 0, deleted = 0;

	/* every command of the table is a slash command */
	cmd_table(&ncmds);

	/* first with the guild listed: commands there, and none globally (a clear) */
	p = dcplay_setup_state(state, "dc-global", 4, NULL, NULL);
	assert_int_equal(dcplay_start(p), 0);
	/* the global scope cleared after the guild's registration */
	assert_true(scope_has(p, "global", 0, 10000));
	s = dcplay_state(p);
	assert_int_equal(json_array_size(json_object_get(json_object_get(s, "commands"), p->guild)), ncmds);
	assert_int_equal(json_array_size(json_object_get(json_object_get(s, "commands"), "global")), 0);
	assert_true(json_is_array(json_object_get(json_object_get(s, "commands"), "global")));
	json_decref(s);
	assert_int_equal(dcplay_stop(p), 0);
	/* then with no guild: registered globally, for guilds and DMs, and taken away from the guild */
	{
		char *conf = e2e_read_file(p->conf), *g;

		assert_non_null(conf);
		assert_non_null(g = strstr(conf, "guilds = "));
		memcpy(g, "#", 1);
		assert_int_equal(e2e_write_file(p->conf, conf), 0);
		free(conf);
	}
	assert_int_equal(dcplay_start(p), 0);
	/* the guild's scope cleared after the global registration */
	assert_true(scope_has(p, p->guild, 0, 10000));
	s = dcplay_state(p);
	assert_int_equal(json_array_size(json_object_get(json_object_get(s, "commands"), p->guild)), 0);
	assert_int_equal(json_array_size(json_object_get(json_object_get(s, "commands"), "global")), ncmds);
	json_array_foreach(json_object_get(json_object_get(s, "commands"), "global"), i, cmd)
		assert_int_equal(json_array_size(json_object_get(cmd, "contexts")), 2);
	json_decref(s);
	/* the longest answers there are: the help and the rules */
	assert_non_null(id = dcplay_command(p, 0, "help", NULL));
	assert_non_null(m = dcplay_reply(p, id, "", 10000));
	json_decref(m);
	assert_non_null(id = dcplay_command(p, 1, "rules", "{\"rules\":\"pcio\"}"));
	assert_non_null(m = dcplay_reply(p, id, "Rules", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")));
	json_decref(m);
	/* eight commands at once from one player: the bot's flood control answers the sixth and drops the rest */
	for (int k = 0; k < 8; k++) {
		assert_non_null(id = dcplay_command(p, 2, "who", NULL));
		snprintf(ids[k], sizeof ids[k], "%s", id);
	}
	/* the bot's own timer: a "thinking..." nobody filled is deleted
	 * DISCORD_ANSWER_SETTLE_MS (5 s) after it was deferred (within 3 s) */
	assert_true(thinking_deleted(p, ids, 8, 20000));
	s = dcplay_state(p);
	json_object_foreach(json_object_get(s, "interactions"), key, it) {
		json_t *ack = json_object_get(it, "ack");

		for (int k = 0; k < 8; k++)
			if (strcmp(key, ids[k]) == 0 && json_integer_value(json_object_get(ack, "type")) == 5) {
				deferred++;
				assert_true(json_number_value(json_object_get(ack, "ms")) < 3000);
			}
	}
	json_array_foreach(json_object_get(s, "messages"), i, m)
		deleted += json_is_true(json_object_get(m, "deleted"));
	json_decref(s);
	assert_true(deferred >= 1);
	assert_int_equal(deleted, deferred);
	dcplay_end(p);
}

/* A member who may manage messages in the channel moderates it: they end a
 * table they do not own at once; a player who may not only votes. */
static void
test_moderator_ends_a_table(void **state)
{
	struct dcplay *p;
	json_t *turn, *m;
	const char *id;
	int who;

	p = dcplay_setup_state(state, "dc-mod", 4, NULL, NULL);
	/* bob's roles give him MANAGE_MESSAGES (1 << 13) in the channel */
	assert_int_equal(fakedc_ctl(&p->f, "guild", "{\"id\":\"%s\",\"members\":[{\"id\":\"%s\",\"username\":\"bob\","
	                            "\"permissions\":\"%llu\"}]}", p->guild, p->user[1],
	                            (1ull << 13) | (1ull << 10) | (1ull << 11) | (1ull << 31)), 0);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));
	json_decref(turn);
	/* cy is a player, no moderator: a vote */
	assert_non_null(id = dcplay_command(p, 2, "abort", NULL));
	assert_non_null(m = dcplay_reply(p, id, "votes to end the game", 10000));
	json_decref(m);
	/* bob moderates the channel: the game ends */
	assert_non_null(id = dcplay_command(p, 1, "abort", NULL));
	assert_non_null(m = dcplay_reply(p, id, "a moderator of the room", 10000));
	assert_true(dcplay_public(m, NULL));
	assert_non_null(strstr(json_string_value(json_object_get(m, "content")), "The game is over"));
	json_decref(m);
	dcplay_end(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_four_play_with_slash_commands_and_buttons, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_private_dm_for_everyone, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_private_choice_per_player, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_typed_commands, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_global_commands_long_answers_and_silence, dcplay_teardown_state),
		cmocka_unit_test_teardown(test_moderator_ends_a_table, dcplay_teardown_state),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
