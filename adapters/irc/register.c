/* register.c: registration: CAP negotiation, SASL PLAIN/EXTERNAL, nick taken, then NickServ and the joins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "loop.h"
#include "secret.h"
#include "xorshift.h"

#define REGISTER_IDENTIFY_MS 10000      /* joins wait this long at most for NickServ's login */

static void register_refuse(struct irc *c, const char *why);

void
irc_register_next_nick(struct irc *c)
{
	char n[40];
	/* the longest nick the server takes: NICKLEN, else RFC 1459's 9, or
	 * ours if longer (it was taken); a server cuts a longer one, and the
	 * cut nick is as taken as ours: registration went round in circles */
	int len = (int)strlen(c->nick), max = c->nicklen > 0 ? c->nicklen : len > 9 ? len : 9;

	if (max > 30)
		max = 30;
	c->nick_try++;
	if (c->nick_try <= 2)
		snprintf(n, sizeof n, "%.*s%s", max - c->nick_try, c->nick, c->nick_try == 1 ? "_" : "__");
	else
		snprintf(n, sizeof n, "%.*s%03u", max - 3, c->nick, (unsigned)(xorshift_next(&c->rng) % 1000));
	irc_text_copy(c->cur_nick, sizeof c->cur_nick, n);
	irc_send_proto(c, "NICK %s", n);
}

void
irc_register_cap_end(struct irc *c)
{
	if (c->cap_ended || (c->state == IRC_REGISTERING && irc_register_sasl_missing(c)))
		return;
	c->cap_ended = true;
	irc_send_proto(c, "CAP END");
}

static const char *const wanted_caps[] = {
	"server-time", "message-tags", "account-tag", "account-notify", "extended-join",
	"batch", "multi-prefix", "cap-notify", "chghost", "userhost-in-names", NULL
};

static bool
wanted(const char *name)
{
	for (int i = 0; wanted_caps[i] != NULL; i++)
		if (strcmp(wanted_caps[i], name) == 0)
			return true;
	return false;
}

static bool
mech_offered(const struct irc *c)
{
	char list[128], *tok, *save = NULL;

	if (c->sasl_offer[0] == '\0')
		return true;    /* "sasl" without a list: try ours */
	irc_text_copy(list, sizeof list, c->sasl_offer);
	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
		if (strcasecmp(tok, c->sasl_mech) == 0)
			return true;
	return false;
}

/* Appends the caps of one CAP LS / NEW line that we want to req. */
static void
cap_collect(struct irc *c, const char *list, char *req, size_t reqlen)
{
	char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;

	irc_text_copy(buf, sizeof buf, list);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		bool take;

		if (eq != NULL)
			*eq = '\0';
		if (strcmp(tok, "sts") == 0) {
			irc_sts_offered(c, eq != NULL ? eq + 1 : "");
			if (c->state == IRC_IDLE)
				return;     /* gone, to come back over TLS */
			take = false;
		} else if (strcmp(tok, "sasl") == 0) {
			irc_text_copy(c->sasl_offer, sizeof c->sasl_offer, eq != NULL ? eq + 1 : "");
			take = c->sasl_mech[0] != '\0' && mech_offered(c) && c->state == IRC_REGISTERING;
		} else {
			take = wanted(tok);
		}
		if (take && strlen(req) + strlen(tok) + 2 < reqlen) {
			if (req[0] != '\0')
				strcat(req, " ");
			strcat(req, tok);
		}
	}
}

static void
cap_set(struct irc *c, const char *name, bool on)
{
	if (name[0] == '-') {
		name++;
		on = false;
	}
	if (strcmp(name, "sasl") == 0)
		c->cap_sasl = on;
	else if (strcmp(name, "account-tag") == 0)
		c->cap_account_tag = on;
	else if (strcmp(name, "extended-join") == 0)
		c->cap_extjoin = on;
	else if (strcmp(name, "account-notify") == 0)
		c->cap_account_notify = on;
	else if (strcmp(name, "batch") == 0)
		c->cap_batch = on;
	else if (strcmp(name, "server-time") == 0)
		c->cap_server_time = on;
}

/* Answers "AUTHENTICATE +" with the SASL payload. */
static void
register_sasl(struct irc *c)
{
	unsigned char raw[400];
	char b64[600];
	size_t ul = strlen(c->sasl_user), pl = strlen(c->sasl_pass), n, off;

	if (strcasecmp(c->sasl_mech, "EXTERNAL") == 0 || ul * 2 + pl + 2 > sizeof raw) {
		irc_send_proto(c, "AUTHENTICATE +");
		return;
	}
	/* PLAIN: authzid NUL authcid NUL password */
	memcpy(raw, c->sasl_user, ul);
	raw[ul] = '\0';
	memcpy(raw + ul + 1, c->sasl_user, ul);
	raw[2 * ul + 1] = '\0';
	memcpy(raw + 2 * ul + 2, c->sasl_pass, pl);
	n = 2 * ul + 2 + pl;
	if (irc_base64(b64, sizeof b64, raw, n) < 0)
		return;
	secret_wipe(raw, sizeof raw);
	/* 400-byte chunks; a payload that fills the last chunk exactly ends with "+" */
	n = strlen(b64);
	for (off = 0; off < n; off += 400)
		irc_send_proto(c, "AUTHENTICATE %.400s", b64 + off);
	if (n % 400 == 0)
		irc_send_proto(c, "AUTHENTICATE +");
	secret_wipe(b64, sizeof b64);
}

