/* events.c: each line from the server dispatched, by command or numeric, through one table of handlers; the events the bot is told. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "utf8.h"
#include "loop.h"

/* Text that is not UTF-8 is taken for latin-1 (old clients, some networks'
 * defaults), each byte the code point of its value, into buf (cut on a
 * character boundary); UTF-8 as it is. */
static const char *
events_latin1(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	if (utf8_valid(text, strlen(text)))
		return text;
	for (const unsigned char *p = (const unsigned char *)text; *p != '\0' && n + 3 < size; p++) {
		if (*p < 0x80) {
			buf[n++] = (char)*p;
		} else {
			buf[n++] = (char)(0xc0 | (*p >> 6));
			buf[n++] = (char)(0x80 | (*p & 0x3f));
		}
	}
	buf[n] = '\0';
	return buf;
}

void
irc_events_emit(struct irc *c, enum bot_event_type type, const char *room, struct irc_user *u, const char *text,
                bool direct, bool notice, int64_t ts)
{
	struct bot_event ev;
	char id[96], name[64], clean[IRC_MAX_LINE + 1], latin[2 * IRC_MAX_LINE + 1];

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.room = room;
	if (u != NULL) {
		irc_users_id(u, id, sizeof id);
		irc_text_in(name, sizeof name, u->nick);
		ev.user_id = id;
		ev.user_name = name;
	}
	if (text != NULL) {
		irc_text_unformat(clean, sizeof clean, events_latin1(text, latin, sizeof latin));
		ev.text = clean;
	}
	ev.direct = direct;
	ev.notice = notice;
	ev.ts_ms = ts;
	adapter_emit(c->a, &ev);
}

static void
events_up(struct irc *c)
{
	char where[300];

	if (c->up)
		return;
	c->up = true;
	c->up_at = loop_now(c->a->loop);   /* the backoff starts again once up a while (quit.c) */
	irc_conn_where(c, where, sizeof where);
	adapter_log(c->a, LOG_LVL_NOTICE, "up on %s as %s", where, c->cur_nick);
	irc_events_emit(c, BOT_EV_UP, NULL, NULL, NULL, false, false, 0);
	irc_send_flush(c);
}

void
irc_events_check_up(struct irc *c, bool force)
{
	if (c->up || !c->welcomed)
		return;
	for (int i = 0; i < c->nchans && !force; i++)
		if (!c->chans[i].joined && !c->chans[i].failed)
			return;
	events_up(c);
}

static void
events_ping(struct irc *c, const struct irc_msg *m)
{
	irc_send_proto(c, "PONG :%s", m->nparams > 0 ? m->params[0] : "");
}

static void
events_pong(struct irc *c, const struct irc_msg *m)
{
	(void)m;
	c->ping_sent = 0;
}

/* ERR_UNAVAILRESOURCE (437): a channel held after a split is a refused join; a nick, a refused nick. */
static void
events_unavailable(struct irc *c, const struct irc_msg *m)
{
	if (m->nparams > 1 && irc_chan_is(m->params[1]))
		irc_chan_join_failed(c, m);
	else
		irc_register_nick_refused(c, m);
}

