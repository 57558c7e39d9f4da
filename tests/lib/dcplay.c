/* dcplay.c: a guild on the fake Discord, its players' slash commands and button presses, and checks on all the bot said there. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dcplay.h"

static const char *const names[DCPLAY_MAX_USERS] = { "ann", "bob", "cy", "dee", "eve", "fay" };

int
dcplay_setup(struct dcplay *p, const char *tag, int nusers, const char *bot_extra, const char *discord_extra)
{
	char path[400], text[4096], members[2048];
	size_t n = 0;

	memset(p, 0, sizeof *p);
	snprintf(p->tag, sizeof p->tag, "%s", tag);
	snprintf(p->guild, sizeof p->guild, "100000000000000001");
	snprintf(p->channel, sizeof p->channel, "100000000000000002");
	p->nusers = nusers > DCPLAY_MAX_USERS ? DCPLAY_MAX_USERS : nusers;
	if (fakedc_start(&p->f) < 0)
		return -1;
	if (fakedc_ctl(&p->f, "config", "{\"token\":\"%s\"}", DCPLAY_TOKEN) < 0)
		return -1;
	members[0] = '\0';
	for (int i = 0; i < p->nusers; i++) {
		snprintf(p->user[i], sizeof p->user[i], "20000000000000000%c", '1' + i);
		/* the shown name: the guild nick, else the global name, else the username */
		snprintf(p->name[i], sizeof p->name[i], "%s", i == 3 ? "Dee-Nick" : names[i]);
		if (i == 0)
			p->name[i][0] = 'A';
		n += (size_t)snprintf(members + n, sizeof members - n,
		                      "%s{\"id\":\"%s\",\"username\":\"%s\",\"global_name\":%s,\"nick\":%s}", i ? "," : "",
		                      p->user[i], names[i], i == 0 ? "\"Ann\"" : "null", i == 3 ? "\"Dee-Nick\"" : "null");
	}
	if (fakedc_ctl(&p->f, "guild", "{\"id\":\"%s\",\"name\":\"cards club\",\"channels\":[{\"id\":\"%s\","
	               "\"name\":\"cards\"}],\"members\":[%s]}", p->guild, p->channel, members) < 0)
		return -1;
	if (e2e_tmpdir(p->dir, sizeof p->dir, tag) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/token", p->dir);
	e2e_secret_note(DCPLAY_TOKEN);
	if (e2e_write_file(path, DCPLAY_TOKEN "\n") < 0)
		return -1;
	snprintf(p->db, sizeof p->db, "%s/handfoot.db", p->dir);
	snprintf(p->conf, sizeof p->conf, "%s/handfoot.conf", p->dir);
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\n%s%s\n"
	         "[discord test]\napi_url = %s\ntoken_file = %s\n%s%s\n%s\n",
	         /* a key given twice is refused: bot_extra may set its own log level */
	         p->db, bot_extra != NULL && strstr(bot_extra, "log_level") != NULL ? "" : "log_level = info\n",
	         bot_extra != NULL ? bot_extra : "", p->f.api, path,
	         /* the guild listed, unless the test says otherwise */
	         discord_extra != NULL && strstr(discord_extra, "guilds") != NULL ? "" : "guilds = ",
	         discord_extra != NULL && strstr(discord_extra, "guilds") != NULL ? "" : p->guild,
	         discord_extra != NULL ? discord_extra : "");
	return e2e_write_file(p->conf, text);
}

size_t
dcplay_puts(struct dcplay *p)
{
	json_t *s = fakedc_state(&p->f), *put;
	size_t n = 0, i;

	/* registrations, not the clears of stale scopes (empty lists) */
	json_array_foreach(json_object_get(s, "command_puts"), i, put)
		n += json_integer_value(json_object_get(put, "count")) > 0;
	json_decref(s);
	return n;
}

int
dcplay_start(struct dcplay *p)
{
	size_t before = dcplay_puts(p);

	if (e2e_daemon_start(&p->d, p->tag, p->conf, NULL) < 0)
		return -1;
	p->daemon_up = true;
	for (int t = 0; t < 300; t++) {
		if (dcplay_puts(p) > before)
			return 0;
		if (!e2e_daemon_alive(&p->d))
			break;
		e2e_sleep_ms(50);
	}
	fprintf(stderr, "dcplay: no slash commands registered (log: %s)\n", p->d.log);
	return -1;
}

