/* e2e-dendrite-game.c: the real daemon on a real Dendrite v0.13.8 (default rate limits), the second homeserver: the game scenario of e2e-synapse-game (hsround.h), two people and two computer players a whole round. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dendrite.h"
#include "hsround.h"

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
		cmocka_unit_test(test_two_people_two_computers_a_whole_round),
	};

	return cmocka_run_group_tests(tests, dendrite_group_setup, synapse_group_teardown);
}
