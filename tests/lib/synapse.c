/* synapse.c: starts and stops a real Synapse for end-to-end tests (see synapse.h) and makes blocking client-server calls to it. */
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "httpcall.h"
#include "ircserver.h"
#include "synapse.h"

static void
nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int
synapse_find(struct synapse *s, const char *name, const char *exe_rel, const char *tfile, const char *advice,
             char *exe, size_t elen, char *tpl, size_t tlen)
{
	char build[PATH_MAX], file[1200];
	const char *sub = s->kind;

	if (realpath(e2e_build(), build) == NULL) {
		snprintf(s->error, sizeof s->error, "%s: no build folder %s", sub, e2e_build());
		return -1;
	}
	snprintf(exe, elen, "%.900s/%s/%s", build, sub, exe_rel);
	snprintf(tpl, tlen, "%.900s/%s/template", build, sub);
	snprintf(file, sizeof file, "%.900s/%s", tpl, tfile);
	if (access(exe, X_OK) != 0 || access(file, R_OK) != 0) {
		snprintf(s->error, sizeof s->error, "%s is not installed in %s/%s (%s/%s missing): %s", name, e2e_build(), sub,
		         sub, access(exe, X_OK) != 0 ? exe_rel : "template", advice);
		return -1;
	}
	return 0;
}

/* The venv's python and the template folder, absolute, or -1 with s->error. */
static int
installed(struct synapse *s, char *python, size_t plen, char *tpl, size_t tlen)
{
	char advice[256];

	snprintf(advice, sizeof advice, "run `tools/setup-synapse %s` (or make deps-test), which needs PyPI", e2e_build());
	return synapse_find(s, "Synapse", "venv/bin/python", "homeserver.db", advice, python, plen, tpl, tlen);
}

/* The config, and a copy of the template's database and key, in s->dir. */
static int
write_config(struct synapse *s, const char *tpl, const char *extra)
{
	char path[300], out[256];
	FILE *f;

	if (e2e_sh(out, sizeof out, "cp '%s/homeserver.db' '%s/signing.key' '%s/'", tpl, tpl, s->dir) != 0) {
		snprintf(s->error, sizeof s->error, "synapse: cannot copy the template from %.900s: %s", tpl, out);
		return -1;
	}
	snprintf(path, sizeof path, "%s/homeserver.yaml", s->dir);
	if ((f = fopen(path, "w")) == NULL) {
		snprintf(s->error, sizeof s->error, "synapse: cannot write %.290s", path);
		return -1;
	}
	/* no rc_* here: Synapse's defaults are what the tests play at */
	fprintf(f, "server_name: \"%s\"\npid_file: \"%s/homeserver.pid\"\npublic_baseurl: \"%s/\"\n"
	           "listeners:\n  - port: %d\n    bind_addresses: ['127.0.0.1']\n    type: http\n    tls: false\n"
	           "    x_forwarded: false\n    resources:\n      - names: [client]\n        compress: false\n"
	           "database:\n  name: sqlite3\n  args:\n    database: \"%s/homeserver.db\"\n"
	           "media_store_path: \"%s/media\"\nsigning_key_path: \"%s/signing.key\"\n"
	           "registration_shared_secret: \"%s\"\nreport_stats: false\ntrusted_key_servers: []\n"
	           "suppress_key_server_warning: true\nenable_metrics: false\n%s",
	        SYNAPSE_SERVER, s->dir, s->base, s->port, s->dir, s->dir, s->dir, s->secret, extra != NULL ? extra : "");
	return fclose(f) == 0 ? 0 : -1;
}

/* In the child: argv run in dir, its stdout and stderr appended to log. */
static pid_t
spawn(const char *const argv[], const char *dir, const char *log)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	if ((fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	if (chdir(dir) != 0)
		_exit(126);
	execv(argv[0], (char *const *)argv); /* execv takes them unconst, and never writes them */
	_exit(127);
}

/* Until it answers /versions, it exits, or 90 s pass. */
static int
await_up(struct synapse *s)
{
	for (int t = 0; t < 90000; t += 50) {
		long st = 0;

		json_decref(synapse_call(s, "GET", "/_matrix/client/versions", NULL, NULL, &st));
		if (st == 200)
			return 0;
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			snprintf(s->error, sizeof s->error, "%s: it exited at start; see %s", s->kind, s->log);
			return -1;
		}
		nap_ms(50);
	}
	snprintf(s->error, sizeof s->error, "%s: no answer on %s within 90 s; see %s", s->kind, s->base, s->log);
	return -1;
}

