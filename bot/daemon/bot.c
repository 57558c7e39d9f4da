/* bot.c: the bot's life (new, store, free) and the dispatch of each event from an adapter to a command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
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

/* The flood table's key: from the kernel's generator; should it fail, a
 * mix of what an attacker outside cannot read to the nanosecond. */
static void
bot_flood_key(uint8_t key[FLOOD_KEY_LEN])
{
	size_t got = 0;
	ssize_t n;

	while (got < FLOOD_KEY_LEN && (n = getrandom(key + got, FLOOD_KEY_LEN - got, 0)) > 0)
		got += (size_t)n;
	if (got < FLOOD_KEY_LEN) {
		struct timespec ts;
		uint64_t v[2];

		clock_gettime(CLOCK_MONOTONIC, &ts);
		v[0] = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) * 0x9e3779b97f4a7c15ull;
		v[1] = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)key ^ (uint64_t)time(NULL);
		memcpy(key, v, FLOOD_KEY_LEN);
	}
}

static int64_t
bot_wall_real(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
	reply_flush(b);
	view_flush(b);
	if (b->store != NULL)
		store_checkpoint(b->store, BOT_CHECKPOINT_FRAMES);
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

struct bot *
bot_new(struct loop *l, struct bot_config *cfg, const struct adapter_ops *const *ops, size_t nops)
{
	struct bot *b = xcalloc(1, sizeof *b);

	b->loop = l;
	b->cfg = cfg;
	b->ops = ops;
	b->nops = nops;
	b->flood = xcalloc(1, sizeof *b->flood);
	{
		uint8_t key[FLOOD_KEY_LEN];

		bot_flood_key(key);
		flood_init(b->flood, key);
	}
	b->seed_fn = bot_seed_random;
	b->wall_fn = bot_wall_real;
	bot_commands_build(b);
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
	rate_rebuild(b->store);   /* once, after the upgrade that brought ratings; a failure is tried again */
	if (restore_games(b) < 0)
		return -1;
	prune_start(b);
	return 0;
}

void
bot_stop_begin(struct bot *b)
{
	struct session *s;

	/* what was said goes out; nothing new is played (the clocks are in the
	 * store).  A turn held to go out with the computer's next (tell.c) is
	 * said now: that turn is the next start's, and nothing else would tell
	 * the room the move a person made. */
	b->stopping = true;
	for (s = b->sessions.all; s != NULL; s = s->all_next) {
		flow_cancel(b, s);
		tell_flush(b, s, false);   /* a person's turn, or computer turns a fold still held (flow.c) */
	}
	reply_flush(b);
}

bool
bot_draining(struct bot *b)
{
	for (size_t i = 0; i < b->nadapters; i++) {
		struct adapter *a = &b->adapters[i]->ad;

		if (a->ops->queued != NULL && a->ops->queued(a) > 0)
			return true;
	}
	/* all sent: every room has heard its story so far */
	for (struct session *s = b->sessions.all; s != NULL; s = s->all_next)
		tell_keep(b, s);
	return false;
}

static void
bot_session_drop(struct session *s, void *ctx)
{
	flow_cancel(ctx, s);
	tell_free(s);
	story_free(s);
}

void
bot_free(struct bot *b)
{
	if (b == NULL)
		return;
	reply_flush(b);
	sessions_free(&b->sessions, bot_session_drop, b);
	bot_adapter_free_all(b);
	reply_free(b);
	free(b->commands);
	if (b->http != NULL)
		http_free(b->http);
	if (b->checkpoint_timer != 0)
		loop_timer_del(b->loop, b->checkpoint_timer);
	prune_stop(b);
	store_close(b->store);
	hf_game_free(b->undo);
	config_free(b->cfg);
	free(b->flood);
	free(b);
}

/* ------------------------------------------------------------------ events */

/* The command in a line addressed to the bot by name on a, or NULL.  With
 * no colon or comma after the name ("handfoot is fun") the line is chatter
 * unless its first word is a command: a busy channel gets no hints for it. */
static const char *
bot_addressed(struct bot_adapter *ba, const char *text)
{
	char word[32], why[160];
	const char *rest;
	bool loose;
	size_t n;

	if ((rest = address_strip(&ba->self, text, &loose)) == NULL || !loose)
		return rest;
	n = strcspn(rest, " \t");
	if (*rest == '!')
		return rest;
	snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), rest);
	return cmd_find(word, why, sizeof why) != NULL ? rest : NULL;
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

