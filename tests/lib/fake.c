/* fake.c: the fake adapter and clock for the bot's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake.h"
#include "loop.h"

/* Lines cut as the IRC adapter cuts them, about. */
#define FAKE_MAX_LINE 400

static int64_t
fake_clock(void *ctx)
{
	struct fake *f = ctx;

	f->now += f->clock_step;
	return f->now;
}

static int64_t
fake_wall_clock(void *ctx)
{
	struct fake *f = ctx;

	return f->now + f->wall_offset;
}

int64_t
fake_wall(struct fake *f)
{
	return fake_wall_clock(f);
}

static uint64_t
fake_seed(void *ctx)
{
	return ((struct fake *)ctx)->seed++;
}

/* The paced lane of room (the last one is shared by any room beyond). */
static struct fake_lane *
fake_lane(struct fake *f, const char *room)
{
	size_t i, n = sizeof f->lanes / sizeof f->lanes[0];

	for (i = 0; i < n - 1; i++) {
		if (f->lanes[i].room[0] == '\0') {
			snprintf(f->lanes[i].room, sizeof f->lanes[i].room, "%s", room);
			f->lanes[i].drained_at = f->now;
		}
		if (strcmp(f->lanes[i].room, room) == 0)
			return &f->lanes[i];
	}
	return &f->lanes[n - 1];
}

/* Lets a paced lane lose the lines whose time to go has come. */
static void
fake_drain(struct fake *f, struct fake_lane *l)
{
	int64_t n;

	if (f->drain_ms <= 0)
		return;
	n = (f->now - l->drained_at) / f->drain_ms;
	if (n <= 0)
		return;
	l->drained_at += n * f->drain_ms;
	l->queued = (size_t)n >= l->queued ? 0 : l->queued - (size_t)n;
}

static size_t
fake_pending(struct adapter *a, const char *room, enum adapter_pending what)
{
	struct fake *f = a->priv;
	struct fake_lane *l = fake_lane(f, room);

	(void)what;     /* only room lines are paced here: both counts are the same */
	fake_drain(f, l);
	return l->queued;
}

struct fake_out {
	struct fake *f;
	const struct adapter_msg *m;
	int rc;
};

/* The plain encoding, as the console's and IRC's without colours. */
static void
fake_encode(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct fake_out *o = ctx;

	style_plain(out, m, len, o->m->prefix);
}

/* One line of a message, as a line-based service (IRC) would carry it. */
static void
fake_line(void *ctx, const char *piece, size_t len, const char *text, size_t textlen)
{
	struct fake_out *o = ctx;
	struct fake *f = o->f;
	const struct adapter_msg *m = o->m;
	struct fake_msg *x;
	size_t unsent = 0;

	if (f->queue_cap > 0 && m->room != NULL) {
		struct fake_lane *l = fake_lane(f, m->room);

		fake_drain(f, l);
		unsent = l->queued;
	}
	if (f->queue_cap > 0 && m->kind == MSG_ROOM && m->supersede == NULL) {
		struct fake_lane *l = fake_lane(f, m->room);

		fake_drain(f, l);
		if (l->queued == 0)
			l->drained_at = f->now;    /* an idle queue sends at once */
		if (l->queued >= f->queue_cap) {
			f->dropped++;
			o->rc = -1;
			return;
		}
		l->queued++;
	}
	if (f->nmsgs == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->msgs = xreallocarray(f->msgs, f->cap, sizeof *f->msgs);
	}
	x = &f->msgs[f->nmsgs++];
	memset(x, 0, sizeof *x);
	x->kind = m->kind;
	snprintf(x->room, sizeof x->room, "%s", m->room ? m->room : "");
	snprintf(x->user, sizeof x->user, "%s", m->user_id ? m->user_id : "");
	snprintf(x->text, sizeof x->text, "%.*s", (int)textlen, text);
	snprintf(x->styled, sizeof x->styled, "%.*s", (int)len, piece);
	if (m->nmentions > 0)
		snprintf(x->mention, sizeof x->mention, "%s", m->mentions[0]);
	if (m->prompt_user != NULL)
		snprintf(x->prompt, sizeof x->prompt, "%s", m->prompt_user);
	for (size_t i = 0; i < m->nactions && i < 8; i++)
		x->actions[i] = m->actions[i];
	x->nactions = m->nactions;
	x->reply_to = m->reply_to;
	x->notice = m->private_as == PRIVATE_QUIET;
	x->private_as = (int)m->private_as;
	snprintf(x->key, sizeof x->key, "%s", m->supersede ? m->supersede : "");
	x->player = m->player;
	snprintf(x->asker, sizeof x->asker, "%s", m->asker != NULL ? m->asker : "");
	x->room_unsent = unsent;
}

