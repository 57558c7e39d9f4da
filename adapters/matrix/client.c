/* client.c: one Matrix account: login, whoami, filter, the /sync long-poll, invites, direct rooms and the send queue. */
#include <curl/curl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "loop.h"
#include "matrix.h"

#define API          "/_matrix/client/v3"
#define SEEN_MEM     1024   /* event ids remembered in memory */
#define SEEN_KEPT    64     /* ... and in the state store, for a restart mid-batch */
#define NAMES        256
#define MAX_BODY     (64u << 10)
#define REQ_TIMEOUT  60000L

enum phase { PH_IDLE, PH_LOGIN, PH_WHOAMI, PH_FILTER, PH_SYNC, PH_STOPPED };

struct name { char *user, *name; };
struct direct { char *user, *room; };

struct matrix_client {
	struct matrix_config cfg;
	struct matrix_host host;
	struct loop *loop;
	struct http *http;
	enum phase phase;

	char self[MATRIX_MAX_ID + 1];
	char device[128];
	char token[1024];
	char filter[128];
	char *since;
	bool up, said_down;
	int fails;                      /* consecutive failures of the login/sync chain */
	struct req *sync_req;
	long long sync_timer, out_timer;
	int64_t out_due;                /* when out_timer fires */
	int64_t create_after;           /* no createRoom before (after a 429 or 5xx) */
	int create_fails;

	struct matrix_outbox *out;
	struct req *reqs;               /* everything in flight, freed on stop */

	char *seen[SEEN_MEM];
	size_t seen_at;
	struct name names[NAMES];
	size_t names_at;
	struct direct *directs;
	size_t ndirects;
	char **creating;                /* users whose direct room is being created */
	size_t ncreating;
	char **joined_enc;              /* encrypted rooms already told */
	size_t nenc;
	char **joining;                 /* rooms with a join in flight */
	size_t njoining;
};

struct req;
typedef void req_done_fn(struct matrix_client *c, struct req *r, long status, json_t *body);

struct req {
	struct matrix_client *c;
	CURL *easy;
	struct curl_slist *hdrs;
	char *in;
	size_t nin;
	size_t max;
	bool too_big;
	req_done_fn *done;
	struct matrix_out *msg;         /* a send */
	char *arg;                      /* a room or user, per request */
	int64_t retry_ms;               /* from a 429: retry_after_ms or Retry-After */
	const char *errcode;
	struct req *next;
};

static void sync_start(struct matrix_client *c);
static void arm_out_timer(struct matrix_client *c, int64_t ms);
static void out_kick(struct matrix_client *c);
static void login_start(struct matrix_client *c);
static void whoami_start(struct matrix_client *c);
static void filter_start(struct matrix_client *c);

/* ---------------------------------------------------------------- small helpers */

static void
logf_(struct matrix_client *c, int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (c->host.log != NULL)
		c->host.log(c->host.ctx, level, buf);
}

static int
st_get(struct matrix_client *c, const char *key, char *buf, size_t len)
{
	return c->host.store.get(c->host.store.ctx, key, buf, len);
}

static void
st_set(struct matrix_client *c, const char *key, const char *value)
{
	if (c->host.store.set(c->host.store.ctx, key, value) < 0)
		logf_(c, LOG_LVL_WARNING, "cannot store %s", key);
}

static void
st_del(struct matrix_client *c, const char *key)
{
	c->host.store.del(c->host.store.ctx, key);
}

static bool
list_has(char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static void
list_add(char ***list, size_t *n, const char *s)
{
	char **l;

	if (list_has(*list, *n, s) || (l = realloc(*list, (*n + 1) * sizeof *l)) == NULL)
		return;
	*list = l;
	if ((l[*n] = strdup(s)) != NULL)
		(*n)++;
}

static void
list_del(char **list, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], s) == 0) {
			free(list[i]);
			list[i] = list[--*n];
			return;
		}
}