void
irc_register_cap(struct irc *c, const struct irc_msg *m)
{
	const char *sub = m->nparams > 1 ? m->params[1] : "";
	const char *list = m->nparams > 0 ? m->params[m->nparams - 1] : "";
	char *req = c->cap_req;

	if (strcmp(sub, "LS") == 0 || strcmp(sub, "NEW") == 0) {
		bool more = m->nparams > 3 && strcmp(m->params[2], "*") == 0;

		if (!c->cap_listing)
			req[0] = '\0';
		c->cap_listing = more;
		cap_collect(c, list, req, sizeof c->cap_req);
		if (more || c->state == IRC_IDLE)
			return;
		if (req[0] != '\0') {
			c->cap_requested = true;
			irc_send_proto(c, "CAP REQ :%s", req);
		} else if (strcmp(sub, "LS") == 0) {
			irc_register_cap_end(c);
		}
		req[0] = '\0';
	} else if (strcmp(sub, "ACK") == 0) {
		char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;

		irc_text_copy(buf, sizeof buf, list);
		for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			cap_set(c, tok, true);
		if (c->state == IRC_REGISTERING && c->cap_sasl && !c->sasl_ok && !c->cap_ended)
			irc_send_proto(c, "AUTHENTICATE %s", c->sasl_mech);
		else
			irc_register_cap_end(c);
	} else if (strcmp(sub, "NAK") == 0) {
		adapter_log(c->a, LOG_LVL_WARNING, "server refused capabilities: %s", list);
		irc_register_cap_end(c);
	} else if (strcmp(sub, "DEL") == 0) {
		char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;

		irc_text_copy(buf, sizeof buf, list);
		for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			cap_set(c, tok, false);
	}
}

/* The joins, in lines of IRC_JOIN_CHANS channels at most, paced (each
 * channel's WHO follows its echo): a server counts a JOIN's channels as
 * commands of their own; a channel with a key goes alone. */
static void
register_join_all(struct irc *c)
{
	char list[IRC_MAX_LINE - 16];
	size_t len = 0;

	loop_once_cancel(c->a->loop, &c->join_timer);
	list[0] = '\0';
	for (int i = 0, k = 0; i < c->nchans; i++) {
		size_t n = strlen(c->chans[i].name);

		c->chans[i].joined = c->chans[i].failed = false;
		if (c->chans[i].key[0] != '\0') {
			irc_chan_join(c, i);
			continue;
		}
		if (len + n + 1 >= sizeof list || k == IRC_JOIN_CHANS) {
			irc_send_paced(c, "JOIN %s", list);
			len = 0;
			k = 0;
			list[0] = '\0';
		}
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", c->chans[i].name);
		k++;
	}
	if (len > 0)
		irc_send_paced(c, "JOIN %s", list);
	c->joins_sent_at = loop_now(c->a->loop);
	irc_events_check_up(c, false);
}

static void
on_join_timer(void *data)
{
	struct irc *c = data;

	adapter_log(c->a, LOG_LVL_WARNING, "NickServ did not log us in within %d s: joining anyway",
	            REGISTER_IDENTIFY_MS / 1000);
	register_join_all(c);
}

/* After the MOTD (or its absence): bot mode, NickServ, joins.  When the
 * bot identifies to NickServ, the joins wait for the login (900) or the
 * cloak (396): a channel for registered users refuses an unidentified
 * JOIN (477), and the JOIN would show the uncloaked host. */
void
irc_register_motd_end(struct irc *c, const struct irc_msg *m)
{
	(void)m;
	if (c->welcomed)
		return;
	c->welcomed = true;
	c->state = IRC_READY;
	if (c->bot_mode[0] != '\0')
		irc_send_paced(c, "MODE %s +%s", c->cur_nick, c->bot_mode);
	irc_regain_start(c);
	if (c->ns_pass[0] != '\0' && !c->sasl_ok) {
		irc_send_paced(c, "PRIVMSG %s :IDENTIFY %s %s", c->ns_target, c->nick, c->ns_pass);
		c->joins_sent_at = loop_now(c->a->loop);
		if (c->join_timer == 0)
			loop_once(c->a->loop, &c->join_timer, REGISTER_IDENTIFY_MS, on_join_timer, c);
		return;
	}
	register_join_all(c);
}