/* Every command and numeric the adapter acts on; any other line is ignored. */
static const struct irc_handler {
	const char *command;
	void (*fn)(struct irc *c, const struct irc_msg *m);
} events_table[] = {
	{ "PING", events_ping },
	{ "PONG", events_pong },
	{ "ERROR", irc_quit_error },
	{ "KILL", irc_quit_kill },
	{ ERR_YOUREBANNEDCREEP, irc_quit_banned },
	/* what users say */
	{ "PRIVMSG", irc_message_privmsg },
	{ "NOTICE", irc_message_notice },
	{ "BATCH", irc_message_batch },
	{ ERR_NOSUCHNICK, irc_message_no_such_nick },
	{ ERR_TARGCHANGE, irc_refused_target },
	{ ERR_TARGETTOOFAST, irc_refused_target },
	{ ERR_TARGUMODEG, irc_refused_callerid },
	{ RPL_TARGNOTIFY, irc_refused_callerid },
	{ ERR_NONONREG, irc_refused_registered },
	{ ERR_NEEDREGGEDNICK, irc_refused_registered },
	{ ERR_CANTSENDTOUSER, irc_refused_registered },
	/* who is where */
	{ "JOIN", irc_members_join },
	{ "PART", irc_members_part },
	{ "KICK", irc_members_kick },
	{ "QUIT", irc_members_quit },
	{ "NICK", irc_members_nick },
	{ "CHGHOST", irc_members_chghost },
	{ "ACCOUNT", irc_members_account },
	{ RPL_NAMREPLY, irc_members_names },
	{ "MODE", irc_modes_mode },
	{ RPL_WHOREPLY, irc_members_who },
	{ RPL_WHOSPCRPL, irc_members_who },
	{ RPL_ENDOFWHO, irc_members_who_end },
	{ RPL_TRYAGAIN, irc_chan_try_again },
	/* our channels */
	{ "INVITE", irc_invite_got },
	{ ERR_NOSUCHCHANNEL, irc_chan_join_failed },
	{ ERR_TOOMANYCHANNELS, irc_chan_join_failed },
	{ ERR_CHANNELISFULL, irc_chan_join_failed },
	{ ERR_LINKCHANNEL, irc_chan_join_failed },
	{ ERR_BADCHANNAME, irc_chan_join_failed },
	{ ERR_THROTTLE, irc_chan_join_failed },
	{ ERR_INVITEONLYCHAN, irc_chan_join_failed },
	{ ERR_BANNEDFROMCHAN, irc_chan_join_failed },
	{ ERR_BADCHANNELKEY, irc_chan_join_failed },
	{ ERR_SECUREONLYCHAN, irc_chan_join_failed },
	{ ERR_CANNOTSENDTOCHAN, irc_chan_cannot_send },
	{ ERR_NOCOLORSONCHAN, irc_chan_cannot_send },
	/* our nick back */
	{ RPL_MONOFFLINE, irc_regain_offline },
	{ RPL_ISON, irc_regain_ison },
	/* registration: capabilities, SASL, the nick, the welcome */
	{ "CAP", irc_register_cap },
	{ "AUTHENTICATE", irc_register_authenticate },
	{ RPL_WELCOME, irc_register_welcome },
	{ RPL_ISUPPORT, irc_register_isupport },
	{ RPL_ENDOFMOTD, irc_register_motd_end },
	{ ERR_NOMOTD, irc_register_motd_end },
	{ RPL_HOSTHIDDEN, irc_register_host },
	{ RPL_LOGGEDIN, irc_register_logged_in },
	{ RPL_SASLSUCCESS, irc_register_sasl_ok },
	{ ERR_NICKLOCKED, irc_register_sasl_failed },
	{ ERR_SASLFAIL, irc_register_sasl_failed },
	{ ERR_SASLTOOLONG, irc_register_sasl_failed },
	{ ERR_SASLABORTED, irc_register_sasl_failed },
	{ ERR_ERRONEUSNICKNAME, irc_register_nick_refused },
	{ ERR_NICKNAMEINUSE, irc_register_nick_refused },
	{ ERR_NICKCOLLISION, irc_register_nick_refused },
	{ ERR_UNAVAILRESOURCE, events_unavailable },
};

void
irc_events_line(struct irc *c, char *line, size_t len)
{
	struct irc_msg m;
	size_t i;

	if (irc_parse(line, len, &m) != 0)
		return;
	for (i = 0; i < sizeof events_table / sizeof events_table[0]; i++)
		if (strcmp(m.command, events_table[i].command) == 0) {
			events_table[i].fn(c, &m);
			break;
		}
	irc_keep_resend(c);
}
