/* client.c: the Discord adapter's life: the Gateway link and its URL, READY, up and down, the requests it waits on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "answer.h"
#include "client.h"
#include "link.h"
#include "list.h"
#include "loop.h"
#include "xmalloc.h"
#include "utf8.h"

#define URL_RETRY_MIN_MS 2000
#define URL_RETRY_MAX_MS 60000

void
discord_client_log(struct discord_client *c, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	adapter_vlog(c->a, level, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ requests */

struct discord_req *
discord_client_req(struct discord_client *c, enum discord_req_kind kind)
{
	struct discord_req *r = xcalloc(1, sizeof *r);

	r->c = c;
	r->kind = kind;
	LIST_PUSH(c->reqs, r);
	return r;
}

void
discord_client_req_done(struct discord_req *r)
{
	struct discord_client *c = r->c;

	LIST_REMOVE(c->reqs, r);
	free(r);
}

int
discord_client_call(struct discord_client *c, const char *method, const char *path, json_t *body,
                    struct discord_req *req, discord_rest_done_fn *done)
{
	if (c->fatal) {
		/* the token was refused: nothing more goes (said once, in on_dead) */
		json_decref(body);
		discord_client_req_done(req);
		return -1;
	}
	if (discord_rest_call_by(c->rest, method, path, body, 0, req->deadline, done, req) < 0) {
		discord_client_log(c, LOG_LVL_WARNING, "%s %.60s: not queued (the queue is full)", method, path);
		discord_client_req_done(req);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ the Gateway URL and the shards */

static void fetch_url(void *ctx);
static void start_shards(struct discord_client *c, json_t *bot);
static void ask_gateway(struct discord_client *c, int shard);
static void reshard(struct discord_client *c);

static int64_t
on_shard_timer(struct loop *l, long long id, void *data)
{
	struct discord_shard *sh = data;
	json_t *bot = sh->held;

	(void)l;
	(void)id;
	sh->timer = 0;
	sh->held = NULL;
	if (bot != NULL) {
		/* its turn among the shards of its rate_limit_key */
		discord_link_set_bot(sh->link, bot);
		json_decref(bot);
	} else
		fetch_url(sh);
	return LOOP_NOMORE;
}

static void
on_url_timer(void *data)
{
	ask_gateway(data, -1);
}

/* gateway.mdx: shards of one rate_limit_key (shard_id % max_concurrency)
 * identify at most once per 5 s: the answer is held until the shard's turn. */
static void
give_bot(struct discord_shard *sh, json_t *body)
{
	struct discord_client *c = sh->c;
	json_int_t mc = json_integer_value(json_object_get(json_object_get(body, "session_start_limit"),
	                                                   "max_concurrency"));
	size_t key = (size_t)(sh->id % (mc >= 1 ? (int)mc : 1)) % DISCORD_SHARDS_MAX;
	int64_t now = loop_now(c->loop);

	if (c->key_next[key] > now && c->nshards > 1) {
		sh->held = json_incref(body);
		sh->timer = loop_timer_add(c->loop, c->key_next[key] - now, on_shard_timer, sh);
		c->key_next[key] += DISCORD_GW_START_WINDOW + 250;
		return;
	}
	c->key_next[key] = now + DISCORD_GW_START_WINDOW + 250;
	discord_link_set_bot(sh->link, body);
}

static void
on_gateway_bot(void *ctx, long status, json_t *body)
{
	struct discord_req *r = ctx;
	struct discord_client *c = r->c;
	const char *url = json_string_value(json_object_get(body, "url"));
	int shard = r->shard;
	struct discord_shard *sh = shard >= 0 && (size_t)shard < c->nshards ? &c->shards[shard] : NULL;
	int64_t wait;

	discord_client_req_done(r);
	if (sh != NULL)
		sh->fetching = false;
	else
		c->sharding = false;
	if (status == 200 && url != NULL && (strncmp(url, "wss://", 6) == 0 || strncmp(url, "ws://", 5) == 0)) {
		c->url_tries = 0;
		if (sh == NULL)
			start_shards(c, body);
		else
			/* the URL and session_start_limit, read before every Identify */
			give_bot(sh, body);
		return;
	}
	if (status == 401 || c->fatal)
		/* the REST queue is dead and on_dead said what to do */
		return;
	wait = (int64_t)URL_RETRY_MIN_MS << (c->url_tries < 5 ? c->url_tries : 5);
	if (wait > URL_RETRY_MAX_MS)
		wait = URL_RETRY_MAX_MS;
	c->url_tries++;
	discord_client_log(c, LOG_LVL_WARNING, "GET /gateway/bot: %s%ld; again in %lld s",
	                   status == 0 ? "no answer " : "HTTP ", status, (long long)(wait / 1000));
	if (sh != NULL)
		sh->timer = loop_timer_add(c->loop, wait, on_shard_timer, sh);
	else
		loop_once(c->loop, &c->url_timer, wait, on_url_timer, c);
}

static void
ask_gateway(struct discord_client *c, int shard)
{
	struct discord_req *r;

	/* developers/events/gateway.mdx: the URL comes from GET /gateway/bot, asked again when it fails */
	if (c->fatal)
		return;
	if (shard >= 0)
		c->shards[shard].fetching = true;
	else
		c->sharding = true;
	r = discord_client_req(c, DISCORD_REQ_GATEWAY);
	r->shard = shard;
	if (discord_client_call(c, "GET", "/gateway/bot", NULL, r, on_gateway_bot) < 0) {
		if (shard >= 0)
			c->shards[shard].fetching = false;
		else
			c->sharding = false;
	}
}

/* A shard's link needs GET /gateway/bot (before each Identify). */
static void
fetch_url(void *ctx)
{
	struct discord_shard *sh = ctx;

	if (sh->fetching || sh->timer != 0)
		return;
	ask_gateway(sh->c, (int)(sh - sh->c->shards));
}

/* ------------------------------------------------------------------ a dead token */

/* The token was refused (a 401 on a bot route, or the Gateway's 4004): it was
 * reset (by its owner, or by Discord past the Identify budget) or revoked.
 * Everything stops at once: each further request would be another 401 toward
 * Discord's invalid-request ban. Said once, with what to do. */
static void
token_dead(struct discord_client *c, const char *what)
{
	struct discord_req *r, *nr;

	if (c->fatal)
		return;
	c->fatal = true;
	discord_client_log(c, LOG_LVL_ERR, "Discord refused the bot token (%s): it was reset or revoked. Every "
	                   "request is stopped and the queued lines dropped. Put the new token (Developer Portal, "
	                   "Bot, Reset Token) in token_file, then systemctl reload handfoot (the games are kept)", what);
	discord_rest_kill(c->rest);
	discord_outbox_free(c);
	/* the requests dropped from the queue will never be answered */
	for (r = c->reqs; r != NULL; r = nr) {
		nr = r->next;
		if (discord_rest_waiting(c->rest, r) < 0)
			discord_client_req_done(r);
	}
	for (size_t i = 0; i < c->nshards; i++)
		discord_link_stop(c->shards[i].link);
}

static void
on_rest_dead(void *ctx, const char *method, const char *path)
{
	char what[200];

	snprintf(what, sizeof what, "HTTP 401 on %s %.120s", method, path);
	token_dead(ctx, what);
}

/* ------------------------------------------------------------------ up and down */

static void
emit_simple(struct discord_client *c, enum bot_event_type type)
{
	struct bot_event ev = { .type = type };

	adapter_emit(c->a, &ev);
}

static void
on_down_timer(void *data)
{
	struct discord_client *c = data;

	c->told_down = true;
	emit_simple(c, BOT_EV_DOWN);
}

static void
now_up(struct discord_client *c)
{
	loop_once_cancel(c->loop, &c->down_timer);
	/* up once, and again only after the bot was told it was down */
	if (!c->said_up || c->told_down)
		emit_simple(c, BOT_EV_UP);
	c->said_up = true;
	c->up = true;
	c->told_down = false;
}

/* READY: who the bot is, the application (for answers and commands). */
static void
on_ready(struct discord_client *c, json_t *d)
{
	json_t *user = json_object_get(d, "user");
	const char *id = json_string_value(json_object_get(user, "id"));
	const char *name = json_string_value(json_object_get(user, "username"));
	const char *app = json_string_value(json_object_get(json_object_get(d, "application"), "id"));
	bool first = !c->registered;

	if (id == NULL || !discord_text_snowflake(id) || app == NULL || !discord_text_snowflake(app)) {
		discord_client_log(c, LOG_LVL_ERR, "READY without a user or application id: ignored");
		return;
	}
	snprintf(c->self_id, sizeof c->self_id, "%s", id);
	if (name == NULL || utf8_clean(name, strlen(name), c->self_name, sizeof c->self_name,
	                                       DISCORD_MAX_NAME) == 0 || strpbrk(c->self_name, ":, ") != NULL)
		/* the name the bot's own lines address it by ("handfoot: draw"): one word */
		snprintf(c->self_name, sizeof c->self_name, "handfoot");
	adapter_set_self(c->a, c->self_name);
	if (c->ans == NULL || strcmp(c->app_id, app) != 0) {
		discord_answer_free(c->ans);
		snprintf(c->app_id, sizeof c->app_id, "%s", app);
		c->ans = discord_answer_new(app);
	}
	discord_client_log(c, LOG_LVL_INFO, "ready as %s (%s), application %s", c->self_name, c->self_id, c->app_id);
	if (first)
		discord_commands_register(c);
	now_up(c);
}

static void
on_link_event(void *ctx, enum discord_gw_act_kind kind, int code, const char *name, json_t *d)
{
	struct discord_shard *sh = ctx;
	struct discord_client *c = sh->c;

	switch (kind) {
	case DISCORD_GW_READY:
		on_ready(c, d);
		break;
	case DISCORD_GW_RESUMED:
		discord_client_log(c, LOG_LVL_INFO, "gateway session resumed");
		now_up(c);
		break;
	case DISCORD_GW_DOWN:
		c->up = false;
		if (c->down_timer == 0 && !c->told_down)
			loop_once(c->loop, &c->down_timer, DISCORD_DOWN_GRACE_MS, on_down_timer, c);
		break;
	case DISCORD_GW_DISPATCH:
		if (name != NULL)
			discord_events_dispatch(c, name, d);
		break;
	case DISCORD_GW_FATAL:
		if (code == 4004) {
			token_dead(c, "the Gateway closed with 4004, authentication failed");
			break;
		}
		if (code == 4011 && c->cfg.shards == 0 && !c->resharded) {
			reshard(c);
			break;
		}
		c->fatal = true;
		if (code == 4011)
			/* gateway.mdx, Sharding: more than 2,500 guilds a shard */
			discord_client_log(c, LOG_LVL_ERR, "gateway shard %d of %d closed with 4011 (sharding required: the "
			                   "bot is in more guilds than %d shard%s may hold); not reconnecting: set shards = "
			                   "auto (GET /gateway/bot's count) or more, and restart", sh->id, c->shard_count,
			                   c->shard_count, c->shard_count == 1 ? "" : "s");
		else
			discord_client_log(c, LOG_LVL_ERR, "gateway closed with %d: %s; not reconnecting (fix the cause and "
			                   "restart)", code, name != NULL ? name : "");
		break;
	default:
		break;
	}
}

static void
on_link_log(void *ctx, int level, const char *msg)
{
	struct discord_shard *sh = ctx;

	if (sh->c->shard_count > 1)
		discord_client_log(sh->c, level, "shard %d: %s", sh->id, msg);
	else
		discord_client_log(sh->c, level, "%s", msg);
}

/* 4011 with shards = auto: the bot outgrew the count it started with (more
 * guilds since): every shard's link goes, and GET /gateway/bot's count is
 * asked again, once (a second 4011 is fatal: the count did not help). */
static void
reshard(struct discord_client *c)
{
	discord_client_log(c, LOG_LVL_WARNING, "gateway closed with 4011 (sharding required): the bot is in more guilds "
	                   "than %d shard%s may hold; asking Discord's count again and starting over", c->shard_count,
	                   c->shard_count == 1 ? "" : "s");
	c->resharded = true;
	for (size_t i = 0; i < c->nshards; i++) {
		struct discord_shard *sh = &c->shards[i];

		discord_link_stop(sh->link);
		/* from inside its own callback too: the link frees itself once out of it */
		discord_link_free(sh->link);
		if (sh->timer != 0)
			loop_timer_del(c->loop, sh->timer);
		json_decref(sh->held);
		memset(sh, 0, sizeof *sh);
	}
	c->nshards = 0;
	if (c->url_timer == 0)
		loop_once(c->loop, &c->url_timer, DISCORD_GW_START_WINDOW, on_url_timer, c);
}

/* GET /gateway/bot's first answer: how many shards in all (shards = auto:
 * Discord's count), and a link for each this process runs (shard_ids). */
static void
start_shards(struct discord_client *c, json_t *bot)
{
	struct discord_gw_config gw = { .token = c->cfg.token, .intents = discord_gateway_intents(c->cfg.message_commands),
	                                .budgeted = true };
	struct discord_link_host host = { .event = on_link_event, .log = on_link_log, .fetch_url = fetch_url };
	const char *ca = c->cfg.ca_file[0] != '\0' ? c->cfg.ca_file : NULL;
	json_int_t n = json_integer_value(json_object_get(bot, "shards"));
	char err[256];

	if (c->nshards > 0 || c->stopped)
		return;
	c->shard_count = c->cfg.shards > 0 ? c->cfg.shards : n >= 1 && n <= DISCORD_SHARD_COUNT_MAX ? (int)n : 1;
	for (int id = 0; id < c->shard_count && c->nshards < DISCORD_SHARDS_MAX; id++) {
		bool mine = c->cfg.nshard_ids == 0;
		struct discord_shard *sh;

		for (size_t i = 0; i < c->cfg.nshard_ids; i++)
			mine |= c->cfg.shard_ids[i] == id;
		if (!mine)
			continue;
		sh = &c->shards[c->nshards];
		sh->c = c;
		sh->id = id;
		gw.shard_id = id;
		gw.shard_count = c->shard_count > 1 || c->cfg.shards > 0 ? c->shard_count : 0;
		host.ctx = sh;
		if ((sh->link = discord_link_new(c->loop, &gw, ca, &host, err, sizeof err)) == NULL) {
			discord_client_log(c, LOG_LVL_ERR, "gateway: %s", err);
			break;
		}
		c->nshards++;
	}
	for (size_t i = 0; i < c->cfg.nshard_ids; i++)
		if (c->cfg.shard_ids[i] >= c->shard_count)
			discord_client_log(c, LOG_LVL_WARNING, "shard_ids: %d is not below the %d shards: not run",
			                   c->cfg.shard_ids[i], c->shard_count);
	if (c->shard_count > 1 || c->cfg.shards > 0)
		discord_client_log(c, LOG_LVL_INFO, "%zu of %d shard%s run here", c->nshards, c->shard_count,
		                   c->shard_count == 1 ? "" : "s");
	for (size_t i = 0; i < c->nshards; i++) {
		/* the first Identify of each reads this answer (one request per start), in its key's turn */
		give_bot(&c->shards[i], bot);
		discord_link_start(c->shards[i].link);
	}
}

/* ------------------------------------------------------------------ life */

struct discord_client *
discord_client_new(struct adapter *a, const struct discord_config *cfg)
{
	struct discord_client *c = xcalloc(1, sizeof *c);

	c->a = a;
	c->loop = a->loop;
	c->cfg = *cfg;
	c->recent = xcalloc(1, sizeof *c->recent);
	c->again = xcalloc(1, sizeof *c->again);
	c->batch_tail = &c->batch;
	c->answer_due = -1;
	/* message.mdx: enforce_nonce is per author, across channels: the processes
	 * of one bot (its shards) must not share nonces, so each starts at random */
	if (getrandom(&c->nonce, sizeof c->nonce, 0) != (ssize_t)sizeof c->nonce)
		c->nonce = (uint64_t)loop_now(a->loop) * 1000;
	c->nonce &= (1ull << 62) - 1;
	/* above any number a button from before a restart can carry: the clock in
	 * centiseconds, which no run's turn lines (a few a second at most) overtake */
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->prompt_seq = (unsigned)((uint64_t)ts.tv_sec * 100 + (uint64_t)ts.tv_nsec / 10000000);
	}
	return c;
}

int
discord_client_start(struct discord_client *c)
{
	struct discord_rest_io io;
	const char *ca = c->cfg.ca_file[0] != '\0' ? c->cfg.ca_file : NULL;

	if (c->rest != NULL)
		return 0;
	if ((c->io = discord_restio_new(c->a->http, ca)) == NULL) {
		discord_client_log(c, LOG_LVL_ERR, "ca_file is too long");
		return -1;
	}
	discord_restio_ops(c->io, &io);
	if ((c->rest = discord_rest_new(c->loop, c->cfg.api_url, c->cfg.token, &io)) == NULL) {
		discord_client_log(c, LOG_LVL_ERR, "api_url or the token is too long");
		return -1;
	}
	discord_rest_on_dead(c->rest, on_rest_dead, c);
	/* the shards' links are made once GET /gateway/bot has said how many (the token is kept till then) */
	ask_gateway(c, -1);
	return 0;
}

void
discord_client_stop(struct discord_client *c)
{
	for (size_t i = 0; i < c->nshards; i++)
		/* 1000: the session ends and the bot shows offline at once */
		discord_link_stop(c->shards[i].link);
	c->stopped = true;
}

void
discord_client_free(struct discord_client *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->nshards; i++) {
		discord_link_free(c->shards[i].link);
		if (c->shards[i].timer != 0)
			loop_timer_del(c->loop, c->shards[i].timer);
		json_decref(c->shards[i].held);
	}
	loop_once_cancel(c->loop, &c->down_timer);
	loop_once_cancel(c->loop, &c->url_timer);
	discord_outbox_free(c);
	/* no callback follows this: the requests' contexts are freed below */
	discord_rest_free(c->rest);
	discord_restio_free(c->io);
	while (c->reqs != NULL)
		discord_client_req_done(c->reqs);
	discord_answer_free(c->ans);
	free(c->recent);
	discord_again_free(c->again);
	free(c->again);
	discord_config_wipe(&c->cfg);
	free(c);
}
