/* bot.c: the bot: owns the loop's users (adapters, sessions, store), dispatches events, queues and flushes replies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "bot.h"
#include "http.h"
#include "loop.h"

/* ------------------------------------------------------------------ seeds */

static uint64_t
bot_seed_random(void *ctx)
{
	uint64_t v = 0;

	(void)ctx;
	if (getrandom(&v, sizeof v, 0) != sizeof v)
		v = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
	return v;
}

uint64_t
bot_new_seed(struct bot *b)
{
	return b->seed_fn(b->seed_ctx);
}

/* ------------------------------------------------------------------ replies */

void
bot_queue(struct bot *b, struct adapter *ad, enum adapter_msg_kind kind, const char *room,
          const char *user_id, const char *styled, const char *mention,
          enum adapter_private private_as)
{
	struct reply *r;

	if (b->nreplies == b->capreplies) {
		b->capreplies = b->capreplies ? b->capreplies * 2 : 64;
		b->replies = xreallocarray(b->replies, b->capreplies, sizeof *b->replies);
	}
	r = &b->replies[b->nreplies++];
	memset(r, 0, sizeof *r);
	r->ad = ad;
	r->kind = kind;
	r->room = xstrdup(room);
	r->user_id = xstrdup(user_id);
	r->styled = xstrdup(styled);
	r->mention = xstrdup(mention);
	r->private_as = private_as;
	/* a reply to the event being handled says so, on the adapter it came from */
	r->reply_to = ad == b->event_ad ? b->event_ref : 0;
}

void
bot_prompt(struct bot *b, struct session *s, const char *styled, const char *user_id,
           const char *const *actions, size_t nactions)
{
	struct reply *r;

	bot_queue(b, s->ad, MSG_ROOM, s->room, NULL, styled, user_id, PRIVATE_DEFAULT);
	r = &b->replies[b->nreplies - 1];
	r->prompt = true;
	r->actions = actions;
	r->nactions = nactions;
}

void
bot_say_room(struct bot *b, struct session *s, const char *mention, const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	bot_queue(b, s->ad, MSG_ROOM, s->room, NULL, line, mention, PRIVATE_DEFAULT);
}

void
bot_say_seat(struct bot *b, struct session *s, int seat, const char *styled)
{
	struct seat *st = &s->seats[seat];

	if (st->ai >= 0)
		return;
	bot_queue(b, s->ad, MSG_PRIVATE, s->room, st->user_id, styled, NULL, st->private_as);
}

void
bot_send_hand(struct bot *b, struct session *s, int seat)
{
	if (s->g == NULL || s->seats[seat].ai >= 0)
		return;
	hf_game_view(s->g, seat, b->view);
	rbuf_reset(&b->scratch);
	render_hand(&b->scratch, b->view);
	bot_say_seat(b, s, seat, b->scratch.s);
}

void
bot_flush(struct bot *b)
{
	struct adapter_msg m;
	const char *mentions[1];
	size_t i;

	/* Sending may queue more (an adapter reporting a failure): loop by index. */
	for (i = 0; i < b->nreplies; i++) {
		struct reply *r = &b->replies[i];

		memset(&m, 0, sizeof m);
		m.kind = r->kind;
		m.room = r->room;
		m.user_id = r->user_id;
		m.styled = r->styled;
		m.prefix = bot_prefix(b, r->ad);
		m.reply_to = r->reply_to;
		m.private_as = r->private_as;
		if (r->mention != NULL) {
			mentions[0] = r->mention;
			m.mentions = mentions;
			m.nmentions = 1;
		}
		if (r->prompt) {
			m.prompt_user = r->mention;
			m.actions = r->actions;
			m.nactions = r->nactions;
		}
		if (r->ad->ops->send(r->ad, &m) < 0)
			log_msg(LOG_LVL_WARNING, "%s: a message could not be queued", r->ad->id);
		r = &b->replies[i];
		free(r->room);
		free(r->user_id);
		free(r->styled);
		free(r->mention);
	}
	b->nreplies = 0;
}

/* The WAL is copied into the database between commands, after the replies
 * are out, so that no player's command waits for a checkpoint's fsyncs:
 * here once it holds this many pages (SQLite's own automatic threshold),
 * and from a timer when the bot is idle. */