int
dcplay_stop(struct dcplay *p)
{
	if (!p->daemon_up)
		return -1;
	p->daemon_up = false;
	e2e_daemon_signal(&p->d, SIGTERM);
	return e2e_daemon_wait(&p->d, 15000);
}

void
dcplay_teardown(struct dcplay *p)
{
	char cmd[300];

	if (getenv("DCPLAY_DUMP") != NULL && p->f.pid > 0) {
		json_t *s = fakedc_state(&p->f), *m;
		size_t i;

		json_array_foreach(json_object_get(s, "messages"), i, m) {
			char *line = json_dumps(m, JSON_COMPACT);

			fprintf(stderr, "dcplay message %zu: %s\n", i, line);
			free(line);
		}
		json_decref(s);
	}

	if (p->daemon_up)
		dcplay_stop(p);
	fakedc_stop(&p->f);
	if (p->dir[0] != '\0') {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", p->dir);
		e2e_sh(NULL, 0, "%s", cmd);
	}
}

int
dcplay_teardown_state(void **state)
{
	struct dcplay *p = *state;

	if (p != NULL) {
		dcplay_teardown(p);
		free(p);
	}
	*state = NULL;
	return 0;
}

struct dcplay *
dcplay_setup_state(void **state, const char *tag, int nusers, const char *bot_extra, const char *discord_extra)
{
	struct dcplay *p = calloc(1, sizeof *p);

	*state = p;
	assert_non_null(p);
	assert_int_equal(dcplay_setup(p, tag, nusers, bot_extra, discord_extra), 0);
	return p;
}

static const char *
interaction(struct dcplay *p, const char *fmt, ...)
{
	static char id[32];
	char body[4096];
	va_list ap;
	long st = 0;
	json_t *j;

	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	j = fakedc_call(&p->f, "POST", "/_fake/interaction", NULL, body, &st);
	if (st != 200 || !json_is_string(json_object_get(j, "id"))) {
		fprintf(stderr, "dcplay: the fake refused %s: %s\n", body,
		        j != NULL ? json_string_value(json_object_get(j, "message")) : "(no answer)");
		json_decref(j);
		return NULL;
	}
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(j, "id")));
	json_decref(j);
	return id;
}

const char *
dcplay_command(struct dcplay *p, int i, const char *name, const char *opts)
{
	return interaction(p, "{\"kind\":\"command\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	                   "\"name\":\"%s\",\"options\":%s}", p->user[i], p->guild, p->channel, name,
	                   opts != NULL ? opts : "{}");
}

const char *
dcplay_press(struct dcplay *p, int i, const char *message_id, const char *custom_id)
{
	return interaction(p, "{\"kind\":\"component\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	                   "\"message_id\":\"%s\",\"custom_id\":\"%s\"}", p->user[i], p->guild, p->channel, message_id,
	                   custom_id);
}

const char *
dcplay_press_late(struct dcplay *p, int i, const char *message_id, const char *custom_id, int age_ms)
{
	return interaction(p, "{\"kind\":\"component\",\"user_id\":\"%s\",\"guild_id\":\"%s\",\"channel_id\":\"%s\","
	                   "\"message_id\":\"%s\",\"custom_id\":\"%s\",\"age_ms\":%d}", p->user[i], p->guild, p->channel,
	                   message_id, custom_id, age_ms);
}

int
dcplay_say(struct dcplay *p, int i, const char *text)
{
	json_t *t = json_string(text);
	char *q = json_dumps(t, JSON_ENCODE_ANY);
	int r = fakedc_ctl(&p->f, "message", "{\"channel_id\":\"%s\",\"user_id\":\"%s\",\"content\":%s}", p->channel,
	                   p->user[i], q);

	free(q);
	json_decref(t);
	return r;
}

json_t *
dcplay_state(struct dcplay *p)
{
	return fakedc_state(&p->f);
}

size_t
dcplay_count(struct dcplay *p)
{
	json_t *s = fakedc_state(&p->f);
	size_t n = json_array_size(json_object_get(s, "messages"));

	json_decref(s);
	return n;
}

