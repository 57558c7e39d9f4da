/* test-restart.c: what a restart keeps (seat state, the clocks), what a restored table says, names that follow their player, a hint for near nicks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "fake.h"

static void
tmpdb(char *db)
{
	int fd = mkstemp(db);

	assert_true(fd >= 0);
	close(fd);
}

/* Runs one SQL statement on db; the first column of its first row, or -1. */
static long long
sql(const char *db, const char *q)
{
	long long v = -1;
	sqlite3 *h;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, q, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

static int
seat_of(struct fake *f, const char *user)
{
	return session_seat_of(fake_session(f, "#g"), user);
}

/* Runs the clock until the table waits for alice (her ping); the wall clock then. */
static int64_t
until_alice_waits(struct fake *f)
{
	for (int i = 0; i < 500; i++) {
		struct session *s = fake_session(f, "#g");

		if (s->wait_seat == seat_of(f, "alice") && fake_find(f, "alice: your turn") != NULL)
			return fake_wall(f);
		fake_advance(f, 1);
	}
	fail_msg("the table never waited for alice");
	return 0;
}

/* A new database at db (a mkstemp template) with alice's duel at #g, run
 * until the table waits for her; *since (if not NULL) the wall clock then. */
static struct fake *
alice_waits_in(char *db, int64_t *since)
{
	struct fake *f;
	int64_t t;

	tmpdb(db);
	f = fake_new(db, NULL);
	fake_say(f, "#g", "alice", "!play 2 duel");
	t = until_alice_waits(f);
	if (since != NULL)
		*since = t;
	return f;
}

/* Issue 11: "a game stopped on 'alice: your turn' although she had typed !auto". */
static void
test_auto_survives_a_restart(void **state)
{
	char db[] = "/tmp/hf-restart-XXXXXX";
	struct fake *f;
	struct session *s;
	uint32_t n;

	(void)state;
	f = alice_waits_in(db, NULL);
	fake_say(f, "#g", "alice", "!auto");
	fake_free(f);                      /* before the computer could move for her */

	f = fake_new(db, NULL);
	s = fake_session(f, "#g");
	assert_non_null(s);
	assert_true(s->seats[seat_of(f, "alice")].away);
	assert_non_null(fake_find(f, "the computer plays for them until they type"));
	n = s->nactions;
	for (int i = 0; i < 20; i++)
		fake_advance(f, 1);
	/* played for, though she typed nothing since */
	assert_true(s->nactions > n + 2);
	fake_free(f);
	fake_rmdb(db);
}

/* Issue 11: "idle reminders and the takeover clock start again from zero at
 * each restart".  A clock started before a restart fires at its deadline. */
static void
test_idle_clock_keeps_its_deadline(void **state)
{
	char db[] = "/tmp/hf-restart-XXXXXX";
	struct fake *f;
	struct session *s;
	int64_t since;

	(void)state;
	f = alice_waits_in(db, &since);   /* turn_reminder = 60, turn_timeout = 120 */
	fake_advance(f, 40000);
	assert_null(fake_find(f, "reminder"));
	fake_free(f);

	/* down for 10 s: the reminder is due 10 s after the start, not 60 */
	f = fake_new_at(db, NULL, since + 50000);
	s = fake_session(f, "#g");
	fake_clear(f);
	fake_advance(f, 9000);
	assert_null(fake_find(f, "reminder"));
	fake_advance(f, 1100);
	assert_non_null(fake_find(f, "alice: reminder"));
	/* and the takeover at 120 s from the start of the wait: 70 s after this start */
	fake_advance(f, 59700);            /* 69.8 s */
	assert_false(s->seats[seat_of(f, "alice")].away);
	fake_advance(f, 400);              /* 70.2 s */
	assert_true(s->seats[seat_of(f, "alice")].away);
	assert_non_null(fake_find(f, "alice is away"));
	fake_free(f);
	fake_rmdb(db);

	/* past the deadline while down: the takeover comes at the start, after the room is told */
	strcpy(db, "/tmp/hf-restart-XXXXXX");
	f = alice_waits_in(db, &since);
	fake_free(f);
	f = fake_new_at(db, NULL, since + 500000);
	assert_false(fake_session(f, "#g")->seats[seat_of(f, "alice")].away);
	assert_non_null(fake_find(f, "Back after a restart"));
	fake_advance(f, 1);
	assert_true(fake_session(f, "#g")->seats[seat_of(f, "alice")].away);
	fake_free(f);
	fake_rmdb(db);
}

/* Issue 11: after a SIGKILL nothing said whose turn it was, and the hand the
 * player needed was lost.  A restored table says it, and hands it again. */
static void
test_restored_table_speaks(void **state)
{
	char db[] = "/tmp/hf-restart-XXXXXX";
	struct fake *f;
	const struct fake_msg *m;

	(void)state;
	f = alice_waits_in(db, NULL);
	fake_free(f);

	f = fake_new(db, NULL);
	m = fake_find(f, "Back after a restart");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_ROOM);
	assert_non_null(strstr(m->text, "round 1 of duel"));
	assert_non_null(strstr(m->text, "alice to play: !draw or !pickup"));
	assert_non_null(strstr(m->text, "Pile: "));
	/* a ping that asks alice to act, with her commands (buttons) */
	assert_string_equal(m->prompt, "alice");
	assert_int_equal(m->nactions, 3);
	m = fake_find(f, "Your hand");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_PRIVATE);
	assert_string_equal(m->user, "alice");
	/* once: a later "up" (a reconnect) says nothing again */
	fake_clear(f);
	{
		struct bot_event up = { .type = BOT_EV_UP };

		adapter_emit(f->ad, &up);
		reply_flush(f->bot);
	}
	assert_null(fake_find(f, "Back after a restart"));
	fake_free(f);
	fake_rmdb(db);
}