int
synapse_prepare(struct synapse *s, const char *kind, const char *tag)
{
	snprintf(s->kind, sizeof s->kind, "%s", kind);
	if (e2e_tmpdir(s->dir, sizeof s->dir, kind) < 0 || (s->port = ircserver_free_port()) <= 0) {
		snprintf(s->error, sizeof s->error, "%s: no temp dir or no free port", kind);
		return -1;
	}
	snprintf(s->base, sizeof s->base, "http://127.0.0.1:%d", s->port);
	snprintf(s->secret, sizeof s->secret, "hf-%ld-%ld", (long)getpid(), (long)time(NULL));
	snprintf(s->log, sizeof s->log, "%s/%s-%s-%ld.log", e2e_logdir(), kind, tag, (long)getpid());
	return 0;
}

int
synapse_launch(struct synapse *s, const char *const argv[])
{
	if ((s->pid = spawn(argv, s->dir, s->log)) < 0) {
		s->pid = 0;
		snprintf(s->error, sizeof s->error, "%s: fork: %s", s->kind, strerror(errno));
		return -1;
	}
	return await_up(s);
}

int
synapse_start(struct synapse *s, const char *tag, const char *extra_yaml)
{
	char python[1024], tpl[1024], conf[300];
	const char *argv[] = { python, "-m", "synapse.app.homeserver", "-c", conf, NULL };

	memset(s, 0, sizeof *s);
	snprintf(s->kind, sizeof s->kind, "synapse");
	if (installed(s, python, sizeof python, tpl, sizeof tpl) < 0 || synapse_prepare(s, "synapse", tag) < 0 ||
	    write_config(s, tpl, extra_yaml) < 0)
		return -1;
	snprintf(conf, sizeof conf, "%s/homeserver.yaml", s->dir);
	return synapse_launch(s, argv);
}

void
synapse_stop(struct synapse *s)
{
	char out[64];

	if (s->pid > 0) {
		int t;

		kill(s->pid, SIGTERM);
		for (t = 0; t < 10000 && waitpid(s->pid, NULL, WNOHANG) != s->pid; t += 50)
			nap_ms(50);
		if (t >= 10000) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
		}
		s->pid = 0;
	}
	if (s->dir[0] != '\0')
		e2e_sh(out, sizeof out, "rm -rf '%s'", s->dir);
	s->dir[0] = '\0';
}

int
synapse_group_setup(void **state)
{
	struct synapse *s = calloc(1, sizeof *s);

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (s == NULL)
		return -1;
	*state = s;
	if (synapse_start(s, program_invocation_short_name, NULL) < 0) {
		fprintf(stderr, "%s\n", s->error);
		return -1;
	}
	return 0;
}

int
synapse_group_teardown(void **state)
{
	struct synapse *s = *state;

	if (s != NULL) {
		synapse_stop(s);
		free(s);
	}
	*state = NULL;
	return 0;
}

void
synapse_unique(struct synapse *s, const char *prefix, char *out, size_t len)
{
	snprintf(out, len, "%s-%ld-%lu", prefix, (long)getpid(), ++s->seq);
}

/* One request; its JSON answer and status. */
static json_t *
call_once(struct synapse *s, const char *method, const char *path, const char *token, const char *body, long *status)
{
	char url[2048], auth[600];

	snprintf(url, sizeof url, "%s%s", s->base, path);
	if (token != NULL)
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
	return httpcall_json(method, url, token != NULL ? auth : NULL, body, NULL, NULL, status);
}

json_t *
synapse_call(struct synapse *s, const char *method, const char *path, const char *token, const char *body,
             long *status)
{
	long st = 0;
	json_t *j = NULL;

	/* a 429 waited out as a client must (Dendrite limits reads as well:
	 * /messages, /members...; an answer lost to one would read as empty) */
	for (int tries = 0; tries < 30; tries++) {
		json_int_t ms;

		j = call_once(s, method, path, token, body, &st);
		if (st != 429)
			break;
		ms = json_integer_value(json_object_get(j, "retry_after_ms"));
		json_decref(j);
		j = NULL;
		nap_ms(ms > 0 ? (int)ms : 1000);
	}
	if (status != NULL)
		*status = st;
	return j;
}

