/* test-discord-answer.c: answering interactions on a fake clock: first reply as the response, follow-ups after it, defers, failures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discord/answer.h"

#define APP "900"

struct t {
	struct discord_answer *a;
	int64_t now;
	struct discord_answer_op ops[16];
	int n;
};

static int
drain(struct t *t)
{
	for (int i = 0; i < t->n; i++)
		discord_answer_op_free(&t->ops[i]);
	t->n = 0;
	while (t->n < 16 && discord_answer_next(t->a, &t->ops[t->n]))
		t->n++;
	return t->n;
}

static struct t *
mk(void)
{
	struct t *t = calloc(1, sizeof *t);

	t->a = discord_answer_new(APP);
	assert_non_null(t->a);
	t->now = 50000;
	return t;
}

static void
done(struct t *t)
{
	drain(t);
	/* what the last drain pulled is the test's to free */
	for (int i = 0; i < t->n; i++)
		discord_answer_op_free(&t->ops[i]);
	discord_answer_free(t->a);
	free(t);
}

static json_t *
msg(const char *content)
{
	return json_pack("{s:s,s:{s:[]}}", "content", content, "allowed_mentions", "parse");
}

static void
say(struct t *t, uint64_t ref, bool private, const char *content)
{
	assert_int_equal(discord_answer_say(t->a, ref, private, msg(content), t->now), 0);
	drain(t);
}

static void
advance(struct t *t, int64_t ms)
{
	t->now += ms;
	discord_answer_tick(t->a, t->now);
	drain(t);
}

/* The only op of the last batch: its kind, path, and (if not NULL) the body's content and flags. */
static void
op_is(struct t *t, enum discord_answer_kind kind, const char *path, const char *content, int flags)
{
	json_t *b;

	assert_int_equal(t->n, 1);
	assert_int_equal(t->ops[0].kind, kind);
	if (path != NULL)
		assert_string_equal(t->ops[0].path, path);
	if (content == NULL)
		return;
	b = t->ops[0].body;
	if (kind == DISCORD_ANS_CALLBACK)
		b = json_object_get(b, "data");
	assert_string_equal(json_string_value(json_object_get(b, "content")), content);
	assert_int_equal(json_integer_value(json_object_get(b, "flags")), flags);
}

static void
begin(struct t *t, uint64_t ref, bool button)
{
	char id[32];

	snprintf(id, sizeof id, "%llu", (unsigned long long)(1000 + ref));
	assert_int_equal(discord_answer_begin(t->a, ref, id, "tok_EN-1", "501", "601", button, t->now), 0);
}

static void
test_first_reply_answers_then_follow_ups(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 1, false);
	say(t, 1, false, "Ada draws two cards.");
	op_is(t, DISCORD_ANS_CALLBACK, "/interactions/1001/tok_EN-1/callback", "Ada draws two cards.", 0);
	assert_string_equal(t->ops[0].method, "POST");
	assert_int_equal(json_integer_value(json_object_get(t->ops[0].body, "type")), 4);
	/* the hand waits until the response has landed (else: Unknown Webhook) */
	say(t, 1, true, "Your hand: A A K");
	assert_int_equal(t->n, 0);
	discord_answer_result(t->a, 1, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	op_is(t, DISCORD_ANS_FOLLOWUP, "/webhooks/900/tok_EN-1", "Your hand: A A K", 64);
	/* later ones go straight */
	say(t, 1, false, "Next: Bob.");
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "Next: Bob.", 0);
	done(t);
}

static void
test_private_first_then_public(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 2, false);
	say(t, 2, true, "Your hand: 7 7");
	op_is(t, DISCORD_ANS_CALLBACK, NULL, "Your hand: 7 7", 64);
	discord_answer_result(t->a, 2, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	say(t, 2, false, "Ada melds.");
	/* after a message response a follow-up is a message of its own: public */
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "Ada melds.", 0);
	done(t);
}

