/* test-matrix-sync.c: the Matrix sync parser and text hygiene: history skipped, own events ignored, hostile input cleaned. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "matrix/matrix.h"

#define SELF "@bot:hs"

static const char sync_json[] =
    "{\"next_batch\":\"s2\","
    " \"account_data\":{\"events\":[{\"type\":\"m.direct\",\"content\":{\"@ann:hs\":[\"!old:hs\",\"!dm:hs\"],\"bad\":[\"!x:hs\"]}}]},"
    " \"rooms\":{"
    "  \"join\":{\"!game:hs\":{"
    "    \"state\":{\"events\":[{\"type\":\"m.room.member\",\"state_key\":\"@ann:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"join\",\"displayname\":\"Ann\\u0007 B\"}}]},"
    "    \"timeline\":{\"events\":["
    "      {\"type\":\"m.room.message\",\"event_id\":\"$1\",\"sender\":\"@ann:hs\",\"origin_server_ts\":5,\"content\":{\"msgtype\":\"m.text\",\"body\":\"!draw\\r\\nnow\"}},"
    "      {\"type\":\"m.room.message\",\"event_id\":\"$2\",\"sender\":\"@bot:hs\",\"content\":{\"msgtype\":\"m.notice\",\"body\":\"mine\"}},"
    "      {\"type\":\"m.room.message\",\"event_id\":\"$3\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.image\",\"body\":\"pic\"}},"
    "      {\"type\":\"m.room.member\",\"event_id\":\"$4\",\"state_key\":\"@cy:hs\",\"sender\":\"@cy:hs\",\"content\":{\"membership\":\"join\"}},"
    "      {\"type\":\"m.room.member\",\"event_id\":\"$5\",\"state_key\":\"@ann:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"join\",\"displayname\":\"Annie\"},\"unsigned\":{\"prev_content\":{\"membership\":\"join\",\"displayname\":\"Ann\"}}},"
    "      {\"type\":\"m.room.member\",\"event_id\":\"$6\",\"state_key\":\"@cy:hs\",\"sender\":\"@cy:hs\",\"content\":{\"membership\":\"leave\"},\"unsigned\":{\"prev_content\":{\"membership\":\"join\"}}},"
    "      {\"type\":\"m.room.message\",\"sender\":\"@ann:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"no id\"}}"
    "    ]}},"
    "   \"!enc:hs\":{\"state\":{\"events\":[{\"type\":\"m.room.encryption\",\"state_key\":\"\",\"content\":{\"algorithm\":\"m.megolm.v1.aes-sha2\"}}]}}},"
    "  \"invite\":{\"!inv:hs\":{\"invite_state\":{\"events\":["
    "      {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"invite\",\"is_direct\":true}}]}}},"
    "  \"leave\":{\"!gone:hs\":{}}}}";

static const struct matrix_item *
find(const struct matrix_sync *s, enum matrix_item_kind k, int nth)
{
	for (size_t i = 0; i < s->nitems; i++)
		if (s->items[i].kind == k && nth-- == 0)
			return &s->items[i];
	return NULL;
}

static size_t
count(const struct matrix_sync *s, enum matrix_item_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nitems; i++)
		n += s->items[i].kind == k;
	return n;
}

static void
test_incremental_sync_items(void **state)
{
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;

	(void)state;
	assert_int_equal(matrix_sync_parse(sync_json, strlen(sync_json), SELF, false, &s, &why), 0);
	assert_string_equal(s.next_batch, "s2");
	assert_true(s.has_direct);
	/* one message: not our own, not an image, not one without an id */
	assert_int_equal(count(&s, MX_IT_MESSAGE), 1);
	it = find(&s, MX_IT_MESSAGE, 0);
	assert_string_equal(it->room, "!game:hs");
	assert_string_equal(it->user, "@ann:hs");
	assert_string_equal(it->text, "!draw now");
	assert_string_equal(it->event_id, "$1");
	assert_int_equal(it->ts, 5);
	/* display name cleaned of its control character */
	it = find(&s, MX_IT_NAME, 0);
	assert_string_equal(it->name, "Ann B");
	assert_string_equal(it->room, "!game:hs");   /* names are per room */
	assert_non_null(it = find(&s, MX_IT_JOIN, 0));
	assert_string_equal(it->user, "@cy:hs");
	assert_non_null(it = find(&s, MX_IT_RENAME, 0));
	assert_string_equal(it->text, "Annie");
	assert_non_null(it = find(&s, MX_IT_LEAVE, 0));
	assert_string_equal(it->user, "@cy:hs");
	assert_non_null(it = find(&s, MX_IT_ENCRYPTED, 0));
	assert_string_equal(it->room, "!enc:hs");
	assert_non_null(it = find(&s, MX_IT_INVITE, 0));
	assert_string_equal(it->room, "!inv:hs");
	assert_string_equal(it->user, "@ann:hs");
	assert_true(it->direct);
	assert_non_null(it = find(&s, MX_IT_REMOVED, 0));
	assert_string_equal(it->room, "!gone:hs");
	/* m.direct: the newest room of a valid user only */
	assert_int_equal(count(&s, MX_IT_DIRECT), 1);
	it = find(&s, MX_IT_DIRECT, 0);
	assert_string_equal(it->room, "!dm:hs");
	matrix_sync_free(&s);
}

