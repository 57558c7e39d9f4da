/* bench-matrix-storm.c: a Matrix invite storm of 1,000 rooms on the real daemon through the fake server: RSS and open files, a player's commands still answered, no hand anywhere but with its owner. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#include "e2e.h"
#include "figures.h"
#include "fakemx.h"
#include "probe.h"

#define STORM      1000   /* invites */
#define FORGED_EVERY 10   /* one storm invite in this many claims to be ann's direct chat */
#define REMOTE_EVERY 7    /* one in this many comes from another homeserver */
#define GAMES      4      /* storm rooms where eve starts a game of her own (max_tables_per_user's default) */

static int64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static bool
is_hand(const char *body)
{
	return strstr(body, "Your hand (") != NULL || strstr(body, "Your foot (") != NULL;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static const char *
token_of(json_t *j)
{
	return json_string_value(json_object_get(j, "access_token"));
}

/* A command of token's user in room, answered by the bot there: the ms it
 * took, -1 if no answer came in 20 s. */
static int64_t
command(struct fakemx *f, const char *token, const char *room, const char *text)
{
	int before = fakemx_bot_says(f, room, "");
	int64_t t0 = now_ms();
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (fakemx_say(f, token, room, text) < 0)
		return -1;
	while (now_ms() - t0 < 20000) {
		if (fakemx_bot_says(f, room, "") > before)
			return now_ms() - t0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/* ann speaks as a player does, within the bot's shipped flood limits (one
 * command per 3 s once the burst is spent): what she is not answered is the
 * storm's doing, not her own.  Her questions differ from one to the next
 * (the bot says an unchanged answer once): how to use each command in turn. */
static int64_t
paced(struct fakemx *f, const char *token, const char *room, const char *text, int64_t *last)
{
	static const char *const topics[] = { "draw", "pickup", "meld", "discard", "out", "hand", "table", "pile",
	                                      "score", "rules", "who", "auto", "abort", "stats", "top", "new", "join",
	                                      "leave", "bot", "start", "play", "yes", "no", "private", "tell", "help" };
	static unsigned n;
	int64_t wait = *last + 3100 - now_ms();
	char ask[64];

	if (wait > 0)
		e2e_sleep_ms((int)wait);
	*last = now_ms();
	snprintf(ask, sizeof ask, "%s %s", text, topics[n++ % (sizeof topics / sizeof topics[0])]);
	return command(f, token, room, ask);
}

/* The newest room of user in the bot's m.direct, "" if none. */
static void
direct_of(struct fakemx *f, const char *user, char *out, size_t len)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *d = json_object_get(json_object_get(json_object_get(j, "account"), "@bot:hs m.direct"), user);
	const char *r = json_string_value(json_array_get(d, json_array_size(d) - 1));

	snprintf(out, len, "%s", r != NULL ? r : "");
	json_decref(j);
}

/* Waits until a hand of user has reached a room of theirs; the room in dm.
 * Their client accepts the bot's invite to it (token): a hand waits for them
 * to be in the room. */
static bool
wait_hand(struct fakemx *f, const char *user, const char *token, int have, char *dm, size_t len)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	char m[32];

	for (int t = 0; t < 300; t++) {
		direct_of(f, user, dm, len);
		if (dm[0] != '\0') {
			fakemx_membership(f, dm, user, m, sizeof m);
			if (strcmp(m, "invite") == 0)
				fakemx_room_post(f, token, dm, "join", "{}");
		}
		if (dm[0] != '\0' && fakemx_bot_says(f, dm, "Your hand (") + fakemx_bot_says(f, dm, "Your foot (") > have)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static const char *
membership(json_t *rooms, const char *room, const char *user)
{
	const char *m = json_string_value(json_object_get(json_object_get(json_object_get(rooms, room), "members"), user));

	return m != NULL ? m : "";
}

/* Every room where the bot said a hand: one of its direct rooms, and nobody
 * in it but the bot and that room's owner. Returns the violations. */
static int
check_hands(struct fakemx *f, int *nhands, int *nrooms)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL), *rooms = json_object_get(j, "rooms"), *r;
	json_t *direct = json_object_get(json_object_get(j, "account"), "@bot:hs m.direct");
	const char *room;
	int bad = 0;

	*nhands = *nrooms = 0;
	json_object_foreach(rooms, room, r) {
		json_t *evs = fakemx_events(f, room), *ev, *list, *m;
		const char *owner = NULL, *user, *who;
		size_t i;
		int n = 0;

		json_array_foreach(evs, i, ev) {
			const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
			const char *sender = json_string_value(json_object_get(ev, "sender"));

			n += sender != NULL && strcmp(sender, "@bot:hs") == 0 && body != NULL && is_hand(body);
		}
		json_decref(evs);
		if (n == 0)
			continue;
		*nhands += n;
		(*nrooms)++;
		json_object_foreach(direct, user, list)
			json_array_foreach(list, i, m)
				if (json_is_string(m) && strcmp(json_string_value(m), room) == 0)
					owner = user;
		if (owner == NULL) {
			fprintf(stderr, "bench-matrix-storm: %d hands in %s, no direct room\n", n, room);
			bad++;
			continue;
		}
		json_object_foreach(json_object_get(r, "members"), who, m)
			if ((strcmp(json_string_value(m), "join") == 0 || strcmp(json_string_value(m), "invite") == 0) &&
			    strcmp(who, "@bot:hs") != 0 && strcmp(who, owner) != 0) {
				fprintf(stderr, "bench-matrix-storm: %s's hand room %s has %s in it\n", owner, room, who);
				bad++;
			}
	}
	json_decref(j);
	return bad;
}

int
main(void)
{
	struct fakemx f;
	struct e2e_daemon d;
	struct probe before, most, after;
	char dir[256], conf[512], db[512], pw[512], text[2048], bot[128], ann[128], eve[128], mal[128];
	char game[256], dm[256], (*storm)[256] = calloc(STORM, sizeof *storm);
	int64_t lat[64], t0, settle = -1, last = 0;
	int nlat = 0, asked = 0, joined = 0, left = 0, unanswered = 0, forged_in = 0, remote_in = 0, rc = 1;
	int nhands = 0, nhroom = 0, bad = 0, games = 0;
	bool ann_hand = false;
	json_t *j;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (storm == NULL || fakemx_start(&f) < 0) {
		printf("bench-matrix-storm: python3 or tests/fakes/fake-matrix.py missing: skipped\n");
		return 0;
	}
	fakemx_user(&f, "bot", "storm-pw", bot, sizeof bot);
	fakemx_user(&f, "ann", "x", ann, sizeof ann);
	fakemx_user(&f, "eve", "x", eve, sizeof eve);
	j = fakemx_call(&f, "POST", "/_fake/user", NULL, "{\"user\":\"mallory\",\"server\":\"evil.example\"}", NULL);
	snprintf(mal, sizeof mal, "%s", token_of(j) != NULL ? token_of(j) : "");
	json_decref(j);
	if (e2e_tmpdir(dir, sizeof dir, "mxstorm") < 0)
		goto out;
	snprintf(conf, sizeof conf, "%s/handfoot.conf", dir);
	snprintf(db, sizeof db, "%s/hf.db", dir);
	snprintf(pw, sizeof pw, "%s/pw", dir);
	/* the shipped defaults of the [matrix] section: allow (own homeserver), max_rooms 200 */
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = notice\n\n"
	         "[matrix storm]\nhomeserver = %s\nuser = bot\npassword_file = %s\nsync_timeout = 2\n",
	         db, f.base, pw);
	if (e2e_write_file(conf, text) < 0 || e2e_write_file(pw, "storm-pw\n") < 0 ||
	    fakemx_room(&f, ann, "{\"invite\":[\"@bot:hs\"]}", game, sizeof game) < 0 ||
	    e2e_daemon_start(&d, "bench-matrix-storm", conf, NULL) < 0)
		goto out;

	/* ann's duel against the computer, before the storm (once the bot is in:
	 * what was said before is history, never replayed) */
	for (int t = 0; t < 200; t++) {
		char m[32];

		fakemx_membership(&f, game, "@bot:hs", m, sizeof m);
		if (strcmp(m, "join") == 0)
			break;
		e2e_sleep_ms(100);
	}
	e2e_sleep_ms(500);
	if (command(&f, ann, game, "!new duel") < 0 || command(&f, ann, game, "!bot add") < 0) {
		fprintf(stderr, "bench-matrix-storm: the bot does not answer (log: %s)\n", d.log);
		goto stop;
	}
	fakemx_say(&f, ann, game, "!start");
	if (!wait_hand(&f, "@ann:hs", ann, 0, dm, sizeof dm)) {
		fprintf(stderr, "bench-matrix-storm: no hand for ann (log: %s)\n", d.log);
		goto stop;
	}
	e2e_sleep_ms(1000);
	before = most = probe(d.pid);

	/* the storm; ann keeps asking the bot things meanwhile */
	t0 = now_ms();
	for (int i = 0; i < STORM; i++) {
		const char *who = i % REMOTE_EVERY == 3 ? mal : eve;

		if (i % FORGED_EVERY == 5 && who == eve) {
			/* eve's server says ann opened a direct chat: the invite event says eve */
			char body[700];

			fakemx_room(&f, eve, "{}", storm[i], sizeof storm[i]);
			snprintf(body, sizeof body, "{\"room\":\"%s\",\"user\":\"@bot:hs\",\"events\":[{\"type\":"
			         "\"m.room.member\",\"state_key\":\"@bot:hs\",\"sender\":\"@ann:hs\",\"content\":"
			         "{\"membership\":\"invite\",\"is_direct\":true}}]}", storm[i]);
			json_decref(fakemx_call(&f, "POST", "/_fake/invite_state", NULL, body, NULL));
			fakemx_room_post(&f, eve, storm[i], "invite", "{\"user_id\":\"@bot:hs\"}");
		} else
			fakemx_room(&f, who, "{\"invite\":[\"@bot:hs\"]}", storm[i], sizeof storm[i]);
		if (now_ms() - last >= 3100 && asked < 40) {
			asked++;
			if ((lat[nlat] = paced(&f, ann, game, "!help", &last)) >= 0)
				nlat++;
		}
		if (i % 50 == 49)
			peak(&most, probe(d.pid));
	}
	/* until every invite is joined or declined */
	for (;;) {
		json_t *rooms;
		int open = 0;

		j = fakemx_call(&f, "GET", "/_fake/rooms", NULL, NULL, NULL);
		rooms = json_object_get(j, "rooms");
		joined = left = forged_in = remote_in = 0;
		for (int i = 0; i < STORM; i++) {
			const char *m = membership(rooms, storm[i], "@bot:hs");

			joined += strcmp(m, "join") == 0;
			left += strcmp(m, "leave") == 0;
			open += strcmp(m, "invite") == 0;
			forged_in += i % FORGED_EVERY == 5 && i % REMOTE_EVERY != 3 && strcmp(m, "join") == 0;
			remote_in += i % REMOTE_EVERY == 3 && strcmp(m, "join") == 0;
		}
		json_decref(j);
		peak(&most, probe(d.pid));
		if (open > 0 && now_ms() - last >= 3100 && asked < 40) {
			asked++;
			if ((lat[nlat] = paced(&f, ann, game, "!help", &last)) >= 0)
				nlat++;
		}
		if (open == 0) {
			settle = now_ms() - t0;
			break;
		}
		if (now_ms() - t0 > 180000) {
			unanswered = open;
			break;
		}
		e2e_sleep_ms(500);
	}

	/* eve plays in a few of her rooms: her hands are hers alone */
	j = fakemx_call(&f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	for (int i = 0; i < STORM && games < GAMES; i++)
		if (strcmp(membership(json_object_get(j, "rooms"), storm[i], "@bot:hs"), "join") == 0 &&
		    command(&f, eve, storm[i], "!new duel") >= 0 && command(&f, eve, storm[i], "!bot add") >= 0) {
			fakemx_say(&f, eve, storm[i], "!start");
			games++;
		}
	json_decref(j);
	/* ann after the storm: commands, and her hand again */
	{
		int had = fakemx_bot_says(&f, dm, "Your hand (") + fakemx_bot_says(&f, dm, "Your foot (");

		e2e_sleep_ms(3100);
		fakemx_say(&f, ann, game, "!hand");
		last = now_ms();
		if (!(ann_hand = wait_hand(&f, "@ann:hs", ann, had, dm, sizeof dm)))
			fprintf(stderr, "bench-matrix-storm: ann's !hand after the storm got no hand\n");
	}
	for (int i = 0; i < 10; i++) {
		asked++;
		if ((lat[nlat] = paced(&f, ann, game, "!help", &last)) >= 0)
			nlat++;
	}
	e2e_sleep_ms(2000);
	after = probe(d.pid);
	peak(&most, after);
	bad = check_hands(&f, &nhands, &nhroom);

	qsort(lat, (size_t)nlat, sizeof *lat, cmp_i64);
	printf("matrix invite storm on the real daemon through the fake server (max_rooms and allow at their defaults):\n");
	printf("  invites: %d (%d from another homeserver, %d with stripped state forged to look like ann's direct chat)\n",
	       STORM, (STORM + REMOTE_EVERY - 4) / REMOTE_EVERY, STORM / FORGED_EVERY);
	printf("  joined %d, declined %d, unanswered %d; every invite answered after %.1f s\n", joined, left, unanswered,
	       settle >= 0 ? (double)settle / 1000 : -1.0);
	printf("  forged invites joined: %d; another homeserver's joined: %d\n", forged_in, remote_in);
	printf("  daemon RSS: %.1f MiB before, %.1f MiB at most, %.1f MiB after\n", before.rss_kb / 1024.0,
	       most.rss_kb / 1024.0, after.rss_kb / 1024.0);
	printf("  daemon open files: %ld before, %ld at most, %ld after\n", before.fds, most.fds, after.fds);
	printf("  ann's questions (!help COMMAND) during and after the storm: %d of %d answered", nlat, asked);
	if (nlat > 0)
		printf(", p50 %lld ms, max %lld ms", (long long)lat[nlat / 2], (long long)lat[nlat - 1]);
	printf("\n  hands: %d in %d rooms (ann's and %d games of eve's); with anyone but their owner: %d\n", nhands, nhroom,
	       games, bad);
	printf("  ann's !hand after the storm: %s\n", ann_hand ? "her hand, in her direct room" : "no answer");
	rc = 0;
	rc |= !figure_add("bench-matrix-storm", "storm: hands with anyone but their owner", bad, "", FIGURE_AT_MOST, 0);
	rc |= !figure_add("bench-matrix-storm", "storm: ann's questions answered", nlat, "", FIGURE_AT_LEAST, asked);
	rc |= !figure_add("bench-matrix-storm", "storm: ann's hand after the storm", ann_hand ? 1 : 0, "", FIGURE_AT_LEAST,
	                  1);
	rc |= !figure_add("bench-matrix-storm", "storm: invites unanswered", unanswered, "", FIGURE_AT_MOST, 0);
	rc |= !figure_add("bench-matrix-storm", "storm: forged invites joined", forged_in, "", FIGURE_AT_MOST, 0);
	rc |= !figure_add("bench-matrix-storm", "storm: another homeserver's invites joined", remote_in, "",
	                  FIGURE_AT_MOST, 0);
	fflush(stdout);
	if (rc != 0)
		fprintf(stderr, "bench-matrix-storm: a check failed (daemon log: %s)\n", d.log);
stop:
	e2e_daemon_signal(&d, SIGTERM);
	e2e_daemon_wait(&d, 10000);
out:
	fakemx_stop(&f);
	free(storm);
	return rc;
}