/* A player's shown name follows the name they use now (a nick changed, a
 * display name), at every table they sit at on a; kept in the store. */
static void
bot_seat_names(struct bot *b, struct adapter *a, const char *user_id, const char *raw)
{
	struct session *mine[16];
	char name[64];
	size_t n, k;
	int i;

	if (user_id == NULL || raw == NULL)
		return;
	bot_clean_copy(name, sizeof name, raw);
	if (name[0] == '\0' || (n = session_player_tables(&b->sessions, a, user_id, mine, 16)) == 0)
		return;
	for (k = 0; k < n && k < 16; k++) {
		struct session *s = mine[k];
		bool changed = false;

		for (i = 0; i < s->nseats; i++)
			if (s->seats[i].ai < 0 && strcmp(s->seats[i].user_id, user_id) == 0 &&
			    strcmp(s->seats[i].name, name) != 0) {
				snprintf(s->seats[i].name, sizeof s->seats[i].name, "%s", name);
				changed = true;
			}
		if (changed && flow_save_seats(b, s) < 0)
			log_msg(LOG_LVL_WARNING, "%s %s: a new name could not be saved", a->id, s->room);
	}
}

/* The room refused messages (IRC +m, a ban, colours): the table's owner
 * hears it privately, once per table. */
static void
bot_room_refused(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct session *s = session_find(&b->sessions, a, ev->room);
	char why[200], line[1024];
	int seat;

	if (s == NULL || s->refused_told || s->owner[0] == '\0')
		return;
	s->refused_told = true;
	bot_clean_copy(why, sizeof why, ev->text != NULL ? ev->text : "no reason given");
	snprintf(line, sizeof line, "The table you opened in %s cannot be followed: the chat service refused a "
	         "message to %s (%s).", s->room, s->room, why);
	seat = session_seat_of(s, s->owner);
	reply_queue(b, a, MSG_PRIVATE, s->room, s->owner, line, NULL,
	            seat >= 0 ? s->seats[seat].private_as : PRIVATE_DEFAULT);
	log_msg(LOG_LVL_NOTICE, "%s %s: messages refused (%s): the owner is told", a->id, s->room, why);
}

/* A private line refused for a seated player (their user modes, the
 * network's target limit): the room tells them, in one short line and at
 * most once in BOT_UNREACHABLE_MS, how to get their lines (the adapter's
 * text says how); anyone else's failure is only logged. */
#define BOT_UNREACHABLE_MS (5 * 60 * 1000)

static void
bot_private_refused(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct session *s = ev->room != NULL ? session_find(&b->sessions, a, ev->room) : NULL;
	int64_t now = loop_now(b->loop);
	char why[200];
	int seat;

	log_msg(LOG_LVL_NOTICE, "%s: a private message to %s failed: %s", a->id, ev->user_id,
	        ev->text ? ev->text : "?");
	if (s == NULL || (seat = session_seat_of(s, ev->user_id)) < 0 ||
	    (s->seats[seat].unreachable_told != 0 && now - s->seats[seat].unreachable_told < BOT_UNREACHABLE_MS))
		return;
	s->seats[seat].unreachable_told = now;
	bot_clean_copy(why, sizeof why, ev->text != NULL ? ev->text : "refused by the network");
	reply_table(b, s, "%s: your private line did not reach you (%s).", s->seats[seat].name, why);
}

/* The command a message carries, its prefix (or the bot's name) off; NULL
 * when it is none of ours: a NOTICE, chatter, an unusable sender. */
