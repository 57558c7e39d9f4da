/* service.c: the daemon under systemd: READY/STATUS/STOPPING, the watchdog, and SIGHUP reloads run on the loop. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "loop.h"
#include "notify.h"
#include "reload.h"
#include "service.h"

/* How often STATUS= is brought up to date (it is sent only when it changed). */
#define STATUS_MS 2000

struct service {
	struct bot *bot;
	struct notify *notify;
	long long timer;
	char conf[512];
};

/* Signal flags and the loop to wake: the only state the handler touches. */
static volatile sig_atomic_t reload_pending;
static struct loop *reload_loop;

static void
on_sighup(int sig)
{
	(void)sig;
	reload_pending = 1;
	if (reload_loop != NULL)
		loop_wake(reload_loop);
}

/* "2 adapters, 3 rooms with a table, 1 game in progress". */
static void
status_line(struct service *s, char *buf, size_t len)
{
	const struct session *x;
	size_t playing = 0;

	for (x = s->bot->sessions.all; x != NULL; x = x->all_next)
		if (x->state == SESS_PLAYING)
			playing++;
	snprintf(buf, len, "%zu adapter%s, %zu room%s with a table, %zu game%s in progress",
	         s->bot->nadapters, s->bot->nadapters == 1 ? "" : "s",
	         s->bot->sessions.count, s->bot->sessions.count == 1 ? "" : "s",
	         playing, playing == 1 ? "" : "s");
}

static int64_t
status_tick(struct loop *l, long long id, void *data)
{
	struct service *s = data;
	char line[200];

	(void)l;
	(void)id;
	status_line(s, line, sizeof line);
	notify_status(s->notify, "%s", line);
	return STATUS_MS;
}

static void
reload(struct service *s)
{
	char err[8192], line[200];

	log_msg(LOG_LVL_NOTICE, "SIGHUP: reading %s again", s->conf);
	notify_reloading(s->notify, "reloading the configuration");
	if (reload_config(s->bot, s->conf, err, sizeof err) < 0)
		config_log_errors(LOG_LVL_ERR, "reload refused, the configuration in force stays: ", err);
	status_line(s, line, sizeof line);
	notify_ready(s->notify, line);
}

static void
on_wake(struct loop *l, void *data)
{
	(void)l;
	if (reload_pending) {
		reload_pending = 0;
		reload(data);
	}
}

struct service *
service_new(struct bot *b, const char *conf)
{
	struct service *s = xcalloc(1, sizeof *s);
	struct sigaction sa;

	s->bot = b;
	s->timer = -1;
	snprintf(s->conf, sizeof s->conf, "%s", conf);
	s->notify = notify_new(b->loop);
	reload_loop = b->loop;
	loop_on_wake(b->loop, on_wake, s);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sighup;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGHUP, &sa, NULL);
	if (notify_watchdog_usec(s->notify) > 0)
		log_msg(LOG_LVL_INFO, "watchdog: pinging every %llu ms",
		        (unsigned long long)notify_watchdog_usec(s->notify) / 2000);
	return s;
}

void
service_ready(struct service *s)
{
	char line[200];

	if (s == NULL)
		return;
	status_line(s, line, sizeof line);
	notify_ready(s->notify, line);
	if (s->timer < 0 && notify_enabled(s->notify))
		s->timer = loop_timer_add(s->bot->loop, STATUS_MS, status_tick, s);
}

void
service_stopping(struct service *s)
{
	if (s != NULL)
		notify_stopping(s->notify, "stopping: saving games");
}

void
service_free(struct service *s)
{
	struct sigaction sa;

	if (s == NULL)
		return;
	/* A SIGHUP from now on would find no bot: ignore it. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	reload_loop = NULL;
	if (s->timer >= 0)
		loop_timer_del(s->bot->loop, s->timer);
	notify_free(s->notify);
	free(s);
}
