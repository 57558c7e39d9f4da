/* world.c: the end-to-end fixture: temp dir, IRC server, config, daemon, all stopped and removed in one call. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "world.h"

const struct world_spec world_none = { .irc = WORLD_IRC_NONE };
const struct world_spec world_ngircd = { .irc = WORLD_NGIRCD };

static const char *const irc_kind[] = {
	[WORLD_NGIRCD] = "ngircd", [WORLD_INSPIRCD] = "inspircd", [WORLD_INSPIRCD_ATHEME] = "inspircd",
};

int
world_init(struct world *w, const struct world_spec *spec)
{
	memset(w, 0, sizeof *w);
	w->d.in = -1;
	w->irc = spec->irc;
	if (w->irc == WORLD_IRC_NONE) {
		if (e2e_tmpdir(w->dir, sizeof w->dir, "world") != 0)
			return -1;
	} else {
		const char *kind = irc_kind[w->irc];

		if (!ircserver_available(kind) || ircserver_init(&w->srv, kind) != 0 ||
		    (w->irc == WORLD_INSPIRCD_ATHEME && !ircserver_available("atheme")))
			return -1;
		w->srv.services = w->irc == WORLD_INSPIRCD_ATHEME;
		w->srv.connect_extra = spec->connect_extra;
		w->srv.conf_extra = spec->conf_extra;
		if (ircserver_start(&w->srv) != 0)
			return -1;
		snprintf(w->dir, sizeof w->dir, "%s", w->srv.dir);
	}
#ifdef HF_WITH_MATRIX
	if (spec->matrix && fakemx_start(&w->mx) < 0)
		return -1;
#else
	if (spec->matrix)
		return -1;   /* built without Matrix (WITH_MATRIX=no) */
#endif
	snprintf(w->conf, sizeof w->conf, "%s/handfoot.conf", w->dir);
	snprintf(w->db, sizeof w->db, "%s/hf.db", w->dir);
	return 0;
}

void
world_conf(struct world *w, const char *bot_extra, const char *adapter_extra)
{
	char text[8192];
	int n;

	n = snprintf(text, sizeof text, "[bot]\ndatabase = %s\n%s\n", w->db, bot_extra != NULL ? bot_extra : "");
	if (w->irc != WORLD_IRC_NONE)
		n += snprintf(text + n, sizeof text - (size_t)n,
		              "[irc test]\nserver = 127.0.0.1\nport = %d\ntls = no\nnick = HandFoot\n%s\n",
		              w->srv.port, adapter_extra != NULL ? adapter_extra : "");
	else if (adapter_extra != NULL)
		n += snprintf(text + n, sizeof text - (size_t)n, "%s", adapter_extra);
	/* cut short, the daemon would run another config than the test wrote */
	assert_true(n > 0 && (size_t)n < sizeof text);
	assert_int_equal(e2e_write_file(w->conf, text), 0);
}

void
world_daemon(struct world *w, const char *tag)
{
	assert_int_equal(e2e_daemon_start(&w->d, tag, w->conf, NULL), 0);
}

void
world_run(struct world *w, const char *tag, const char *bot_extra, const char *adapter_extra)
{
	world_conf(w, bot_extra, adapter_extra);
	world_daemon(w, tag);
}

void
world_daemon_stop(struct world *w)
{
	assert_int_equal(e2e_daemon_signal(&w->d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&w->d, 15000), 0);
}

int
world_start(struct world *w, const char *tag, const struct world_spec *spec)
{
	if (world_init(w, spec) != 0)
		return -1;
	world_run(w, tag, spec->bot, spec->adapter);
	return e2e_daemon_wait_log(&w->d, ": up", 60000);
}

void
world_stop(struct world *w)
{
	char out[256];

	world_daemon_kill(w);
#ifdef HF_WITH_MATRIX
	if (w->mx.pid > 0)
		fakemx_stop(&w->mx);
#endif
	if (w->irc != WORLD_IRC_NONE)
		ircserver_free(&w->srv);
	else if (w->dir[0] != '\0' && getenv("HF_KEEP_TMP") == NULL)
		e2e_sh(out, sizeof out, "rm -rf '%s'", w->dir);
	w->dir[0] = '\0';
}

int
world_setup_sized(void **state, size_t size, const struct world_spec *spec)
{
	struct world *w = calloc(1, size);

	*state = w;
	return w != NULL && world_init(w, spec) == 0 ? 0 : -1;
}

int
world_setup_with(void **state, const struct world_spec *spec)
{
	return world_setup_sized(state, sizeof(struct world), spec);
}

int
world_setup_ngircd(void **state)
{
	return world_setup_with(state, &world_ngircd);
}

int
world_setup_none(void **state)
{
	return world_setup_with(state, &world_none);
}

int
world_teardown(void **state)
{
	struct world *w = *state;

	if (w != NULL) {
		world_stop(w);
		free(w);
	}
	*state = NULL;
	return 0;
}

void
world_daemon_kill(struct world *w)
{
	if (w->d.pid > 0)
		e2e_daemon_wait(&w->d, 0);
}

void
world_next(struct world *w)
{
	world_daemon_kill(w);
	w->tests++;
	snprintf(w->db, sizeof w->db, "%s/hf-%d.db", w->dir, w->tests);
}

void
world_end(struct world *w)
{
	if (w->d.pid > 0) {
		e2e_daemon_signal(&w->d, SIGTERM);
		e2e_daemon_wait(&w->d, 10000);
	}
	world_stop(w);
}

int
world_end_state(void **state)
{
	if (*state != NULL)
		world_end(*state);
	return 0;
}

void
world_client(struct ircclient *c, struct world *w, const char *nick, const char *from, const char *chan)
{
	c->pump = NULL;
	assert_int_equal(ircclient_connect_from(c, w->srv.port, nick, from), 0);
	if (chan != NULL)
		assert_int_equal(ircclient_join(c, chan), 0);
}

void
world_duel_dealt(struct ircclient *c)
{
	char want[96];

	assert_int_equal(ircclient_wait(c, 20000, NULL, 0, ":HandFoot!", "JOIN", "#cards", NULL), 0);
	ircclient_send(c, "PRIVMSG #cards :!play 2 duel");
	snprintf(want, sizeof want, "NOTICE %s :Your hand", c->nick);
	assert_int_equal(ircclient_wait(c, 20000, NULL, 0, want, NULL), 0);
}
