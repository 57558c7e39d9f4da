/* test-viewers.c: the adapter API for tables as data: views in the loop turn of the room's line, links for !watch, !web and the deal, actions from a page by the typed command's path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake.h"

/* A drawing adapter that records what the core hands it. */
struct drawn {
	int64_t table;
	int seat;
	bool over;
	char json[8192];
};
static struct drawn drawn[4096];
static size_t ndrawn;
static bool has_seat_link[8];
static int gen;

static void
rec_view(struct adapter *a, const struct adapter_view *v)
{
	(void)a;
	assert_true(ndrawn < sizeof drawn / sizeof drawn[0]);
	drawn[ndrawn].table = v->table;
	drawn[ndrawn].seat = v->seat;
	drawn[ndrawn].over = v->over;
	assert_int_equal(strlen(v->json), v->len);
	snprintf(drawn[ndrawn].json, sizeof drawn[ndrawn].json, "%s", v->json);
	ndrawn++;
}

static int
rec_link(struct adapter *a, int64_t table, int seat, bool renew, char *url, size_t len)
{
	(void)a;
	if (seat >= 0 && has_seat_link[seat] && !renew)
		return 1;
	if (seat >= 0)
		has_seat_link[seat] = true;
	snprintf(url, len, "https://cards.test/t/%lld-%d-%d", (long long)table, seat, seat < 0 ? 0 : ++gen);
	return 0;
}

static const struct adapter_ops rec_ops = {
	.type = "rec", FAKE_QUIET_CALLS,
	.view = rec_view, .link = rec_link,
};

static const struct drawn *
last_view(int seat)
{
	size_t i;

	for (i = ndrawn; i-- > 0;)
		if (drawn[i].seat == seat)
			return &drawn[i];
	return NULL;
}

/* A page's action as the web adapter gives it: a command as data, its
 * name and its cards in groups; no text, no prefix. */
static int
act(struct adapter *a, int64_t table, int seat, const char *line, char *answer, size_t len)
{
	char name[COMMAND_NAME_MAX + 1];
	struct command cmd;
	size_t n = strcspn(line, " ");

	snprintf(name, sizeof name, "%.*s", (int)n, line);
	command_init(&cmd, name);
	command_args(&cmd, line + n, true);
	return adapter_act(a, table, seat, &cmd, answer, len);
}

static void
test_no_drawing_adapter(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");

	(void)state;
	fake_say(f, "#r", "ann", "!play 2 duel");
	assert_false(fake_said(f, MSG_ROOM, NULL, "Watch:"));
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "shows no table on a page"));
	fake_say(f, "#r", "ann", "!web");
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "shows no cards on a page"));
	fake_say(f, "#r", "ann", "!help");
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "!watch"));
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "!web"));
	fake_free(f);
}