static void
list_free(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* ---------------------------------------------------------------- seen event ids */

static bool
seen_has(struct matrix_client *c, const char *id)
{
	for (size_t i = 0; i < SEEN_MEM; i++)
		if (c->seen[i] != NULL && strcmp(c->seen[i], id) == 0)
			return true;
	return false;
}

static void
seen_remember(struct matrix_client *c, const char *id)
{
	size_t i = c->seen_at % SEEN_MEM;

	free(c->seen[i]);
	c->seen[i] = strdup(id);
	c->seen_at++;
}

/* Persists the newest ids, so that a batch re-delivered after a crash
 * (next_batch is stored only once the batch is handled) is not replayed. */
static void
seen_persist(struct matrix_client *c)
{
	char buf[SEEN_KEPT * (MATRIX_MAX_ID + 1) + 1];
	size_t o = 0, n = c->seen_at < SEEN_KEPT ? c->seen_at : SEEN_KEPT;

	buf[0] = '\0';
	for (size_t k = c->seen_at - n; k < c->seen_at; k++) {
		const char *id = c->seen[k % SEEN_MEM];
		size_t l = id != NULL ? strlen(id) : 0;

		if (l == 0)
			continue;
		memcpy(buf + o, id, l);
		o += l;
		buf[o++] = ' ';
	}
	buf[o] = '\0';
	st_set(c, "seen", buf);
}

static void
seen_load(struct matrix_client *c)
{
	char buf[SEEN_KEPT * (MATRIX_MAX_ID + 1) + 1], *tok, *save = NULL;

	if (st_get(c, "seen", buf, sizeof buf) < 0)
		return;
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if (matrix_text_id_ok(tok, '$'))
			seen_remember(c, tok);
}

/* ---------------------------------------------------------------- names and direct rooms */

static void
name_set(struct matrix_client *c, const char *user, const char *name)
{
	struct name *n = NULL;

	/* Clients write a mention of us with our display name: "HandFoot: draw". */
	if (c->host.self != NULL && c->self[0] != '\0' && strcmp(user, c->self) == 0 && name[0] != '@')
		c->host.self(c->host.ctx, name);
	for (size_t i = 0; i < NAMES; i++)
		if (c->names[i].user != NULL && strcmp(c->names[i].user, user) == 0)
			n = &c->names[i];
	if (n == NULL) {
		n = &c->names[c->names_at++ % NAMES];
		free(n->user);
		n->user = strdup(user);
	}
	free(n->name);
	n->name = strdup(name);
}

/* The display name if known, else the localpart ("@ann:hs" -> "ann"). */
static const char *
name_of(struct matrix_client *c, const char *user, char *buf, size_t len)
{
	const char *colon;

	for (size_t i = 0; i < NAMES; i++)
		if (c->names[i].user != NULL && c->names[i].name != NULL && strcmp(c->names[i].user, user) == 0)
			return c->names[i].name;
	colon = strchr(user, ':');
	snprintf(buf, len, "%.*s", (int)(colon != NULL ? colon - user - 1 : (long)strlen(user) - 1), user + 1);
	matrix_text_clean(buf, strlen(buf), buf, len, MATRIX_MAX_NAME);
	return buf;
}

static const char *
direct_room(struct matrix_client *c, const char *user)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			return c->directs[i].room;
	return NULL;
}

static const char *
direct_user(struct matrix_client *c, const char *room)
{
	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].room, room) == 0)
			return c->directs[i].user;
	return NULL;
}

static void
direct_set(struct matrix_client *c, const char *user, const char *room, bool persist)
{
	char key[MATRIX_MAX_ID + 16];
	struct direct *d;
	size_t i;

	for (i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].user, user) == 0)
			break;
	if (i == c->ndirects) {
		if ((d = realloc(c->directs, (c->ndirects + 1) * sizeof *d)) == NULL)
			return;
		c->directs = d;
		c->directs[i].user = strdup(user);
		c->directs[i].room = NULL;
		c->ndirects++;
	}
	free(c->directs[i].room);
	c->directs[i].room = strdup(room);
	if (persist) {
		snprintf(key, sizeof key, "direct/%s", user);
		st_set(c, key, room);
	}
}

static void
direct_forget_room(struct matrix_client *c, const char *room)
{
	char key[MATRIX_MAX_ID + 16];

	for (size_t i = 0; i < c->ndirects; i++)
		if (strcmp(c->directs[i].room, room) == 0) {
			snprintf(key, sizeof key, "direct/%s", c->directs[i].user);
			st_del(c, key);
			free(c->directs[i].user);
			free(c->directs[i].room);
			c->directs[i] = c->directs[--c->ndirects];
			return;
		}
}

static void
direct_load_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;
	const char *user = key + strlen("direct/");

	if (matrix_text_id_ok(user, '@') && matrix_text_id_ok(value, '!'))
		direct_set(c, user, value, false);
}

static void
enc_load_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;

	(void)value;
	list_add(&c->joined_enc, &c->nenc, key + strlen("enc/"));
}

/* ---------------------------------------------------------------- requests */

static size_t
on_body(char *p, size_t size, size_t n, void *data)
{
	struct req *r = data;
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
req_unlink(struct matrix_client *c, struct req *r)
{
	for (struct req **p = &c->reqs; *p != NULL; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			return;
		}
}

static void
req_free(struct req *r)
{
	if (r->easy != NULL)
		curl_easy_cleanup(r->easy);
	curl_slist_free_all(r->hdrs);
	free(r->in);
	free(r->arg);
	free(r);
}

static void
on_done(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct req *r = data;
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
			json_t *ms = json_object_get(body, "retry_after_ms");

			if (json_is_integer(ms) && json_integer_value(ms) >= 0)
				r->retry_ms = json_integer_value(ms);
			else if (curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &after) == CURLE_OK && after >= 0)
				r->retry_ms = (int64_t)after * 1000;
		}
		r->errcode = json_string_value(json_object_get(body, "errcode"));
	} else
		logf_(c, LOG_LVL_DEBUG, "request failed: %s", curl_easy_strerror(rc));
	r->done(c, r, status, body);
	json_decref(body);
	req_free(r);
}

