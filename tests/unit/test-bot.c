/* test-bot.c: the core through a fake adapter and clock: whole games, paced output, bad input, timers, renames, rooms, restore. */
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

static void
full_game(const char *cmd)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct store_stats st;

	fake_say(f, "#g", "alice", cmd);
	assert_non_null(fake_session(f, "#g"));
	assert_non_null(fake_find(f, "Dealing"));
	fake_say(f, "#g", "alice", "!auto");
	assert_true(fake_play_out(f, "#g", 200000));
	assert_non_null(fake_find(f, "Game over"));
	assert_int_equal(store_stats_get(f->bot->store, f->ad->id, "alice", &st), 0);
	assert_int_equal(st.games, 1);
	fake_free(f);
}

static void test_game_classic(void **s) { (void)s; full_game("!play 4 classic"); }
static void test_game_sevens(void **s) { (void)s; full_game("!play 4 sevens"); }
static void test_game_family(void **s) { (void)s; full_game("!play 3 family"); }
static void test_game_pcio(void **s) { (void)s; full_game("!play 4 pcio"); }
static void test_game_duel(void **s) { (void)s; full_game("!play 2 duel"); }

/* Advances the clock in steps of ms until the room has no game; true if it ended within limit_ms. */
static bool
paced_play_out(struct fake *f, const char *room, int64_t ms, int64_t limit_ms)
{
	for (int64_t t = 0; t < limit_ms; t += ms) {
		if (fake_session(f, room) == NULL)
			return true;
		fake_advance(f, ms);
	}
	return fake_session(f, room) == NULL;
}

/* The IRC adapter's queue: 40 lines per target, one line every 2 s. A
 * game the computer plays alone must wait for the room to be told, not
 * race ahead and lose its lines ("Game over" among them) to the cap. */
static void
test_auto_paced_duel(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct store_stats st;

	(void)state;
	fake_pace(f, 40, 2000);
	fake_say(f, "#g", "alice", "!new duel rounds=1");
	fake_say(f, "#g", "alice", "!bot add");
	fake_say(f, "#g", "alice", "!start");
	fake_say(f, "#g", "alice", "!auto");
	assert_true(paced_play_out(f, "#g", 250, 6 * 3600 * 1000));
	assert_int_equal(f->dropped, 0);
	assert_non_null(fake_find(f, "Game over"));
	assert_int_equal(store_stats_get(f->bot->store, f->ad->id, "alice", &st), 0);
	assert_int_equal(st.games, 1);
	fake_free(f);
}

/* Four humans step away one by one; the last leaves the computer alone at the table. */
static void
test_auto_one_by_one(void **state)
{
	const char *who[] = { "alice", "bob", "carol", "dave" };
	struct fake *f = fake_new(":memory:", NULL);

	(void)state;
	fake_pace(f, 40, 500);
	fake_say(f, "#g", "alice", "!new classic rounds=1");
	for (int i = 1; i < 4; i++)
		fake_say(f, "#g", who[i], "!join");
	fake_say(f, "#g", "alice", "!start");
	assert_non_null(fake_find(f, "Dealing"));
	for (int i = 0; i < 4; i++) {
		fake_say(f, "#g", who[i], "!auto");
		for (int k = 0; k < 100; k++)
			fake_advance(f, 250);
		assert_non_null(fake_session(f, "#g"));
	}
	assert_true(paced_play_out(f, "#g", 250, 6 * 3600 * 1000));
	assert_int_equal(f->dropped, 0);
	assert_non_null(fake_find(f, "Game over"));
	fake_free(f);
}

static void
test_table_setup(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;

	(void)state;
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	s = fake_session(f, "#g");
	assert_int_equal(s->nseats, 2);
	fake_say(f, "#g", "bob", "!start");
	assert_non_null(fake_find(f, "only the table's owner"));
	fake_say(f, "#g", "carol", "!join");
	assert_non_null(fake_find(f, "full"));
	fake_say(f, "#g", "alice", "!start");
	assert_int_equal(s->state, SESS_PLAYING);
	fake_say(f, "#g", "alice", "!who");
	assert_non_null(fake_find(f, "to play"));
	fake_say(f, "#g", "alice", "!abort");
	assert_null(fake_session(f, "#g"));
	fake_free(f);
}

