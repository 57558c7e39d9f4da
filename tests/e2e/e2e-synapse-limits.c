/* e2e-synapse-limits.c: the real daemon on a real Synapse at its default rc_message (0.2/s after a burst of 10): past the burst Synapse answers 429 with retry_after_ms, and the bot sends nothing before the time it names, and loses nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "synapse-bot.h"
#include "synapse.h"

/* What send.c logs (at debug) when a send is answered 429: the wait it keeps. */
#define LIMITED "rate limited; every send waits "

/* The bot's messages in room as the bot reads them back, oldest first (caller decrefs). */
static json_t *
bot_events(struct synapse *s, const struct synapse_bot *b, const char *room)
{
	json_t *evs = synapse_messages(s, b->u.token, room), *out = json_array(), *ev;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *who = json_string_value(json_object_get(ev, "sender"));
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (who != NULL && strcmp(who, b->u.id) == 0 && type != NULL && strcmp(type, "m.room.message") == 0)
			json_array_append(out, ev);
	}
	json_decref(evs);
	return out;
}

/* A log line's stamp ("2025-01-02 03:04:05.678 debug: ...", local time) as Unix ms; -1 if none. */
static int64_t
log_stamp_ms(const char *line)
{
	struct tm tm = { 0 };
	int ms;

	if (sscanf(line, "%d-%d-%d %d:%d:%d.%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
	           &tm.tm_sec, &ms) != 7)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm) * 1000 + ms;
}

struct limited {
	int64_t at;                /* when the bot took the 429 (its log's stamp, Unix ms) */
	int64_t wait;              /* the wait it named */
};

/* The 429s the daemon's log tells of, in order; how many (at most max). */
static size_t
limits_in_log(const char *path, struct limited *out, size_t max)
{
	char *text = e2e_read_file(path), *line, *save = NULL;
	size_t n = 0;

	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line != NULL && n < max; line = strtok_r(NULL, "\n", &save)) {
		const char *w = strstr(line, LIMITED);

		if (w == NULL)
			continue;
		out[n].at = log_stamp_ms(line);
		out[n].wait = strtoll(w + strlen(LIMITED), NULL, 10);
		assert_true(out[n].at > 0 && out[n].wait > 0);
		n++;
	}
	free(text);
	return n;
}

/* ann opens a table; five people each sit down, leave and sit down again,
 * one command after another: sixteen lines the bot must say in the room,
 * past rc_message's burst of 10.  Synapse answers 429 with retry_after_ms;
 * after each, the bot's next message reaches Synapse no sooner than the wait
 * it named (origin_server_ts against the stamp of the log line that named
 * it).  Every line arrives, once, in the order it was meant. */
static void
test_429_waits_what_synapse_names(void **state)
{
	struct synapse *s = *state;
	struct synapse_bot b;
	struct synapse_user ann, p[5];
	struct limited lim[64];
	char room[256], body[1024], want[17][160];
	size_t nwant = 0, nlim, o;
	json_t *evs;

	assert_int_equal(synapse_register(s, "ann", false, &ann), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(synapse_register(s, "p", false, &p[i]), 0);
	/* debug: send.c names each 429's wait at debug only */
	assert_int_equal(synapse_bot_start(s, &b, "e2e-synapse-limits", "log_level = debug", NULL), 0);
	o = (size_t)snprintf(body, sizeof body, "{\"invite\":[\"%s\"", b.u.id);
	for (int i = 0; i < 5; i++)
		o += (size_t)snprintf(body + o, sizeof body - o, ",\"%s\"", p[i].id);
	snprintf(body + o, sizeof body - o, "]}");
	assert_int_equal(synapse_create_room(s, ann.token, body, room, sizeof room), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(synapse_room_post(s, p[i].token, room, "join", NULL), 200);
	assert_true(synapse_wait_membership(s, ann.token, room, b.u.id, "join", 30000));

	assert_int_equal(synapse_say(s, ann.token, room, "!new classic"), 0);
	snprintf(want[nwant++], sizeof want[0], "%.64s opens a classic table", ann.localpart);
	assert_true(synapse_wait_readable(s, ann.token, room, b.u.id, want[0], 1, 60000));
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 5; i++) {
			assert_int_equal(synapse_say(s, p[i].token, room, round == 1 ? "!leave" : "!join"), 0);
			snprintf(want[nwant++], sizeof want[0], "%.64s %s (", p[i].localpart, round == 1 ? "leaves" : "sits down");
		}
	/* at 0.2/s after the burst, the last of them comes about 30 s on */
	if (!synapse_wait_readable(s, ann.token, room, b.u.id, " sits down (", 10, 120000) ||
	    !synapse_wait_readable(s, ann.token, room, b.u.id, " leaves (", 5, 10000))
		fail_msg("the last line never came (daemon log: %s)", b.d.log);

	/* every line, once, in order */
	evs = bot_events(s, &b, room);
	for (size_t i = 0; i < json_array_size(evs); i++)
		print_message("  %s\n", json_string_value(json_object_get(json_object_get(json_array_get(evs, i), "content"),
		                                                            "body")));
	assert_int_equal(json_array_size(evs), nwant);
	for (size_t i = 0; i < nwant; i++) {
		const char *got = json_string_value(json_object_get(json_object_get(json_array_get(evs, i), "content"), "body"));

		if (got == NULL || strstr(got, want[i]) == NULL)
			fail_msg("message %zu is \"%s\", not \"%s...\"", i, got != NULL ? got : "(none)", want[i]);
	}

	/* Synapse said 429 (the burst was passed), and after each the next
	 * message waited the time named.  The log's stamp is taken a moment
	 * after the bot read its clock for the wait, and both stamps are
	 * whole milliseconds: 5 ms of slack for that, against waits of seconds. */
	nlim = limits_in_log(b.d.log, lim, sizeof lim / sizeof *lim);
	print_message("  %zu sends answered 429\n", nlim);
	assert_true(nlim >= 1);
	for (size_t k = 0; k < nlim; k++) {
		int64_t next = -1;

		for (size_t i = 0; i < json_array_size(evs) && next < 0; i++) {
			int64_t ts = json_integer_value(json_object_get(json_array_get(evs, i), "origin_server_ts"));

			if (ts >= lim[k].at)
				next = ts;
		}
		assert_true(next > 0);
		print_message("  429 at %lld: waits %lld ms; the next message %lld ms later\n", (long long)lim[k].at,
		              (long long)lim[k].wait, (long long)(next - lim[k].at));
		if (next < lim[k].at + lim[k].wait - 5)
			fail_msg("a message went %lld ms after a 429 that named %lld ms", (long long)(next - lim[k].at),
			         (long long)lim[k].wait);
	}
	json_decref(evs);
	assert_int_equal(synapse_bot_stop(&b), 0);
	synapse_bot_end(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_429_waits_what_synapse_names),
	};

	return cmocka_run_group_tests(tests, synapse_group_setup, synapse_group_teardown);
}
