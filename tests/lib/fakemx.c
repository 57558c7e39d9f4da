/* fakemx.c: runs the fake Matrix server for end-to-end tests and makes blocking libcurl calls to it. */
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fakemx.h"
#include "httpcall.h"

static const char *
script_path(void)
{
	const char *s = getenv("FAKE_MATRIX");

	if (s != NULL)
		return s;
	return access("tests/fakes/fake-matrix.py", R_OK) == 0 ? "tests/fakes/fake-matrix.py" : "../tests/fakes/fake-matrix.py";
}

static int start(struct fakemx *f, const char *cert, const char *key);

int
fakemx_start(struct fakemx *f)
{
	return start(f, NULL, NULL);
}

int
fakemx_start_tls(struct fakemx *f, const char *cert, const char *key)
{
	return start(f, cert, key);
}

static int
start(struct fakemx *f, const char *cert, const char *key)
{
	char pf[] = "/tmp/fakemx-portXXXXXX";
	int fd = mkstemp(pf);
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (fd < 0)
		return -1;
	close(fd);
	unlink(pf);
	memset(f, 0, sizeof *f);
	if ((f->pid = fork()) < 0)
		return -1;
	if (f->pid == 0) {
		execlp("python3", "python3", script_path(), "0", pf, cert, key, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) {
		FILE *fp = fopen(pf, "r");

		if (fp != NULL) {
			int ok = fscanf(fp, "%d", &f->port) == 1;

			fclose(fp);
			unlink(pf);
			if (ok) {
				snprintf(f->base, sizeof f->base, "http%s://127.0.0.1:%d", cert != NULL ? "s" : "", f->port);
				if (cert != NULL)
					snprintf(f->ca_file, sizeof f->ca_file, "%s", cert);
				return 0;
			}
		}
		if (waitpid(f->pid, NULL, WNOHANG) == f->pid)
			return -1;
		nanosleep(&ts, NULL);
	}
	fakemx_stop(f);
	return -1;
}

void
fakemx_stop(struct fakemx *f)
{
	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, NULL, 0);
		f->pid = 0;
	}
}

json_t *
fakemx_call(struct fakemx *f, const char *method, const char *path, const char *token, const char *body,
            long *status)
{
	char url[2048], auth[512];

	snprintf(url, sizeof url, "%s%s", f->base, path);
	if (token != NULL)
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
	return httpcall_json(method, url, token != NULL ? auth : NULL, body, NULL, f->ca_file[0] != '\0' ? f->ca_file : NULL,
	                     status);
}

int
fakemx_user(struct fakemx *f, const char *localpart, const char *password, char *tok, size_t len)
{
	char body[256];
	json_t *j;

	snprintf(body, sizeof body, "{\"user\":\"%s\",\"password\":\"%s\"}", localpart, password);
	if ((j = fakemx_call(f, "POST", "/_fake/user", NULL, body, NULL)) == NULL)
		return -1;
	snprintf(tok, len, "%s", json_string_value(json_object_get(j, "access_token")));
	json_decref(j);
	return 0;
}

int
fakemx_say(struct fakemx *f, const char *token, const char *room, const char *text)
{
	char path[512], *body, *eroom;
	json_t *c = json_pack("{s:s,s:s}", "msgtype", "m.text", "body", text), *j;
	CURL *e = curl_easy_init();
	long st = 0;

	body = json_dumps(c, JSON_COMPACT);
	eroom = curl_easy_escape(e, room, 0);
	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/send/m.room.message/t%lu.%ld", eroom, ++f->txn, (long)getpid());
	j = fakemx_call(f, "PUT", path, token, body, &st);
	json_decref(j);
	json_decref(c);
	free(body);
	curl_free(eroom);
	curl_easy_cleanup(e);
	if (st != 200)
		fprintf(stderr, "fakemx_say: HTTP %ld\n", st);
	return st == 200 ? 0 : -1;
}

