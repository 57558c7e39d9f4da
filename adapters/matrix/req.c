/* req.c: one HTTP request to the homeserver on the bot's curl multi: auth header, size limit, 429 wait, JSON answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "matrix.h"

static size_t
on_body(char *p, size_t size, size_t n, void *data)
{
	struct matrix_req *r = data;
	size_t len = size * n;
	char *in;

	if (r->nin + len > r->max) {
		r->too_big = true;
		return 0;
	}
	if ((in = realloc(r->in, r->nin + len + 1)) == NULL)
		return 0;
	r->in = in;
	memcpy(r->in + r->nin, p, len);
	r->nin += len;
	r->in[r->nin] = '\0';
	return len;
}

static void
req_unlink(struct matrix_client *c, struct matrix_req *r)
{
	for (struct matrix_req **p = &c->reqs; *p != NULL; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			return;
		}
}

static void
req_free(struct matrix_req *r)
{
	if (r->easy != NULL)
		curl_easy_cleanup(r->easy);
	curl_slist_free_all(r->hdrs);
	free(r->in);
	free(r->arg);
	free(r->user);
	free(r);
}

int64_t
matrix_req_wait_ms(json_t *body, curl_off_t after)
{
	json_t *ms = json_object_get(body, "retry_after_ms");

	if (json_is_integer(ms) && json_integer_value(ms) >= 0)
		return json_integer_value(ms) < MATRIX_RETRY_MAX_MS ? (int64_t)json_integer_value(ms) : MATRIX_RETRY_MAX_MS;
	if (after >= 0)
		return after < MATRIX_RETRY_MAX_MS / 1000 ? (int64_t)after * 1000 : MATRIX_RETRY_MAX_MS;
	return -1;
}

static void
on_done(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct matrix_req *r = data;
	struct matrix_client *c = r->c;
	long status = 0;
	json_t *body = NULL;
	curl_off_t after = -1;

	(void)h;
	req_unlink(c, r);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
		if (r->in != NULL)
			body = json_loadb(r->in, r->nin, 0, NULL);
		if (status == 429) {
			if (curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &after) != CURLE_OK)
				after = -1;
			r->retry_ms = matrix_req_wait_ms(body, after);
		}
		r->errcode = json_string_value(json_object_get(body, "errcode"));
	} else if (r->too_big) {
		/* said as what it is: the server did answer */
		r->errcode = "answer over the size limit";
		matrix_client_log(c, LOG_LVL_WARNING, "%s: the answer is over %zu bytes, the limit: dropped", r->what, r->max);
	} else {
		r->errcode = curl_easy_strerror(rc);
		matrix_client_log(c, LOG_LVL_DEBUG, "%s: no answer: %s", r->what, r->errcode);
	}
	r->done(c, r, status, body);
	json_decref(body);
	req_free(r);
}

struct matrix_req *
matrix_req_start(struct matrix_client *c, const char *method, const char *path, const char *json,
                 matrix_req_done_fn *done, long timeout_ms, size_t max)
{
	struct matrix_req *r = calloc(1, sizeof *r);
	char *url, auth[1100];

	if (r == NULL || (r->easy = curl_easy_init()) == NULL ||
	    asprintf(&url, "%s%s", c->cfg.homeserver, path) < 0) {
		if (r != NULL && r->easy != NULL)
			curl_easy_cleanup(r->easy);
		free(r);
		return NULL;
	}
	r->c = c;
	r->done = done;
	r->max = max;
	r->retry_ms = -1;
	snprintf(r->what, sizeof r->what, "%s %.*s", method, (int)strcspn(path, "?"), path);
	/* libcurl keeps its own copy */
	curl_easy_setopt(r->easy, CURLOPT_URL, url);
	free(url);
	curl_easy_setopt(r->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(r->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(r->easy, CURLOPT_CONNECTTIMEOUT_MS, 20000L);
	curl_easy_setopt(r->easy, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(r->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(r->easy, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(r->easy, CURLOPT_USERAGENT, "handfoot");
	curl_easy_setopt(r->easy, CURLOPT_ACCEPT_ENCODING, "");
	if (c->cfg.ca_file[0] != '\0')
		curl_easy_setopt(r->easy, CURLOPT_CAINFO, c->cfg.ca_file);
	r->hdrs = curl_slist_append(r->hdrs, "Accept: application/json");
	if (c->token[0] != '\0') {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", c->token);
		r->hdrs = curl_slist_append(r->hdrs, auth);
		/* the header holds the token: wipe our copy */
		memset(auth, 0, sizeof auth);
	}
	if (json != NULL) {
		r->hdrs = curl_slist_append(r->hdrs, "Content-Type: application/json");
		curl_easy_setopt(r->easy, CURLOPT_COPYPOSTFIELDS, json);
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)
		curl_easy_setopt(r->easy, CURLOPT_CUSTOMREQUEST, method);
	else if (strcmp(method, "POST") == 0 && json == NULL)
		curl_easy_setopt(r->easy, CURLOPT_COPYPOSTFIELDS, "{}");
	curl_easy_setopt(r->easy, CURLOPT_HTTPHEADER, r->hdrs);
	if (http_add(c->http, r->easy, on_done, r) < 0) {
		req_free(r);
		return NULL;
	}
	r->next = c->reqs;
	c->reqs = r;
	return r;
}

void
matrix_req_cancel_all(struct matrix_client *c)
{
	while (c->reqs != NULL) {
		struct matrix_req *r = c->reqs;

		c->reqs = r->next;
		http_remove(c->http, r->easy);
		req_free(r);
	}
	c->sync_req = NULL;
}