static int
fake_send(struct adapter *a, const struct adapter_msg *m)
{
	struct fake *f = a->priv;
	struct fake_out o = { f, m, 0 };
	const char *why;

	/* the core's promise to every adapter: well-formed styled text */
	if (m->styled == NULL || !style_valid(m->styled, strlen(m->styled), &why)) {
		fprintf(stderr, "fake: the bot sent bad styled text (%s)\n", m->styled ? why : "NULL");
		abort();
	}
	f->room_sends += m->kind == MSG_ROOM;
	style_split(m->styled, strlen(m->styled), FAKE_MAX_LINE, true, fake_encode, &o, fake_line, &o);
	return o.rc;
}

/* Whoever the test named a moderator moderates every room. */
static bool
fake_is_moderator(struct adapter *a, const char *room, const char *user_id)
{
	struct fake *f = a->priv;

	(void)room;
	for (size_t i = 0; i < sizeof f->moderators / sizeof f->moderators[0] && f->moderators[i] != NULL; i++)
		if (strcmp(f->moderators[i], user_id) == 0)
			return true;
	return false;
}

static const struct adapter_ops fake_ops = {
	.type = "fake",
	.send = fake_send,
	.pending = fake_pending,
	.is_moderator = fake_is_moderator,
};

struct fake *
fake_new(const char *db, const char *extra_bot)
{
	return fake_new_at(db, extra_bot, FAKE_WALL_START);
}

/* Appends to out the default "key = value" line unless extra sets key itself:
 * a key given twice is refused, and a test's own value wins. */
static void
fake_default(char *out, size_t outlen, const char *extra, const char *key, const char *value)
{
	size_t n = strlen(key), o = strlen(out);
	const char *l = extra;

	while (l != NULL && *l != '\0') {
		if (strncmp(l, key, n) == 0 && (l[n] == ' ' || l[n] == '='))
			return;
		if ((l = strchr(l, '\n')) != NULL)
			l++;
	}
	snprintf(out + o, outlen - o, "%s = %s\n", key, value);
}

struct fake *
fake_new_at(const char *db, const char *extra_bot, int64_t wall_ms)
{
	struct bot_event up = { .type = BOT_EV_UP };
	struct fake *f = calloc(1, sizeof *f);
	char text[2048], err[512];
	struct bot_config *cfg;

	snprintf(text, sizeof text, "[bot]\ndatabase = %s\n", db);
	fake_default(text, sizeof text, extra_bot, "ai_delay", "0");
	fake_default(text, sizeof text, extra_bot, "turn_reminder", "60");
	fake_default(text, sizeof text, extra_bot, "turn_timeout", "120");
	fake_default(text, sizeof text, extra_bot, "table_expiry", "600");
	fake_default(text, sizeof text, extra_bot, "log_level", "err");
	snprintf(text + strlen(text), sizeof text - strlen(text), "%s\n", extra_bot ? extra_bot : "");
	cfg = config_load_string(text, "test", err, sizeof err);
	if (cfg == NULL) {
		fprintf(stderr, "config: %s\n", err);
		abort();
	}
	log_level = cfg->log_level;
	f->loop = loop_new();
	f->now = 1000000;
	f->seed = 42;
	loop_set_clock(f->loop, fake_clock, f);
	f->bot = bot_new(f->loop, cfg, NULL, 0);
	f->bot->seed_fn = fake_seed;
	f->bot->seed_ctx = f;
	f->wall_offset = wall_ms - f->now;
	f->bot->wall_fn = fake_wall_clock;
	f->bot->wall_ctx = f;
	f->ad = bot_adapter_add(f->bot, &fake_ops, "fake", NULL, err, sizeof err);
	f->ad->priv = f;
	if (bot_open_store(f->bot, err, sizeof err) < 0) {
		fprintf(stderr, "store: %s\n", err);
		abort();
	}
	adapter_emit(f->ad, &up);
	reply_flush(f->bot);
	return f;
}