int
dcplay_dm_count(struct dcplay *p, int i, const char *needle)
{
	json_t *s = dcplay_state(p), *m;
	const char *dm = json_string_value(json_object_get(json_object_get(s, "dms"), p->user[i]));
	size_t k;
	int n = 0;

	json_array_foreach(json_object_get(s, "messages"), k, m)
		n += dm != NULL && json_is_true(json_object_get(m, "dm")) &&
		     strcmp(json_string_value(json_object_get(m, "channel_id")), dm) == 0 &&
		     strstr(json_string_value(json_object_get(m, "content")), needle) != NULL;
	json_decref(s);
	return n;
}

json_t *
dcplay_wait(struct dcplay *p, size_t from, const char *needle, bool (*ok)(json_t *m, void *ctx), void *ctx, int ms)
{
	for (int t = 0; t <= ms; t += 50) {
		json_t *s = fakedc_state(&p->f), *msgs = json_object_get(s, "messages"), *m;

		for (size_t i = from; i < json_array_size(msgs); i++) {
			const char *content;

			m = json_array_get(msgs, i);
			content = json_string_value(json_object_get(m, "content"));
			if (content != NULL && (needle == NULL || strstr(content, needle) != NULL) && (ok == NULL || ok(m, ctx))) {
				json_incref(m);
				json_decref(s);
				return m;
			}
		}
		json_decref(s);
		e2e_sleep_ms(50);
	}
	return NULL;
}

static bool
of_interaction(json_t *m, void *ctx)
{
	const char *it = json_string_value(json_object_get(m, "interaction"));

	return it != NULL && strcmp(it, ctx) == 0;
}

json_t *
dcplay_reply(struct dcplay *p, const char *id, const char *needle, int ms)
{
	char idc[32];

	snprintf(idc, sizeof idc, "%s", id);
	return dcplay_wait(p, 0, needle, of_interaction, idc, ms);
}

double
dcplay_acked(struct dcplay *p, const char *id, int ms)
{
	for (int t = 0; t <= ms; t += 50) {
		json_t *s = fakedc_state(&p->f);
		json_t *ack = json_object_get(json_object_get(json_object_get(s, "interactions"), id), "ack");
		double v = json_is_object(ack) ? json_number_value(json_object_get(ack, "ms")) : -1;

		json_decref(s);
		if (v >= 0)
			return v;
		e2e_sleep_ms(50);
	}
	return -1;
}

const char *
dcplay_button(json_t *m, const char *label)
{
	json_t *row, *b;
	size_t i, k;

	json_array_foreach(json_object_get(m, "components"), i, row)
		json_array_foreach(json_object_get(row, "components"), k, b)
			if (strcmp(json_string_value(json_object_get(b, "label")), label) == 0)
				return json_string_value(json_object_get(b, "custom_id"));
	return NULL;
}

const char *
dcplay_link(json_t *m, const char *label)
{
	json_t *row, *b;
	size_t i, k;

	json_array_foreach(json_object_get(m, "components"), i, row)
		json_array_foreach(json_object_get(row, "components"), k, b) {
			const char *l = json_string_value(json_object_get(b, "label"));

			if (json_integer_value(json_object_get(b, "style")) == 5 &&
			    (label == NULL || (l != NULL && strcmp(l, label) == 0)))
				return json_string_value(json_object_get(b, "url"));
		}
	return NULL;
}

bool
dcplay_public(json_t *m, void *ctx)
{
	(void)ctx;
	return !json_is_true(json_object_get(m, "ephemeral")) && !json_is_true(json_object_get(m, "dm"));
}

static bool
turn_of(json_t *m, void *ctx)
{
	const char *want = ctx, *id = dcplay_button(m, "Draw");

	size_t n = strlen(want);

	/* "hf:draw:<user>", then the turn line's number ":<prompt>" */
	return dcplay_public(m, NULL) && id != NULL && strncmp(id, want, n) == 0 && (id[n] == '\0' || id[n] == ':');
}

json_t *
dcplay_turn_line(struct dcplay *p, size_t from, int *who, int ms)
{
	for (int t = 0; t <= ms; t += 50) {
		for (int i = 0; i < p->nusers; i++) {
			char want[64];
			json_t *m;

			snprintf(want, sizeof want, "hf:draw:%s", p->user[i]);
			if ((m = dcplay_wait(p, from, NULL, turn_of, want, 0)) != NULL) {
				*who = i;
				return m;
			}
		}
		e2e_sleep_ms(50);
	}
	return NULL;
}