/* The shared-secret registration's MAC: HMAC-SHA1(secret, nonce\0user\0password\0admin|notadmin) in hex. */
static void
register_mac(const char *secret, const char *nonce, const struct synapse_user *u, bool admin, char *hex)
{
	unsigned char msg[512], mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;
	size_t n = 0;
	const char *parts[] = { nonce, u->localpart, u->password, admin ? "admin" : "notadmin" };

	for (size_t i = 0; i < 4; i++) {
		size_t l = strlen(parts[i]);

		if (n + l + 1 > sizeof msg)
			break;
		memcpy(msg + n, parts[i], l);
		n += l;
		if (i < 3)
			msg[n++] = '\0';
	}
	HMAC(EVP_sha1(), secret, (int)strlen(secret), msg, n, mac, &maclen);
	for (unsigned int i = 0; i < maclen; i++)
		sprintf(hex + 2 * i, "%02x", mac[i]);
	hex[2 * maclen] = '\0';
}

int
synapse_register(struct synapse *s, const char *prefix, bool admin, struct synapse_user *u)
{
	json_t *j = synapse_call(s, "GET", "/_synapse/admin/v1/register", NULL, NULL, NULL), *req;
	char mac[2 * EVP_MAX_MD_SIZE + 1], *body;
	const char *tok;
	long st = 0;

	memset(u, 0, sizeof *u);
	if (json_string_value(json_object_get(j, "nonce")) == NULL) {
		fprintf(stderr, "synapse_register: no nonce from %s\n", s->base);
		json_decref(j);
		return -1;
	}
	synapse_unique(s, prefix, u->localpart, sizeof u->localpart);
	snprintf(u->id, sizeof u->id, "@%s:%s", u->localpart, SYNAPSE_SERVER);
	snprintf(u->password, sizeof u->password, "pw-%s", u->localpart);
	register_mac(s->secret, json_string_value(json_object_get(j, "nonce")), u, admin, mac);
	req = json_pack("{s:s,s:s,s:s,s:b,s:s}", "nonce", json_string_value(json_object_get(j, "nonce")), "username",
	                u->localpart, "password", u->password, "admin", admin, "mac", mac);
	json_decref(j);
	body = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	j = synapse_call(s, "POST", "/_synapse/admin/v1/register", NULL, body, &st);
	free(body);
	tok = json_string_value(json_object_get(j, "access_token"));
	if (st != 200 || tok == NULL) {
		fprintf(stderr, "synapse_register %s: HTTP %ld %s\n", u->localpart, st,
		        json_string_value(json_object_get(j, "error")) ? json_string_value(json_object_get(j, "error")) : "");
		json_decref(j);
		return -1;
	}
	snprintf(u->token, sizeof u->token, "%s", tok);
	json_decref(j);
	return 0;
}

int
synapse_create_room(struct synapse *s, const char *token, const char *body, char *room, size_t len)
{
	long st = 0;
	json_t *j = synapse_call(s, "POST", "/_matrix/client/v3/createRoom", token, body, &st);
	const char *id = json_string_value(json_object_get(j, "room_id"));

	snprintf(room, len, "%s", id != NULL ? id : "");
	if (id == NULL)
		fprintf(stderr, "synapse_create_room: HTTP %ld\n", st);
	json_decref(j);
	return id != NULL ? 0 : -1;
}

/* path with room escaped: fmt has one %s for it. */
static void
room_path(char *out, size_t len, const char *fmt, const char *room)
{
	char *e = curl_easy_escape(NULL, room, 0);

	snprintf(out, len, fmt, e);
	curl_free(e);
}

long
synapse_room_post(struct synapse *s, const char *token, const char *room, const char *what, const char *body)
{
	char path[512], fmt[128];
	long st = 0;

	snprintf(fmt, sizeof fmt, "/_matrix/client/v3/rooms/%%s/%s", what);
	room_path(path, sizeof path, fmt, room);
	json_decref(synapse_call(s, "POST", path, token, body != NULL ? body : "{}", &st));
	return st;
}

long
synapse_invite(struct synapse *s, const char *token, const char *room, const char *user)
{
	char body[256];

	snprintf(body, sizeof body, "{\"user_id\":\"%s\"}", user);
	return synapse_room_post(s, token, room, "invite", body);
}

/* One PUT of a message's content c (taken: decref'd here) with a fresh txn
 * id; the HTTP status, and the 429's retry_after_ms in *retry_ms (-1 if none). */
static long
send_once(struct synapse *s, const char *token, const char *room, json_t *c, long *retry_ms)
{
	char path[600], fmt[128], *body;
	const char *text = json_string_value(json_object_get(c, "body"));
	json_t *j;
	long st = 0;

	snprintf(fmt, sizeof fmt, "/_matrix/client/v3/rooms/%%s/send/m.room.message/hf%ld.%lu", (long)getpid(), ++s->seq);
	room_path(path, sizeof path, fmt, room);
	body = json_dumps(c, JSON_COMPACT);
	j = call_once(s, "PUT", path, token, body, &st);
	*retry_ms = json_is_integer(json_object_get(j, "retry_after_ms")) ?
	            (long)json_integer_value(json_object_get(j, "retry_after_ms")) : -1;
	json_decref(j);
	free(body);
	if (st != 200 && st != 429)
		fprintf(stderr, "synapse_say \"%s\": HTTP %ld\n", text != NULL ? text : "", st);
	json_decref(c);
	return st;
}

