/* console.c: the terminal adapter: stdin lines in as one player's commands, stdout out, room and private apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter.h"
#include "loop.h"
#include "rbuf.h"
#include "xmalloc.h"

/* A terminal line is as long as the player likes: the terminal wraps it. */
#define CONSOLE_MAX_LINE 4000

struct console {
	char room[64];
	char user[64];
	char start[256];         /* the command typed for you at start ("play 4 classic"), or empty */
	char buf[4096];
	size_t len;
	bool started;
	bool watching;           /* stdin is watched: unwatched at stop, so a reload can drop us */
	bool ansi;               /* stdout shows ANSI colours */
};

static void console_read(struct loop *l, int fd, int mask, void *data);

/* Colours on a terminal that shows them, as the conventions say: never with
 * NO_COLOR set (no-color.org), always with CLICOLOR_FORCE set (not "0"). */
static bool
console_colours(void)
{
	const char *force = getenv("CLICOLOR_FORCE"), *term = getenv("TERM");

	if (getenv("NO_COLOR") != NULL && getenv("NO_COLOR")[0] != '\0')
		return false;
	if (force != NULL && force[0] != '\0' && strcmp(force, "0") != 0)
		return true;
	return isatty(STDOUT_FILENO) && term != NULL && strcmp(term, "dumb") != 0;
}

static int
console_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	struct console *c;
	const char *v;

	c = xcalloc(1, sizeof *c);
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

/* The terminal's player is alone in the room: its moderator. */
static bool
console_is_moderator(struct adapter *a, const char *room, const char *user_id)
{
	struct console *c = a->priv;

	return strcmp(room, c->room) == 0 && strcmp(user_id, c->user) == 0;
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
	c->ansi = console_colours();
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

/* ---- styled text in ANSI colours (SGR): bold, red, grey */

struct console_ansi {
	struct rbuf *out;
	const char *prefix;
	struct style_look look;
	bool command;
};

static void
console_ansi_text(void *ctx, const char *s, size_t n, const enum style_role *roles, int depth)
{
	struct console_ansi *k = ctx;
	struct style_look want = style_look(roles, depth);

	if (!style_look_same(want, k->look)) {
		rbuf_add(k->out, "\033[0");
		if (want.bold)
			rbuf_add(k->out, ";1");
		if (want.colour)
			rbuf_add(k->out, want.colour == STYLE_RED ? ";31" : ";90");
		rbuf_add(k->out, "m");
		k->look = want;
	}
	if (k->command) {
		k->command = false;
		rbuf_add(k->out, k->prefix);
	}
	rbuf_addn(k->out, s, n);
}

static void
console_ansi_open(void *ctx, enum style_role role)
{
	if (role == STYLE_COMMAND)
		((struct console_ansi *)ctx)->command = true;
}

/* One message on its way out. */
struct console_out {
	struct console *c;
	const char *prefix;
	const char *to;          /* "[#table] " or "[you] ", before each line */
};

static void
console_encode(void *ctx, struct rbuf *out, const char *m, size_t len)
{
	struct console_out *o = ctx;
	struct console_ansi k = { .out = out, .prefix = o->prefix };
	struct style_sink sink = { .ctx = &k, .text = console_ansi_text, .open = console_ansi_open };

	if (!o->c->ansi) {
		style_plain(out, m, len, o->prefix);
		return;
	}
	rbuf_addn(out, "", 0);
	style_walk(m, len, &sink);
	if (k.look.bold || k.look.colour)
		rbuf_add(out, "\033[0m");
}

static void
console_piece(void *ctx, const char *m, size_t len, const char *text, size_t textlen)
{
	struct console_out *o = ctx;

	(void)m;
	(void)len;
	(void)textlen;
	printf("%s%s\n", o->to, text);
}

static int
console_send(struct adapter *a, const struct adapter_msg *m)
{
	struct console *c = a->priv;
	struct console_out o = { .c = c, .prefix = m->prefix != NULL ? m->prefix : "" };
	char to[sizeof c->room + 4];

	if (m->styled == NULL)
		return -1;
	if (m->kind == MSG_ROOM)
		snprintf(to, sizeof to, "[%s] ", m->room != NULL ? m->room : c->room);
	else
		snprintf(to, sizeof to, "[you] ");
	o.to = to;
	style_split(m->styled, strlen(m->styled), CONSOLE_MAX_LINE, true, console_encode, &o, console_piece, &o);
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

ADAPTER_OPS(console, .is_moderator = console_is_moderator);