static void
test_initial_sync_skips_history(void **state)
{
	struct matrix_sync s;
	const char *why = NULL;

	(void)state;
	assert_int_equal(matrix_sync_parse(sync_json, strlen(sync_json), SELF, true, &s, &why), 0);
	assert_int_equal(count(&s, MX_IT_MESSAGE), 0);
	assert_int_equal(count(&s, MX_IT_JOIN), 0);
	assert_int_equal(count(&s, MX_IT_LEAVE), 0);
	assert_int_equal(count(&s, MX_IT_RENAME), 0);
	/* but state still counts: invites are answered, encryption noticed */
	assert_int_equal(count(&s, MX_IT_INVITE), 1);
	assert_int_equal(count(&s, MX_IT_ENCRYPTED), 1);
	/* cy's join has no display name: an empty one (she goes by her id) */
	assert_int_equal(count(&s, MX_IT_NAME), 3);
	matrix_sync_free(&s);
}

static void
test_rejects_garbage(void **state)
{
	static const char *bad[] = {
		"", "nope", "[]", "{}", "{\"next_batch\":5}", "{\"next_batch\":\"\"}",
		"{\"next_batch\":\"a b\"}", "{\"next_batch\":\"x\",\"next_batch\":\"y\"}",
	};
	struct matrix_sync s;
	const char *why = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(matrix_sync_parse(bad[i], strlen(bad[i]), SELF, false, &s, &why), -1);
		assert_non_null(why);
		matrix_sync_free(&s);
	}
}

static void
test_wrong_shapes_are_ignored(void **state)
{
	static const char j[] =
	    "{\"next_batch\":\"n\",\"rooms\":{\"join\":{\"not-a-room\":{\"timeline\":{\"events\":[{\"type\":\"m.room.message\","
	    "\"event_id\":\"$1\",\"sender\":\"@a:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"x\"}}]}},"
	    "\"!r:hs\":{\"timeline\":{\"events\":[5,\"x\",null,{\"type\":7},{\"type\":\"m.room.message\",\"event_id\":\"$2\","
	    "\"sender\":\"@a:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":42}},{\"type\":\"m.room.message\",\"event_id\":\"$3\","
	    "\"sender\":\"@a:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"\\u0001\\u0002\"}}]},\"state\":7}},"
	    "\"invite\":[],\"leave\":\"x\"},\"account_data\":{\"events\":{}}}";
	struct matrix_sync s;
	const char *why = NULL;

	(void)state;
	assert_int_equal(matrix_sync_parse(j, strlen(j), SELF, false, &s, &why), 0);
	/* only that we are in !r:hs: none of its events has a usable shape */
	assert_int_equal(s.nitems, 1);
	assert_int_equal(s.items[0].kind, MX_IT_JOINED);
	assert_string_equal(s.items[0].room, "!r:hs");
	matrix_sync_free(&s);
}