/* Starts a request: path below the homeserver (with its query), an optional
 * JSON body. The response comes to done with its HTTP status (0: network). */
static struct req *
req_start(struct matrix_client *c, const char *method, const char *path, const char *json,
          req_done_fn *done, long timeout_ms, size_t max)
{
	struct req *r = calloc(1, sizeof *r);
	char url[4700], auth[1100];

	if (r == NULL || (r->easy = curl_easy_init()) == NULL) {
		free(r);
		return NULL;
	}
	r->c = c;
	r->done = done;
	r->max = max;
	r->retry_ms = -1;
	snprintf(url, sizeof url, "%s%s", c->cfg.homeserver, path);
	curl_easy_setopt(r->easy, CURLOPT_URL, url);
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

/* ---------------------------------------------------------------- the chain: login, whoami, filter, sync */

static int64_t
on_retry_timer(struct loop *l, long long id, void *data)
{
	struct matrix_client *c = data;

	(void)l;
	(void)id;
	c->sync_timer = 0;
	switch (c->phase) {
	case PH_IDLE:
	case PH_LOGIN:
		login_start(c);
		break;
	case PH_WHOAMI:
		whoami_start(c);
		break;
	case PH_FILTER:
		filter_start(c);
		break;
	case PH_SYNC:
		sync_start(c);
		break;
	case PH_STOPPED:
		break;
	}
	return LOOP_NOMORE;
}

/* The chain failed: say DOWN once, retry after a backoff. */
static void
chain_failed(struct matrix_client *c, const char *what, long status, const char *errcode, int64_t retry_ms)
{
	int64_t ms = retry_ms >= 0 ? retry_ms : matrix_outbox_backoff(++c->fails);

	logf_(c, status >= 400 && status < 500 ? LOG_LVL_ERR : LOG_LVL_WARNING,
	      "%s failed (HTTP %ld%s%s); retrying in %" PRId64 " ms", what, status,
	      errcode != NULL ? ", " : "", errcode != NULL ? errcode : "", ms);
	if (c->up && !c->said_down) {
		struct bot_event ev = { .type = BOT_EV_DOWN };

		c->said_down = true;
		c->host.emit(c->host.ctx, &ev);
	}
	c->sync_timer = loop_timer_add(c->loop, ms, on_retry_timer, c);
}

static void
on_filter(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	const char *id = json_string_value(json_object_get(body, "filter_id"));

	c->sync_req = NULL;
	if (status != 200 || id == NULL || id[0] == '\0' || strlen(id) >= sizeof c->filter ||
	    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.=") != strlen(id)) {
		/* a missing filter only costs bandwidth: sync without one */
		logf_(c, LOG_LVL_WARNING, "filter upload failed (HTTP %ld); syncing unfiltered", status);
		c->filter[0] = '\0';
	} else
		snprintf(c->filter, sizeof c->filter, "%s", id);
	(void)r;
	sync_start(c);
}

static void
filter_start(struct matrix_client *c)
{
	char path[900], enc[3 * MATRIX_MAX_ID + 1];
	/* only what the bot acts on; members lazy-loaded so big rooms stay cheap */
	static const char filter[] =
	    "{\"presence\":{\"types\":[]},"
	    "\"account_data\":{\"types\":[\"m.direct\"]},"
	    "\"room\":{"
	    "\"timeline\":{\"types\":[\"m.room.message\",\"m.room.member\",\"m.room.encryption\"],\"limit\":50},"
	    "\"state\":{\"types\":[\"m.room.member\",\"m.room.encryption\"],\"lazy_load_members\":true},"
	    "\"ephemeral\":{\"types\":[]},"
	    "\"account_data\":{\"types\":[]}},"
	    "\"event_fields\":[\"type\",\"content\",\"sender\",\"state_key\",\"event_id\",\"origin_server_ts\",\"unsigned\"]}";

	c->phase = PH_FILTER;
	matrix_text_urlenc(c->self, enc, sizeof enc);
	snprintf(path, sizeof path, API "/user/%s/filter", enc);
	if ((c->sync_req = req_start(c, "POST", path, filter, on_filter, REQ_TIMEOUT, MAX_BODY)) == NULL)
		chain_failed(c, "filter", 0, NULL, -1);
}

static void
on_whoami(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	const char *uid = json_string_value(json_object_get(body, "user_id"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));

	c->sync_req = NULL;
	if (status == 401 && c->cfg.password[0] != '\0') {
		c->token[0] = '\0';
		login_start(c);
		return;
	}
	if (status != 200 || !matrix_text_id_ok(uid, '@')) {
		chain_failed(c, "whoami", status, r->errcode, r->retry_ms);
		return;
	}
	snprintf(c->self, sizeof c->self, "%s", uid);
	/* People address us as "@bot:server: draw" or "bot: draw". */
	if (c->host.self != NULL)
		c->host.self(c->host.ctx, c->self);
	if (matrix_text_id_ok(dev, 0))
		snprintf(c->device, sizeof c->device, "%s", dev);
	logf_(c, LOG_LVL_INFO, "logged in as %s", c->self);
	filter_start(c);
}

static void
whoami_start(struct matrix_client *c)
{
	c->phase = PH_WHOAMI;
	if ((c->sync_req = req_start(c, "GET", API "/account/whoami", NULL, on_whoami, REQ_TIMEOUT, MAX_BODY)) == NULL)
		chain_failed(c, "whoami", 0, NULL, -1);
}

static void
on_login(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	const char *tok = json_string_value(json_object_get(body, "access_token"));
	const char *dev = json_string_value(json_object_get(body, "device_id"));

	c->sync_req = NULL;
	if (status != 200 || tok == NULL || strlen(tok) >= sizeof c->token || !matrix_text_id_ok(tok, 0)) {
		chain_failed(c, "login", status, r->errcode, r->retry_ms);
		return;
	}
	snprintf(c->token, sizeof c->token, "%s", tok);
	if (matrix_text_id_ok(dev, 0) && strlen(dev) < sizeof c->device) {
		snprintf(c->device, sizeof c->device, "%s", dev);
		/* logging in again with the same device keeps txn ids (scoped to
		 * the device) valid across restarts */
		st_set(c, "device_id", c->device);
	}
	c->fails = 0;
	whoami_start(c);
}

static void
login_start(struct matrix_client *c)
{
	json_t *j;
	char *text;
	const char *user = c->cfg.user;

	if (c->cfg.password[0] == '\0') {
		whoami_start(c);
		return;
	}
	c->phase = PH_LOGIN;
	c->token[0] = '\0';
	j = json_pack("{s:s,s:{s:s,s:s},s:s,s:s}", "type", "m.login.password",
	              "identifier", "type", "m.id.user", "user", user,
	              "password", c->cfg.password, "initial_device_display_name", "handfoot");
	if (j != NULL && c->device[0] != '\0')
		json_object_set_new(j, "device_id", json_string(c->device));
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (c->sync_req = req_start(c, "POST", API "/login", text, on_login, REQ_TIMEOUT, MAX_BODY)) == NULL)
		chain_failed(c, "login", 0, NULL, -1);
	if (text != NULL) {
		memset(text, 0, strlen(text)); /* it held the password */
		free(text);
	}
}

