/* e2e-synapse-fixture.c: the Synapse fixture itself (tests/lib/synapse.c): users, rooms, messages, state, account data and push notifications as a real Synapse answers them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "synapse.h"

/* Two users, a private room of theirs, a message read back by the other,
 * the room's state and members as Synapse keeps them. */
static void
test_users_rooms_messages(void **state)
{
	struct synapse *s = *state;
	struct synapse_user a, b, c;
	char room[256], body[512], out[512], want[512];

	assert_int_equal(synapse_register(s, "ann", false, &a), 0);
	assert_int_equal(synapse_register(s, "bob", false, &b), 0);
	assert_int_equal(synapse_register(s, "cy", false, &c), 0);
	assert_string_not_equal(a.id, b.id);
	snprintf(body, sizeof body, "{\"preset\":\"private_chat\",\"invite\":[\"%s\"],"
	         "\"initial_state\":[{\"type\":\"m.room.history_visibility\",\"state_key\":\"\","
	         "\"content\":{\"history_visibility\":\"joined\"}}]}", b.id);
	assert_int_equal(synapse_create_room(s, a.token, body, room, sizeof room), 0);
	synapse_invites(s, b.token, out, sizeof out);
	assert_non_null(strstr(out, room));
	synapse_members(s, a.token, room, "invite", out, sizeof out);
	assert_string_equal(out, b.id);
	assert_int_equal(synapse_room_post(s, b.token, room, "join", NULL), 200);
	assert_true(synapse_wait_membership(s, a.token, room, b.id, "join", 5000));
	snprintf(want, sizeof want, "%s %s", strcmp(a.id, b.id) < 0 ? a.id : b.id, strcmp(a.id, b.id) < 0 ? b.id : a.id);
	synapse_members(s, a.token, room, "join", out, sizeof out);
	assert_string_equal(out, want);
	assert_int_equal(synapse_say(s, a.token, room, "hello bob"), 0);
	assert_true(synapse_wait_readable(s, b.token, room, a.id, "hello", 1, 5000));
	synapse_state_str(s, b.token, room, "m.room.join_rules", "join_rule", out, sizeof out);
	assert_string_equal(out, "invite");
	synapse_state_str(s, b.token, room, "m.room.history_visibility", "history_visibility", out, sizeof out);
	assert_string_equal(out, "joined");
	/* a later member reads nothing from before they joined */
	assert_int_equal(synapse_invite(s, a.token, room, c.id), 200);
	assert_int_equal(synapse_room_post(s, c.token, room, "join", NULL), 200);
	assert_int_equal(synapse_readable(s, c.token, room, NULL, "hello"), 0);
	assert_int_equal(synapse_readable(s, b.token, room, NULL, "hello"), 1);
}

/* A mention in m.mentions highlights its user in /notifications; a plain
 * line notifies in a two-person room without highlighting. */
static void
test_notifications_and_account_data(void **state)
{
	struct synapse *s = *state;
	struct synapse_user a, b;
	char room[256], body[512], path[512];
	json_t *n, *c, *d;
	long st = 0;
	int hl = 0, plain = 0;
	size_t i;

	assert_int_equal(synapse_register(s, "ann", false, &a), 0);
	assert_int_equal(synapse_register(s, "bob", false, &b), 0);
	snprintf(body, sizeof body, "{\"invite\":[\"%s\"]}", b.id);
	assert_int_equal(synapse_create_room(s, a.token, body, room, sizeof room), 0);
	assert_int_equal(synapse_room_post(s, b.token, room, "join", NULL), 200);
	assert_int_equal(synapse_say(s, a.token, room, "just a line"), 0);
	c = json_pack("{s:s,s:s,s:{s:[s]}}", "msgtype", "m.text", "body", "bob: your turn", "m.mentions", "user_ids", b.id);
	{
		char *e = json_dumps(c, JSON_COMPACT), *er = curl_easy_escape(NULL, room, 0);

		snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/m1", er);
		json_decref(synapse_call(s, "PUT", path, a.token, e, &st));
		assert_int_equal(st, 200);
		curl_free(er);
		free(e);
	}
	json_decref(c);
	n = synapse_notifications(s, b.token);
	json_array_foreach(n, i, c) {
		const char *bd = json_string_value(json_object_get(json_object_get(json_object_get(c, "event"), "content"), "body"));

		if (bd == NULL)
			continue;
		hl += synapse_highlighted(c) && strcmp(bd, "bob: your turn") == 0;
		plain += !synapse_highlighted(c) && strcmp(bd, "just a line") == 0;
	}
	json_decref(n);
	assert_int_equal(hl, 1);
	assert_int_equal(plain, 1);
	/* account data written and read back */
	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/m.direct", a.id);
	snprintf(body, sizeof body, "{\"%s\":[\"%s\"]}", b.id, room);
	json_decref(synapse_call(s, "PUT", path, a.token, body, &st));
	assert_int_equal(st, 200);
	d = synapse_account_data(s, &a, "m.direct");
	assert_string_equal(json_string_value(json_array_get(json_object_get(d, b.id), 0)), room);
	json_decref(d);
	assert_null(synapse_account_data(s, &b, "m.direct"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_users_rooms_messages),
		cmocka_unit_test(test_notifications_and_account_data),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