static void
test_ids_and_urls(void **state)
{
	char out[64];

	(void)state;
	assert_true(matrix_text_id_ok("@a:hs", '@'));
	assert_false(matrix_text_id_ok("@a hs", '@'));
	assert_false(matrix_text_id_ok("!a:hs", '@'));
	assert_false(matrix_text_id_ok("@", '@'));
	assert_false(matrix_text_id_ok(NULL, 0));
	assert_int_equal(matrix_text_urlenc("!a/b:hs?x", out, sizeof out), 0);
	assert_string_equal(out, "%21a%2Fb%3Ahs%3Fx");
	assert_int_equal(matrix_text_urlenc("!!!!", out, 12), -1);
}

/* Stripped state is unsigned: only the last member event for us (the invite
 * event the homeserver appends) names the inviter. */
static void
test_invite_trusts_the_invite_event_only(void **state)
{
	static const char j[] =
	    "{\"next_batch\":\"n\",\"rooms\":{\"invite\":{"
	    "\"!forged:hs\":{\"invite_state\":{\"events\":["
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"invite\",\"is_direct\":true}},"
	    "  {\"type\":\"m.room.name\",\"state_key\":\"\",\"sender\":\"@eve:evil\",\"content\":{\"name\":\"x\"}},"
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@eve:evil\",\"event_id\":\"$i\",\"content\":{\"membership\":\"invite\"}}]}},"
	    "\"!twice:hs\":{\"invite_state\":{\"events\":["
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@cy:hs\",\"content\":{\"membership\":\"invite\",\"is_direct\":true}},"
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@cy:hs\",\"content\":{\"membership\":\"invite\",\"is_direct\":true}}]}},"
	    "\"!notme:hs\":{\"invite_state\":{\"events\":["
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"invite\"}},"
	    "  {\"type\":\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@bot:hs\",\"content\":{\"membership\":\"leave\"}}]}}}}}";
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;

	(void)state;
	assert_int_equal(matrix_sync_parse(j, strlen(j), SELF, false, &s, &why), 0);
	assert_int_equal(count(&s, MX_IT_INVITE), 2);
	/* the forgery claimed ann and a direct chat; the invite is eve's, plain */
	it = find(&s, MX_IT_INVITE, 0);
	assert_string_equal(it->room, "!forged:hs");
	assert_string_equal(it->user, "@eve:evil");
	assert_false(it->direct);
	assert_true(it->forged);
	/* the same invite told twice is no forgery */
	it = find(&s, MX_IT_INVITE, 1);
	assert_string_equal(it->room, "!twice:hs");
	assert_string_equal(it->user, "@cy:hs");
	assert_true(it->direct);
	assert_false(it->forged);
	matrix_sync_free(&s);
}

static void
test_allow_list(void **state)
{
	(void)state;
	/* nothing listed: our own homeserver only, not the whole federation */
	assert_false(matrix_client_allowed("", SELF, "@x:evil"));
	assert_true(matrix_client_allowed("", SELF, "@x:hs"));
	assert_false(matrix_client_allowed("", SELF, "@x:hs.evil"));
	assert_false(matrix_client_allowed("", "", "@x:hs"));
	assert_true(matrix_client_allowed("*", SELF, "@x:evil"));
	assert_true(matrix_client_allowed("@ann:hs, friends.org", SELF, "@ann:hs"));
	assert_true(matrix_client_allowed("@ann:hs friends.org", SELF, "@bob:friends.org"));
	assert_false(matrix_client_allowed("@ann:hs friends.org", SELF, "@bob:hs"));
	assert_false(matrix_client_allowed("friends.org", SELF, "@friends.org:evil"));
}

/* m.room.power_levels: who reaches the lower of kick and redact; strings
 * of older rooms; users_default; a hostile list cut short. */
