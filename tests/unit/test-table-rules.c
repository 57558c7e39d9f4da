/* test-table-rules.c: the engine answers the table's arithmetic: the player counts and sides each preset
 * allows (docs/RULES.md, "Table" of each preset), which side a seat plays for, which cards are wild. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hftest.h"

/* One preset's table: for n = 2..6 players, its default sides (0: not dealt to) and the sides allowed (bits). */
struct want {
	const char *preset;
	int min, max;
	int sides_default[HF_MAX_SEATS + 1];
	unsigned sides_ok[HF_MAX_SEATS + 1];
};

static const struct want wants[] = {
	/* 4 or 6 players in two teams */
	{ "classic", 4, 6, { [4] = 2, [6] = 2 }, { [4] = 1u << 2, [6] = 1u << 2 } },
	/* 4 in two teams, or 6 in teams of three (or two); individuals at 2, 3, 4 or 6 */
	{ "sevens", 2, 6, { [2] = 2, [3] = 3, [4] = 2, [6] = 2 },
	  { [2] = 1u << 2, [3] = 1u << 3, [4] = 1u << 2 | 1u << 4, [6] = 1u << 2 | 1u << 3 | 1u << 6 } },
	/* 2 to 6: partners at 4 (two teams) and 6 (three teams of two), or individuals ("can play partners") */
	{ "family", 2, 6, { [2] = 2, [3] = 3, [4] = 2, [5] = 5, [6] = 3 },
	  { [2] = 1u << 2, [3] = 1u << 3, [4] = 1u << 2 | 1u << 4, [5] = 1u << 5, [6] = 1u << 3 | 1u << 6 } },
	/* 4 players in two teams */
	{ "pcio", 4, 4, { [4] = 2 }, { [4] = 1u << 2 } },
	/* 2 players */
	{ "duel", 2, 2, { [2] = 2 }, { [2] = 1u << 2 } },
};

static void presets_tables(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
		const struct want *w = &wants[i];
		const struct hf_rules *r = hf_preset(w->preset);

		assert_non_null(r);
		assert_int_equal(hf_rules_min_players(r), w->min);
		assert_int_equal(hf_rules_max_players(r), w->max);
		for (int n = 0; n <= HF_MAX_SEATS + 1; n++) {
			int def = n <= HF_MAX_SEATS ? w->sides_default[n] : 0;
			unsigned ok = n <= HF_MAX_SEATS ? w->sides_ok[n] : 0;

			if (hf_rules_default_sides(r, n) != def || hf_rules_count_ok(r, n) != (def > 0))
				fail_msg("%s at %d players: default sides %d, want %d", w->preset, n,
				         hf_rules_default_sides(r, n), def);
			for (int k = 0; k <= HF_MAX_SIDES + 1; k++)
				if (hf_rules_sides_ok(r, n, k) != ((ok >> k) & 1u))
					fail_msg("%s at %d players as %d sides: %s, want the opposite", w->preset, n, k,
					         hf_rules_sides_ok(r, n, k) ? "allowed" : "refused");
		}
	}
}

/* A house rule that changes the table changes the answers: they are the rules', not the preset's. */
static void house_rules_change_the_answers(void **state)
{
	(void)state;
	struct hf_rules r = *hf_preset("classic");
	char why[HF_ERRLEN];

	r.hand_size = 60;   /* too many cards for the decks at 6 players, and at 4 */
	r.foot_size = 60;
	assert_false(hf_rules_count_ok(&r, 4));
	assert_int_equal(hf_rules_min_players(&r), 0);
	assert_int_equal(hf_rules_max_players(&r), 0);
	assert_int_equal(hf_rules_default_sides(&r, 4), 0);
	assert_false(hf_rules_sides_ok(&r, 4, 2));
	assert_int_not_equal(hf_rules_check_table(&r, 4, 2, why, sizeof why), HF_OK);
}

/* Seats alternate sides, as the game deals them. */
static void seats_alternate_sides(void **state)
{
	(void)state;
	const struct hf_rules *r = hf_preset("family");
	struct hf_game *g;
	char why[HF_ERRLEN];

	assert_int_equal(hf_seat_side(0, 2), 0);
	assert_int_equal(hf_seat_side(1, 2), 1);
	assert_int_equal(hf_seat_side(3, 2), 1);
	assert_int_equal(hf_seat_side(4, 3), 1);
	assert_int_equal(hf_seat_side(5, 3), 2);
	assert_int_equal(hf_seat_side(-1, 2), -1);
	assert_int_equal(hf_seat_side(1, 0), -1);
	assert_int_equal(hf_game_new(&g, r, 6, 3, 7, why, sizeof why), HF_OK);
	for (int seat = 0; seat < 6; seat++)
		assert_int_equal(hf_game_side_of(g, seat), hf_seat_side(seat, 3));
	hf_game_free(g);
}

/* Every preset: the 2 and the joker are wild, nothing else (docs/RULES.md, "Words"). */
static void wilds_on_every_preset(void **state)
{
	(void)state;
	for (const char *const *name = hf_preset_names(); *name != NULL; name++) {
		int nwild = 0;

		assert_non_null(hf_preset(*name));
		for (int c = HF_RED3; c <= HF_JOKER; c++)
			nwild += hf_card_is_wild(c);
		assert_int_equal(nwild, 2);
		assert_true(hf_card_is_wild(HF_TWO));
		assert_true(hf_card_is_wild(HF_JOKER));
		assert_false(hf_card_is_wild(HF_BLACK3));
		assert_false(hf_card_is_wild(HF_RED3));
		assert_false(hf_card_is_wild(HF_ACE));
		assert_false(hf_card_is_wild(HF_NOCARD));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presets_tables),
		cmocka_unit_test(house_rules_change_the_answers),
		cmocka_unit_test(seats_alternate_sides),
		cmocka_unit_test(wilds_on_every_preset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
