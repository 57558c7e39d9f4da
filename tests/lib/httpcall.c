/* httpcall.c: one blocking HTTP call whose answer is JSON, over libcurl's easy interface (fakemx, fakedc). */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

#include "httpcall.h"

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
httpcall_json(const char *method, const char *url, const char *auth, const char *body, const char *user_agent,
              const char *ca_file, long *status)
{
	CURL *e = curl_easy_init();
	struct curl_slist *h = NULL;
	struct buf b = { NULL, 0 };
	json_t *j = NULL;
	long st = 0;

	if (e == NULL)
		return NULL;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, 20L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &b);
	if (user_agent != NULL)
		curl_easy_setopt(e, CURLOPT_USERAGENT, user_agent);
	if (ca_file != NULL && ca_file[0] != '\0')
		curl_easy_setopt(e, CURLOPT_CAINFO, ca_file);
	if (auth != NULL)
		h = curl_slist_append(h, auth);
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