static void
test_power_levels(void **state)
{
	static const char head[] = "{\"next_batch\":\"s3\",\"rooms\":{\"join\":{\"!r:hs\":{\"timeline\":{\"events\":["
	                           "{\"type\":\"m.room.power_levels\",\"state_key\":\"\",\"event_id\":\"$p\","
	                           "\"sender\":\"@ann:hs\",\"content\":";
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;
	char json[200000];
	size_t n;

	(void)state;
	snprintf(json, sizeof json, "%s{\"users\":{\"@ann:hs\":100,\"@bob:hs\":\"60\",\"@cy:hs\":49,\"bad id\":100},"
	         "\"kick\":75,\"redact\":60}}]}}}}}", head);
	assert_int_equal(matrix_sync_parse(json, strlen(json), SELF, false, &s, &why), 0);
	assert_non_null(it = find(&s, MX_IT_POWER, 0));
	assert_string_equal(it->room, "!r:hs");
	assert_false(it->everyone);
	assert_non_null(strstr(it->text, "@ann:hs"));
	assert_non_null(strstr(it->text, "@bob:hs"));
	assert_null(strstr(it->text, "@cy:hs"));
	assert_null(strstr(it->text, "bad"));
	matrix_sync_free(&s);

	/* the specification's defaults (50), and a room where everyone moderates; also in history */
	snprintf(json, sizeof json, "%s{\"users_default\":50}}]}}}}}", head);
	assert_int_equal(matrix_sync_parse(json, strlen(json), SELF, true, &s, &why), 0);
	assert_non_null(it = find(&s, MX_IT_POWER, 0));
	assert_true(it->everyone);
	assert_string_equal(it->text, "");
	matrix_sync_free(&s);

	/* a thousand moderators: MATRIX_POWER_MODS of them kept */
	n = (size_t)snprintf(json, sizeof json, "%s{\"users\":{", head);
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(json + n, sizeof json - n, "%s\"@u%d:hs\":100", i ? "," : "", i);
	snprintf(json + n, sizeof json - n, "}}}]}}}}}");
	assert_int_equal(matrix_sync_parse(json, strlen(json), SELF, false, &s, &why), 0);
	assert_non_null(it = find(&s, MX_IT_POWER, 0));
	n = 1;
	for (const char *p = it->text; *p; p++)
		n += *p == ' ';
	assert_int_equal(n, MATRIX_POWER_MODS);
	matrix_sync_free(&s);
}

/* What says whether a room may hold a hand, and who created it: every
 * membership (history too), the rules, the v12 creators, our own marker,
 * a tombstone; a cut timeline marks its messages stale. */
static void
test_room_state_items(void **state)
{
	const char *j =
	    "{\"next_batch\":\"s2\",\"rooms\":{\"join\":{\"!d:hs\":{"
	    "\"state\":{\"events\":["
	    "{\"type\":\"m.room.create\",\"state_key\":\"\",\"sender\":\"@ann:hs\",\"content\":{\"room_version\":\"12\","
	    "\"additional_creators\":[\"@cy:hs\",7]}},"
	    "{\"type\":\"m.room.join_rules\",\"state_key\":\"\",\"content\":{\"join_rule\":\"invite\"}},"
	    "{\"type\":\"m.room.history_visibility\",\"state_key\":\"\",\"content\":{\"history_visibility\":7}},"
	    "{\"type\":\"org.handfoot.direct\",\"state_key\":\"\",\"sender\":\"@bot:hs\",\"content\":{\"user\":\"@ann:hs\"}},"
	    "{\"type\":\"org.handfoot.direct\",\"state_key\":\"\",\"sender\":\"@eve:hs\",\"content\":{\"user\":\"@eve:hs\"}},"
	    "{\"type\":\"m.room.member\",\"state_key\":\"@eve:hs\",\"sender\":\"@ann:hs\",\"content\":{\"membership\":\"invite\"}}]},"
	    "\"timeline\":{\"limited\":true,\"events\":["
	    "{\"type\":\"m.room.tombstone\",\"state_key\":\"\",\"event_id\":\"$t\",\"sender\":\"@ann:hs\","
	    "\"content\":{\"replacement_room\":\"!new:hs\"}},"
	    "{\"type\":\"m.room.message\",\"event_id\":\"$m\",\"sender\":\"@ann:hs\",\"content\":{\"msgtype\":\"m.text\","
	    "\"body\":\"!draw\"}}]}}}}}";
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;

	(void)state;
	assert_int_equal(matrix_sync_parse(j, strlen(j), SELF, false, &s, &why), 0);
	assert_non_null(it = find(&s, MX_IT_CREATE, 0));
	assert_string_equal(it->user, "@ann:hs");
	assert_string_equal(it->text, "@cy:hs");
	assert_true(it->everyone);
	assert_non_null(it = find(&s, MX_IT_JOIN_RULE, 0));
	assert_string_equal(it->text, "invite");
	assert_non_null(it = find(&s, MX_IT_HISTORY, 0));
	assert_string_equal(it->text, "");            /* not a string: not private */
	assert_int_equal(count(&s, MX_IT_MADE), 1);   /* ours only */
	assert_string_equal(find(&s, MX_IT_MADE, 0)->user, "@ann:hs");
	assert_non_null(it = find(&s, MX_IT_MEMBER, 0));
	assert_string_equal(it->user, "@eve:hs");
	assert_string_equal(it->text, "invite");
	assert_non_null(it = find(&s, MX_IT_TOMBSTONE, 0));
	assert_string_equal(it->text, "!new:hs");
	assert_non_null(it = find(&s, MX_IT_MESSAGE, 0));
	assert_true(it->stale);
	matrix_sync_free(&s);
}