json_t *
dcplay_deal(struct dcplay *p, const char *rules, int *who)
{
	char opts[300];
	const char *id;
	json_t *m;
	size_t from;

	snprintf(opts, sizeof opts, "{\"rules\":\"%s\"}", rules);
	if ((id = dcplay_command(p, 0, "new", opts)) == NULL || (m = dcplay_reply(p, id, "opens", 10000)) == NULL)
		return NULL;
	json_decref(m);
	for (int i = 1; i < p->nusers; i++) {
		if ((id = dcplay_command(p, i, "join", NULL)) == NULL || (m = dcplay_reply(p, id, "sits down", 10000)) == NULL)
			return NULL;
		json_decref(m);
	}
	from = dcplay_count(p);
	if (dcplay_command(p, 0, "start", NULL) == NULL)
		return NULL;
	return dcplay_turn_line(p, from, who, 15000);
}

int
dcplay_auto_all(struct dcplay *p)
{
	const char *id;

	for (int i = 0; i < p->nusers; i++)
		if ((id = dcplay_command(p, i, "auto", NULL)) == NULL || dcplay_acked(p, id, 5000) < 0)
			return -1;
	return 0;
}

int
dcplay_audit(struct dcplay *p)
{
	json_t *s = fakedc_state(&p->f), *m;
	size_t i;
	int bad = 0;

	json_array_foreach(json_object_get(s, "messages"), i, m) {
		const char *content = json_string_value(json_object_get(m, "content"));
		json_t *pings = json_object_get(m, "pings");
		bool hidden = json_is_true(json_object_get(m, "ephemeral")) || json_is_true(json_object_get(m, "dm"));

		if (content == NULL)
			continue;
		if (!hidden && (strstr(content, "Your hand") != NULL || strstr(content, "Your foot") != NULL)) {
			fprintf(stderr, "dcplay: a hand in a guild channel: %s\n", content);
			bad++;
		}
		if (json_is_true(json_object_get(pings, "everyone")) || json_array_size(json_object_get(pings, "roles")) > 0) {
			fprintf(stderr, "dcplay: pings everyone or a role: %s\n", content);
			bad++;
		}
		/* only the player asked to act is pinged: the message's buttons are theirs, or it says so */
		if (json_array_size(json_object_get(pings, "users")) > 1) {
			fprintf(stderr, "dcplay: pings more than one player: %s\n", content);
			bad++;
		}
	}
	json_decref(s);
	return bad;
}

int
dcplay_refused(struct dcplay *p)
{
	json_t *s = fakedc_state(&p->f), *r;
	size_t i;
	int bad = 0;

	json_array_foreach(json_object_get(s, "requests"), i, r) {
		long st = (long)json_integer_value(json_object_get(r, "status"));

		if (st == 400 || st == 401 || st == 404) {
			fprintf(stderr, "dcplay: %s %s refused: HTTP %ld\n", json_string_value(json_object_get(r, "method")),
			        json_string_value(json_object_get(r, "path")), st);
			bad++;
		}
	}
	json_decref(s);
	return bad;
}

int
dcplay_unanswered(struct dcplay *p)
{
	json_t *s = fakedc_state(&p->f), *it;
	const char *id;
	int bad = 0;

	json_object_foreach(json_object_get(s, "interactions"), id, it)
		if (!json_is_object(json_object_get(it, "ack")) || json_is_true(json_object_get(it, "late"))) {
			fprintf(stderr, "dcplay: interaction %s not answered in time\n", id);
			bad++;
		}
	json_decref(s);
	return bad;
}

void
dcplay_end(struct dcplay *p)
{
	assert_int_equal(dcplay_audit(p), 0);
	assert_int_equal(dcplay_unanswered(p), 0);
	assert_int_equal(dcplay_refused(p), 0);
	assert_int_equal(fakedc_violations(&p->f, true), 0);
	assert_int_equal(dcplay_stop(p), 0);
}

void
dcplay_first_card(const char *hand, char *out, size_t len)
{
	const char *s = strstr(hand, "Your hand (");
	size_t n;

	assert_non_null(s);
	assert_non_null(s = strstr(s, "): "));
	s += 3;
	n = strcspn(s, " \xc3\x97|\\");
	snprintf(out, len, "%.*s", (int)n, s);
}
