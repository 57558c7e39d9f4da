/* fakedc.c: runs the fake Discord for tests on free loopback ports and makes blocking libcurl calls to it. */
#include <curl/curl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fakedc.h"

static const char *
script_path(void)
{
	const char *s = getenv("FAKE_DISCORD");

	if (s != NULL)
		return s;
	return access("tests/fake-discord.py", R_OK) == 0 ? "tests/fake-discord.py" : "../tests/fake-discord.py";
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

struct buf { char *p; size_t n; };

static size_t
collect(char *p, size_t size, size_t n, void *data)
{
	struct buf *b = data;
	char *q = realloc(b->p, b->n + size * n + 1);

	if (q == NULL)
		return 0;
	b->p = q;
	memcpy(b->p + b->n, p, size * n);
	b->n += size * n;
	b->p[b->n] = '\0';
	return size * n;
}

json_t *
fakedc_call(struct fakedc *f, const char *method, const char *path, const char *token, const char *body,
            long *status)
{
	CURL *e = curl_easy_init();
	struct curl_slist *h = NULL;
	struct buf b = { NULL, 0 };
	char url[2048], auth[512];
	json_t *j = NULL;
	long st = 0;

	if (e == NULL)
		return NULL;
	snprintf(url, sizeof url, "%s%s", f->base, path);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, 20L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "DiscordBot (https://example.org/handfoot-tests, 1)");
	if (f->ca_file[0] != '\0')
		curl_easy_setopt(e, CURLOPT_CAINFO, f->ca_file);
	if (token != NULL) {
		snprintf(auth, sizeof auth, "Authorization: Bot %s", token);
		h = curl_slist_append(h, auth);
	}
	if (body != NULL) {
		h = curl_slist_append(h, "Content-Type: application/json");
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
	if (curl_easy_perform(e) == CURLE_OK) {
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &st);
		if (b.p != NULL)
			j = json_loads(b.p, 0, NULL);
	}
	if (status != NULL)
		*status = st;
	free(b.p);
	curl_slist_free_all(h);
	curl_easy_cleanup(e);
	return j;
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