/* The server notices room's tag comes before the batch's messages; an
 * m.server_notice is its own item (never a message for the bot); the
 * versions the adapter speaks: v1.1 and later v1.x only. */
static void
test_server_notices_and_versions(void **state)
{
	const char *j =
	    "{\"next_batch\":\"s2\",\"rooms\":{\"join\":{\"!n:hs\":{"
	    "\"account_data\":{\"events\":[{\"type\":\"m.tag\",\"content\":{\"tags\":{\"m.server_notice\":{}}}}]},"
	    "\"timeline\":{\"events\":["
	    "{\"type\":\"m.room.message\",\"event_id\":\"$n\",\"sender\":\"@notices:hs\",\"content\":{"
	    "\"msgtype\":\"m.server_notice\",\"body\":\"limit\\u0007 reached\","
	    "\"server_notice_type\":\"m.server_notice.usage_limit_reached\"}}]}},"
	    "\"!o:hs\":{\"account_data\":{\"events\":[{\"type\":\"m.tag\",\"content\":{\"tags\":{\"u.x\":{}}}}]}}}}}";
	const char *const good[] = { "[\"r0.6.1\",\"v1.1\"]", "[\"v1.12\"]", NULL };
	const char *const bad[] = { "[]", "[\"r0.6.1\",\"v1.0\",\"v2.0\",\"v1.x\",\"v1.\",3]", "{}", NULL };
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;

	(void)state;
	assert_int_equal(matrix_sync_parse(j, strlen(j), SELF, false, &s, &why), 0);
	assert_non_null(it = find(&s, MX_IT_NOTICE_ROOM, 0));
	assert_string_equal(it->room, "!n:hs");
	assert_true(it->notice);
	assert_non_null(it = find(&s, MX_IT_NOTICE_ROOM, 1));
	assert_false(it->notice);
	assert_true(find(&s, MX_IT_NOTICE_ROOM, 0) < find(&s, MX_IT_SERVER_NOTICE, 0));
	assert_non_null(it = find(&s, MX_IT_SERVER_NOTICE, 0));
	assert_string_equal(it->name, "m.server_notice.usage_limit_reached");
	assert_null(strchr(it->text, '\a'));
	assert_int_equal(count(&s, MX_IT_MESSAGE), 0);
	matrix_sync_free(&s);
	for (int i = 0; good[i] != NULL; i++) {
		json_t *v = json_loads(good[i], 0, NULL);

		assert_true(matrix_discover_versions_ok(v));
		json_decref(v);
	}
	for (int i = 0; bad[i] != NULL; i++) {
		json_t *v = json_loads(bad[i], 0, NULL);

		assert_false(matrix_discover_versions_ok(v));
		json_decref(v);
	}
}

/* A room upgraded while the bot was away, or faster than one sync: the
 * tombstone in the old room, the bot in the new one (another client of the
 * account joined it, or its join's answer is late) and a command said there
 * come in one answer, its rooms in any order.  The items come out in the
 * order they must be handled in: the rooms we are in first, then the old
 * room (what was said there before its tombstone, then the tombstone), then
 * the new room, so that the table has moved before its first command. */