/* Issue 11: "SIGTERM while computer players were moving: ... the lines still
 * queued were never sent".  A person's turn is held to go out with the
 * computer's that follows (one line); stopped in between, the room is told
 * her turn before the bot leaves, not never. */
static void
test_stop_tells_a_held_turn(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;
	struct session *s;
	struct hf_view v;
	int alice;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	until_alice_waits(f);
	s = fake_session(f, "#g");
	alice = seat_of(f, "alice");
	fake_say(f, "#g", "alice", "!draw");
	/* a card she may discard: the first one the rules take */
	for (int c = HF_FOUR; c < HF_NCARD && hf_game_turn(s->g) == alice; c++) {
		char line[32];

		hf_game_view(s->g, alice, &v);
		if (v.hand[c] == 0)
			continue;
		snprintf(line, sizeof line, "!discard %s", hf_card_name(c));
		fake_say(f, "#g", "alice", line);
	}
	assert_int_not_equal(hf_game_turn(s->g), alice);
	/* the computer has not moved (its timer did not run): her turn waits for its */
	assert_null(fake_find(f, "alice drew"));
	bot_stop_begin(f->bot);
	m = fake_find(f, "alice drew");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_ROOM);
	assert_non_null(strstr(m->text, "discarded"));
	fake_free(f);
}

/* Issue 11: a player who renamed, quit and came back under the old nick was
 * still listed and pinged under the newer one (no highlight). */
static void
test_name_follows_the_player(void **state)
{
	char db[] = "/tmp/hf-restart-XXXXXX";
	struct fake *f;
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = "#g", .user_id = "alice", .user_name = "alicia",
	                        .text = "!who" };
	int seat;

	(void)state;
	tmpdb(db);
	f = fake_new(db, NULL);
	fake_say(f, "#g", "alice", "!play 2 duel");
	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
	seat = seat_of(f, "alice");
	assert_string_equal(fake_session(f, "#g")->seats[seat].name, "alicia");
	assert_non_null(fake_find(f, "alicia"));
	/* back under the old name: shown so again */
	fake_say(f, "#g", "alice", "!who");
	assert_string_equal(fake_session(f, "#g")->seats[seat].name, "alice");
	ev.text = "!who";
	adapter_emit(f->ad, &ev);
	fake_free(f);
	/* kept in the store */
	f = fake_new(db, NULL);
	assert_string_equal(fake_session(f, "#g")->seats[seat_of(f, "alice")].name, "alicia");
	fake_free(f);
	fake_rmdb(db);
}

