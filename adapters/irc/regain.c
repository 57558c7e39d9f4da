/* regain.c: our configured nick back when it frees: MONITOR where the server offers it, else a slow ISON; the holder's QUIT or NICK; NickServ REGAIN. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "loop.h"

/* Whoever holds our nick can send "Your hand" notices as if they were the
 * bot: the nick is taken back as soon as it frees. */

/* NICK attempts are this far apart at least: a nick that frees and is taken
 * again at once must not make us flood. */
#define REGAIN_RETRY_MS 10000

static bool
regain_wanted(const struct irc *c)
{
	return c->state == IRC_READY && !irc_parse_same(c->cur_nick, c->nick);
}

static void
regain_try(struct irc *c)
{
	int64_t now = loop_now(c->a->loop);

	if (!regain_wanted(c) || (c->nick_tried != 0 && now - c->nick_tried < REGAIN_RETRY_MS))
		return;
	c->nick_tried = now;
	adapter_log(c->a, LOG_LVL_NOTICE, "%s is free: taking it back (we are %s)", c->nick, c->cur_nick);
	irc_send_proto(c, "NICK %s", c->nick);
}

void
irc_regain_start(struct irc *c)
{
	c->nick_tried = 0;
	c->nick_polled = loop_now(c->a->loop);
	if (!regain_wanted(c))
		return;
	adapter_log(c->a, LOG_LVL_NOTICE, "%s is taken: we are %s until it frees%s", c->nick, c->cur_nick,
	            c->monitor ? " (MONITOR)" : c->nick_poll_ms > 0 ? " (ISON)" : "");
	/* services free it at once for its owner: with the account's
	 * password, or when SASL logged us in to it */
	if (c->ns_pass[0] != '\0' && !c->sasl_ok)
		irc_send_proto(c, "PRIVMSG %s :REGAIN %s %s", c->ns_target, c->nick, c->ns_pass);
	else if (c->sasl_ok)
		irc_send_proto(c, "PRIVMSG %s :REGAIN %s", c->ns_target, c->nick);
	if (c->monitor) {
		irc_send_proto(c, "MONITOR + %s", c->nick);
		c->monitoring = true;
	}
}

void
irc_regain_ours(struct irc *c)
{
	adapter_log(c->a, LOG_LVL_NOTICE, "we are %s again", c->cur_nick);
	if (c->monitoring) {
		irc_send_proto(c, "MONITOR - %s", c->nick);
		c->monitoring = false;
	}
}

void
irc_regain_freed(struct irc *c, const char *nick)
{
	if (irc_parse_same(nick, c->nick)) {
		c->nick_tried = 0;
		regain_try(c);
	}
}

void
irc_regain_tick(struct irc *c, int64_t now)
{
	/* no MONITOR: ask, slowly, whether the nick is online */
	if (!regain_wanted(c) || c->monitor || c->nick_poll_ms <= 0 || now - c->nick_polled < c->nick_poll_ms)
		return;
	c->nick_polled = now;
	irc_send_proto(c, "ISON %s", c->nick);
}

/* RPL_MONOFFLINE "me :nick[!user@host],...": a nick we monitor is free. */
void
irc_regain_offline(struct irc *c, const struct irc_msg *m)
{
	char list[IRC_MAX_LINE + 1], *tok, *save = NULL;

	if (m->nparams < 2)
		return;
	irc_text_copy(list, sizeof list, m->params[1]);
	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		tok[strcspn(tok, "!")] = '\0';
		irc_regain_freed(c, tok);
	}
}

/* RPL_ISON "me :nick ...": our nick is free when it is not listed. */
void
irc_regain_ison(struct irc *c, const struct irc_msg *m)
{
	char list[IRC_MAX_LINE + 1], *tok, *save = NULL;

	if (m->nparams < 2 || !regain_wanted(c))
		return;
	irc_text_copy(list, sizeof list, m->params[1]);
	for (tok = strtok_r(list, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if (irc_parse_same(tok, c->nick))
			return;
	regain_try(c);
}