#define UPG_OLD \
	"\"!old:hs\":{\"timeline\":{\"events\":[" \
	"{\"type\":\"m.room.message\",\"event_id\":\"$o1\",\"sender\":\"@ann:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"!hand\"}}," \
	"{\"type\":\"m.room.tombstone\",\"state_key\":\"\",\"event_id\":\"$o2\",\"sender\":\"@ann:hs\"," \
	"\"content\":{\"body\":\"replaced\",\"replacement_room\":\"!new:hs\"}}]}}"
#define UPG_NEW \
	"\"!new:hs\":{\"timeline\":{\"events\":[" \
	"{\"type\":\"m.room.member\",\"event_id\":\"$n1\",\"state_key\":\"@bob:hs\",\"sender\":\"@bob:hs\",\"content\":{\"membership\":\"join\"}}," \
	"{\"type\":\"m.room.message\",\"event_id\":\"$n2\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"!draw\"}}]}}"
#define UPG_NEWER \
	"\"!newer:hs\":{\"timeline\":{\"events\":[" \
	"{\"type\":\"m.room.message\",\"event_id\":\"$m1\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"!pile\"}}]}}"
#define UPG_NEW_AGAIN \
	"\"!new:hs\":{\"timeline\":{\"events\":[" \
	"{\"type\":\"m.room.message\",\"event_id\":\"$n2\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"!draw\"}}," \
	"{\"type\":\"m.room.tombstone\",\"state_key\":\"\",\"event_id\":\"$n3\",\"sender\":\"@ann:hs\"," \
	"\"content\":{\"body\":\"replaced\",\"replacement_room\":\"!newer:hs\"}}]}}"

static void
upgrade_order(const char *json, const char *const want[], size_t n)
{
	struct matrix_sync s;
	const char *why = NULL;
	char got[64];

	assert_int_equal(matrix_sync_parse(json, strlen(json), SELF, false, &s, &why), 0);
	assert_int_equal(s.nitems, n);
	for (size_t i = 0; i < n; i++) {
		const struct matrix_item *it = &s.items[i];

		snprintf(got, sizeof got, "%s %s%s%s", it->kind == MX_IT_JOINED ? "joined" :
		         it->kind == MX_IT_TOMBSTONE ? "tombstone" : it->kind == MX_IT_MESSAGE ? "message" :
		         it->kind == MX_IT_JOIN ? "join" : it->kind == MX_IT_MEMBER ? "member" : "other", /* NAME */
		         it->room, it->text != NULL && it->kind == MX_IT_MESSAGE ? " " : "",
		         it->text != NULL && it->kind == MX_IT_MESSAGE ? it->text : "");
		assert_string_equal(got, want[i]);
	}
	matrix_sync_free(&s);
}

static void
test_upgrade_handled_before_the_new_room(void **state)
{
	static const char *const want[] = {
		"joined !old:hs", "joined !new:hs", "message !old:hs !hand", "tombstone !old:hs",
		"other !new:hs", "member !new:hs", "join !new:hs", "message !new:hs !draw",
	};
	static const char *const reversed[] = {
		"joined !new:hs", "joined !old:hs", "message !old:hs !hand", "tombstone !old:hs",
		"other !new:hs", "member !new:hs", "join !new:hs", "message !new:hs !draw",
	};
	static const char *const chain[] = {
		"joined !newer:hs", "joined !new:hs", "joined !old:hs", "message !old:hs !hand", "tombstone !old:hs",
		"message !new:hs !draw", "tombstone !new:hs", "message !newer:hs !pile",
	};

	(void)state;
	/* JSON objects have no order: either way round, the same order out */
	upgrade_order("{\"next_batch\":\"s9\",\"rooms\":{\"join\":{" UPG_OLD "," UPG_NEW "}}}", want, 8);
	upgrade_order("{\"next_batch\":\"s9\",\"rooms\":{\"join\":{" UPG_NEW "," UPG_OLD "}}}", reversed, 8);
	/* upgraded twice in one answer: each room after the one it replaces */
	upgrade_order("{\"next_batch\":\"s9\",\"rooms\":{\"join\":{" UPG_NEWER "," UPG_NEW_AGAIN "," UPG_OLD "}}}",
	              chain, 8);
}