void
fake_free(struct fake *f)
{
	bot_free(f->bot);
	loop_free(f->loop);
	free(f->msgs);
	free(f);
}

void
fake_say(struct fake *f, const char *room, const char *user, const char *text)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .room = room, .user_id = user, .user_name = user, .text = text,
	                        .ref = f->ref };

	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

void
fake_dm(struct fake *f, const char *user, const char *text)
{
	struct bot_event ev = { .type = BOT_EV_MESSAGE, .user_id = user, .user_name = user, .text = text, .direct = true,
	                        .ref = f->ref };

	adapter_emit(f->ad, &ev);
	reply_flush(f->bot);
}

void
fake_rename(struct fake *f, const char *user, const char *name)
{
	struct bot_event ev = { .type = BOT_EV_RENAME, .user_id = user, .user_name = name, .text = name };

	adapter_emit(f->ad, &ev);
}

void
fake_pace(struct fake *f, size_t cap, int64_t drain_ms)
{
	f->queue_cap = cap;
	f->drain_ms = drain_ms;
	f->dropped = 0;
	memset(f->lanes, 0, sizeof f->lanes);
}

void
fake_advance(struct fake *f, int64_t ms)
{
	f->now += ms;
	loop_run_once(f->loop, 0);
	reply_flush(f->bot);
}

bool
fake_play_out(struct fake *f, const char *room, int max_steps)
{
	int i;

	for (i = 0; i < max_steps; i++) {
		if (fake_session(f, room) == NULL)
			return true;
		fake_advance(f, 1);
		if (f->nmsgs > 20000)
			fake_clear(f);
	}
	return fake_session(f, room) == NULL;
}

const struct fake_msg *
fake_find(struct fake *f, const char *needle)
{
	size_t i;

	for (i = f->nmsgs; i-- > 0;)
		if (strstr(f->msgs[i].text, needle) != NULL)
			return &f->msgs[i];
	return NULL;
}

bool
fake_said(struct fake *f, int kind, const char *user, const char *needle)
{
	for (size_t i = 0; i < f->nmsgs; i++)
		if (f->msgs[i].kind == kind && (user == NULL || strcmp(f->msgs[i].user, user) == 0) &&
		    strstr(f->msgs[i].text, needle) != NULL)
			return true;
	return false;
}

void
fake_clear(struct fake *f)
{
	f->nmsgs = 0;
}

struct session *
fake_session(struct fake *f, const char *room)
{
	return session_find(&f->bot->sessions, f->ad, room);
}

bool
fake_waits_for(struct fake *f, const char *room, const char *user)
{
	struct session *s = fake_session(f, room);
	int seats[HF_MAX_SEATS], n, i, seat;

	if (s == NULL || s->g == NULL || hf_game_phase(s->g) == HF_PHASE_OVER || (seat = session_seat_of(s, user)) < 0)
		return false;
	n = hf_game_waiting(s->g, seats);
	for (i = 0; i < n; i++)
		if (seats[i] == seat)
			return true;
	return false;
}

void
fake_tmpdb(char *db)
{
	int fd = mkstemp(db);

	if (fd >= 0)
		close(fd);
}

void
fake_rmdb(const char *db)
{
	char more[256];

	unlink(db);
	snprintf(more, sizeof more, "%s-wal", db);
	unlink(more);
	snprintf(more, sizeof more, "%s-shm", db);
	unlink(more);
}

int
fake_quiet_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	(void)a, (void)cfg, (void)err, (void)errlen;
	return 0;
}

int
fake_quiet_start(struct adapter *a)
{
	(void)a;
	return 0;
}

int
fake_quiet_send(struct adapter *a, const struct adapter_msg *m)
{
	(void)a, (void)m;
	return 0;
}

void
fake_quiet_stop(struct adapter *a, const char *quit)
{
	(void)a, (void)quit;
}

void
fake_quiet_free(struct adapter *a)
{
	(void)a;
}