/* ---------------------------------------------------------------- invites, joins, leaving */

bool
matrix_client_allowed(const char *allow, const char *inviter)
{
	char buf[1024], *tok, *save = NULL;
	const char *server = strchr(inviter, ':');
	bool any = false;

	snprintf(buf, sizeof buf, "%s", allow != NULL ? allow : "");
	for (tok = strtok_r(buf, " ,\t", &save); tok != NULL; tok = strtok_r(NULL, " ,\t", &save)) {
		any = true;
		if (strcmp(tok, "*") == 0 || strcmp(tok, inviter) == 0)
			return true;
		if (tok[0] != '@' && server != NULL && strcmp(tok, server + 1) == 0)
			return true;
	}
	return !any;
}

static void
on_join(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	(void)body;
	list_del(c->joining, &c->njoining, r->arg);
	if (status == 200)
		logf_(c, LOG_LVL_INFO, "joined %s", r->arg);
	else
		logf_(c, LOG_LVL_WARNING, "cannot join %s (HTTP %ld%s%s)", r->arg, status,
		      r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
}

static void
on_leave(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	(void)body;
	logf_(c, status == 200 ? LOG_LVL_INFO : LOG_LVL_WARNING, "left %s (HTTP %ld)", r->arg, status);
}

static void
room_post(struct matrix_client *c, const char *room, const char *what, req_done_fn *done)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	struct req *r;

	if (matrix_text_urlenc(room, enc, sizeof enc) < 0)
		return;
	snprintf(path, sizeof path, API "/rooms/%s/%s", enc, what);
	if ((r = req_start(c, "POST", path, NULL, done, REQ_TIMEOUT, MAX_BODY)) != NULL)
		r->arg = strdup(room);
}