static void
test_slow_command_deferred_privately(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 3, false);
	assert_int_equal(discord_answer_due(t->a), t->now + DISCORD_ANSWER_DEFER_MS);
	advance(t, DISCORD_ANSWER_DEFER_MS - 1);
	assert_int_equal(t->n, 0);
	advance(t, 1);
	op_is(t, DISCORD_ANS_CALLBACK, NULL, NULL, 0);
	assert_int_equal(json_integer_value(json_object_get(t->ops[0].body, "type")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(t->ops[0].body, "data"), "flags")), 64);
	discord_answer_result(t->a, 3, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	/* the hand fills the "thinking..." message */
	say(t, 3, true, "Your hand: Q Q Q");
	op_is(t, DISCORD_ANS_EDIT, "/webhooks/900/tok_EN-1/messages/@original", "Your hand: Q Q Q", 0);
	assert_string_equal(t->ops[0].method, "PATCH");
	say(t, 3, true, "Your foot is next.");
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "Your foot is next.", 64);
	/* then the room's line: through the interaction too, public (no channel permission needed) */
	say(t, 3, false, "Ada picks up the pile.");
	op_is(t, DISCORD_ANS_FOLLOWUP, "/webhooks/900/tok_EN-1", "Ada picks up the pile.", 0);
	done(t);
}

/* A turn line's move pressed: UPDATE_MESSAGE at once (the moves go away),
 * what the bot says then follows up; not for a command, nor twice. */
static void
test_press_updates_the_turn_line(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 8, true);
	assert_int_equal(discord_answer_update(t->a, 8, json_pack("{s:[]}", "components"), t->now), 0);
	drain(t);
	op_is(t, DISCORD_ANS_CALLBACK, NULL, NULL, 0);
	assert_int_equal(json_integer_value(json_object_get(t->ops[0].body, "type")), 7);
	assert_int_equal(json_array_size(json_object_get(json_object_get(t->ops[0].body, "data"), "components")), 0);
	assert_int_equal(discord_answer_update(t->a, 8, json_pack("{s:[]}", "components"), t->now), -1);
	say(t, 8, true, "You drew 7 7.");
	assert_int_equal(t->n, 0);   /* waits for the response to land */
	discord_answer_result(t->a, 8, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "You drew 7 7.", 64);
	begin(t, 9, false);
	assert_int_equal(discord_answer_update(t->a, 9, json_pack("{s:[]}", "components"), t->now), -1);
	done(t);
}

/* A room's line first, while "thinking..." only its user sees is unfilled:
 * a follow-up would only fill it (and stay private), so it is deleted
 * first; the room's line and what came meanwhile then follow up, through
 * the interaction, never the channel. */
static void
test_room_line_after_a_private_defer(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 3, false);
	advance(t, DISCORD_ANSWER_DEFER_MS);
	discord_answer_result(t->a, 3, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	say(t, 3, false, "Ada picks up the pile.");
	op_is(t, DISCORD_ANS_DELETE, "/webhooks/900/tok_EN-1/messages/@original", NULL, 0);
	say(t, 3, true, "Your hand: Q Q Q");
	assert_int_equal(t->n, 0);
	discord_answer_result(t->a, 3, DISCORD_ANS_DELETE, 204, 0, t->now);
	drain(t);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->ops[0].kind, DISCORD_ANS_FOLLOWUP);
	assert_string_equal(json_string_value(json_object_get(t->ops[0].body, "content")), "Ada picks up the pile.");
	assert_false(json_integer_value(json_object_get(t->ops[0].body, "flags")) & 64);
	assert_int_equal(t->ops[1].kind, DISCORD_ANS_FOLLOWUP);
	assert_true(json_integer_value(json_object_get(t->ops[1].body, "flags")) & 64);
	assert_true(discord_answer_safe(&t->ops[1]));
	done(t);
}

static void
test_unfilled_defer_deleted(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 4, false);
	advance(t, DISCORD_ANSWER_DEFER_MS);
	discord_answer_result(t->a, 4, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	assert_int_equal(discord_answer_due(t->a), t->now + DISCORD_ANSWER_SETTLE_MS);
	advance(t, DISCORD_ANSWER_SETTLE_MS);
	op_is(t, DISCORD_ANS_DELETE, "/webhooks/900/tok_EN-1/messages/@original", NULL, 0);
	assert_string_equal(t->ops[0].method, "DELETE");
	advance(t, DISCORD_ANSWER_SETTLE_MS);
	assert_int_equal(t->n, 0);
	done(t);
}