#define BOT_CHECKPOINT_FRAMES 1000
#define BOT_CHECKPOINT_MS     1000

static void
bot_before_sleep(struct loop *l, void *data)
{
	struct bot *b = data;

	(void)l;
	bot_flush(b);
	if (b->store != NULL)
		store_checkpoint(b->store, BOT_CHECKPOINT_FRAMES);
}

/* ------------------------------------------------------------------ sessions */

void
bot_session_end(struct bot *b, struct session *s)
{
	flow_cancel(b, s);
	session_remove(&b->sessions, s);
}

/* ------------------------------------------------------------------ restore */

struct restore {
	struct bot *b;
	struct session **byid;   /* parallel to ids, sorted by id (games come in id order) */
	int64_t *ids;
	size_t n, cap;
	size_t games, actions, broken;
};

static struct adapter *
bot_adapter_by_id(struct bot *b, const char *id)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++)
		if (strcmp(b->adapters[i]->id, id) == 0)
			return b->adapters[i];
	return NULL;
}

static struct session *
restore_find(struct restore *r, int64_t id)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->ids[lo] == id ? r->byid[lo] : NULL;
}

static void
restore_game(void *ctx, const struct store_game *g)
{
	struct restore *r = ctx;
	struct adapter *ad = bot_adapter_by_id(r->b, g->adapter);
	struct session *s;
	char why[HF_ERRLEN];

	if (ad == NULL) {
		log_msg(LOG_LVL_NOTICE, "game %lld in %s %s waits: adapter %s is not configured",
		        (long long)g->id, g->adapter, g->room, g->adapter);
		return;
	}
	if (session_find(&r->b->sessions, ad, g->room) != NULL)
		return;   /* live already: a reload restores only what waited for an added adapter */
	if ((s = session_add(&r->b->sessions, ad, g->room)) == NULL) {
		log_msg(LOG_LVL_ERR, "game %lld in %s %s cannot be restored", (long long)g->id, g->adapter, g->room);
		return;
	}
	s->id = g->id;
	s->state = strcmp(g->state, "playing") == 0 ? SESS_PLAYING : SESS_OPEN;
	if (hf_rules_parse(&s->rules, g->rules, why, sizeof why) != HF_OK) {
		log_msg(LOG_LVL_ERR, "game %lld: rules \"%s\": %s", (long long)g->id, g->rules, why);
		session_remove(&r->b->sessions, s);
		return;
	}
	snprintf(s->owner, sizeof s->owner, "%s", g->owner);
	s->nseats = 0;
	s->nsides = g->nsides;
	s->seed = g->seed;
	s->ai_rng = g->seed ^ 0x5eedu;
	s->created = loop_now(r->b->loop);
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		void *a = realloc(r->ids, cap * sizeof *r->ids), *bb;
		if (a == NULL)
			abort();
		r->ids = a;
		if ((bb = realloc(r->byid, cap * sizeof *r->byid)) == NULL)
			abort();
		r->byid = bb;
		r->cap = cap;
	}
	r->ids[r->n] = g->id;
	r->byid[r->n++] = s;
	r->games++;
}

static void
restore_seat(void *ctx, int64_t game, const struct store_seat *st)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);
	struct seat *seat;
	char buf[16];

	if (s == NULL || st->seat < 0 || st->seat >= HF_MAX_SEATS)
		return;
	seat = &s->seats[st->seat];
	snprintf(seat->user_id, sizeof seat->user_id, "%s", st->user_id);
	snprintf(seat->name, sizeof seat->name, "%s", st->name);
	seat->ai = (int8_t)st->ai;
	seat->team = (int8_t)st->team;
	if (st->ai < 0)
		session_player_add(&r->b->sessions, s, st->user_id);
	if (st->ai < 0 && store_pref_get(r->b->store, s->ad->id, st->user_id, "notice", buf, sizeof buf) == 0)
		seat->private_as = strcmp(buf, "1") == 0 ? PRIVATE_NOTICE : PRIVATE_PRIVMSG;
	if (st->seat + 1 > s->nseats)
		s->nseats = st->seat + 1;
}