static void
invited(struct matrix_client *c, const struct matrix_item *it)
{
	if (list_has(c->joining, c->njoining, it->room))
		return;
	if (!c->cfg.auto_join || !matrix_client_allowed(c->cfg.allow, it->user)) {
		logf_(c, LOG_LVL_NOTICE, "declining the invite to %s from %s", it->room, it->user);
		room_post(c, it->room, "leave", on_leave);
		return;
	}
	/* a player who opens a direct chat with us gets their hands there */
	if (it->direct && direct_room(c, it->user) == NULL)
		direct_set(c, it->user, it->room, true);
	list_add(&c->joining, &c->njoining, it->room);
	logf_(c, LOG_LVL_INFO, "invited to %s by %s: joining", it->room, it->user);
	room_post(c, it->room, "join", on_join);
}

static void
removed(struct matrix_client *c, const struct matrix_item *it)
{
	char key[MATRIX_MAX_ID + 8];
	const char *du = direct_user(c, it->room);
	struct bot_event ev = { .type = BOT_EV_LEAVE, .room = it->room, .user_id = c->self };
	char nb[MATRIX_MAX_NAME + 1];

	logf_(c, LOG_LVL_NOTICE, "no longer in %s", it->room);
	if (du != NULL)
		direct_forget_room(c, it->room);
	else {
		ev.user_name = name_of(c, c->self, nb, sizeof nb);
		c->host.emit(c->host.ctx, &ev);
	}
	if (list_has(c->joined_enc, c->nenc, it->room)) {
		list_del(c->joined_enc, &c->nenc, it->room);
		snprintf(key, sizeof key, "enc/%s", it->room);
		st_del(c, key);
	}
}

static void
encrypted(struct matrix_client *c, const struct matrix_item *it)
{
	char key[MATRIX_MAX_ID + 8];

	if (list_has(c->joined_enc, c->nenc, it->room))
		return;
	list_add(&c->joined_enc, &c->nenc, it->room);
	snprintf(key, sizeof key, "enc/%s", it->room);
	st_set(c, key, "1");
	logf_(c, LOG_LVL_NOTICE, "%s is encrypted: not playing there", it->room);
	matrix_outbox_add(c->out, it->room, NULL, NULL,
	                  "This room is end-to-end encrypted, and I cannot read encrypted messages, "
	                  "so I cannot host a game here. Please invite me to an unencrypted room.",
	                  NULL, NULL, 0);
}

/* ---------------------------------------------------------------- sync */

static void
emit_item(struct matrix_client *c, const struct matrix_item *it)
{
	struct bot_event ev = { .room = it->room, .user_id = it->user, .ts_ms = it->ts };
	char nb[MATRIX_MAX_NAME + 1];
	bool direct = it->room != NULL && direct_user(c, it->room) != NULL;

	if (it->event_id != NULL) {
		if (seen_has(c, it->event_id))
			return;
		seen_remember(c, it->event_id);
	}
	if (it->room != NULL && list_has(c->joined_enc, c->nenc, it->room))
		return;
	switch (it->kind) {
	case MX_IT_MESSAGE:
		ev.type = BOT_EV_MESSAGE;
		ev.text = it->text;
		ev.notice = it->notice;
		ev.direct = direct;
		break;
	case MX_IT_JOIN:
		ev.type = BOT_EV_JOIN;
		break;
	case MX_IT_LEAVE:
		ev.type = BOT_EV_LEAVE;
		break;
	case MX_IT_RENAME:
		ev.type = BOT_EV_RENAME;
		ev.text = it->text;
		break;
	default:
		return;
	}
	/* joins and leaves of a direct room are not the game's business */
	if (direct && ev.type != BOT_EV_MESSAGE)
		return;
	ev.user_name = name_of(c, it->user, nb, sizeof nb);
	/* recorded before the bot acts: a crash in between loses a command
	 * rather than replaying it */
	if (it->event_id != NULL)
		seen_persist(c);
	c->host.emit(c->host.ctx, &ev);
	if (it->kind == MX_IT_RENAME)
		name_set(c, it->user, it->text);
}

static void
handle_sync(struct matrix_client *c, const struct matrix_sync *s)
{
	for (size_t i = 0; i < s->nitems && c->phase == PH_SYNC; i++) {
		const struct matrix_item *it = &s->items[i];

		switch (it->kind) {
		case MX_IT_NAME:
			name_set(c, it->user, it->name);
			break;
		case MX_IT_DIRECT:
			if (direct_room(c, it->user) == NULL || strcmp(direct_room(c, it->user), it->room) != 0)
				direct_set(c, it->user, it->room, true);
			break;
		case MX_IT_INVITE:
			invited(c, it);
			break;
		case MX_IT_REMOVED:
			removed(c, it);
			break;
		case MX_IT_ENCRYPTED:
			encrypted(c, it);
			break;
		default:
			emit_item(c, it);
			break;
		}
	}
}

