/* e2e-dendrite-game.c: the real daemon on a real Dendrite v0.13.8 (default rate limits), the second homeserver: the game scenario of e2e-synapse-game (hsround.h), two people and two computer players a whole round; and which pings Dendrite highlights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dendrite.h"
#include "e2e.h"
#include "hsround.h"

/* Whether u's notification whose body is text highlights (-1: none yet). */
static int
highlight_of(struct synapse *s, const struct synapse_user *u, const char *text)
{
	json_t *n = synapse_notifications(s, u->token), *c;
	size_t i;
	int hl = -1;

	json_array_foreach(n, i, c) {
		const char *b = json_string_value(json_object_get(json_object_get(json_object_get(c, "event"), "content"),
		                                                  "body"));

		if (hl < 0 && b != NULL && strcmp(b, text) == 0)
			hl = synapse_highlighted(c);
	}
	json_decref(n);
	return hl;
}

/* The same, waiting (10 s at most) for Dendrite, which files notifications
 * behind the send; fails if none comes. */
static bool
highlights(struct synapse *s, const struct synapse_user *u, const char *text)
{
	int hl = -1;

	for (int t = 0; t < 100 && (hl = highlight_of(s, u, text)) < 0; t++)
		e2e_sleep_ms(100);
	if (hl < 0)
		fail_msg("\"%s\" is not in %s's notifications", text, u->id);
	return hl == 1;
}

/* What Dendrite v0.13.8's push rules highlight, said directly: the name in
 * a one-line body; not m.mentions alone (it has no .m.rule.is_user_mention),
 * nor the name in a body of two lines (its globs stop at a line break). */
static void
test_what_highlights(void **state)
{
	struct synapse *s = *state;
	struct synapse_user a, b, c;
	char room[256], body[512], one[160], two[160];

	dendrite_require(s);
	assert_int_equal(synapse_register(s, "ann", false, &a), 0);
	assert_int_equal(synapse_register(s, "bob", false, &b), 0);
	assert_int_equal(synapse_register(s, "cy", false, &c), 0);
	snprintf(body, sizeof body, "{\"invite\":[\"%s\",\"%s\"]}", b.id, c.id);
	assert_int_equal(synapse_create_room(s, a.token, body, room, sizeof room), 0);
	assert_int_equal(synapse_room_post(s, b.token, room, "join", NULL), 200);
	assert_int_equal(synapse_room_post(s, c.token, room, "join", NULL), 200);
	snprintf(one, sizeof one, "%s: your turn", b.localpart);
	snprintf(two, sizeof two, "Ada drew 2 cards\n%s: your turn", b.localpart);
	assert_int_equal(synapse_say_mentioning(s, a.token, room, "you: your turn", b.id), 0);
	assert_int_equal(synapse_say_mentioning(s, a.token, room, one, b.id), 0);
	assert_int_equal(synapse_say_mentioning(s, a.token, room, two, b.id), 0);
	assert_true(synapse_wait_readable(s, b.token, room, a.id, "Ada drew", 1, 10000));
	assert_false(highlights(s, &b, "you: your turn"));
	assert_true(highlights(s, &b, one));
	assert_false(highlights(s, &b, two));
}

static void
test_two_people_two_computers_a_whole_round(void **state)
{
	dendrite_require(*state);
	hsround_play(*state, "e2e-dendrite-game", HSROUND_ONE_LINE_PINGS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_highlights),
		cmocka_unit_test(test_two_people_two_computers_a_whole_round),
	};

	return cmocka_run_group_tests(tests, dendrite_group_setup, synapse_group_teardown);
}