static bool
restore_deal(struct restore *r, struct session *s)
{
	char why[HF_ERRLEN];

	if (s->g != NULL || s->state != SESS_PLAYING)
		return s->g != NULL;
	if (hf_game_new(&s->g, &s->rules, s->nseats, s->nsides, s->seed, why, sizeof why) != HF_OK) {
		log_msg(LOG_LVL_ERR, "game %lld: cannot deal again: %s", (long long)s->id, why);
		s->state = SESS_OVER;
		r->broken++;
		return false;
	}
	return true;
}

static void
restore_action(void *ctx, int64_t game, uint32_t seq, int seat, const char *text)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);
	struct hf_action a;
	char why[HF_ERRLEN];

	if (s == NULL || s->state != SESS_PLAYING || !restore_deal(r, s))
		return;
	if (seq != s->nactions + 1) {
		log_msg(LOG_LVL_ERR, "game %lld: action %u missing", (long long)game, s->nactions + 1);
		s->state = SESS_OVER;
		r->broken++;
		return;
	}
	if (hf_action_parse(&a, text, why, sizeof why) != HF_OK ||
	    hf_apply(s->g, seat, &a, why, sizeof why) != HF_OK) {
		log_msg(LOG_LVL_ERR, "game %lld: action %u \"%s\" does not replay: %s", (long long)game, seq, text, why);
		s->state = SESS_OVER;
		r->broken++;
		return;
	}
	s->nactions = seq;
	r->actions++;
}

int
bot_restore(struct bot *b)
{
	struct restore r;
	struct store_load_cb cb = { 0 };
	struct session *s, *next;
	size_t i;

	memset(&r, 0, sizeof r);
	r.b = b;
	cb.ctx = &r;
	cb.game = restore_game;
	cb.seat = restore_seat;
	cb.action = restore_action;
	store_load(b->store, &cb);
	for (i = 0; i < r.n; i++) {
		s = r.byid[i];
		if (s->state == SESS_PLAYING)
			restore_deal(&r, s);
	}
	free(r.ids);
	free(r.byid);
	for (s = b->sessions.all; s != NULL; s = next) {
		next = s->all_next;
		if (s->state == SESS_OVER) {
			/* Left in the database as it is, for a person to look at. */
			session_remove(&b->sessions, s);
			continue;
		}
		flow_schedule(b, s);
	}
	if (r.games > 0)
		log_msg(LOG_LVL_INFO, "restored %zu games (%zu actions replayed, %zu broken)", r.games - r.broken,
		        r.actions, r.broken);
	return 0;
}

/* ------------------------------------------------------------------ adapters */