/* Every kind of bad input leaves the game exactly as it was. */
static void
test_bad_input(void **state)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	struct session *s;
	struct hf_game *before;
	char big[700];
	int turn, other;

	(void)state;
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	before = hf_game_clone(s->g);
	turn = hf_game_turn(s->g);
	other = 1 - turn;
	memset(big, 'x', sizeof big);
	big[0] = '!';
	big[sizeof big - 1] = '\0';
	fake_say(f, "#g", "alice", big);
	assert_non_null(fake_find(f, "too long"));
	fake_say(f, "#g", "alice", "!dr\xff\xfe" "aw\r\n");
	fake_say(f, "#g", "alice", "!frobnicate");
	assert_non_null(fake_find(f, "unknown command"));
	fake_say(f, "#g", "mallory", "!draw");
	assert_non_null(fake_find(f, "no seat"));
	fake_say(f, "#g", s->seats[other].user_id, "!draw");
	assert_non_null(fake_find(f, "not your turn"));
	fake_say(f, "#g", s->seats[turn].user_id, "!discard Z");
	fake_say(f, "#g", s->seats[turn].user_id, "!meld 9 9 9 9 9 9 9 9 9");
	fake_say(f, "#g", s->seats[turn].user_id, "!discard");
	assert_non_null(fake_find(f, "alice: usage: !discard CARD"));
	assert_true(hf_game_equal(before, s->g));
	assert_int_equal(s->nactions, 0);
	/* a flooder is cut off with one warning, others are not */
	fake_clear(f);
	hf_game_free(before);
	fake_free(f);

	f = fake_new(":memory:", "flood_burst = 3");
	for (int i = 0; i < 10; i++) {
		char cmd[32];

		/* each answer differs: none is held back as said already */
		snprintf(cmd, sizeof cmd, "!frob%d", i);
		fake_say(f, "#g", "troll", cmd);
	}
	assert_int_equal(f->nmsgs, 4);
	/* the warning goes to the flooder alone, not to the room */
	assert_int_equal(f->msgs[3].kind, MSG_PRIVATE);
	assert_non_null(strstr(f->msgs[3].text, "slow down"));
	fake_say(f, "#g", "alice", "!frob");
	assert_int_equal(f->nmsgs, 5);
	fake_free(f);
}

static void
test_timers(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	int turn;
	uint32_t n;

	(void)state;
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	turn = hf_game_turn(s->g);
	fake_clear(f);
	fake_advance(f, 59000);
	assert_null(fake_find(f, "reminder"));
	fake_advance(f, 2000);
	assert_non_null(fake_find(f, "reminder"));
	assert_string_equal(fake_find(f, "reminder")->mention, s->seats[turn].user_id);
	n = s->nactions;
	fake_advance(f, 60000);
	assert_non_null(fake_find(f, "is away"));
	assert_true(s->seats[turn].away);
	fake_advance(f, 1);
	fake_advance(f, 1);
	assert_true(s->nactions > n);
	/* typing again takes the seat back */
	fake_say(f, "#g", s->seats[turn].user_id, "!hand");
	assert_false(s->seats[turn].away);
	fake_free(f);

	/* an unstarted table expires */
	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!new");
	fake_advance(f, 601000);
	assert_null(fake_session(f, "#g"));
	fake_free(f);
}

/* !hint: hard's plan for your turn, privately, changing nothing; "wait" off turn; none where hints=no. */
static void
test_hint(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_budget = 2000");
	const struct fake_msg *m;
	struct session *s;
	const char *mover, *other;
	uint32_t n;

	(void)state;
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	assert_non_null(s);
	mover = s->seats[hf_game_turn(s->g)].user_id;
	other = strcmp(mover, "alice") ? "alice" : "bob";
	n = s->nactions;
	fake_clear(f);
	fake_say(f, "#g", mover, "!hint");
	m = fake_find(f, "hint: ");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_PRIVATE);
	assert_string_equal(m->user, mover);
	assert_true(strstr(m->text, "hint: !draw, then !hint again") || strstr(m->text, "hint: !pickup"));
	assert_int_equal(s->nactions, n);
	fake_clear(f);
	fake_say(f, "#g", other, "!hi");
	m = fake_find(f, "wait for your turn");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_PRIVATE);
	fake_free(f);

	f = fake_new(":memory:", NULL);
	fake_say(f, "#g", "alice", "!play 2 duel hints=no");
	fake_clear(f);
	fake_say(f, "#g", "alice", "!hint");
	assert_non_null(fake_find(f, "hints are off at this table"));
	assert_null(fake_find(f, "hint: "));
	fake_free(f);
}