static void
test_slow_button_deferred_silently(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 5, true);
	advance(t, DISCORD_ANSWER_DEFER_MS);
	op_is(t, DISCORD_ANS_CALLBACK, NULL, NULL, 0);
	assert_int_equal(json_integer_value(json_object_get(t->ops[0].body, "type")), 6);
	discord_answer_result(t->a, 5, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	say(t, 5, true, "Your hand: 5 5");
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "Your hand: 5 5", 64);
	advance(t, DISCORD_ANSWER_SETTLE_MS);
	assert_int_equal(t->n, 0);
	done(t);
}

static void
test_refused_response_falls_back(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 6, false);
	say(t, 6, false, "Ada draws.");
	say(t, 6, true, "Your hand: 9");
	/* too late (10062): the room's line to the channel, the hand back to the caller */
	discord_answer_result(t->a, 6, DISCORD_ANS_CALLBACK, 404, 10062, t->now);
	drain(t);
	assert_int_equal(t->n, 1);
	assert_int_equal(t->ops[0].kind, DISCORD_ANS_UNDELIVERED);
	assert_string_equal(json_string_value(json_object_get(t->ops[0].body, "content")), "Your hand: 9");
	say(t, 6, false, "Next: Bob.");
	op_is(t, DISCORD_ANS_CHANNEL, NULL, "Next: Bob.", 0);
	done(t);
}

static void
test_already_acknowledged_counts_as_answered(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 7, false);
	say(t, 7, false, "x");
	say(t, 7, true, "y");
	discord_answer_result(t->a, 7, DISCORD_ANS_CALLBACK, 400, 40060, t->now);
	drain(t);
	op_is(t, DISCORD_ANS_FOLLOWUP, NULL, "y", 64);
	done(t);
}

