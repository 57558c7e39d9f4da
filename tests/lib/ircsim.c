/* ircsim.c: the real bot with the real IRC adapter, its connection replaced by lines we hand it and the lines it queues. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ircsim.h"
#include "loop.h"

extern const struct adapter_ops irc_adapter_ops;

static int64_t
ircsim_clock(void *ctx)
{
	return ((struct ircsim *)ctx)->now;
}

static uint64_t
ircsim_seed(void *ctx)
{
	return ((struct ircsim *)ctx)->seed++;
}

struct ircsim *
ircsim_new(const char *db, const char *bot_extra, const char *irc_extra)
{
	static const struct adapter_ops *const ops[] = { &irc_adapter_ops };
	struct ircsim *s = xcalloc(1, sizeof *s);
	struct bot_config *cfg;
	char text[4096], err[4096];

	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\nlog_level = err\n"
	         "flood_burst = 1000\nflood_refill = 1\n%s\n"
	         "[irc sim]\nserver = 127.0.0.1\ntls = no\nnick = HandFoot\n%s%s\n",
	         db, bot_extra != NULL ? bot_extra : "",
	         irc_extra != NULL && strstr(irc_extra, "channels =") != NULL ? "" : "channels = #cards\n",
	         irc_extra != NULL ? irc_extra : "");
	if ((cfg = config_load_string(text, "sim", err, sizeof err)) == NULL) {
		fprintf(stderr, "ircsim: %s\n", err);
		free(s);
		return NULL;
	}
	log_level = cfg->log_level;
	s->loop = loop_new();
	s->now = 1000000;
	s->seed = 42;
	loop_set_clock(s->loop, ircsim_clock, s);
	s->bot = bot_new(s->loop, cfg, ops, 1);
	s->bot->seed_fn = ircsim_seed;
	s->bot->seed_ctx = s;
	if (bot_adapter_add_all(s->bot, err, sizeof err) < 0 || bot_open_store(s->bot, err, sizeof err) < 0) {
		fprintf(stderr, "ircsim: %s\n", err);
		bot_free(s->bot);
		loop_free(s->loop);
		free(s);
		return NULL;
	}
	s->ad = &s->bot->adapters[0]->ad;
	s->irc = s->ad->priv;
	/* registered, as after RPL_WELCOME and the MOTD, without a socket: every
	 * line stays in the adapter's queues for us to read */
	s->irc->state = IRC_REGISTERING;
	irc_bucket_init(&s->irc->bucket, (int)s->irc->burst, s->irc->rate_ms);   /* as a connection starts it */
	ircsim_line(s, ":irc.test 001 HandFoot :Welcome");
	ircsim_line(s, ":irc.test 005 HandFoot PREFIX=(ov)@+ CHANTYPES=# :are supported");
	ircsim_line(s, ":irc.test 376 HandFoot :End of MOTD");
	ircsim_line(s, ":HandFoot!hf@bot.test JOIN #cards");
	ircsim_line(s, ":irc.test 315 HandFoot #cards :End of WHO list");
	return s;
}

struct ircsim *
ircsim_new_nickserv(const char *db, const char *password)
{
	char path[] = "/tmp/hf-ns-XXXXXX", extra[128];
	int fd = mkstemp(path);
	struct ircsim *s = NULL;
	size_t n = strlen(password);

	if (fd < 0)
		return NULL;
	if (write(fd, password, n) == (ssize_t)n && write(fd, "\n", 1) == 1) {
		snprintf(extra, sizeof extra, "nickserv_password_file = %s\n", path);
		s = ircsim_new(db, NULL, extra);
	}
	close(fd);
	if (s != NULL)
		snprintf(s->secret, sizeof s->secret, "%s", path);
	else
		unlink(path);
	return s;
}

void
ircsim_free(struct ircsim *s)
{
	if (s == NULL)
		return;
	if (s->secret[0] != '\0')
		unlink(s->secret);
	bot_free(s->bot);
	loop_free(s->loop);
	for (size_t i = 0; i < s->nsent; i++)
		free(s->sent[i]);
	free(s->sent);
	free(s);
}

size_t
ircsim_collect(struct ircsim *s)
{
	char line[IRC_MAX_LINE + 1];
	size_t n, got = 0;

	for (;;) {
		if (s->paced) {
			if ((n = irc_send_next(s->irc, line, sizeof line)) == 0)
				break;
		} else if ((n = irc_queue_pop(&s->irc->proto, line, sizeof line)) == 0 &&
		    (n = irc_queue_pop(&s->irc->paced, line, sizeof line)) == 0 &&
		    (n = irc_queue_pop(&s->irc->out, line, sizeof line)) == 0)
			break;
		else
			irc_send_written(s->irc, line, &n);   /* as if written: what a refusal answers */
		if (s->nsent == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 256;
			s->sent = xreallocarray(s->sent, s->cap, sizeof *s->sent);
		}
		s->sent[s->nsent++] = xstrdup(line);
		got++;
	}
	return got;
}

void
ircsim_line(struct ircsim *s, const char *line)
{
	char buf[IRC_MAX_WIRE + 1];
	size_t n = strlen(line);

	if (n > IRC_MAX_WIRE - 1)
		n = IRC_MAX_WIRE - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	irc_events_line(s->irc, buf, n);
	reply_flush(s->bot);
	if (!s->hold)
		ircsim_collect(s);
}

void
ircsim_advance(struct ircsim *s, int64_t ms)
{
	s->now += ms;
	loop_run_once(s->loop, 0);
	reply_flush(s->bot);
	if (!s->hold)
		ircsim_collect(s);
}

const char *
ircsim_sent(struct ircsim *s, const char *needle, ...)
{
	ircsim_collect(s);
	for (size_t i = s->seen; i < s->nsent; i++) {
		const char *n = needle;
		bool all = true;
		va_list ap;

		va_start(ap, needle);
		for (; n != NULL && all; n = va_arg(ap, const char *))
			all = strstr(s->sent[i], n) != NULL;
		va_end(ap);
		if (all)
			return s->sent[i];
	}
	return NULL;
}

void
ircsim_forget(struct ircsim *s)
{
	ircsim_collect(s);
	s->seen = s->nsent;
}
