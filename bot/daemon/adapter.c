/* adapter.c: the calls an adapter makes into the bot: events, a page's actions, logging, secrets, its key-value state. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon.h"
#include "secret.h"

void
adapter_emit(struct adapter *a, const struct bot_event *ev)
{
	bot_event(a->host, a, ev);
}

const struct adapter_command *
adapter_commands(struct adapter *a, size_t *n)
{
	struct bot *b = a->host;

	*n = b->ncommands;
	return b->commands;
}

void
adapter_set_self(struct adapter *a, const char *name)
{
	address_set(&bot_adapter_of(a)->self, name);
}

void
adapter_vlog(struct adapter *a, int level, const char *fmt, va_list ap)
{
	char line[900];

	if (level > log_level)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	log_msg(level, "%s: %s", a->id, line);
}

void
adapter_log(struct adapter *a, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	adapter_vlog(a, level, fmt, ap);
	va_end(ap);
}

int
adapter_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	char full[512], *line = NULL;
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	bool credential = false;
	size_t cap = 0, n;
	struct stat st;
	ssize_t got;
	FILE *f = NULL;

	if (path[0] != '/' && dir != NULL) {
		snprintf(full, sizeof full, "%s/%s", dir, path);
		credential = (f = fopen(full, "r")) != NULL;
	}
	if (f == NULL && (f = fopen(path, "r")) == NULL) {
		/* The path is named, never the contents. */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* systemd's credentials are the unit's alone; a file of ours is checked */
	if (!credential && fstat(fileno(f), &st) == 0 && (st.st_mode & 077) != 0)
		log_msg(LOG_LVL_WARNING, "%s: the secret is readable by %s (mode %04o): chmod 600 it, or hand it over "
		        "with LoadCredential=", path, (st.st_mode & 007) ? "everyone" : "its group",
		        (unsigned)(st.st_mode & 07777));
	got = getline(&line, &cap, f);
	fclose(f);
	n = got > 0 ? strcspn(line, "\r\n") : 0;
	if (n == 0) {
		snprintf(err, errlen, "%s: empty", path);
	} else if (n >= len) {
		/* cut, it would be another secret: refused, never shortened */
		snprintf(err, errlen, "%s: the secret is longer than %zu bytes", path, len - 1);
		n = 0;
	} else {
		memcpy(buf, line, n);
		buf[n] = '\0';
	}
	if (line != NULL) {
		secret_wipe(line, cap);
		free(line);
	}
	return n == 0 ? -1 : 0;
}

bool
adapter_seated(struct adapter *a, const char *user_id)
{
	struct bot *b = a->host;

	return user_id != NULL && session_player_tables(&b->sessions, a, user_id, NULL, 0) > 0;
}

int
adapter_state_get(struct adapter *a, const char *key, char *buf, size_t len)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_get(b->store, a->id, key, buf, len);
}

int
adapter_state_set(struct adapter *a, const char *key, const char *value)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_set(b->store, a->id, key, value);
}

int
adapter_state_del(struct adapter *a, const char *key)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_del(b->store, a->id, key);
}

int
adapter_state_each(struct adapter *a, const char *prefix, void (*fn)(void *ctx, const char *key, const char *value),
                   void *ctx)
{
	struct bot *b = a->host;

	if (b->store == NULL)
		return -1;
	return store_kv_each(b->store, a->id, prefix, fn, ctx);
}

static struct session *
adapter_table_find(struct bot *b, int64_t table)
{
	struct session *s;

	for (s = b->sessions.all; s != NULL; s = s->all_next)
		if (s->id == table && s->g != NULL)
			return s;
	return NULL;
}

bool
adapter_table_live(struct adapter *a, int64_t table)
{
	struct session *s = adapter_table_find(a->host, table);

	return s != NULL && s->state == SESS_PLAYING;
}

int
adapter_act(struct adapter *a, int64_t table, int seat, const struct command *cmd, char *answer, size_t len)
{
	struct bot *b = a->host;
	struct session *s = adapter_table_find(b, table);
	struct bot_event ev;
	struct rbuf said = { 0 };
	struct reply_collect collect, *was;
	char user[sizeof s->seats[0].user_id], room[sizeof s->room], name[sizeof s->seats[0].name];

	if (len > 0)
		answer[0] = '\0';
	if (s == NULL || s->state != SESS_PLAYING) {
		snprintf(answer, len, "This game is over.");
		return -1;
	}
	if (seat < 0 || seat >= s->nseats || s->seats[seat].ai >= 0) {
		snprintf(answer, len, "That seat is not a person's.");
		return -1;
	}
	/* the session may end during the command: keep what identifies the player */
	snprintf(user, sizeof user, "%s", s->seats[seat].user_id);
	snprintf(room, sizeof room, "%s", s->room);
	snprintf(name, sizeof name, "%s", s->seats[seat].name);
	memset(&ev, 0, sizeof ev);
	ev.type = BOT_EV_MESSAGE;
	ev.room = room;
	ev.user_id = user;
	ev.user_name = name;
	ev.command = cmd;
	/* the command's own answer: what the core says to the player privately
	 * while it runs, collected as it is queued (reply.c), wherever it then
	 * waits (held behind the room's lines, or replacing an older answer) */
	collect = (struct reply_collect){ .ad = s->ad, .user_id = user, .text = &said };
	was = b->replies.collect;
	b->replies.collect = &collect;
	bot_event(b, s->ad, &ev);
	b->replies.collect = was;
	snprintf(answer, len, "%s", said.s != NULL ? said.s : "");
	rbuf_free(&said);
	return 0;
}