static void
test_expired_token(void **state)
{
	struct t *t = mk();

	(void)state;
	begin(t, 8, false);
	say(t, 8, false, "x");
	discord_answer_result(t->a, 8, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	/* a follow-up refused for an unknown webhook: no more follow-ups */
	say(t, 8, true, "y");
	discord_answer_result(t->a, 8, DISCORD_ANS_FOLLOWUP, 404, 10015, t->now);
	say(t, 8, true, "z");
	assert_int_equal(t->ops[0].kind, DISCORD_ANS_UNDELIVERED);
	/* after 15 minutes it is forgotten */
	t->now += DISCORD_ANSWER_TOKEN_MS;
	assert_int_equal(discord_answer_say(t->a, 8, false, msg("late"), t->now), -1);
	discord_answer_tick(t->a, t->now);
	assert_int_equal(discord_answer_count(t->a), 0);
	assert_int_equal(discord_answer_due(t->a), -1);
	done(t);
}

static void
test_begin_refuses_bad_input(void **state)
{
	struct t *t = mk();

	(void)state;
	assert_int_equal(discord_answer_begin(t->a, 0, "1", "tok", "2", "3", false, 0), -1);
	assert_int_equal(discord_answer_begin(t->a, 1, "1", "to/k", "2", "3", false, 0), -1);
	assert_int_equal(discord_answer_begin(t->a, 1, "x", "tok", "2", "3", false, 0), -1);
	assert_int_equal(discord_answer_begin(t->a, 1, "1", "tok", "2", "3", false, 0), 0);
	assert_int_equal(discord_answer_begin(t->a, 1, "1", "tok", "2", "3", false, 0), -1);
	assert_int_equal(discord_answer_say(t->a, 99, false, msg("x"), 0), -1);
	assert_null(discord_answer_new("app"));
	done(t);
}

/* One interaction of user, answered at once (the response landed). */
static int
begin_answered(struct t *t, uint64_t ref, const char *user)
{
	char id[32];

	snprintf(id, sizeof id, "%llu", (unsigned long long)(1000 + ref));
	if (discord_answer_begin(t->a, ref, id, "tok_EN-1", "501", user, false, t->now) != 0)
		return -1;
	say(t, ref, false, "answer");
	discord_answer_result(t->a, ref, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	return 0;
}

/* Answered and idle: forgotten long before its token's 15 minutes (issue
 * 24: one member's 4,110 /who kept the table full for 15 minutes). */
static void
test_answered_and_idle_is_forgotten(void **state)
{
	struct t *t = mk();

	(void)state;
	assert_int_equal(begin_answered(t, 1, "601"), 0);
	begin(t, 2, false);                   /* not answered yet: kept */
	advance(t, DISCORD_ANSWER_IDLE_MS - 1);
	assert_int_equal(discord_answer_count(t->a), 2);
	assert_true(discord_answer_due(t->a) <= t->now + 1);
	advance(t, 1);
	assert_int_equal(discord_answer_count(t->a), 1);
	assert_int_equal(discord_answer_say(t->a, 1, false, msg("late"), t->now), -1);
	done(t);
}

/* A user's own answered interactions make room for their next; while all
 * of theirs wait for an answer, theirs are refused, never anyone else's. */
static void
test_cap_per_user(void **state)
{
	struct t *t = mk();
	uint64_t ref = 1;

	(void)state;
	for (int i = 0; i < DISCORD_ANSWER_PER_USER; i++)
		begin(t, ref++, false);
	assert_int_equal(discord_answer_begin(t->a, ref, "1999", "tok", "501", "601", false, t->now), -1);
	assert_int_equal(begin_answered(t, 500, "602"), 0);
	/* one of the flooder's answered: it makes room for the flooder's next */
	say(t, 1, false, "answer");
	discord_answer_result(t->a, 1, DISCORD_ANS_CALLBACK, 204, 0, t->now);
	drain(t);
	assert_int_equal(discord_answer_begin(t->a, ref, "1999", "tok", "501", "601", false, t->now), 0);
	assert_int_equal(discord_answer_count(t->a), DISCORD_ANSWER_PER_USER + 1);
	assert_int_equal(discord_answer_say(t->a, 1, false, msg("late"), t->now), -1);
	done(t);
}

/* At the table's bound the oldest settled interaction goes, not the newcomer. */
static void
test_full_table_evicts_the_oldest_settled(void **state)
{
	struct t *t = mk();
	char user[16];

	(void)state;
	for (uint64_t ref = 1; ref <= DISCORD_ANSWER_MAX; ref++) {
		snprintf(user, sizeof user, "%llu", (unsigned long long)(700 + ref / 8));
		assert_int_equal(begin_answered(t, ref, user), 0);
		t->now++;
	}
	assert_int_equal(discord_answer_count(t->a), DISCORD_ANSWER_MAX);
	assert_int_equal(begin_answered(t, DISCORD_ANSWER_MAX + 1, "9"), 0);
	assert_int_equal(discord_answer_count(t->a), DISCORD_ANSWER_MAX);
	assert_int_equal(discord_answer_say(t->a, 1, false, msg("late"), t->now), -1);
	assert_int_equal(discord_answer_say(t->a, 2, false, msg("still"), t->now), 0);
	done(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_reply_answers_then_follow_ups),
		cmocka_unit_test(test_private_first_then_public),
		cmocka_unit_test(test_slow_command_deferred_privately),
		cmocka_unit_test(test_room_line_after_a_private_defer),
		cmocka_unit_test(test_press_updates_the_turn_line),
		cmocka_unit_test(test_unfilled_defer_deleted),
		cmocka_unit_test(test_slow_button_deferred_silently),
		cmocka_unit_test(test_refused_response_falls_back),
		cmocka_unit_test(test_already_acknowledged_counts_as_answered),
		cmocka_unit_test(test_expired_token),
		cmocka_unit_test(test_begin_refuses_bad_input),
		cmocka_unit_test(test_answered_and_idle_is_forgotten),
		cmocka_unit_test(test_cap_per_user),
		cmocka_unit_test(test_full_table_evicts_the_oldest_settled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