struct adapter *
bot_adapter_add(struct bot *b, const struct adapter_ops *ops, const char *name, struct adapter_cfg *cfg,
                char *err, size_t errlen)
{
	struct adapter *a, **na;
	const struct cfg_key *k;
	const char *prefix;

	if ((a = calloc(1, sizeof *a)) == NULL ||
	    (na = realloc(b->adapters, (b->nadapters + 1) * sizeof *na)) == NULL) {
		free(a);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->adapters = na;
	{
		char (*np)[16] = realloc(b->prefixes, (b->nadapters + 1) * sizeof *np);
		if (np == NULL) {
			free(a);
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		b->prefixes = np;
		snprintf(np[b->nadapters], sizeof np[0], "%s", b->cfg->prefix);
	}
	{
		struct address *ns = realloc(b->selves, (b->nadapters + 1) * sizeof *ns);
		if (ns == NULL) {
			free(a);
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		b->selves = ns;
		memset(&ns[b->nadapters], 0, sizeof *ns);
	}
	a->ops = ops;
	if (strcmp(name, ops->type) == 0)
		snprintf(a->id, sizeof a->id, "%s", ops->type);
	else
		snprintf(a->id, sizeof a->id, "%s/%s", ops->type, name);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->loop = b->loop;
	a->http = b->http;
	a->host = b;
	if (cfg != NULL) {
		/* The bot's own per-adapter key: the command prefix. */
		prefix = adapter_cfg_get(cfg, "prefix", NULL);
		if (prefix != NULL && (strlen(prefix) >= sizeof b->cfg->prefix || strchr(prefix, ' '))) {
			adapter_cfg_error(cfg, "prefix", err, errlen, "at most %zu characters, no spaces",
			                  sizeof b->cfg->prefix - 1);
			free(a);
			return NULL;
		}
		if (prefix != NULL)
			snprintf(b->prefixes[b->nadapters], sizeof b->prefixes[0], "%s", prefix);
	}
	if (ops->init != NULL && ops->init(a, cfg, err, errlen) < 0) {
		free(a);
		return NULL;
	}
	if (cfg != NULL && (k = config_unused(cfg)) != NULL) {
		adapter_cfg_error(cfg, k->key, err, errlen, "unknown key");
		if (ops->free != NULL)
			ops->free(a);
		free(a);
		return NULL;
	}
	b->adapters[b->nadapters++] = a;
	return a;
}

int
bot_adapters_init(struct bot *b, char *err, size_t errlen)
{
	size_t i;
	struct adapter_cfg *s;
	const struct adapter_ops *ops;

	for (i = 0; i < b->cfg->nsections; i++) {
		s = b->cfg->sections[i];
		if ((ops = bot_ops_find(b, s->type)) == NULL) {
			snprintf(err, errlen, "%s:%d: [%s%s%s]: unknown adapter type \"%s\"", s->file, s->line, s->type,
			         strcmp(s->type, s->name) ? " " : "", strcmp(s->type, s->name) ? s->name : "", s->type);
			return -1;
		}
		if (bot_adapter_add(b, ops, s->name, s, err, errlen) == NULL)
			return -1;
	}
	return 0;
}

int
bot_adapters_start(struct bot *b)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < b->nadapters; i++)
		if (b->adapters[i]->ops->start != NULL && b->adapters[i]->ops->start(b->adapters[i]) < 0) {
			log_msg(LOG_LVL_ERR, "%s: cannot start", b->adapters[i]->id);
			rc = -1;
		}
	return rc;
}

void
bot_adapters_stop(struct bot *b, const char *quit)
{
	size_t i;

	bot_flush(b);
	for (i = 0; i < b->nadapters; i++)
		if (b->adapters[i]->ops->stop != NULL)
			b->adapters[i]->ops->stop(b->adapters[i], quit);
}

/* ------------------------------------------------------------------ life */

/* The command table as adapters see it (adapter_commands): one source, read once. */
static void
bot_commands_build(struct bot *b)
{
	const struct cmd_entry *const *t = cmd_table(&b->ncommands);
	size_t i;

	b->commands = xcalloc(b->ncommands, sizeof *b->commands);
	for (i = 0; i < b->ncommands; i++) {
		struct adapter_command *ac = &b->commands[i];

		ac->name = t[i]->name;
		ac->alias = t[i]->alias;
		ac->summary = t[i]->help;
		ac->usage = t[i]->usage;
		ac->arg = t[i]->arg;
		ac->arg_name = t[i]->arg == ADAPTER_ARG_NONE ? NULL : t[i]->arg_name;
		ac->arg_required = t[i]->min_args > 0;
	}
}

const struct adapter_ops *
bot_ops_find(const struct bot *b, const char *type)
{
	size_t i;

	for (i = 0; i < b->nops; i++)
		if (strcmp(b->ops[i]->type, type) == 0)
			return b->ops[i];
	return NULL;
}

struct bot *
bot_new(struct loop *l, struct bot_config *cfg, const struct adapter_ops *const *ops, size_t nops, char *err,
        size_t errlen)
{
	struct bot *b;

	if ((b = calloc(1, sizeof *b)) == NULL || (b->flood = calloc(1, sizeof *b->flood)) == NULL ||
	    (b->view = calloc(1, sizeof *b->view)) == NULL) {
		if (b != NULL) {
			free(b->flood);
			free(b);
		}
		config_free(cfg);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->loop = l;
	b->cfg = cfg;
	b->ops = ops;
	b->nops = nops;
	bot_commands_build(b);
	b->seed_fn = bot_seed_random;
	sessions_init(&b->sessions);
	b->http = http_new(l);
	loop_before_sleep(l, bot_before_sleep, b);
	return b;
}

static int64_t
bot_checkpoint(struct loop *l, long long id, void *data)
{
	struct bot *b = data;

	(void)l;
	(void)id;
	store_checkpoint(b->store, 0);
	return BOT_CHECKPOINT_MS;
}

int
bot_open_store(struct bot *b, char *err, size_t errlen)
{
	if ((b->store = store_open(b->cfg->database, err, errlen)) == NULL)
		return -1;
	b->checkpoint_timer = loop_timer_add(b->loop, BOT_CHECKPOINT_MS, bot_checkpoint, b);
	return bot_restore(b);
}

static void
bot_session_drop(struct session *s, void *ctx)
{
	flow_cancel(ctx, s);
}

void
bot_free(struct bot *b)
{
	size_t i;

	if (b == NULL)
		return;
	bot_flush(b);
	sessions_free(&b->sessions, bot_session_drop, b);
	for (i = 0; i < b->nadapters; i++) {
		if (b->adapters[i]->ops->free != NULL)
			b->adapters[i]->ops->free(b->adapters[i]);
		free(b->adapters[i]);
	}
	free(b->adapters);
	free(b->prefixes);
	free(b->selves);
	free(b->replies);
	free(b->commands);
	if (b->http != NULL)
		http_free(b->http);
	if (b->checkpoint_timer != 0)
		loop_timer_del(b->loop, b->checkpoint_timer);
	store_close(b->store);
	hf_game_free(b->backup);
	rbuf_free(&b->scratch);
	rbuf_free(&b->out);
	config_free(b->cfg);
	free(b->view);
	free(b->flood);
	free(b);
}

/* ------------------------------------------------------------------ events */

const char *
bot_prefix(struct bot *b, const struct adapter *a)
{
	size_t i;

	for (i = 0; i < b->nadapters; i++)
		if (b->adapters[i] == a)
			return b->prefixes[i];
	return b->cfg->prefix;
}

/* The command in a line addressed to the bot by name on a, or NULL.  With
 * no colon or comma after the name ("handfoot is fun") the line is chatter
 * unless its first word is a command: a busy channel gets no hints for it. */
static const char *
bot_addressed(struct bot *b, const struct adapter *a, const char *text)
{
	char word[32], why[160];
	const char *rest;
	bool loose;
	size_t i, n;

	for (i = 0; i < b->nadapters; i++) {
		if (b->adapters[i] != a)
			continue;
		if ((rest = address_strip(&b->selves[i], text, &loose)) == NULL || !loose)
			return rest;
		n = strcspn(rest, " \t");
		if (*rest == '!')
			return rest;
		snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), rest);
		return cmd_find(word, why, sizeof why) != NULL ? rest : NULL;
	}
	return NULL;
}