/* One PUT of an m.text; as send_once. */
static long
say_once(struct synapse *s, const char *token, const char *room, const char *text, long *retry_ms)
{
	return send_once(s, token, room, json_pack("{s:s,s:s}", "msgtype", "m.text", "body", text), retry_ms);
}

int
synapse_say_mentioning(struct synapse *s, const char *token, const char *room, const char *text, const char *user)
{
	long retry;

	return send_once(s, token, room, json_pack("{s:s,s:s,s:{s:[s]}}", "msgtype", "m.text", "body", text, "m.mentions",
	                                           "user_ids", user), &retry) == 200 ? 0 : -1;
}

int
synapse_say(struct synapse *s, const char *token, const char *room, const char *text)
{
	long retry, st = say_once(s, token, room, text, &retry);

	if (st == 429)
		fprintf(stderr, "synapse_say \"%s\": HTTP 429\n", text);
	return st == 200 ? 0 : -1;
}

int
synapse_say_waiting(struct synapse *s, const char *token, const char *room, const char *text)
{
	long retry, st = 0;

	for (int tries = 0; tries < 30 && (st = say_once(s, token, room, text, &retry)) == 429; tries++)
		nap_ms(retry > 0 ? (int)retry : 1000);
	return st == 200 ? 0 : -1;
}

/* One page of /messages back from token from (NULL: the newest), newest
 * first, appended to back; the next page's token into next ("" at the
 * room's beginning).  How many events it held. */
static size_t
messages_page(struct synapse *s, const char *token, const char *room, const char *from, json_t *back, char *next,
              size_t nlen)
{
	char path[1600], *e = from != NULL ? curl_easy_escape(NULL, from, 0) : NULL;
	json_t *j, *chunk;
	const char *end;
	size_t n, o;

	room_path(path, sizeof path, "/_matrix/client/v3/rooms/%s/messages?dir=b&limit=1000", room);
	o = strlen(path);
	if (e != NULL)   /* the token escaped: never a format */
		snprintf(path + o, sizeof path - o, "&from=%s", e);
	curl_free(e);
	j = synapse_call(s, "GET", path, token, NULL, NULL);
	chunk = json_object_get(j, "chunk");
	json_array_extend(back, chunk);
	n = json_array_size(chunk);
	end = json_string_value(json_object_get(j, "end"));
	snprintf(next, nlen, "%s", n > 0 && end != NULL ? end : "");
	json_decref(j);
	return n;
}

json_t *
synapse_messages(struct synapse *s, const char *token, const char *room)
{
	json_t *back = json_array(), *out = json_array();
	char from[512] = "";
	size_t n;

	/* a server may cap a page (Synapse at 1000, Dendrite at 100): follow
	 * "end" back to the room's beginning, or to 1000 events */
	while (messages_page(s, token, room, from[0] != '\0' ? from : NULL, back, from, sizeof from) > 0 &&
	       from[0] != '\0' && json_array_size(back) < 1000)
		;
	for (n = json_array_size(back); n > 0; n--)
		json_array_append(out, json_array_get(back, n - 1));
	json_decref(back);
	return out;
}

int
synapse_readable(struct synapse *s, const char *token, const char *room, const char *from, const char *needle)
{
	json_t *evs = synapse_messages(s, token, room), *ev;
	size_t i;
	int n = 0;

	json_array_foreach(evs, i, ev) {
		const char *b = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
		const char *who = json_string_value(json_object_get(ev, "sender"));

		if (b != NULL && strstr(b, needle) != NULL && (from == NULL || (who != NULL && strcmp(who, from) == 0)))
			n++;
	}
	json_decref(evs);
	return n;
}

bool
synapse_wait_readable(struct synapse *s, const char *token, const char *room, const char *from, const char *needle,
                      int n, int timeout_ms)
{
	for (int t = 0; t <= timeout_ms; t += 200) {
		if (synapse_readable(s, token, room, from, needle) >= n)
			return true;
		nap_ms(200);
	}
	return false;
}

