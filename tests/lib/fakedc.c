/* fakedc.c: runs the fake Discord for tests on free loopback ports and makes blocking calls to it (httpcall.c). */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fakedc.h"
#include "httpcall.h"

static const char *
script_path(void)
{
	const char *s = getenv("FAKE_DISCORD");

	if (s != NULL)
		return s;
	return access("tests/fakes/fake-discord.py", R_OK) == 0 ? "tests/fakes/fake-discord.py" : "../tests/fakes/fake-discord.py";
}

/* Debian's interpreter: python3-websockets is installed for it, not for any other python3 on PATH. */
static const char *
python(void)
{
	return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

static int start(struct fakedc *f, const char *cert, const char *key);

int
fakedc_start(struct fakedc *f)
{
	return start(f, NULL, NULL);
}

int
fakedc_start_tls(struct fakedc *f, const char *cert, const char *key)
{
	return start(f, cert, key);
}

static int
start(struct fakedc *f, const char *cert, const char *key)
{
	char pf[] = "/tmp/fakedc-portXXXXXX";
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
		execlp(python(), python(), script_path(), pf, cert, key, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) {
		FILE *fp = fopen(pf, "r");

		if (fp != NULL) {
			int ok = fscanf(fp, "%d %d %d", &f->http, &f->gateway, &f->resume) == 3;

			fclose(fp);
			unlink(pf);
			if (ok) {
				const char *s = cert != NULL ? "s" : "";

				snprintf(f->base, sizeof f->base, "http%s://127.0.0.1:%d", s, f->http);
				snprintf(f->api, sizeof f->api, "http%s://127.0.0.1:%d/api/v10", s, f->http);
				snprintf(f->gateway_url, sizeof f->gateway_url, "ws%s://127.0.0.1:%d", s, f->gateway);
				if (cert != NULL)
					snprintf(f->ca_file, sizeof f->ca_file, "%s", cert);
				return 0;
			}
		}
		if (waitpid(f->pid, NULL, WNOHANG) == f->pid) {
			f->pid = 0;
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	fakedc_stop(f);
	return -1;
}

void
fakedc_stop(struct fakedc *f)
{
	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, NULL, 0);
		f->pid = 0;
	}
}

json_t *
fakedc_call(struct fakedc *f, const char *method, const char *path, const char *token, const char *body,
            long *status)
{
	char url[2048], auth[512];

	snprintf(url, sizeof url, "%s%s", f->base, path);
	if (token != NULL)
		snprintf(auth, sizeof auth, "Authorization: Bot %s", token);
	return httpcall_json(method, url, token != NULL ? auth : NULL, body, "DiscordBot (https://example.org/handfoot-tests, 1)", f->ca_file, status);
}

int
fakedc_ctl(struct fakedc *f, const char *what, const char *fmt, ...)
{
	char path[128], body[8192];
	va_list ap;
	long st = 0;
	json_t *j;

	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "/_fake/%s", what);
	j = fakedc_call(f, "POST", path, NULL, body, &st);
	if (st != 200)
		fprintf(stderr, "fakedc_ctl %s: HTTP %ld: %s\n", what, st,
		        j != NULL ? json_string_value(json_object_get(j, "message")) : "(no answer)");
	json_decref(j);
	return st == 200 ? 0 : -1;
}

json_t *
fakedc_state(struct fakedc *f)
{
	return fakedc_call(f, "GET", "/_fake/state", NULL, NULL, NULL);
}

int
fakedc_violations(struct fakedc *f, bool print)
{
	json_t *s = fakedc_state(f), *v;
	size_t i;
	int n;

	if (s == NULL)
		return -1;
	v = json_object_get(s, "violations");
	n = (int)json_array_size(v);
	if (print)
		for (i = 0; i < json_array_size(v); i++)
			fprintf(stderr, "fake-discord violation: %s\n",
			        json_string_value(json_object_get(json_array_get(v, i), "what")));
	json_decref(s);
	return n;
}