/* Copies an untrusted name, cleaned and cut to fit. */
static void
bot_clean_copy(char *dst, size_t dstlen, const char *src)
{
	char tmp[BOT_MAX_INPUT + 1];
	size_t n;

	snprintf(tmp, sizeof tmp, "%s", src ? src : "");
	n = text_clean(tmp);
	n = utf8_cut(tmp, n, dstlen - 1);
	memcpy(dst, tmp, n);
	dst[n] = '\0';
}

static void
bot_rename(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct session *s;
	char name[64];
	int i;

	if (ev->user_id == NULL || ev->text == NULL)
		return;
	bot_clean_copy(name, sizeof name, ev->text);
	if (name[0] == '\0')
		return;
	for (s = b->sessions.all; s != NULL; s = s->all_next) {
		if (s->ad != a)
			continue;
		for (i = 0; i < s->nseats; i++)
			if (s->seats[i].ai < 0 && strcmp(s->seats[i].user_id, ev->user_id) == 0)
				snprintf(s->seats[i].name, sizeof s->seats[i].name, "%s", name);
	}
}

static void
bot_message(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	char line[BOT_MAX_INPUT + 1], name[64];
	const char *text = ev->text, *prefix = bot_prefix(b, a), *rest;
	struct cmd_ctx c;
	struct session *s;
	size_t plen = strlen(prefix), n;

	/* Only commands get an answer: a NOTICE never does, chatter is not ours. */
	if (ev->notice || text == NULL || ev->user_id == NULL || ev->user_id[0] == '\0' ||
	    strlen(ev->user_id) >= sizeof s->seats[0].user_id || !utf8_valid(ev->user_id, strlen(ev->user_id)))
		return;
	if (plen > 0 && strncmp(text, prefix, plen) == 0)
		text += plen;
	else if (plen == 0 && text[0] == '!')
		text++;
	else if ((rest = bot_addressed(b, a, text)) != NULL)
		/* "HandFoot: draw", or "HandFoot: !draw" */
		text = plen > 0 && strncmp(rest, prefix, plen) == 0 ? rest + plen : rest;
	else if (plen > 0 && !ev->direct)
		return;
	if (!ev->direct && ev->room == NULL)
		return;

	memset(&c, 0, sizeof c);
	c.bot = b;
	c.ad = a;
	c.user_id = ev->user_id;
	c.direct = ev->direct;
	c.seat = -1;
	bot_clean_copy(name, sizeof name, ev->user_name ? ev->user_name : ev->user_id);
	c.user_name = name[0] ? name : "player";

	switch (flood_check(b->flood, a->id, ev->direct ? NULL : ev->room, ev->user_id, loop_now(b->loop),
	                    b->cfg->flood_burst, b->cfg->flood_refill_ms)) {
	case FLOOD_OK:
		break;
	case FLOOD_WARN:
		c.room = ev->direct ? NULL : ev->room;
		reply(&c, "%s: slow down, please: commands are ignored for a moment.", c.user_name);
		return;
	case FLOOD_DROP:
		return;
	}

	if (!ev->direct) {
		c.room = ev->room;
		if (strlen(ev->room) >= sizeof s->room || !utf8_valid(ev->room, strlen(ev->room)))
			return;
		c.s = session_find(&b->sessions, a, ev->room);
	} else {
		/* The player index, not a scan: a direct message costs the same with 10,000 tables. */
		struct session *mine[8];
		size_t k, count = session_player_tables(&b->sessions, a, ev->user_id, mine, 8);
		if (count == 1) {
			c.s = mine[0];
			c.room = mine[0]->room;
		} else if (count > 1) {
			line[0] = '\0';
			for (k = 0, n = 0; k < count && k < 8; k++)
				if (n + strlen(mine[k]->room) + 3 < 200)
					n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", n ? ", " : "", mine[k]->room);
			c.many = line[0] ? strdup(line) : NULL;
		}
	}
	if (c.s != NULL)
		c.seat = session_seat_of(c.s, ev->user_id);

	if (strlen(text) > BOT_MAX_INPUT) {
		reply(&c, "That line is too long (%d bytes at most).", BOT_MAX_INPUT);
		free(c.many);
		return;
	}
	snprintf(line, sizeof line, "%s", text);
	text_clean(line);
	/* Someone the computer was standing in for is back. */
	if (c.s != NULL && c.seat >= 0 && c.s->seats[c.seat].away)
		flow_back(b, c.s, c.seat);
	cmd_run(&c, line);
	free(c.many);
}

void
bot_event(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct adapter *was_ad = b->event_ad;
	uint64_t was_ref = b->event_ref;

	b->event_ad = a;
	b->event_ref = ev->ref;
	switch (ev->type) {
	case BOT_EV_MESSAGE:
		bot_message(b, a, ev);
		break;
	case BOT_EV_RENAME:
		bot_rename(b, a, ev);
		break;
	case BOT_EV_UP:
		log_msg(LOG_LVL_INFO, "%s: up", a->id);
		break;
	case BOT_EV_DOWN:
		log_msg(LOG_LVL_WARNING, "%s: down, reconnecting", a->id);
		break;
	case BOT_EV_SEND_FAILED:
		log_msg(LOG_LVL_NOTICE, "%s: a private message to %s failed: %s", a->id,
		        ev->user_id ? ev->user_id : "?", ev->text ? ev->text : "?");
		break;
	case BOT_EV_JOIN:
	case BOT_EV_LEAVE:
		break;
	}
	b->event_ad = was_ad;
	b->event_ref = was_ref;
}