static void
on_sync(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	struct matrix_sync s;
	const char *why = NULL;
	bool initial = c->since == NULL;

	(void)body;
	c->sync_req = NULL;
	if (status == 401 && c->cfg.password[0] != '\0') {
		chain_failed(c, "sync (token refused, logging in again)", status, r->errcode, 0);
		c->token[0] = '\0';
		c->phase = PH_LOGIN;
		return;
	}
	if (status != 200) {
		chain_failed(c, "sync", status, r->errcode, r->retry_ms);
		return;
	}
	if (matrix_sync_parse(r->in != NULL ? r->in : "", r->nin, c->self, initial, &s, &why) < 0) {
		chain_failed(c, why, status, NULL, -1);
		return;
	}
	handle_sync(c, &s);
	if (c->phase != PH_SYNC) {
		matrix_sync_free(&s);
		return;
	}
	/* every event of the batch has been handled (and its game actions
	 * committed): only now may the token move on */
	st_set(c, "next_batch", s.next_batch);
	free(c->since);
	c->since = s.next_batch;
	s.next_batch = NULL;
	matrix_sync_free(&s);
	c->fails = 0;
	if (!c->up || c->said_down) {
		struct bot_event ev = { .type = BOT_EV_UP };

		c->up = true;
		c->said_down = false;
		c->host.emit(c->host.ctx, &ev);
	}
	out_kick(c);
	if (c->phase == PH_SYNC)
		sync_start(c);
}

static void
sync_start(struct matrix_client *c)
{
	char path[4096], enc[3 * 1024 + 1], fenc[3 * 128 + 1];
	size_t o;
	long timeout = c->since != NULL ? c->cfg.sync_timeout_ms : 0;

	c->phase = PH_SYNC;
	o = (size_t)snprintf(path, sizeof path, API "/sync?timeout=%ld", timeout);
	if (c->filter[0] != '\0' && matrix_text_urlenc(c->filter, fenc, sizeof fenc) == 0)
		o += (size_t)snprintf(path + o, sizeof path - o, "&filter=%s", fenc);
	if (c->since != NULL && matrix_text_urlenc(c->since, enc, sizeof enc) == 0 && o < sizeof path)
		snprintf(path + o, sizeof path - o, "&since=%s", enc);
	c->sync_req = req_start(c, "GET", path, NULL, on_sync, timeout + 30000, MATRIX_SYNC_MAX_BYTES);
	if (c->sync_req == NULL)
		chain_failed(c, "sync", 0, NULL, -1);
}

/* ---------------------------------------------------------------- direct rooms */

static void direct_create(struct matrix_client *c, const char *user);

static void
put_m_direct(struct matrix_client *c)
{
	json_t *j = json_object();
	char path[1024], enc[3 * MATRIX_MAX_ID + 1], *text;

	for (size_t i = 0; i < c->ndirects; i++)
		json_object_set_new(j, c->directs[i].user, json_pack("[s]", c->directs[i].room));
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (text == NULL || matrix_text_urlenc(c->self, enc, sizeof enc) < 0) {
		free(text);
		return;
	}
	snprintf(path, sizeof path, API "/user/%s/account_data/m.direct", enc);
	req_start(c, "PUT", path, text, on_leave, REQ_TIMEOUT, MAX_BODY);
	free(text);
}

/* Tells the game room that a player's hand cannot reach them, and drops
 * what was queued for them. */
static void
direct_failed(struct matrix_client *c, const char *user, const char *why)
{
	struct matrix_out *m;
	bool told = false;

	while ((m = matrix_outbox_unresolved(c->out, user)) != NULL) {
		if (!told) {
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->context,
			                        .user_id = user, .text = why };
			char nb[MATRIX_MAX_NAME + 1];

			ev.user_name = name_of(c, user, nb, sizeof nb);
			told = true;
			c->host.emit(c->host.ctx, &ev);
		}
		matrix_outbox_done(c->out, m);
	}
}

static void
on_create(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	const char *room = json_string_value(json_object_get(body, "room_id"));

	list_del(c->creating, &c->ncreating, r->arg);
	if (status == 200 && matrix_text_id_ok(room, '!')) {
		logf_(c, LOG_LVL_INFO, "direct room %s for %s", room, r->arg);
		c->create_fails = 0;
		direct_set(c, r->arg, room, true);
		put_m_direct(c);
		matrix_outbox_resolve(c->out, r->arg, room);
		out_kick(c);
		return;
	}
	if (status == 429 || status == 0 || status >= 500) {
		/* out_kick tries again once the wait is over */
		c->create_after = loop_now(c->loop) +
		                  (r->retry_ms >= 0 ? r->retry_ms : matrix_outbox_backoff(++c->create_fails));
		arm_out_timer(c, c->create_after - loop_now(c->loop));
		return;
	}
	logf_(c, LOG_LVL_WARNING, "cannot open a direct room with %s (HTTP %ld%s%s)", r->arg, status,
	      r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
	direct_failed(c, r->arg, "I cannot open a direct chat with you");
}

static void
direct_create(struct matrix_client *c, const char *user)
{
	json_t *j;
	char *text;
	struct req *r;

	if (c->phase == PH_STOPPED || list_has(c->creating, c->ncreating, user))
		return;
	list_add(&c->creating, &c->ncreating, user);
	j = json_pack("{s:b,s:s,s:[s],s:s}", "is_direct", 1, "preset", "trusted_private_chat",
	              "invite", user, "name", "Hand and Foot: your hand");
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || (r = req_start(c, "POST", API "/createRoom", text, on_create, REQ_TIMEOUT, MAX_BODY)) == NULL) {
		list_del(c->creating, &c->ncreating, user);
		free(text);
		return;
	}
	free(text);
	r->arg = strdup(user);
}

