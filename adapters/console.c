/* console.c: the terminal adapter: stdin lines in as one player's commands, stdout out, room and private apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter.h"
#include "loop.h"

struct console {
	char room[64];
	char user[64];
	char start[256];         /* the command typed for you at start ("play 4 classic"), or empty */
	char buf[4096];
	size_t len;
	bool started;
	bool watching;           /* stdin is watched: unwatched at stop, so a reload can drop us */
};

static void console_read(struct loop *l, int fd, int mask, void *data);

static int
console_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	struct console *c;
	const char *v;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(c->room, sizeof c->room, "%s", adapter_cfg_get(cfg, "room", "#table"));
	v = getenv("USER");
	snprintf(c->user, sizeof c->user, "%s", adapter_cfg_get(cfg, "user", v && *v && strcmp(v, "root") ? v : "player"));
	v = adapter_cfg_get(cfg, "start", "");
	if (strlen(v) >= sizeof c->start) {
		adapter_cfg_error(cfg, "start", err, errlen, "too long");
		free(c);
		return -1;
	}
	snprintf(c->start, sizeof c->start, "%s", v);
	a->priv = c;
	return 0;
}

/* Only who and where the player is need a new adapter; a new prefix or start
 * line does not (the prefix is the bot's; start is typed once, at start). */
static bool
console_needs_restart(struct adapter *a, struct adapter_cfg *cfg)
{
	struct console *c = a->priv;
	const char *v = getenv("USER");

	if (c == NULL)
		return true;
	adapter_cfg_get(cfg, "start", "");
	return strcmp(adapter_cfg_get(cfg, "room", "#table"), c->room) != 0 ||
	       strcmp(adapter_cfg_get(cfg, "user", v && *v && strcmp(v, "root") ? v : "player"), c->user) != 0;
}

static void
console_line(struct adapter *a, const char *line)
{
	struct console *c = a->priv;
	struct bot_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = BOT_EV_MESSAGE;
	ev.room = c->room;
	ev.user_id = c->user;
	ev.user_name = c->user;
	ev.text = line;
	adapter_emit(a, &ev);
}

static int
console_start(struct adapter *a)
{
	struct console *c = a->priv;
	struct bot_event ev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* "handfoot: draw" works as "!draw" does. */
	adapter_set_self(a, "handfoot");
	memset(&ev, 0, sizeof ev);
	ev.type = BOT_EV_UP;
	adapter_emit(a, &ev);
	printf("handfoot console: you are \"%s\" at %s. Type help for the commands; Ctrl-D saves and quits.\n",
	       c->user, c->room);
	if (c->start[0] != '\0')
		console_line(a, c->start);
	c->started = true;
	if (loop_watch(a->loop, 0, LOOP_READ, console_read, a) < 0)
		return -1;
	c->watching = true;
	return 0;
}

static void
console_read(struct loop *l, int fd, int mask, void *data)
{
	struct adapter *a = data;
	struct console *c = a->priv;
	ssize_t n;
	char *nl;

	(void)mask;
	n = read(fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		/* End of input: the bot saves as it goes, so stopping is all there is. */
		if (c->len > 0) {
			c->buf[c->len] = '\0';
			c->len = 0;
			console_line(a, c->buf);
		}
		loop_unwatch(l, fd);
		c->watching = false;
		loop_stop(l);
		return;
	}
	c->len += (size_t)n;
	c->buf[c->len] = '\0';
	while ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
		size_t used = (size_t)(nl - c->buf) + 1;
		*nl = '\0';
		if (nl > c->buf && nl[-1] == '\r')
			nl[-1] = '\0';
		console_line(a, c->buf);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
	if (c->len == sizeof c->buf - 1) {
		/* A line longer than the buffer: hand it on (the bot refuses it) and drop the rest. */
		c->buf[c->len] = '\0';
		console_line(a, c->buf);
		c->len = 0;
	}
}

static int
console_send(struct adapter *a, const struct adapter_msg *m)
{
	struct console *c = a->priv;

	if (m->kind == MSG_ROOM)
		printf("[%s] %s\n", m->room ? m->room : c->room, m->text);
	else
		printf("[you] %s\n", m->text);
	return 0;
}

static void
console_stop(struct adapter *a, const char *quit)
{
	struct console *c = a->priv;

	/* No read may reach an adapter that is stopped (and then freed by a reload). */
	if (c != NULL && c->watching) {
		loop_unwatch(a->loop, 0);
		c->watching = false;
	}
	if (quit != NULL)
		printf("%s\n", quit);
	fflush(stdout);
}

static void
console_free(struct adapter *a)
{
	struct console *c = a->priv;

	/* Freed without a stop (an error at startup): the watch must go all the same. */
	if (c != NULL && c->watching)
		loop_unwatch(a->loop, 0);
	free(a->priv);
	a->priv = NULL;
}

const struct adapter_ops console_adapter_ops = {
	.type = "console",
	.caps = 0,
	.max_line = 400,
	.init = console_init,
	.start = console_start,
	.send = console_send,
	.stop = console_stop,
	.needs_restart = console_needs_restart,
	.free = console_free,
};