static void
test_views_links_and_acts(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	char err[256], answer[4096];
	struct adapter *rec;
	struct session *s;
	const struct drawn *pub, *mine;
	size_t i, before;
	int seat;

	(void)state;
	ndrawn = 0;
	memset(has_seat_link, 0, sizeof has_seat_link);
	rec = bot_adapter_add(f->bot, &rec_ops, "rec", NULL, err, sizeof err);
	assert_non_null(rec);
	fake_say(f, "#r", "ann", "!play 2 duel");
	s = fake_session(f, "#r");
	assert_non_null(s);
	seat = session_seat_of(s, "ann");
	/* the deal's room line carries the table's link; ann's own goes to ann alone */
	assert_true(fake_said(f, MSG_ROOM, NULL, "Watch: https://cards.test/t/"));
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "play from"));
	/* links name their seat ("TABLE-SEAT-GEN"): a room line only ever holds the table's (seat -1) */
	for (i = 0; i < f->nmsgs; i++)
		if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "/t/") != NULL)
			assert_non_null(strstr(f->msgs[i].text, "--1-0"));
	/* the views come in the loop turn of the room's line: the public one and ann's */
	fake_advance(f, 0);
	pub = last_view(-1);
	mine = last_view(seat);
	assert_non_null(pub);
	assert_non_null(mine);
	assert_int_equal(pub->table, s->id);
	assert_null(strstr(pub->json, "\"hand\":["));
	assert_non_null(strstr(pub->json, "\"v\":1,\"type\":\"view\""));
	assert_non_null(strstr(mine->json, "\"hand\":["));
	/* which cards are wild, the engine says in every view: the page keeps no list */
	assert_non_null(strstr(pub->json, "\"wilds\":[\"2\",\"JK\"]"));
	assert_non_null(strstr(mine->json, "\"wilds\":[\"2\",\"JK\"]"));
	assert_non_null(strstr(mine->json, "\"may\":["));
	/* the computer's seat gets no view of its own */
	for (i = 0; i < ndrawn; i++)
		assert_true(drawn[i].seat == -1 || drawn[i].seat == seat);

	/* !watch answers with the table's link; !web cannot show a seat's again; !web new makes one */
	fake_clear(f);
	fake_say(f, "#r", "bob", "!watch");
	assert_true(fake_said(f, MSG_ROOM, NULL, "https://cards.test/t/"));
	fake_say(f, "#r", "ann", "!web");
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "sent to you privately"));
	fake_say(f, "#r", "ann", "!web new");
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "old one no longer works"));
	for (i = 0; i < f->nmsgs; i++)
		if (f->msgs[i].kind == MSG_ROOM && strstr(f->msgs[i].text, "/t/") != NULL)
			assert_non_null(strstr(f->msgs[i].text, "--1-0"));

	/* a page's action is the typed command: the same refusal, privately, and to the page */
	fake_clear(f);
	assert_int_equal(act(rec, s->id, seat, "discard 9 9 9", answer, sizeof answer), 0);
	fake_advance(f, 0);
	assert_non_null(strstr(answer, "usage: "));
	assert_true(fake_said(f, MSG_PRIVATE, "ann", "ann: usage: !discard CARD"));
	/* whatever the core says to ann for it (a refusal, a wait for your turn), the page gets the same */
	fake_clear(f);
	assert_int_equal(act(rec, s->id, seat, "meld 4 5", answer, sizeof answer), 0);
	fake_advance(f, 0);
	{
		const struct fake_msg *last = NULL;

		for (i = 0; i < f->nmsgs; i++)
			if (f->msgs[i].kind == MSG_PRIVATE && strcmp(f->msgs[i].user, "ann") == 0)
				last = &f->msgs[i];
		assert_non_null(last);
		assert_string_equal(last->styled, answer);
	}
	/* a seat that is no person's, a table that is gone */
	assert_int_equal(act(rec, s->id, 1 - seat, "draw", answer, sizeof answer), -1);
	assert_int_equal(act(rec, s->id + 100, seat, "draw", answer, sizeof answer), -1);

	/* the table ends: its last views, the public one over */
	before = ndrawn;
	fake_say(f, "#r", "ann", "!abort");
	assert_null(fake_session(f, "#r"));
	assert_true(ndrawn > before);
	assert_true(drawn[ndrawn - 1].over);
	assert_int_equal(drawn[ndrawn - 1].seat, -1);
	fake_free(f);
}

/* adapter_act answers with the command's own answer, collected as the
 * core says it, not by looking through the reply queue afterwards: here
 * the room's lines wait on a paced service, and an older answer to the
 * same player, still waiting there, is not this command's.  The action
 * reaches the core as data: no line is read for it. */
static void
test_act_answer_is_its_own(void **state)
{
	struct fake *f = fake_new(":memory:", "ai_delay = 0\nflood_burst = 1000");
	char err[256], answer[4096];
	unsigned long typed, given;
	struct adapter *rec;
	struct session *s;
	int seat;

	(void)state;
	ndrawn = 0;
	memset(has_seat_link, 0, sizeof has_seat_link);
	rec = bot_adapter_add(f->bot, &rec_ops, "rec", NULL, err, sizeof err);
	assert_non_null(rec);
	fake_pace(f, 1000, 3600 * 1000);
	fake_say(f, "#r", "ann", "!play 2 duel");
	assert_non_null(s = fake_session(f, "#r"));
	seat = session_seat_of(s, "ann");
	assert_true(f->ad->ops->pending(f->ad, "#r", PENDING_ROOM) > 0);
	typed = f->bot->commands_typed;
	given = f->bot->commands_given;

	assert_int_equal(act(rec, s->id, seat, "discard 9 9 9", answer, sizeof answer), 0);
	assert_non_null(strstr(answer, "ann: usage: " ST_COMMAND "discard" ST_END " CARD"));
	/* another action while that refusal still waits: the page gets this one's answer alone */
	assert_int_equal(act(rec, s->id, seat, "meld 4 5", answer, sizeof answer), 0);
	assert_non_null(strstr(answer, "meld" ST_END " 4 5 refused"));
	assert_null(strstr(answer, "usage"));
	assert_int_equal(f->bot->commands_typed, typed);
	assert_int_equal(f->bot->commands_given, given + 2);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_act_answer_is_its_own),
		cmocka_unit_test(test_no_drawing_adapter),
		cmocka_unit_test(test_views_links_and_acts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