static void
test_rename_and_rooms(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *a, *b;

	(void)state;
	fake_say(f, "#a", "alice", "!play 2 duel");
	fake_say(f, "#b", "alice", "!play 2 duel");
	fake_say(f, "#c", "bob", "!play 4 classic");
	a = fake_session(f, "#a");
	b = fake_session(f, "#b");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(fake_session(f, "#c"));
	fake_rename(f, "alice", "alicia");
	assert_string_equal(a->seats[session_seat_of(a, "alice")].name, "alicia");
	assert_string_equal(b->seats[session_seat_of(b, "alice")].name, "alicia");
	fake_dm(f, "alice", "hand");
	assert_non_null(fake_find(f, "say it in the room"));
	fake_dm(f, "bob", "hand");
	assert_non_null(fake_find(f, "Your hand"));
	/* Once the table is gone, so is its entry in the player index. */
	fake_say(f, "#c", "bob", "!abort");
	assert_null(fake_session(f, "#c"));
	fake_clear(f);
	fake_dm(f, "bob", "hand");
	assert_null(fake_find(f, "Your hand"));
	assert_int_equal(f->bot->sessions.pcount, 2);
	fake_free(f);
}

/* An unknown command is quoted back cut to 32 bytes: the cut must not split
 * a UTF-8 character (found by fuzz-bot-lines). */
static void
test_unknown_command_utf8(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;

	(void)state;
	/* 31 ASCII bytes, then "é" (2 bytes) straddling byte 32. */
	fake_say(f, "#g", "alice", "!aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9");
	assert_non_null(m = fake_find(f, "unknown command"));
	assert_true(utf8_valid(m->text, strlen(m->text)));
	fake_free(f);
}

/* adapter_set_self: "NAME: cmd", "NAME, cmd", "NAME cmd", any case; ids and their localparts. */
static void
test_address(void **state)
{
	static const char *const asks[] = { "HandFoot who", "@bot:example.org: who", "bot: !who", "@HandFoot: who" };
	struct fake *f = fake_new(":memory:", "flood_burst = 100");
	size_t n;

	(void)state;
	adapter_set_self(f->ad, "HandFoot");
	adapter_set_self(f->ad, "@bot:example.org");
	fake_say(f, "#g", "alice", "handfoot: new duel");
	assert_non_null(fake_session(f, "#g"));
	fake_say(f, "#g", "bob", "HANDFOOT, join");
	assert_int_equal(fake_session(f, "#g")->nseats, 2);
	/* the same answer again within a minute is not said again: each ask after the first comes a minute later */
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
		fake_clear(f);
		if (i > 0)
			fake_advance(f, REPLY_SAME_MS);
		fake_say(f, "#g", "bob", asks[i]);
		assert_non_null(fake_find(f, "bob"));
	}
	/* Chatter that only starts like a name, or names the bot with nothing after, is not ours. */
	fake_clear(f);
	fake_say(f, "#g", "bob", "handfooting: who");
	fake_say(f, "#g", "bob", "handfoot:");
	fake_say(f, "#g", "bob", "bots: who");
	/* Without a colon or comma only a command word makes it ours: no hint for chatter. */
	fake_say(f, "#g", "bob", "handfoot is fun");
	fake_say(f, "#g", "bob", "HandFoot rocks, who made it?");
	assert_int_equal(f->nmsgs, 0);
	/* A nick change replaces the name; the id stays. */
	adapter_set_self(f->ad, "hf2");
	fake_say(f, "#g", "bob", "handfoot: who");
	assert_int_equal(f->nmsgs, 0);
	fake_advance(f, REPLY_SAME_MS);
	fake_say(f, "#g", "bob", "HF2: who");
	n = f->nmsgs;
	assert_true(n > 0);
	fake_advance(f, REPLY_SAME_MS);
	fake_say(f, "#g", "bob", "bot: who");
	assert_true(f->nmsgs > n);
	/* In a direct message the name is allowed too. */
	fake_clear(f);
	fake_dm(f, "alice", "hf2: who");
	assert_true(f->nmsgs > 0);
	fake_free(f);
}

