/* e2e-discord-hostile.c: the daemon on the fake Discord against a member who floods it with interactions, and a gateway that floods it with data (issue 24). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcplay.h"

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

/* Issue 24 (medium): every interaction was kept for its token's 15 minutes,
 * answered or not, and at 4,096 new ones were refused before the core's
 * flood check: one member's 4,110 /who silenced the bot for everyone.  Now
 * a member holds 16 at most, answered ones are forgotten when idle, and the
 * oldest settled one makes room. */
static void
test_one_members_flood_does_not_silence_the_others(void **state)
{
	struct dcplay *p = calloc(1, sizeof *p);
	char body[512];
	const char *id;
	long st = 0;
	json_t *j;

	*state = p;
	assert_int_equal(dcplay_setup(p, "dc-hostile-ia", 2, NULL, NULL), 0);
	assert_int_equal(dcplay_start(p), 0);
	snprintf(body, sizeof body, "{\"kind\":\"command\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	         "\"name\":\"who\",\"options\":{},\"repeat\":4110}", p->user[0], p->guild, p->channel);
	j = fakedc_call(&p->f, "POST", "/_fake/interaction", NULL, body, &st);
	assert_int_equal(st, 200);
	json_decref(j);
	/* bob's command, after all of ann's, is answered */
	assert_non_null(id = dcplay_command(p, 1, "who", NULL));
	assert_true(dcplay_acked(p, id, 30000) >= 0);
	assert_int_equal(dcplay_stop(p), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_one_members_flood_does_not_silence_the_others, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