void
irc_register_isupport(struct irc *c, const struct irc_msg *m)
{
	for (int i = 1; i + 1 < m->nparams; i++) {
		const char *t = m->params[i];

		if (strncmp(t, "BOT=", 4) == 0 && strlen(t + 4) < 4 && t[4] != '\0')
			irc_text_copy(c->bot_mode, sizeof c->bot_mode, t + 4);
		else if (strcmp(t, "MONITOR") == 0 || strncmp(t, "MONITOR=", 8) == 0)
			c->monitor = true;
		else if (strcmp(t, "WHOX") == 0)
			c->whox = true;
		else if (strcmp(t, "CALLERID") == 0 || strncmp(t, "CALLERID=", 9) == 0)
			c->notice_silent = true;
		else if (strncmp(t, "CASEMAPPING=", 12) == 0) {
			c->ascii_casemap = strcmp(t + 12, "ascii") == 0;
			irc_users_casemap(&c->users, c->ascii_casemap);
		}
		else if (strncmp(t, "NICKLEN=", 8) == 0)
			c->nicklen = atoi(t + 8) > 0 && atoi(t + 8) < 60 ? atoi(t + 8) : 0;
		else if (strncmp(t, "CHANTYPES=", 10) == 0)
			irc_text_copy(c->chantypes, sizeof c->chantypes, t + 10);
		else if (strncmp(t, "STATUSMSG=", 10) == 0)
			irc_text_copy(c->statusmsg, sizeof c->statusmsg, t + 10);
		else if (strncmp(t, "PREFIX=", 7) == 0) {
			const char *close = strchr(t, ')');

			if (close != NULL)
				irc_text_copy(c->prefix_chars, sizeof c->prefix_chars, close + 1);
		}
	}
	irc_modes_isupport(c, m);
}

void
irc_register_authenticate(struct irc *c, const struct irc_msg *m)
{
	if (m->nparams > 0 && strcmp(m->params[0], "+") == 0)
		register_sasl(c);
}

/* RPL_WELCOME: registered, under the nick the server says. */
void
irc_register_welcome(struct irc *c, const struct irc_msg *m)
{
	if (irc_register_sasl_missing(c))
		return;
	if (m->nparams > 0)
		irc_text_in(c->cur_nick, sizeof c->cur_nick, m->params[0]);
	adapter_set_self(c->a, c->cur_nick);
	c->cap_ended = true;     /* a server that ignored CAP registers us all the same */
}

/* RPL_HOSTHIDDEN: the host others now see us by, for the length of our lines. */
void
irc_register_host(struct irc *c, const struct irc_msg *m)
{
	char *at;

	if (m->nparams > 1 && c->userhost[0] != '\0' && (at = strchr(c->userhost, '@')) != NULL)
		snprintf(at + 1, sizeof c->userhost - (size_t)(at + 1 - c->userhost), "%.120s", m->params[1]);
	if (c->join_timer != 0)
		register_join_all(c);   /* cloaked: identified */
}

void
irc_register_logged_in(struct irc *c, const struct irc_msg *m)
{
	(void)m;
	adapter_log(c->a, LOG_LVL_INFO, "logged in to services");
	if (c->join_timer != 0)
		register_join_all(c);
}

void
irc_register_sasl_ok(struct irc *c, const struct irc_msg *m)
{
	(void)m;
	c->sasl_ok = true;
	irc_register_cap_end(c);
}

/* Without the account the bot is whoever its nick says, and services may
 * rename it or keep it out of channels: unless the operator said
 * sasl_required = no, it does not go on. */
static void
register_refuse(struct irc *c, const char *why)
{
	if (c->refusing)
		return;
	c->refusing = true;
	adapter_log(c->a, LOG_LVL_ERR, "%s: not going on without the account (sasl_required = yes); "
	            "trying again later", why);
	irc_send_proto(c, "QUIT :SASL failed");
	irc_conn_disconnect(c, "SASL failed");
}

void
irc_register_sasl_failed(struct irc *c, const struct irc_msg *m)
{
	char why[160];

	snprintf(why, sizeof why, "SASL %s failed (%s)", c->sasl_mech, m->command);
	if (c->sasl_required && c->state == IRC_REGISTERING) {
		register_refuse(c, why);
		return;
	}
	adapter_log(c->a, LOG_LVL_WARNING, "%s; going on without it (sasl_required = no)", why);
	irc_register_cap_end(c);
}

/* Registration is ending without SASL having logged us in: refused if required. */
bool
irc_register_sasl_missing(struct irc *c)
{
	if (c->sasl_mech[0] == '\0' || c->sasl_ok || !c->sasl_required)
		return false;
	register_refuse(c, c->cap_sasl ? "SASL did not log in" : "the server offers no SASL");
	return true;
}

/* The nick is taken or refused while registering: the next one to try.
 * Once registered, a refused NICK was our try to take ours back. */
void
irc_register_nick_refused(struct irc *c, const struct irc_msg *m)
{
	if (c->state == IRC_REGISTERING && c->nick_try < 8)
		irc_register_next_nick(c);
	else if (c->state == IRC_READY)
		adapter_log(c->a, LOG_LVL_INFO, "%s is not ours yet (%s): we stay %s", c->nick, m->command, c->cur_nick);
}