/* Room lines from events: red 3s grouped, the canasta kind from flag, a pronoun name quoted. */
static void
test_render_events(void **state)
{
	struct hf_rules r;
	struct hf_game *g;
	struct hf_view *v = malloc(sizeof *v);
	struct hf_event ev[4];
	struct rbuf b = { 0 };
	const char *names[HF_MAX_SEATS] = { "you", "bob" };
	char why[HF_ERRLEN];

	(void)state;
	assert_int_equal(hf_rules_parse(&r, "duel", why, sizeof why), HF_OK);
	assert_int_equal(hf_game_new(&g, &r, 2, 0, 7, why, sizeof why), HF_OK);
	hf_game_view(g, -1, v);
	memset(ev, 0, sizeof ev);
	ev[0].type = ev[1].type = HF_EV_RED3;
	ev[0].seat = ev[1].seat = 1;
	ev[0].card = ev[1].card = HF_RED3;
	ev[0].count = ev[1].count = 1;
	ev[1].flag = 1;
	ev[2].type = HF_EV_CLOSED;
	ev[2].seat = 0;
	ev[2].card = HF_NINE;
	ev[2].flag = HF_KIND_CLEAN;
	ev[3].type = HF_EV_DRAW;
	ev[3].seat = 0;
	ev[3].count = 2;
	render_events(&b, v, ev, 4, names);
	assert_non_null(strstr(b.s, ST_PLAYER "bob" ST_END " lays out 2 " ST_RED "red 3s" ST_END " (replaced)."));
	assert_null(strstr(b.s, "a red 3"));
	assert_non_null(strstr(b.s, "The 9s close: " ST_CLEAN "a clean canasta" ST_END "!"));
	assert_non_null(strstr(b.s, ST_PLAYER "\"you\"" ST_END " draws 2 cards."));
	rbuf_free(&b);
	hf_game_free(g);
	free(v);
}

/* "!out" is refused at once, naming the canastas the side lacks, when it
 * could not go out anyway: no partner is asked for nothing. */
static void
test_out_refused_at_once(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const char *who[4] = { "alice", "bob", "carol", "dave" };
	const struct fake_msg *m;
	struct session *s;
	int turn;

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	for (int i = 1; i < 4; i++)
		fake_say(f, "#g", who[i], "!join");
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	turn = hf_game_turn(s->g);
	fake_say(f, "#g", s->seats[turn].user_id, "!draw");
	fake_clear(f);
	fake_say(f, "#g", s->seats[turn].user_id, "!out");
	m = fake_find(f, "!out refused: your side still needs 2 clean and 3 dirty canastas to go out: nobody was asked.");
	assert_non_null(m);
	assert_int_equal(m->kind, MSG_PRIVATE);
	assert_string_equal(m->user, s->seats[turn].user_id);
	assert_int_equal(hf_game_phase(s->g), HF_PHASE_PLAY);
	assert_null(fake_find(f, "go out?"));
	fake_free(f);
}

static void
test_restore(void **state)
{
	char db[] = "/tmp/hf-test-XXXXXX";
	int fd = mkstemp(db);
	struct fake *f;
	struct session *s;
	struct hf_game *g;
	uint32_t n;

	(void)state;
	close(fd);
	f = fake_new(db, NULL);
	fake_say(f, "#g", "alice", "!play 4 classic");
	fake_say(f, "#g", "alice", "!auto");
	for (int i = 0; i < 40; i++)
		fake_advance(f, 1);
	s = fake_session(f, "#g");
	g = hf_game_clone(s->g);
	n = s->nactions;
	assert_true(n > 10);
	fake_free(f);
	f = fake_new(db, NULL);
	s = fake_session(f, "#g");
	assert_non_null(s);
	assert_int_equal(s->nactions, n);
	assert_true(hf_game_equal(g, s->g));
	/* The player index is restored too: a direct message finds the table. */
	fake_dm(f, "alice", "hand");
	assert_non_null(fake_find(f, "Your "));
	hf_game_free(g);
	fake_free(f);
	unlink(db);
}

