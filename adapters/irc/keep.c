/* keep.c: private lines for account-identified players kept across a reconnect, and sent when their account is seen again, under whatever nick. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "loop.h"

#define KEEP_MS (10 * 60 * 1000)        /* a kept line older than this is dropped */

/* A queued private line (irc_queue_rewrite): one for an account holder is
 * taken out into c->kept; the rest stay (irc_send_forget drops them). */
static int
keep_line(void *ctx, const char *line, size_t len, char *buf, size_t buflen)
{
	struct irc *c = ctx;
	struct irc_refused *r = &c->refused;
	const char *cmd = strncmp(line, "PRIVMSG ", 8) == 0 ? "PRIVMSG" : strncmp(line, "NOTICE ", 7) == 0 ? "NOTICE" : NULL;
	const char *target, *text;
	size_t tlen;

	(void)buf;
	(void)buflen;
	if (cmd == NULL || c->nkept == IRC_KEEP_LINES)
		return 0;
	target = line + strlen(cmd) + 1;
	tlen = strcspn(target, " ");
	if (tlen == 0 || tlen >= 64 || irc_chan_is(target) || (text = strstr(target, " :")) == NULL)
		return 0;
	for (int i = 0; i < IRC_REFUSED_WHO; i++) {
		struct irc_kept *k;

		if (r->who[i].nick[0] == '\0' || strncmp(r->who[i].id, "acct:", 5) != 0 ||
		    strlen(r->who[i].nick) != tlen || strncmp(r->who[i].nick, target, tlen) != 0)
			continue;
		k = &c->kept[c->nkept++];
		irc_text_copy(k->id, sizeof k->id, r->who[i].id);
		irc_text_copy(k->cmd, sizeof k->cmd, cmd);
		irc_text_copy(k->text, sizeof k->text, text + 2);
		k->at = loop_now(c->a->loop);
		(void)len;
		return -1;
	}
	return 0;
}

void
irc_keep_disconnected(struct irc *c)
{
	size_t n = irc_queue_rewrite(&c->out, keep_line, c);

	if (n > 0)
		adapter_log(c->a, LOG_LVL_INFO, "%zu private line%s for identified players kept for the next connection",
		            n, n == 1 ? "" : "s");
}

/* Kept lines whose account is seen again go to its nick now; old ones go. */
void
irc_keep_resend(struct irc *c)
{
	int64_t now = loop_now(c->a->loop);
	int j = 0;

	if (c->nkept == 0 || c->state != IRC_READY)
		return;
	for (int i = 0; i < c->nkept; i++) {
		struct irc_kept *k = &c->kept[i];
		struct irc_user *u;
		char line[IRC_MAX_LINE + 1];
		int w;

		if (now - k->at > KEEP_MS)
			continue;
		if ((u = irc_members_holder(c, k->id)) == NULL) {
			c->kept[j++] = *k;
			continue;
		}
		w = snprintf(line, sizeof line, "%s %s :%s", k->cmd, u->nick, k->text);
		if (w > 0 && (size_t)w < sizeof line)
			irc_queue_push(&c->out, u->nick, line, (size_t)w);
	}
	if (j != c->nkept) {
		c->nkept = j;
		irc_send_flush(c);
	}
}