/* ---------------------------------------------------------------- sending */

static int64_t
on_out_timer(struct loop *l, long long id, void *data)
{
	struct matrix_client *c = data;

	(void)l;
	(void)id;
	c->out_timer = 0;
	out_kick(c);
	return LOOP_NOMORE;
}

/* Wakes out_kick in ms, or sooner if it is already due sooner. */
static void
arm_out_timer(struct matrix_client *c, int64_t ms)
{
	int64_t when = loop_now(c->loop) + ms;

	if (c->out_timer != 0 && c->out_due <= when)
		return;
	if (c->out_timer != 0)
		loop_timer_del(c->loop, c->out_timer);
	c->out_due = when;
	c->out_timer = loop_timer_add(c->loop, ms, on_out_timer, c);
}

static void
on_sent(struct matrix_client *c, struct req *r, long status, json_t *body)
{
	struct matrix_out *m = r->msg;
	int64_t now = loop_now(c->loop);

	(void)body;
	if (status == 200) {
		matrix_outbox_done(c->out, m);
	} else if (status == 0 || status == 429 || status >= 500 || status == 401) {
		logf_(c, LOG_LVL_DEBUG, "send to %s: HTTP %ld; retrying", m->room, status);
		matrix_outbox_retry(c->out, m, now, status == 429 ? r->retry_ms : -1);
	} else if (m->user != NULL && m->tries < 3) {
		/* the player left their direct room: open a new one */
		logf_(c, LOG_LVL_NOTICE, "direct room %s of %s refused a message (HTTP %ld): opening another",
		      m->room, m->user, status);
		direct_forget_room(c, m->room);
		for (struct matrix_out *p = m; p != NULL; p = p->next)
			if (p->user != NULL && strcmp(p->user, m->user) == 0 && p->room != NULL &&
			    strcmp(p->room, m->room) == 0 && p != m) {
				free(p->room);
				p->room = NULL;
			}
		free(m->room);
		m->room = NULL;
		matrix_outbox_retry(c->out, m, now, 0);
		direct_create(c, m->user);
	} else {
		logf_(c, LOG_LVL_WARNING, "message to %s dropped (HTTP %ld%s%s)", m->room, status,
		      r->errcode != NULL ? ", " : "", r->errcode != NULL ? r->errcode : "");
		if (m->user != NULL) {
			struct bot_event ev = { .type = BOT_EV_SEND_FAILED, .room = m->context, .user_id = m->user,
			                        .text = "I cannot reach you in our direct chat" };
			char nb[MATRIX_MAX_NAME + 1];

			ev.user_name = name_of(c, m->user, nb, sizeof nb);
			c->host.emit(c->host.ctx, &ev);
		}
		matrix_outbox_done(c->out, m);
	}
	out_kick(c);
}

static void
out_kick(struct matrix_client *c)
{
	struct matrix_out *m;
	int64_t wait, now;

	if (!c->up || c->phase == PH_STOPPED)
		return;
	now = loop_now(c->loop);
	/* private messages waiting for a direct room (also those restored from
	 * the store, whose room was still being made) */
	for (m = matrix_outbox_unresolved(c->out, NULL); m != NULL; m = m->next) {
		const char *room;

		if (m->room != NULL || m->user == NULL || list_has(c->creating, c->ncreating, m->user))
			continue;
		if ((room = direct_room(c, m->user)) != NULL)
			matrix_outbox_resolve(c->out, m->user, room);
		else if (now >= c->create_after)
			direct_create(c, m->user);
	}
	while ((m = matrix_outbox_next(c->out, now, &wait)) != NULL) {
		char path[1200], enc[3 * MATRIX_MAX_ID + 1], tenc[200], *content;
		struct req *r = NULL;

		content = matrix_outbox_content(m);
		if (content != NULL && matrix_text_urlenc(m->room, enc, sizeof enc) == 0 &&
		    matrix_text_urlenc(m->txn, tenc, sizeof tenc) == 0) {
			snprintf(path, sizeof path, API "/rooms/%s/send/m.room.message/%s", enc, tenc);
			r = req_start(c, "PUT", path, content, on_sent, REQ_TIMEOUT, MAX_BODY);
		}
		free(content);
		if (r == NULL) {
			matrix_outbox_retry(c->out, m, now, -1);
			continue;
		}
		r->msg = m;
		m->in_flight = true;
	}
	if (wait >= 0)
		arm_out_timer(c, wait);
	if (matrix_outbox_unresolved(c->out, NULL) != NULL && now < c->create_after)
		arm_out_timer(c, c->create_after - now);
}