static void
command_event(struct fake *f, const char *user, const char *name, const char *args)
{
	struct command cmd;
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = "#g", .user_id = user, .user_name = user,
	                        .command = &cmd };

	/* as Discord builds it: the name, then the option's words, no text */
	command_init(&cmd, name);
	command_args(&cmd, args, false);
	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

/* A structured command (Discord's slash commands and buttons) takes the
 * typed line's path: no prefix needed, the same checks, and another
 * player's turn command refused by the core, in its own words. */
static void
test_structured_command(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;
	const char *other;

	(void)state;
	command_event(f, "alice", "new", "duel");
	assert_non_null(fake_find(f, "opens a duel table"));
	command_event(f, "bob", "join", "");
	command_event(f, "alice", "start", "");
	assert_non_null(s = fake_session(f, "#g"));
	other = s->seats[1 - hf_game_turn(s->g)].user_id;
	fake_clear(f);
	command_event(f, other, "draw", "");
	assert_non_null(fake_find(f, "draw refused: it is not your turn"));
	/* the arguments are never read as a line of their own */
	fake_clear(f);
	command_event(f, other, "help", "!abort");
	assert_null(fake_find(f, "abort refused"));
	assert_non_null(fake_session(f, "#g"));
	/* a name that is no command is answered as a typed one is */
	fake_clear(f);
	command_event(f, other, "zzz", "");
	assert_non_null(fake_find(f, "zzz"));
	/* too many words, as typed */
	fake_clear(f);
	command_event(f, other, "meld", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
	              "30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 "
	              "63 64 65");
	assert_non_null(fake_find(f, "meld refused: too many words (31 at most)."));
	/* a group of cards that breaks a rule of the reader: refused with it, nothing changed */
	fake_clear(f);
	fake_say(f, "#g", "dave", "!meld 9 9 2,, K K K");
	assert_non_null(fake_find(f, "meld refused: an empty group of cards between two ','."));
	/* the commands given as data were never read from text, nor had a
	 * prefix built for them; a typed line is read once, at the door */
	assert_int_equal(f->bot->commands_typed, 1);
	assert_int_equal(f->bot->commands_given, 7);
	fake_say(f, "#g", "carol", "!who");
	assert_int_equal(f->bot->commands_typed, 2);
	assert_int_equal(f->bot->commands_given, 7);
	fake_free(f);
}

/* No player can forge a mark: names and text are cleaned of control bytes on the way in. */
static void
test_no_forged_marks(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = "#g", .user_id = "eve", .user_name = "e\x01v" ST_END "e" ST_COMMAND,
	                        .text = "!new duel\x06" };
	const struct fake_msg *m;

	(void)state;
	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
	m = fake_find(f, "opens a duel table");
	assert_non_null(m);
	/* the name is one player span, with no mark of eve's inside */
	assert_memory_equal(m->styled, ST_PLAYER "eve" ST_END " opens", strlen(ST_PLAYER "eve" ST_END " opens"));
	fake_say(f, "#g", "bob", "!stats \x04\x05x");
	m = fake_find(f, "No finished games");
	assert_non_null(m);
	assert_null(strpbrk(m->styled, ST_CLEAN ST_DIRTY));
	/* a room id is echoed as it is, so one with a control byte gets no table */
	fake_clear(f);
	fake_say(f, "#a\x04" "b", "bob", "!new duel");
	assert_null(fake_session(f, "#a\x04" "b"));
	assert_int_equal(f->nmsgs, 0);
	fake_free(f);
}

/* A reply carries the ref of the event it answers; what a timer says carries none.
 * The turn's ping asks the player to act, with the commands they may use. */