static const char *
message_command(struct bot_adapter *ba, const struct bot_event *ev)
{
	const char *text = ev->text, *prefix = ba->prefix, *rest;
	struct session *s;
	size_t plen = strlen(prefix);

	/* Only commands get an answer: a NOTICE never does, chatter is not ours. */
	if (ev->notice || (text == NULL && ev->command == NULL) || ev->user_id == NULL || ev->user_id[0] == '\0' ||
	    strlen(ev->user_id) >= sizeof s->seats[0].user_id || !text_plain(ev->user_id))
		return NULL;
	if (ev->command != NULL)
		/* a command as data: no prefix, no address, no text */
		text = "";
	else if (plen > 0 && strncmp(text, prefix, plen) == 0)
		text += plen;
	else if (plen == 0 && text[0] == '!')
		text++;
	else if ((rest = bot_addressed(ba, text)) != NULL)
		/* "HandFoot: draw", or "HandFoot: !draw" */
		text = plen > 0 && strncmp(rest, prefix, plen) == 0 ? rest + plen : rest;
	else if (plen > 0 && !ev->direct)
		return NULL;
	if (!ev->direct && ev->room == NULL)
		return NULL;
	return text;
}

/* The table a message is about: its room's, or for a direct message the
 * one table the sender sits at (c->many lists them when several); false
 * when the room's id is unusable. */
static bool
message_table(struct bot *b, struct adapter *a, const struct bot_event *ev, struct cmd_ctx *cp)
{
	char line[BOT_MAX_INPUT + 1];
	struct session *s;
	size_t n;

	if (!ev->direct) {
		cp->room = ev->room;
		/* a room id is echoed as it is ("You sit at tables in #a, #b"): it must carry no mark */
		if (strlen(ev->room) >= sizeof s->room || !text_plain(ev->room))
			return false;
		cp->s = session_find(&b->sessions, a, ev->room);
	} else {
		/* The player index, not a scan: a direct message costs the same with 10,000 tables. */
		struct session *mine[8];
		size_t k, count = session_player_tables(&b->sessions, a, ev->user_id, mine, 8);
		if (count == 1) {
			cp->s = mine[0];
			cp->room = mine[0]->room;
		} else if (count > 1) {
			line[0] = '\0';
			for (k = 0, n = 0; k < count && k < 8; k++)
				if (n + strlen(mine[k]->room) + 3 < 200)
					n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", n ? ", " : "", mine[k]->room);
			cp->many = line[0] ? xstrdup(line) : NULL;
		}
	}
	return true;
}

/* A command given as data: cleaned as a typed line is (no control byte
 * in its name or words: no mark forged), never read as text. */
static void
message_given(struct bot *b, const struct command *given, struct command *cmd)
{
	size_t i;

	*cmd = *given;
	if (cmd->nwords > COMMAND_MAX_WORDS)
		cmd->nwords = COMMAND_MAX_WORDS;
	if (cmd->ngroups > COMMAND_MAX_GROUPS)
		cmd->ngroups = COMMAND_MAX_GROUPS;
	cmd->name[sizeof cmd->name - 1] = '\0';
	text_clean(cmd->name);
	for (i = 0; i < cmd->nwords; i++)
		if (cmd->at[i] < sizeof cmd->buf)
			text_clean(cmd->buf + cmd->at[i]);
	cmd->buf[sizeof cmd->buf - 1] = '\0';
	cmd->why[sizeof cmd->why - 1] = '\0';
	b->commands_given++;
}