json_t *
synapse_state(struct synapse *s, const char *token, const char *room, const char *type, const char *key)
{
	char path[600], fmt[256];
	long st = 0;
	json_t *j;

	snprintf(fmt, sizeof fmt, "/_matrix/client/v3/rooms/%%s/state/%s/%s", type, key);
	room_path(path, sizeof path, fmt, room);
	j = synapse_call(s, "GET", path, token, NULL, &st);
	if (st != 200) {
		json_decref(j);
		return NULL;
	}
	return j;
}

long
synapse_put_state(struct synapse *s, const char *token, const char *room, const char *type, const char *key,
                  const char *content)
{
	char path[600], fmt[256];
	long st = 0;

	snprintf(fmt, sizeof fmt, "/_matrix/client/v3/rooms/%%s/state/%s/%s", type, key);
	room_path(path, sizeof path, fmt, room);
	json_decref(synapse_call(s, "PUT", path, token, content, &st));
	return st;
}

void
synapse_state_str(struct synapse *s, const char *token, const char *room, const char *type, const char *field,
                  char *out, size_t len)
{
	json_t *j = synapse_state(s, token, room, type, "");
	const char *v = json_string_value(json_object_get(j, field));

	snprintf(out, len, "%s", v != NULL ? v : "");
	json_decref(j);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
synapse_members(struct synapse *s, const char *token, const char *room, const char *want, char *out, size_t len)
{
	char path[512];
	const char *ids[256];
	size_t i, n = 0, o = 0;
	json_t *j, *ev;

	room_path(path, sizeof path, "/_matrix/client/v3/rooms/%s/members", room);
	j = synapse_call(s, "GET", path, token, NULL, NULL);
	json_array_foreach(json_object_get(j, "chunk"), i, ev) {
		const char *m = json_string_value(json_object_get(json_object_get(ev, "content"), "membership"));
		const char *who = json_string_value(json_object_get(ev, "state_key"));

		if (m != NULL && who != NULL && strcmp(m, want) == 0 && n < 256)
			ids[n++] = who;
	}
	qsort(ids, n, sizeof ids[0], cmp_str);
	out[0] = '\0';
	for (i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i > 0 ? " " : "", ids[i]);
	json_decref(j);
}

void
synapse_membership(struct synapse *s, const char *token, const char *room, const char *user, char *out, size_t len)
{
	json_t *j = synapse_state(s, token, room, "m.room.member", user);
	const char *m = json_string_value(json_object_get(j, "membership"));

	snprintf(out, len, "%s", m != NULL ? m : "");
	json_decref(j);
}

bool
synapse_wait_membership(struct synapse *s, const char *token, const char *room, const char *user, const char *want,
                        int timeout_ms)
{
	char m[32];

	for (int t = 0; t <= timeout_ms; t += 100) {
		synapse_membership(s, token, room, user, m, sizeof m);
		if (strcmp(m, want) == 0)
			return true;
		nap_ms(100);
	}
	return false;
}

json_t *
synapse_account_data(struct synapse *s, const struct synapse_user *u, const char *type)
{
	char path[512], *e = curl_easy_escape(NULL, u->id, 0);
	long st = 0;
	json_t *j;

	snprintf(path, sizeof path, "/_matrix/client/v3/user/%s/account_data/%s", e, type);
	curl_free(e);
	j = synapse_call(s, "GET", path, u->token, NULL, &st);
	if (st != 200) {
		json_decref(j);
		return NULL;
	}
	return j;
}

void
synapse_invites(struct synapse *s, const char *token, char *out, size_t len)
{
	json_t *j = synapse_call(s, "GET", "/_matrix/client/v3/sync?filter=%7B%22room%22%3A%7B%22timeline%22%3A%7B"
	                                   "%22limit%22%3A0%7D%7D%7D", token, NULL, NULL), *v;
	const char *room;
	size_t o = 0;

	out[0] = '\0';
	json_object_foreach(json_object_get(json_object_get(j, "rooms"), "invite"), room, v)
		if (o < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o > 0 ? " " : "", room);
	json_decref(j);
}

json_t *
synapse_notifications(struct synapse *s, const char *token)
{
	json_t *j = synapse_call(s, "GET", "/_matrix/client/v3/notifications?limit=1000", token, NULL, NULL);
	json_t *n = json_incref(json_object_get(j, "notifications"));

	json_decref(j);
	return n != NULL ? n : json_array();
}

bool
synapse_highlighted(const json_t *notification)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(notification, "actions"), i, a) {
		const char *tweak = json_string_value(json_object_get(a, "set_tweak"));
		const json_t *v = json_object_get(a, "value");

		if (tweak != NULL && strcmp(tweak, "highlight") == 0 && (v == NULL || json_is_true(v)))
			return true;
	}
	return false;
}