static void
test_reply_to_and_prompt(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;
	struct session *s;
	int turn;

	(void)state;
	f->ref = 41;
	fake_say(f, "#g", "alice", "!new duel");
	f->ref = 42;
	fake_say(f, "#g", "bob", "!join");
	m = fake_find(f, "bob sits down");
	assert_non_null(m);
	assert_int_equal(m->reply_to, 42);
	f->ref = 43;
	fake_say(f, "#g", "alice", "!start");
	s = fake_session(f, "#g");
	turn = hf_game_turn(s->g);
	m = fake_find(f, ": your turn (!draw or !pickup)");
	assert_non_null(m);
	assert_int_equal(m->reply_to, 43);
	assert_string_equal(m->prompt, s->seats[turn].user_id);
	assert_string_equal(m->mention, s->seats[turn].user_id);
	assert_int_equal(m->nactions, 3);
	assert_string_equal(m->actions[0], "hand");
	assert_string_equal(m->actions[1], "draw");
	assert_string_equal(m->actions[2], "pickup");
	/* the deal comes with the first prompt, in one message */
	m = fake_find(f, "Dealing duel");
	assert_non_null(m);
	assert_string_equal(m->prompt, s->seats[turn].user_id);
	/* a plain room line prompts nobody */
	m = fake_find(f, "bob sits down");
	assert_non_null(m);
	assert_string_equal(m->prompt, "");
	assert_int_equal(m->nactions, 0);
	/* the reminder comes from a timer: no event to reply to, and it prompts again */
	fake_clear(f);
	fake_advance(f, 61 * 1000);
	m = fake_find(f, "reminder");
	assert_non_null(m);
	assert_int_equal(m->reply_to, 0);
	assert_string_equal(m->prompt, s->seats[turn].user_id);
	assert_int_equal(m->nactions, 3);
	fake_free(f);
}

/* The commands as an adapter sees them: the command table, in its order. */
static void
test_adapter_commands(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct cmd_entry *const *t;
	const struct adapter_command *ac;
	size_t n, nt, i;

	(void)state;
	ac = adapter_commands(f->ad, &n);
	t = cmd_table(&nt);
	assert_int_equal(n, nt);
	for (i = 0; i < n; i++) {
		assert_string_equal(ac[i].name, t[i]->name);
		assert_true(strlen(ac[i].summary) < 100);
		assert_true(ac[i].arg_required == (t[i]->min_args > 0));
		/* a command that takes arguments names them, one that takes none does not */
		assert_true((ac[i].arg == ADAPTER_ARG_NONE) == (t[i]->max_args == 0));
		assert_true((ac[i].arg_name == NULL) == (ac[i].arg == ADAPTER_ARG_NONE));
		if (strcmp(ac[i].name, "meld") == 0) {
			assert_int_equal(ac[i].arg, ADAPTER_ARG_CARDS);
			assert_string_equal(ac[i].arg_name, "cards");
			assert_true(ac[i].arg_required);
		}
		if (strcmp(ac[i].name, "discard") == 0)
			assert_int_equal(ac[i].arg, ADAPTER_ARG_CARD);
	}
	fake_free(f);
}

/* !help pickup says how to name the cards, "pickup 9:" among them (issue 12). */
static void
test_help_pickup(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;

	(void)state;
	fake_say(f, "#g", "alice", "!help pickup");
	m = fake_find(f, "!pickup [CARDS]");
	assert_non_null(m);
	assert_non_null(strstr(m->text, "9 9 to take a 9"));
	assert_non_null(strstr(m->text, "9: a wild onto your open 9s"));
	assert_non_null(strstr(m->text, "A 2..10 J Q K JK 3h"));
	assert_non_null(strstr(m->text, "(alias !pu)"));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_setup),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_unknown_command_utf8),
		cmocka_unit_test(test_timers),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_rename_and_rooms),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_address),
		cmocka_unit_test(test_render_events),
		cmocka_unit_test(test_out_refused_at_once),
		cmocka_unit_test(test_no_forged_marks),
		cmocka_unit_test(test_structured_command),
		cmocka_unit_test(test_reply_to_and_prompt),
		cmocka_unit_test(test_adapter_commands),
		cmocka_unit_test(test_help_pickup),
		cmocka_unit_test(test_game_duel),
		cmocka_unit_test(test_auto_paced_duel),
		cmocka_unit_test(test_auto_one_by_one),
		cmocka_unit_test(test_game_classic),
		cmocka_unit_test(test_game_sevens),
		cmocka_unit_test(test_game_family),
		cmocka_unit_test(test_game_pcio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