static void
bot_message(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	char line[BOT_MAX_INPUT + 1], name[64];
	struct command cmd;
	const char *text;
	struct cmd_ctx c;

	if ((text = message_command(bot_adapter_of(a), ev)) == NULL)
		return;

	memset(&c, 0, sizeof c);
	c.bot = b;
	c.ad = a;
	c.user_id = ev->user_id;
	c.direct = ev->direct;
	c.seat = -1;
	bot_clean_copy(name, sizeof name, ev->user_name ? ev->user_name : ev->user_id);
	c.user_name = name[0] ? name : "player";

	switch (flood_check(b->flood, a->id, ev->user_id, loop_now(b->loop), b->cfg->flood_burst,
	                    b->cfg->flood_refill_ms)) {
	case FLOOD_OK:
		break;
	case FLOOD_WARN:
		/* to the flooder alone: the room's lines are not theirs to spend */
		c.room = ev->direct ? NULL : ev->room;
		reply_answer_private(&c, "flood", "%s: slow down, please: your commands are ignored for a moment.",
		                     c.user_name);
		return;
	case FLOOD_DROP:
		return;
	}

	if (!message_table(b, a, ev, &c))
		return;
	/* the name they write under now is the one their seats show */
	bot_seat_names(b, a, ev->user_id, ev->user_name);
	if (c.s != NULL)
		c.seat = session_seat_of(c.s, ev->user_id);

	if (ev->command != NULL)
		message_given(b, ev->command, &cmd);
	else if (strlen(text) > BOT_MAX_INPUT) {
		reply(&c, "That line is too long (%d bytes at most).", BOT_MAX_INPUT);
		free(c.many);
		return;
	} else {
		/* typed text, read once: here, at the door */
		snprintf(line, sizeof line, "%s", text);
		text_clean(line);
		cmd_parse(line, &cmd);
		b->commands_typed++;
	}
	/* Someone the computer was standing in for is back; or the person the
	 * table waited for, reminded, maybe days ago: where it stands first */
	if (c.s != NULL && c.seat >= 0 && c.s->state == SESS_PLAYING &&
	    (c.s->seats[c.seat].away || (c.s->wait_seat == c.seat && c.s->reminded && !c.s->caught_up)))
		flow_catch_up(b, c.s, c.seat);
	if (c.s != NULL && c.seat >= 0 && c.s->seats[c.seat].away)
		flow_back(b, c.s, c.seat);
	cmd_run(&c, &cmd);
	if (c.moved)
		flood_refund(b->flood, a->id, ev->user_id, loop_now(b->loop), b->cfg->flood_burst, b->cfg->flood_refill_ms);
	free(c.many);
}

void
bot_event(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct adapter *was_ad = b->replies.event_ad;
	uint64_t was_ref = b->replies.event_ref;

	/* what is said while this event is handled answers it */
	b->replies.event_ad = a;
	b->replies.event_ref = ev->ref;
	switch (ev->type) {
	case BOT_EV_MESSAGE:
		bot_message(b, a, ev);
		break;
	case BOT_EV_RENAME:
		bot_seat_names(b, a, ev->user_id, ev->text);
		break;
	case BOT_EV_UP:
		log_msg(LOG_LVL_INFO, "%s: up", a->id);
		resume_adapter(b, a);
		break;
	case BOT_EV_DOWN:
		log_msg(LOG_LVL_WARNING, "%s: down, reconnecting", a->id);
		break;
	case BOT_EV_SEND_FAILED:
		if (ev->user_id == NULL && ev->room != NULL)
			bot_room_refused(b, a, ev);
		else if (ev->user_id != NULL)
			bot_private_refused(b, a, ev);
		else
			log_msg(LOG_LVL_NOTICE, "%s: a private message to %s failed: %s", a->id,
			        ev->user_id ? ev->user_id : "?", ev->text ? ev->text : "?");
		break;
	case BOT_EV_ROOM_MOVED:
		bot_room_moved(b, a, ev);
		break;
	case BOT_EV_JOIN:
		bot_seat_names(b, a, ev->user_id, ev->user_name);
		/* fall through */
	case BOT_EV_LEAVE:
		/* someone who just came has not seen what was answered before:
		 * the same question gets its answer again */
		if (ev->user_id != NULL)
			reply_forget(b, a, ev->type == BOT_EV_JOIN ? ev->room : NULL, ev->user_id);
		break;
	}
	b->replies.event_ad = was_ad;
	b->replies.event_ref = was_ref;
}
