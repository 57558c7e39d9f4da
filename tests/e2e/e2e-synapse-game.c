/* e2e-synapse-game.c: the real daemon on a real Synapse (default rate limits): two people and two computer players play a whole round; hands reach their owners alone, turn pings highlight (the scenario: hsround.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hsround.h"

static void
test_two_people_two_computers_a_whole_round(void **state)
{
	hsround_play(*state, "e2e-synapse-game", HSROUND_EVERY_PING);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_people_two_computers_a_whole_round),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