/* Issue 11: "a player back as bob_ is told 'you have no seat' with no hint". */
static void
test_near_nick_gets_a_hint(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;

	(void)state;
	assert_true(near_variant("bob_", "bob"));
	assert_true(near_variant("bob|away", "Bob"));
	assert_true(near_variant("Bob2", "bob"));
	assert_true(near_variant("bob_away", "bob__"));
	assert_true(near_variant("bob`", "bob"));
	assert_false(near_variant("bob", "bob"));
	assert_false(near_variant("bobby", "bob"));
	assert_false(near_variant("rob_", "bob"));
	assert_false(near_variant("b_", "b"));
	fake_say(f, "#g", "bob", "!play 2 duel");
	fake_say(f, "#g", "bob_", "!hand");
	m = fake_find(f, "no seat");
	assert_non_null(m);
	assert_non_null(strstr(m->text, "bob has one: if that is you, take that name back to play"));
	fake_say(f, "#g", "carol", "!hand");
	m = fake_find(f, "carol: you have no seat");
	assert_non_null(m);
	assert_null(strstr(m->text, "has one"));
	fake_free(f);
}

/* Issue 12: a game stored before a rule changed may not replay under the
 * new rules.  Never a crash nor a table silently gone: the room hears why
 * and that it is kept; the store keeps it, marked broken, never pruned. */
static void
test_broken_game_is_told(void **state)
{
	char db[] = "/tmp/hf-restart-XXXXXX";
	struct fake *f;
	const struct fake_msg *m;

	(void)state;
	f = alice_waits_in(db, NULL);
	fake_free(f);
	/* as if this version's rules refused the last move stored */
	sql(db, "INSERT INTO actions(game, seq, seat, text) SELECT 1, coalesce(max(seq), 0) + 1, 0, 'discard JK'"
	        " FROM actions WHERE game=1");

	f = fake_new(db, NULL);
	m = fake_find(f, "cannot go on");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_ROOM);
	assert_string_equal(m->room, "#g");
	assert_non_null(strstr(m->text, "Back after a restart, but the game of alice (game 1) cannot go on: "
	                                "its move "));
	assert_non_null(strstr(m->text, ", \"discard JK\", is refused by this version's rules: "));
	assert_non_null(strstr(m->text, "It is kept for the operator; !play or !new starts a new one."));
	assert_null(fake_find(f, "Back after a restart: "));
	assert_null(fake_session(f, "#g"));
	/* the room plays again */
	fake_say(f, "#g", "alice", "!play 2 duel");
	assert_non_null(fake_session(f, "#g"));
	fake_free(f);
	assert_int_equal(sql(db, "SELECT count(*) FROM games WHERE id=1 AND state='broken'"), 1);
	assert_true(sql(db, "SELECT count(*) FROM actions WHERE game=1") >= 1);

	/* told once; the new game comes back; the broken one outlives any retention */
	f = fake_new(db, NULL);
	assert_null(fake_find(f, "cannot go on"));
	assert_non_null(fake_find(f, "Back after a restart: "));
	assert_true(store_prune(f->bot->store, 1LL << 40, 1LL << 40, 100) >= 0);
	fake_free(f);
	assert_int_equal(sql(db, "SELECT count(*) FROM games WHERE id=1 AND state='broken'"), 1);
	fake_rmdb(db);

	/* a table not dealt yet, whose rules this version no longer reads */
	strcpy(db, "/tmp/hf-restart-XXXXXX");
	tmpdb(db);
	f = fake_new(db, NULL);
	fake_say(f, "#g", "alice", "!new classic");
	fake_free(f);
	sql(db, "UPDATE games SET rules='classic retired_key=1'");
	f = fake_new(db, NULL);
	m = fake_find(f, "cannot go on");
	assert_non_null(m);
	assert_non_null(strstr(m->text, "its rules \"classic retired_key=1\" are not this version's: "));
	assert_null(fake_session(f, "#g"));
	fake_free(f);
	fake_rmdb(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_survives_a_restart),
		cmocka_unit_test(test_idle_clock_keeps_its_deadline),
		cmocka_unit_test(test_restored_table_speaks),
		cmocka_unit_test(test_stop_tells_a_held_turn),
		cmocka_unit_test(test_name_follows_the_player),
		cmocka_unit_test(test_near_nick_gets_a_hint),
		cmocka_unit_test(test_broken_game_is_told),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