/* ---------------------------------------------------------------- the public face */

struct matrix_client *
matrix_client_new(const struct matrix_config *cfg, const struct matrix_host *host, struct loop *l, struct http *h)
{
	struct matrix_client *c = calloc(1, sizeof *c);

	if (c == NULL)
		return NULL;
	c->cfg = *cfg;
	c->host = *host;
	c->loop = l;
	c->http = h;
	snprintf(c->token, sizeof c->token, "%s", cfg->token);
	if (c->cfg.sync_timeout_ms <= 0)
		c->cfg.sync_timeout_ms = 30000;
	if ((c->out = matrix_outbox_new(&c->host.store)) == NULL) {
		free(c);
		return NULL;
	}
	return c;
}

int
matrix_client_start(struct matrix_client *c)
{
	char buf[1100];

	if (st_get(c, "next_batch", buf, sizeof buf) >= 0 && buf[0] != '\0')
		c->since = strdup(buf);
	if (st_get(c, "device_id", buf, sizeof buf) >= 0 && matrix_text_id_ok(buf, 0) && strlen(buf) < sizeof c->device)
		snprintf(c->device, sizeof c->device, "%s", buf);
	seen_load(c);
	c->host.store.each(c->host.store.ctx, "direct/", direct_load_one, c);
	c->host.store.each(c->host.store.ctx, "enc/", enc_load_one, c);
	logf_(c, LOG_LVL_INFO, "connecting to %s (%zu queued messages, %s)", c->cfg.homeserver,
	      matrix_outbox_count(c->out), c->since != NULL ? "resuming" : "first start: history skipped");
	login_start(c);
	return 0;
}

int
matrix_client_send(struct matrix_client *c, const struct adapter_msg *m)
{
	const char *room = m->room;
	char body[MATRIX_MAX_LINE + 1];

	if (m->text == NULL)
		return -1;
	/* the bot's text is ours, but it may quote a player: keep it valid UTF-8 */
	matrix_text_clean(m->text, strlen(m->text), body, sizeof body, MATRIX_MAX_LINE);
	if (m->kind == MSG_PRIVATE) {
		if (!matrix_text_id_ok(m->user_id, '@'))
			return -1;
		room = direct_room(c, m->user_id);
		if (matrix_outbox_add(c->out, room, m->user_id, m->room, body, m->html, m->mentions, m->nmentions) == NULL)
			return -1;
		if (room == NULL && c->up && !list_has(c->creating, c->ncreating, m->user_id))
			direct_create(c, m->user_id);
	} else {
		if (!matrix_text_id_ok(room, '!'))
			return -1;
		if (list_has(c->joined_enc, c->nenc, room))
			return 0;
		if (matrix_outbox_add(c->out, room, NULL, NULL, body, m->html, m->mentions, m->nmentions) == NULL)
			return -1;
	}
	out_kick(c);
	return 0;
}

void
matrix_client_stop(struct matrix_client *c)
{
	/* nothing to say goodbye with: queued messages stay in the store and
	 * go out, with the same txn ids, on the next start */
	c->phase = PH_STOPPED;
	while (c->reqs != NULL) {
		struct req *r = c->reqs;

		c->reqs = r->next;
		http_remove(c->http, r->easy);
		req_free(r);
	}
	c->sync_req = NULL;
	if (c->sync_timer != 0)
		loop_timer_del(c->loop, c->sync_timer);
	if (c->out_timer != 0)
		loop_timer_del(c->loop, c->out_timer);
	c->sync_timer = c->out_timer = 0;
}

void
matrix_client_free(struct matrix_client *c)
{
	if (c == NULL)
		return;
	matrix_client_stop(c);
	matrix_outbox_free(c->out);
	for (size_t i = 0; i < SEEN_MEM; i++)
		free(c->seen[i]);
	for (size_t i = 0; i < NAMES; i++) {
		free(c->names[i].user);
		free(c->names[i].name);
	}
	for (size_t i = 0; i < c->ndirects; i++) {
		free(c->directs[i].user);
		free(c->directs[i].room);
	}
	free(c->directs);
	list_free(c->creating, c->ncreating);
	list_free(c->joined_enc, c->nenc);
	list_free(c->joining, c->njoining);
	free(c->since);
	memset(c->token, 0, sizeof c->token);
	memset(c->cfg.password, 0, sizeof c->cfg.password);
	memset(c->cfg.token, 0, sizeof c->cfg.token);
	free(c);
}