/* Synapse marks the timeline of a room the account has just joined as
 * limited, always ("to force the client to paginate"), however short the
 * room's history.  Nothing after our own join is missing then; before it,
 * nothing is missing either when the room's creation is in the timeline (a
 * room just made: the replacement of an upgraded room).  Else what was said
 * before we came is history: neither played nor told as missed. */
#define JOINED_TL(create, msg_before) \
	"{\"next_batch\":\"s9\",\"rooms\":{\"join\":{\"!n:hs\":{\"timeline\":{\"limited\":true,\"events\":[" \
	create \
	"{\"type\":\"m.room.message\",\"event_id\":\"$b\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"" msg_before "\"}}," \
	"{\"type\":\"m.room.member\",\"event_id\":\"$j\",\"state_key\":\"@bot:hs\",\"sender\":\"@bot:hs\",\"content\":{\"membership\":\"join\"}," \
	"\"unsigned\":{\"prev_content\":{\"membership\":\"invite\"}}}," \
	"{\"type\":\"m.room.message\",\"event_id\":\"$a\",\"sender\":\"@bob:hs\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"!after\"}}]}}}}}"
#define CREATE_EV "{\"type\":\"m.room.create\",\"state_key\":\"\",\"event_id\":\"$c\",\"sender\":\"@ann:hs\",\"content\":{\"room_version\":\"10\"}},"
/* the creation of an upgrade's replacement: it names the room it replaces */
#define REPLACES_EV "{\"type\":\"m.room.create\",\"state_key\":\"\",\"event_id\":\"$c\",\"sender\":\"@ann:hs\"," \
	"\"content\":{\"room_version\":\"10\",\"predecessor\":{\"room_id\":\"!o:hs\",\"event_id\":\"$t\"}}},"

static void
test_newly_joined_room_is_not_a_gap(void **state)
{
	static const char replaces[] = JOINED_TL(REPLACES_EV, "!before"), made[] = JOINED_TL(CREATE_EV, "!before"),
	                  older[] = JOINED_TL("", "!before");
	const char *const history[] = { made, older };
	struct matrix_sync s;
	const char *why = NULL;
	const struct matrix_item *it;

	(void)state;
	/* an upgrade's replacement: what was said there before the bot followed
	 * the table was said to the table; all of it is here, nothing is stale */
	assert_int_equal(matrix_sync_parse(replaces, strlen(replaces), SELF, false, &s, &why), 0);
	assert_int_equal(count(&s, MX_IT_MESSAGE), 2);
	assert_non_null(it = find(&s, MX_IT_MESSAGE, 0));
	assert_string_equal(it->text, "!before");
	assert_false(it->stale);
	assert_false(find(&s, MX_IT_MESSAGE, 1)->stale);
	assert_int_equal(s.limited, 0);
	matrix_sync_free(&s);
	/* a room just made by someone, or an older one: what was said before
	 * the bot came is history, skipped, and no gap is mourned */
	for (size_t k = 0; k < 2; k++) {
		assert_int_equal(matrix_sync_parse(history[k], strlen(history[k]), SELF, false, &s, &why), 0);
		assert_int_equal(count(&s, MX_IT_MESSAGE), 1);
		assert_non_null(it = find(&s, MX_IT_MESSAGE, 0));
		assert_string_equal(it->text, "!after");
		assert_false(it->stale);
		assert_int_equal(s.limited, 0);
		matrix_sync_free(&s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental_sync_items),
		cmocka_unit_test(test_initial_sync_skips_history),
		cmocka_unit_test(test_rejects_garbage),
		cmocka_unit_test(test_wrong_shapes_are_ignored),
		cmocka_unit_test(test_ids_and_urls),
		cmocka_unit_test(test_invite_trusts_the_invite_event_only),
		cmocka_unit_test(test_allow_list),
		cmocka_unit_test(test_power_levels),
		cmocka_unit_test(test_room_state_items),
		cmocka_unit_test(test_server_notices_and_versions),
		cmocka_unit_test(test_upgrade_handled_before_the_new_room),
		cmocka_unit_test(test_newly_joined_room_is_not_a_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
