/* e2e-discord-web.c: the web table on Discord: a link button to the table's page on the deal's and the turn's lines, "My page" on a hand, and no seat's link ever in public. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "dcplay.h"
#include "ircserver.h"

#define QUICK      "classic rounds=1 decks=1 hand=5 foot=5"
#define MAX_LINKS  32

/* Every "/t/TOKEN" link in s, appended to links (the table's and the seats' look alike). */
static void
links_in(const char *s, char links[][128], int *n)
{
	const char *p = s;

	while (s != NULL && (p = strstr(p, "/t/")) != NULL) {
		size_t k = strspn(p + 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
		int dup = 0;

		for (int i = 0; i < *n; i++)
			dup |= strlen(links[i]) == k + 3 && strncmp(links[i], p, k + 3) == 0;
		if (k > 0 && !dup && *n < MAX_LINKS)
			snprintf(links[(*n)++], sizeof links[0], "%.*s", (int)(k + 3), p);
		p += 3 + k;
	}
}

/* Every link a message carries: in its text and its link buttons. */
static void
links_of(json_t *m, char links[][128], int *n)
{
	json_t *row, *b;
	size_t i, k;

	links_in(json_string_value(json_object_get(m, "content")), links, n);
	json_array_foreach(json_object_get(m, "components"), i, row)
		json_array_foreach(json_object_get(row, "components"), k, b)
			links_in(json_string_value(json_object_get(b, "url")), links, n);
}

static bool
has_public_link(json_t *m, void *ctx)
{
	return dcplay_public(m, NULL) && dcplay_link(m, ctx) != NULL;
}

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

static void
test_table_page_buttons_and_private_pages(void **state)
{
	struct dcplay *p;
	json_t *turn, *m, *hand, *s;
	const char *url, *id, *page, *myhand;
	char extra[200], base[64], table[128], mid[32], seats[MAX_LINKS][128], pub[MAX_LINKS][128];
	int who = -1, other, nseats = 0, npub = 0, port = ircserver_free_port();
	size_t k;

	snprintf(base, sizeof base, "http://127.0.0.1:%d/t/", port);
	/* DMs: each player's deal-time link goes to their DM, where the fake records it */
	snprintf(extra, sizeof extra, "private = dm\n[web test]\nlisten = 127.0.0.1:%d\n", port);
	p = dcplay_setup_state(state, "dc-web", 4, NULL, extra);
	assert_int_equal(dcplay_start(p), 0);
	assert_non_null(turn = dcplay_deal(p, QUICK, &who));

	/* the turn line: the player's buttons, My hand, and the table's page beside them */
	assert_non_null(dcplay_button(turn, "Draw"));
	assert_non_null(url = dcplay_link(turn, "Table page"));
	assert_true(strncmp(url, base, strlen(base)) == 0);
	snprintf(table, sizeof table, "%s", url + strlen(base) - 3);
	/* the deal's line names the page, and carries it as a button too */
	assert_non_null(m = dcplay_wait(p, 0, "Watch: ", has_public_link, (void *)"Table page", 10000));
	assert_non_null(strstr(json_string_value(json_object_get(m, "content")), table));
	assert_string_equal(dcplay_link(m, "Table page"), url);
	json_decref(m);
	snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(turn, "id")));
	myhand = dcplay_button(turn, "My hand");

	/* My hand: the hand, only its player sees it, with My page and the table's page */
	other = (who + 1) % 4;
	assert_non_null(id = dcplay_press(p, other, mid, myhand));
	assert_non_null(hand = dcplay_reply(p, id, "Your hand (", 10000));
	assert_true(json_is_true(json_object_get(hand, "ephemeral")));
	assert_non_null(page = dcplay_button(hand, "My page (new link)"));
	assert_string_equal(dcplay_link(hand, "Table page"), url);
	/* pressed: a new link to their own page, answered to them alone */
	assert_non_null(id = dcplay_press(p, other, json_string_value(json_object_get(hand, "id")), page));
	json_decref(hand);
	assert_non_null(m = dcplay_reply(p, id, "A new link", 10000));
	assert_true(json_is_true(json_object_get(m, "ephemeral")) || json_is_true(json_object_get(m, "dm")));
	links_of(m, seats, &nseats);
	assert_int_equal(nseats, 1);
	assert_string_not_equal(seats[0], table);
	json_decref(m);

	/* the player draws with the turn line's button: its moves go, My hand and the page stay */
	assert_non_null(id = dcplay_press(p, who, mid, dcplay_button(turn, "Draw")));
	assert_non_null(m = dcplay_reply(p, id, "You drew ", 10000));
	json_decref(m);
	json_decref(turn);

	assert_int_equal(dcplay_auto_all(p), 0);
	assert_non_null(m = dcplay_wait(p, 0, "Game over", dcplay_public, NULL, 180000));
	json_decref(m);

	/* every seat's link (what the web adapter issued, said privately): in DMs
	 * and ephemeral answers only; the room's lines carry the table's alone */
	s = dcplay_state(p);
	json_array_foreach(json_object_get(s, "messages"), k, m)
		if (!dcplay_public(m, NULL) && strstr(json_string_value(json_object_get(m, "content")), "play from") != NULL)
			links_in(json_string_value(json_object_get(m, "content")), seats, &nseats);
	json_array_foreach(json_object_get(s, "messages"), k, m)
		if (dcplay_public(m, NULL))
			links_of(m, pub, &npub);
	json_decref(s);
	/* the three others' links at the deal (Ann's answered her /start), and the new one */
	assert_true(nseats >= 4);
	assert_int_equal(npub, 1);
	assert_string_equal(pub[0], table);
	for (int i = 0; i < nseats; i++)
		assert_string_not_equal(seats[i], table);
	dcplay_end(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_table_page_buttons_and_private_pages, teardown),
	};

	curl_global_init(CURL_GLOBAL_DEFAULT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
