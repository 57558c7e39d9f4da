/* synapse-bot.c: the daemon as a bot account on the test Synapse (see synapse-bot.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "synapse-bot.h"

/* pacing: the [bot] lines before bot_lines, sync: the [matrix t] lines before matrix_lines. */
static int
start(struct synapse *s, struct synapse_bot *b, const char *tag, const char *pacing, const char *bot_lines,
      const char *sync, const char *matrix_lines)
{
	char path[400], text[4096];

	memset(b, 0, sizeof *b);
	snprintf(b->tag, sizeof b->tag, "%s", tag);
	if (synapse_register(s, "bot", false, &b->u) < 0 || e2e_tmpdir(b->dir, sizeof b->dir, "sybot") < 0)
		return -1;
	snprintf(path, sizeof path, "%s/token", b->dir);
	snprintf(text, sizeof text, "%s\n", b->u.token);
	e2e_secret_note(b->u.token);
	if (e2e_write_file(path, text) < 0 || chmod(path, 0600) < 0)
		return -1;
	snprintf(b->conf, sizeof b->conf, "%s/handfoot.conf", b->dir);
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s/handfoot.db\n%s%s\n[matrix t]\nhomeserver = %s\nuser = %s\ntoken_file = %s\n%s%s\n",
	         b->dir, pacing, bot_lines != NULL ? bot_lines : "", s->base, b->u.localpart, path, sync,
	         matrix_lines != NULL ? matrix_lines : "");
	if (e2e_write_file(b->conf, text) < 0)
		return -1;
	return synapse_bot_restart(b);
}

int
synapse_bot_start(struct synapse *s, struct synapse_bot *b, const char *tag, const char *bot_lines,
                  const char *matrix_lines)
{
	return start(s, b, tag, "ai_delay = 0\nturn_reminder = 0\nturn_timeout = 0\n", bot_lines, "sync_timeout = 2\n",
	             matrix_lines);
}

int
synapse_bot_start_defaults(struct synapse *s, struct synapse_bot *b, const char *tag, const char *bot_lines,
                           const char *matrix_lines)
{
	return start(s, b, tag, "", bot_lines, "", matrix_lines);
}

int
synapse_bot_restart(struct synapse_bot *b)
{
	if (e2e_daemon_start(&b->d, b->tag, b->conf, NULL) < 0)
		return -1;
	if (e2e_daemon_wait_log(&b->d, "matrix/t: up", 60000) < 0) {
		fprintf(stderr, "synapse_bot: the daemon did not come up; see %s\n", b->d.log);
		return -1;
	}
	return 0;
}

int
synapse_bot_stop(struct synapse_bot *b)
{
	if (b->d.pid <= 0)
		return b->d.status;
	e2e_daemon_signal(&b->d, SIGTERM);
	return e2e_daemon_wait(&b->d, 15000);
}

void
synapse_bot_end(struct synapse_bot *b)
{
	char out[64];

	if (b->d.pid > 0)
		synapse_bot_stop(b);
	if (b->dir[0] != '\0')
		e2e_sh(out, sizeof out, "rm -rf '%s'", b->dir);
	b->dir[0] = '\0';
}