json_t *
fakemx_events(struct fakemx *f, const char *room)
{
	char path[512], *eroom;
	CURL *e = curl_easy_init();
	json_t *j, *evs;

	eroom = curl_easy_escape(e, room, 0);
	snprintf(path, sizeof path, "/_fake/events?room=%s", eroom);
	curl_free(eroom);
	curl_easy_cleanup(e);
	if ((j = fakemx_call(f, "GET", path, NULL, NULL, NULL)) == NULL)
		return NULL;
	evs = json_incref(json_object_get(j, "events"));
	json_decref(j);
	return evs;
}

int
fakemx_room(struct fakemx *f, const char *token, const char *body, char *room, size_t len)
{
	json_t *j = fakemx_call(f, "POST", "/_matrix/client/v3/createRoom", token, body, NULL);
	const char *id = json_string_value(json_object_get(j, "room_id"));

	snprintf(room, len, "%s", id != NULL ? id : "");
	json_decref(j);
	return id != NULL ? 0 : -1;
}

long
fakemx_room_post(struct fakemx *f, const char *token, const char *room, const char *what, const char *body)
{
	char path[512], *e = curl_easy_escape(NULL, room, 0);
	long st = 0;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/%s", e, what);
	curl_free(e);
	json_decref(fakemx_call(f, "POST", path, token, body != NULL ? body : "{}", &st));
	return st;
}

/* The fake's view of room: {"members": {user: membership}, "direct": bool} (caller decrefs). */
static json_t *
room_view(struct fakemx *f, const char *room)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/rooms", NULL, NULL, NULL);
	json_t *r = json_incref(json_object_get(json_object_get(j, "rooms"), room));

	json_decref(j);
	return r;
}

void
fakemx_membership(struct fakemx *f, const char *room, const char *user, char *out, size_t len)
{
	json_t *r = room_view(f, room);
	const char *m = json_string_value(json_object_get(json_object_get(r, "members"), user));

	snprintf(out, len, "%s", m != NULL ? m : "");
	json_decref(r);
}

void
fakemx_members(struct fakemx *f, const char *room, char *out, size_t len)
{
	json_t *r = room_view(f, room), *m;
	const char *user;
	size_t o = 0;

	out[0] = '\0';
	json_object_foreach(json_object_get(r, "members"), user, m) {
		const char *ms = json_string_value(m);

		if (ms != NULL && (strcmp(ms, "join") == 0 || strcmp(ms, "invite") == 0) && o < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o > 0 ? " " : "", user);
	}
	json_decref(r);
}

int
fakemx_bot_says(struct fakemx *f, const char *room, const char *needle)
{
	json_t *evs = fakemx_events(f, room), *ev;
	size_t i;
	int n = 0;

	json_array_foreach(evs, i, ev) {
		const char *body = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
		const char *sender = json_string_value(json_object_get(ev, "sender"));

		if (sender != NULL && strcmp(sender, "@bot:hs") == 0 && body != NULL && strstr(body, needle) != NULL)
			n++;
	}
	json_decref(evs);
	return n;
}

long
fakemx_requests(struct fakemx *f, const char *what)
{
	json_t *j = fakemx_call(f, "GET", "/_fake/requests", NULL, NULL, NULL);
	long n = (long)json_integer_value(json_object_get(j, what));

	json_decref(j);
	return n;
}

int
fakemx_readable(struct fakemx *f, const char *token, const char *room, const char *needle)
{
	char path[512], *e = curl_easy_escape(NULL, room, 0);
	json_t *j, *ev;
	size_t i;
	int n = 0;

	snprintf(path, sizeof path, "/_matrix/client/v3/rooms/%s/messages?dir=b&limit=1000", e);
	curl_free(e);
	j = fakemx_call(f, "GET", path, token, NULL, NULL);
	json_array_foreach(json_object_get(j, "chunk"), i, ev) {
		const char *b = json_string_value(json_object_get(json_object_get(ev, "content"), "body"));

		if (b != NULL && strstr(b, needle) != NULL)
			n++;
	}
	json_decref(j);
	return n;
}
