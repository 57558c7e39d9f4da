/* test-wording.c: what the bot says, as issue 25 asked: melds added to in the same turn are not new, !rules names the rules once, a refusal's example has the prefix, !abort gives the scores and counts as played, auto at the pace of ai_delay, where private lines land. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

static void
plain(const char *styled, char *out, size_t len)
{
	struct rbuf r = { 0 };

	style_plain(&r, styled, strlen(styled), "!");
	snprintf(out, len, "%s", r.s != NULL ? r.s : "");
	rbuf_free(&r);
}

static struct hf_event
meld_ev(int meld, int k, int twos, bool started)
{
	struct hf_event e;

	memset(&e, 0, sizeof e);
	e.type = HF_EV_MELD;
	e.seat = 0;
	e.side = 0;
	e.meld = (uint8_t)meld;
	e.flag = started;
	e.group.count[HF_KING] = (uint8_t)k;
	e.group.count[HF_TWO] = (uint8_t)twos;
	e.count = (uint16_t)(k + twos);
	e.card = HF_KING;
	return e;
}

/* "melded K K 2 (new Ks) ... melded K K K 2 (on the Ks, closing a dirty canasta!)", the round going on or over. */
static void
test_meld_started_this_turn_is_new_once(void **state)
{
	struct hf_rules r;
	struct hf_game *g;
	struct hf_view v;
	struct hf_event ev[4];
	const char *names[] = { "ann", "bob", "cy", "di" };
	char why[HF_ERRLEN], text[1024];
	int over;

	(void)state;
	assert_int_equal(hf_rules_parse(&r, "classic", why, sizeof why), HF_OK);
	assert_int_equal(hf_game_new(&g, &r, 4, 2, 7, why, sizeof why), HF_OK);
	hf_game_view(g, -1, &v);
	ev[0] = meld_ev(0, 2, 1, true);
	memset(&ev[1], 0, sizeof ev[1]);
	ev[1].type = HF_EV_FOOT;
	ev[1].seat = 0;
	ev[2] = meld_ev(0, 3, 1, false);
	memset(&ev[3], 0, sizeof ev[3]);
	ev[3].type = HF_EV_CLOSED;
	ev[3].seat = 0;
	ev[3].side = 0;
	ev[3].meld = 0;
	ev[3].flag = HF_KIND_DIRTY;
	for (over = 0; over < 2; over++) {
		struct rbuf b = { 0 };

		render_turn(&b, &v, 0, ev, 4, names, over);
		plain(b.s, text, sizeof text);
		assert_non_null(strstr(text, "K K 2 (new Ks)"));
		assert_non_null(strstr(text, "K K K 2 (on the Ks, closing"));
		assert_int_equal(strstr(strstr(text, "(new Ks)") + 1, "(new Ks"), NULL);
		rbuf_free(&b);
	}
	hf_game_free(g);
}

/* !rules begins "Rules: classic · 4 or 6 players", not "Rules: classic · rules: classic"; and counts for a table filling up. */
static void
test_rules_named_once(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	const struct fake_msg *m;

	(void)state;
	fake_say(f, "#g", "alice", "!new classic");
	fake_say(f, "#g", "alice", "!rules");
	assert_non_null(m = fake_find(f, "Rules: classic"));
	assert_null(strstr(m->text, "rules: classic"));
	assert_non_null(strstr(m->text, "Rules: classic · 4 or 6 players"));
	assert_null(fake_find(f, "0 decks"));
	fake_free(f);
}

/* A refusal's example is a command as typed: "as in: !discard 7". */
static void
test_refusal_example_has_prefix(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct session *s;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	s = fake_session(f, "#g");
	for (int i = 0; i < 200 && hf_game_turn(s->g) != session_seat_of(s, "alice"); i++)
		fake_advance(f, 10);
	fake_say(f, "#g", "alice", "!draw");
	fake_say(f, "#g", "alice", "!discard Z");
	for (size_t q = 0; getenv("DUMP") && q < f->nmsgs; q++) printf("  %s\n", f->msgs[q].text);
	assert_non_null(fake_find(f, "as in: !discard 7"));
	fake_free(f);
}

/* !abort in a game: the scores so far; the game counts in !stats as played, not won. */
static void
test_abort_scores_and_stats(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct store_stats st;

	(void)state;
	fake_say(f, "#g", "alice", "!play 2 duel");
	fake_advance(f, 100);
	fake_say(f, "#g", "alice", "!abort");
	assert_non_null(fake_find(f, "The game is over: ended by alice. Round 1, no round scored yet. alice 0; Ada[bot] 0."));
	assert_int_equal(store_stats_get(f->bot->store, f->ad->id, "alice", &st), 0);
	assert_int_equal(st.games, 1);
	assert_int_equal(st.wins, 0);
	fake_advance(f, 5000);
	fake_say(f, "#g", "alice", "!stats");
	assert_non_null(fake_find(f, "alice: 1 game, 0 won"));
	fake_free(f);
}

/* After !auto the computer plays a turn every ai_delay, so a person can take the seat back. */
static void
test_auto_at_the_pace_of_ai_delay(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 1000");
	struct session *s;
	int turns = 0, i, turn;

	(void)state;
	fake_say(f, "#g", "alice", "!play 4 classic");
	s = fake_session(f, "#g");
	for (i = 0; i < 200 && hf_game_turn(s->g) != session_seat_of(s, "alice"); i++)
		fake_advance(f, 100);
	fake_say(f, "#g", "alice", "!auto");
	for (i = 0; i < 20 && fake_session(f, "#g") != NULL; i++) {
		turn = hf_game_turn(s->g);
		fake_advance(f, 1000);
		if (fake_session(f, "#g") == NULL || hf_game_round(s->g) > 1)
			break;
		/* at most the next seat's turn has begun */
		assert_true(hf_game_turn(s->g) == turn || hf_game_turn(s->g) == (turn + 1) % 4);
		turns += hf_game_turn(s->g) != turn;
	}
	assert_true(turns >= 10);
	/* and she takes it back */
	fake_say(f, "#g", "alice", "!hand");
	assert_false(s->seats[session_seat_of(s, "alice")].away);
	fake_free(f);
}

/* Where the service says where private lines land (IRC: notices), the first hand of a game and !help say it. */
static void
test_private_note(void **state)
{
	struct fake *f = fake_new(":memory:", NULL);
	struct adapter_ops ops = *f->ad->ops;
	const struct fake_msg *m;

	(void)state;
	ops.private_note = "hands come as notices: " ST_COMMAND "private" ST_END " privmsg puts them in a query";
	f->ad->ops = &ops;
	fake_say(f, "#g", "alice", "!play 2 duel");
	assert_non_null(m = fake_find(f, "Your hand"));
	assert_non_null(strstr(m->text, "(hands come as notices: !private privmsg puts them in a query)"));
	fake_clear(f);
	fake_advance(f, 61000);
	fake_say(f, "#g", "alice", "!hand");
	assert_non_null(m = fake_find(f, "Your hand"));
	assert_null(strstr(m->text, "notices"));
	fake_say(f, "#g", "bob", "!help");
	assert_non_null(fake_find(f, "Your hand comes privately (hands come as notices: !private privmsg puts them in a query)."));
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meld_started_this_turn_is_new_once),
		cmocka_unit_test(test_rules_named_once),
		cmocka_unit_test(test_refusal_example_has_prefix),
		cmocka_unit_test(test_abort_scores_and_stats),
		cmocka_unit_test(test_auto_at_the_pace_of_ai_delay),
		cmocka_unit_test(test_private_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
