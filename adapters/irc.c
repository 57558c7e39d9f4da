/* irc.c: the IRC adapter: connection (libcurl CONNECT_ONLY, TCP or TLS), registration, IRCv3, events, paced output, recovery. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "adapter.h"
#include "http.h"
#include "irc/irc.h"
#include "loop.h"

#define IRC_VERSION     "handfoot IRC adapter 0.1"
#define MAX_CHANS       64              /* a bit per channel in struct irc_user */
#define TARGET_QUEUE    40              /* lines waiting per target before we refuse more */
#define PROTO_QUEUE     64
#define REGISTER_MS     60000           /* registration must finish within this */
#define UP_WAIT_MS      15000           /* joins that do not answer are given up after this */
#define BACKOFF_MIN_MS  2000
#define RBUF_SIZE       (2 * IRC_MAX_WIRE + 2)

enum conn_state { C_IDLE, C_CONNECTING, C_REGISTERING, C_READY };

struct chan {
	char name[64];
	bool configured;      /* from the configuration: always rejoined */
	bool joined;
	bool failed;          /* the server refused the join */
};

struct irc {
	struct adapter *a;

	/* configuration */
	char server[256];
	long port;
	bool tls;
	char ca_file[256], client_cert[256], client_key[256];
	char nick[32], username[32], realname[128];
	char sasl_mech[16], sasl_user[64], sasl_pass[256];
	char ns_pass[256];
	bool join_on_invite, private_notice, colors;
	long burst, rate_ms, ping_interval_ms, ping_timeout_ms, reconnect_max_ms;

	/* channels: configured first, then those we were invited to */
	struct chan chans[MAX_CHANS];
	int nchans;

	/* the connection */
	enum conn_state state;
	CURL *easy;
	int fd;
	unsigned gen;               /* bumped at every disconnect: stale work notices it */
	char rbuf[RBUF_SIZE];
	size_t rlen;
	bool rskip;                 /* discarding an over-long line up to its LF */
	char wbuf[IRC_MAX_LINE + 2];
	size_t wlen, woff;
	struct irc_queue proto;     /* PONG, CAP, AUTHENTICATE...: always first */
	struct irc_queue out;       /* messages, per target, round-robin */
	struct irc_bucket bucket;
	long long flush_timer, tick_timer, retry_timer;
	int64_t connected_at, last_rx, ping_sent, joins_sent_at, drop_logged;
	int attempts;
	uint64_t rng;

	/* what this connection learnt */
	char cur_nick[64];
	char userhost[192];         /* user@host as others see us; "" if unknown */
	int nick_try;
	bool cap_sasl, cap_account_tag, cap_extjoin, cap_account_notify, cap_batch, cap_server_time;
	bool cap_listing, cap_requested, cap_ended, sasl_ok;
	char sasl_offer[128];       /* the mechanisms in "sasl=..." of CAP LS */
	char cap_req[IRC_MAX_LINE]; /* caps to request, gathered over a multi-line LS */
	char bot_mode[8];           /* ISUPPORT BOT=, "" if none */
	char prefix_chars[16];      /* ISUPPORT PREFIX symbols */
	bool welcomed;              /* 376/422 handled */
	bool up;                    /* BOT_EV_UP emitted for this connection */
	bool stopping;
	char history_batches[8][32];
	struct irc_users users;
};

static void irc_connect(struct irc *c);
static void irc_disconnect(struct irc *c, const char *why);
static void irc_flush(struct irc *c);

/* ------------------------------------------------------------------ small helpers */

static void
copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

static uint64_t
rng_next(struct irc *c)
{
	/* xorshift64*: jitter only, seeded from the clock and the instance */
	c->rng ^= c->rng >> 12;
	c->rng ^= c->rng << 25;
	c->rng ^= c->rng >> 27;
	return c->rng * UINT64_C(2685821657736338717);
}

static bool
is_channel(const char *s)
{
	return s[0] == '#' || s[0] == '&' || s[0] == '+' || s[0] == '!';
}

static bool
valid_chan_name(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || n > 50 || !is_channel(s))
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == 7)
			return false;
	return true;
}

static bool
same(const char *a, const char *b)
{
	char x[64], y[64];

	irc_parse_casefold(x, sizeof x, a);
	irc_parse_casefold(y, sizeof y, b);
	return strcmp(x, y) == 0;
}

static int
chan_find(struct irc *c, const char *name)
{
	for (int i = 0; i < c->nchans; i++)
		if (same(c->chans[i].name, name))
			return i;
	return -1;
}

static int
chan_add(struct irc *c, const char *name, bool configured)
{
	int i = chan_find(c, name);

	if (i >= 0)
		return i;
	if (c->nchans == MAX_CHANS || !valid_chan_name(name))
		return -1;
	i = c->nchans++;
	memset(&c->chans[i], 0, sizeof c->chans[i]);
	copy(c->chans[i].name, sizeof c->chans[i].name, name);
	c->chans[i].configured = configured;
	return i;
}

static void
chan_remove(struct irc *c, int i)
{
	/* users' channel bits follow the array: clear bit i, move the last one down */
	irc_users_part_all(&c->users, i);
	c->nchans--;
	if (i != c->nchans) {
		uint64_t from = UINT64_C(1) << c->nchans, to = UINT64_C(1) << i;

		c->chans[i] = c->chans[c->nchans];
		for (size_t u = 0; u < c->users.n; u++)
			if (c->users.v[u].chans & from)
				c->users.v[u].chans = (c->users.v[u].chans & ~from) | to;
	}
}

/* A line as it may appear in the log: secrets redacted, controls dropped. */
static void
log_line(struct irc *c, const char *dir, const char *line)
{
	char buf[600];
	const char *p = line;

	if (c->a == NULL)
		return;
	if (strncmp(p, "AUTHENTICATE ", 13) == 0 && strcmp(p + 13, "PLAIN") != 0 &&
	    strcmp(p + 13, "EXTERNAL") != 0 && strcmp(p + 13, "+") != 0)
		p = "AUTHENTICATE <redacted>";
	else if (strncasecmp(p, "PRIVMSG NickServ ", 17) == 0 || strncasecmp(p, "PASS ", 5) == 0)
		p = "PRIVMSG NickServ <redacted>";
	irc_text_in(buf, sizeof buf, p);
	adapter_log(c->a, LOG_LVL_DEBUG, "%s %s", dir, buf);
}

/* ------------------------------------------------------------------ output */

static void
schedule_flush(struct irc *c, int64_t ms);

static int64_t
on_flush_timer(struct loop *l, long long id, void *data)
{
	struct irc *c = data;

	(void)l;
	(void)id;
	c->flush_timer = 0;
	irc_flush(c);
	return LOOP_NOMORE;
}

static void
schedule_flush(struct irc *c, int64_t ms)
{
	if (c->flush_timer != 0)
		return;
	c->flush_timer = loop_timer_add(c->a->loop, ms, on_flush_timer, c);
}

static void on_io(struct loop *l, int fd, int mask, void *data);

static void
watch(struct irc *c, bool want_write)
{
	if (c->fd >= 0)
		loop_watch(c->a->loop, c->fd, LOOP_READ | (want_write ? LOOP_WRITE : 0), on_io, c);
}

/* Writes what it can: the pending line, then protocol lines, then paced messages. */
static void
irc_flush(struct irc *c)
{
	if (c->easy == NULL || c->fd < 0)
		return;
	for (;;) {
		char line[IRC_MAX_LINE + 1];
		size_t n;

		if (c->woff < c->wlen) {
			size_t sent = 0;
			CURLcode rc = curl_easy_send(c->easy, c->wbuf + c->woff, c->wlen - c->woff, &sent);

			if (rc == CURLE_AGAIN) {
				watch(c, true);
				return;
			}
			if (rc != CURLE_OK) {
				irc_disconnect(c, curl_easy_strerror(rc));
				return;
			}
			c->woff += sent;
			if (c->woff < c->wlen)
				continue;
			c->woff = c->wlen = 0;
			watch(c, false);
		}
		if ((n = irc_queue_pop(&c->proto, line, sizeof line)) == 0) {
			int64_t wait;

			if (c->state != C_READY || c->out.lines == 0)
				return;
			if ((wait = irc_bucket_wait(&c->bucket, loop_now(c->a->loop))) > 0) {
				schedule_flush(c, wait);
				return;
			}
			n = irc_queue_pop(&c->out, line, sizeof line);
		}
		/* protocol lines skip the wait but still spend a token */
		irc_bucket_take(&c->bucket, loop_now(c->a->loop));
		log_line(c, ">", line);
		memcpy(c->wbuf, line, n);
		memcpy(c->wbuf + n, "\r\n", 2);
		c->wlen = n + 2;
		c->woff = 0;
	}
}

/* Queues a protocol line (printf-style); it goes before any message. */
static void __attribute__((format(printf, 2, 3)))
proto(struct irc *c, const char *fmt, ...)
{
	char line[IRC_MAX_LINE + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > IRC_MAX_LINE - 2)
		n = IRC_MAX_LINE - 2;
	/* nothing from the server reaches here unchecked, but be sure */
	for (int i = 0; i < n; i++)
		if (line[i] == '\r' || line[i] == '\n' || line[i] == '\0')
			line[i] = ' ';
	if (irc_queue_push(&c->proto, "", line, (size_t)n) != 0)
		adapter_log(c->a, LOG_LVL_WARNING, "protocol queue full: line dropped");
	irc_flush(c);
}

/* The longest text in "CMD target :text" that the server can relay with our prefix. */
static size_t
text_room(struct irc *c, const char *cmd, const char *target)
{
	size_t prefix = 1 + strlen(c->cur_nick) + 1 + 1;   /* ":" nick "!" ... " " */
	size_t fixed;

	prefix += c->userhost[0] != '\0' ? strlen(c->userhost) : 10 + 1 + 63;
	fixed = prefix + strlen(cmd) + 1 + strlen(target) + 2 + 2;   /* " :" and CR LF */
	return fixed + 16 < IRC_MAX_LINE ? IRC_MAX_LINE - fixed : 16;
}

/* Queues text (already cleaned) to target, split into lines that fit. */
static int
queue_text(struct irc *c, const char *cmd, const char *target, const char *text)
{
	size_t len = strlen(text), off = 0, room = text_room(c, cmd, target);
	int rc = 0;

	while (off < len) {
		char line[IRC_MAX_LINE + 1];
		size_t n;
		int w;

		while (off < len && text[off] == ' ' && off > 0)
			off++;
		if (off >= len)
			break;
		n = irc_split(text + off, len - off, room);
		w = snprintf(line, sizeof line, "%s %s :%.*s", cmd, target, (int)n, text + off);
		if (w < 0 || irc_queue_push(&c->out, target, line, (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) != 0) {
			/* once a minute at most: a flood must not flood the log too */
			if (loop_now(c->a->loop) - c->drop_logged > 60000) {
				c->drop_logged = loop_now(c->a->loop);
				adapter_log(c->a, LOG_LVL_WARNING, "output queue for %s full: dropping lines", target);
			}
			rc = -1;
			break;
		}
		off += n;
	}
	irc_flush(c);
	return rc;
}

/* ------------------------------------------------------------------ events to the bot */

static void
emit(struct irc *c, enum bot_event_type type, const char *room, struct irc_user *u,
     const char *text, bool direct, bool notice, int64_t ts)
{
	struct bot_event ev;
	char id[80], name[64], clean[IRC_MAX_LINE + 1];

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
		irc_text_in(clean, sizeof clean, text);
		ev.text = clean;
	}
	ev.direct = direct;
	ev.notice = notice;
	ev.ts_ms = ts;
	adapter_emit(c->a, &ev);
}

static void
set_up(struct irc *c)
{
	if (c->up)
		return;
	c->up = true;
	c->attempts = 0;
	adapter_log(c->a, LOG_LVL_NOTICE, "connected to %s:%ld as %s", c->server, c->port, c->cur_nick);
	emit(c, BOT_EV_UP, NULL, NULL, NULL, false, false, 0);
	irc_flush(c);
}

static void
check_up(struct irc *c, bool force)
{
	if (c->up || !c->welcomed)
		return;
	for (int i = 0; i < c->nchans && !force; i++)
		if (!c->chans[i].joined && !c->chans[i].failed)
			return;
	set_up(c);
}

/* ------------------------------------------------------------------ registration */

static void
next_nick(struct irc *c)
{
	char n[40];

	c->nick_try++;
	if (c->nick_try <= 2)
		snprintf(n, sizeof n, "%.28s%s", c->nick, c->nick_try == 1 ? "_" : "__");
	else
		snprintf(n, sizeof n, "%.12s%03u", c->nick, (unsigned)(rng_next(c) % 1000));
	copy(c->cur_nick, sizeof c->cur_nick, n);
	proto(c, "NICK %s", n);
}

static void
cap_end(struct irc *c)
{
	if (c->cap_ended)
		return;
	c->cap_ended = true;
	proto(c, "CAP END");
}

static const char *const wanted_caps[] = {
	"server-time", "message-tags", "account-tag", "account-notify", "extended-join",
	"batch", "multi-prefix", "cap-notify", NULL
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
	copy(list, sizeof list, c->sasl_offer);
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

	copy(buf, sizeof buf, list);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		bool take;

		if (eq != NULL)
			*eq = '\0';
		if (strcmp(tok, "sasl") == 0) {
			copy(c->sasl_offer, sizeof c->sasl_offer, eq != NULL ? eq + 1 : "");
			take = c->sasl_mech[0] != '\0' && mech_offered(c) && c->state == C_REGISTERING;
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

static void
sasl_payload(struct irc *c)
{
	unsigned char raw[400];
	char b64[600];
	size_t ul = strlen(c->sasl_user), pl = strlen(c->sasl_pass), n, off;

	if (strcasecmp(c->sasl_mech, "EXTERNAL") == 0 || ul * 2 + pl + 2 > sizeof raw) {
		proto(c, "AUTHENTICATE +");
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
	memset(raw, 0, sizeof raw);
	/* 400-byte chunks; a payload that fills the last chunk exactly ends with "+" */
	n = strlen(b64);
	for (off = 0; off < n; off += 400)
		proto(c, "AUTHENTICATE %.400s", b64 + off);
	if (n % 400 == 0)
		proto(c, "AUTHENTICATE +");
	memset(b64, 0, sizeof b64);
}

static void
on_cap(struct irc *c, const struct irc_msg *m)
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
		if (more)
			return;
		if (req[0] != '\0') {
			c->cap_requested = true;
			proto(c, "CAP REQ :%s", req);
		} else if (strcmp(sub, "LS") == 0) {
			cap_end(c);
		}
		req[0] = '\0';
	} else if (strcmp(sub, "ACK") == 0) {
		char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;

		copy(buf, sizeof buf, list);
		for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			cap_set(c, tok, true);
		if (c->state == C_REGISTERING && c->cap_sasl && !c->sasl_ok && !c->cap_ended)
			proto(c, "AUTHENTICATE %s", c->sasl_mech);
		else
			cap_end(c);
	} else if (strcmp(sub, "NAK") == 0) {
		adapter_log(c->a, LOG_LVL_WARNING, "server refused capabilities: %s", list);
		cap_end(c);
	} else if (strcmp(sub, "DEL") == 0) {
		char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;

		copy(buf, sizeof buf, list);
		for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			cap_set(c, tok, false);
	}
}

/* After the MOTD: bot mode, NickServ, joins. */
static void
on_welcome_done(struct irc *c)
{
	char list[IRC_MAX_LINE - 16];
	size_t len = 0;

	if (c->welcomed)
		return;
	c->welcomed = true;
	c->state = C_READY;
	if (c->bot_mode[0] != '\0')
		proto(c, "MODE %s +%s", c->cur_nick, c->bot_mode);
	if (c->ns_pass[0] != '\0' && !c->sasl_ok)
		proto(c, "PRIVMSG NickServ :IDENTIFY %s %s", c->nick, c->ns_pass);
	/* JOIN #a,#b,... in as few lines as fit */
	list[0] = '\0';
	for (int i = 0; i < c->nchans; i++) {
		size_t n = strlen(c->chans[i].name);

		c->chans[i].joined = c->chans[i].failed = false;
		if (len + n + 1 >= sizeof list) {
			proto(c, "JOIN %s", list);
			len = 0;
			list[0] = '\0';
		}
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "", c->chans[i].name);
	}
	if (len > 0)
		proto(c, "JOIN %s", list);
	c->joins_sent_at = loop_now(c->a->loop);
	check_up(c, false);
}

static void
on_isupport(struct irc *c, const struct irc_msg *m)
{
	for (int i = 1; i + 1 < m->nparams; i++) {
		const char *t = m->params[i];

		if (strncmp(t, "BOT=", 4) == 0 && strlen(t + 4) < 4 && t[4] != '\0')
			copy(c->bot_mode, sizeof c->bot_mode, t + 4);
		else if (strncmp(t, "PREFIX=", 7) == 0) {
			const char *close = strchr(t, ')');

			if (close != NULL)
				copy(c->prefix_chars, sizeof c->prefix_chars, close + 1);
		}
	}
}

/* ------------------------------------------------------------------ incoming messages */

static bool
from_us(struct irc *c, const struct irc_msg *m)
{
	return m->nick != NULL && same(m->nick, c->cur_nick);
}

/* The user a message is from, with the account its tags tell (NULL for servers). */
static struct irc_user *
source_user(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	const char *acct;

	if (m->nick == NULL || m->user == NULL || m->host == NULL)
		return NULL;
	if ((u = irc_users_get(&c->users, m->nick)) == NULL)
		return NULL;
	copy(u->nick, sizeof u->nick, m->nick);
	/* with account-tag, a message without the tag comes from someone logged out */
	if (c->cap_account_tag) {
		acct = irc_parse_tag(m, "account");
		irc_users_set_account(u, acct);
	}
	return u;
}

static bool
in_history_batch(struct irc *c, const struct irc_msg *m)
{
	const char *ref = irc_parse_tag(m, "batch");

	if (ref == NULL)
		return false;
	for (int i = 0; i < 8; i++)
		if (c->history_batches[i][0] != '\0' && strcmp(c->history_batches[i], ref) == 0)
			return true;
	return false;
}

static void
on_batch(struct irc *c, const struct irc_msg *m)
{
	const char *ref;

	if (m->nparams < 1 || strlen(m->params[0]) < 2)
		return;
	ref = m->params[0] + 1;
	if (m->params[0][0] == '+' && m->nparams >= 2 &&
	    (strcmp(m->params[1], "chathistory") == 0 || strcmp(m->params[1], "draft/chathistory") == 0)) {
		for (int i = 0; i < 8; i++)
			if (c->history_batches[i][0] == '\0') {
				copy(c->history_batches[i], sizeof c->history_batches[i], ref);
				break;
			}
	} else if (m->params[0][0] == '-') {
		for (int i = 0; i < 8; i++)
			if (strcmp(c->history_batches[i], ref) == 0)
				c->history_batches[i][0] = '\0';
	}
}

static void
ctcp(struct irc *c, struct irc_user *u, const char *text)
{
	char cmd[16], arg[64];
	size_t n = strcspn(text + 1, " \001");

	if (n == 0 || n >= sizeof cmd)
		return;
	memcpy(cmd, text + 1, n);
	cmd[n] = '\0';
	irc_text_in(arg, sizeof arg, text[1 + n] == ' ' ? text + 2 + n : "");
	arg[strcspn(arg, "\001")] = '\0';
	/* one pending CTCP answer per user: a CTCP flood cannot fill our queues */
	if (irc_queue_count(&c->out, u->nick) > 0)
		return;
	if (strcmp(cmd, "VERSION") == 0)
		snprintf(arg, sizeof arg, "%s", IRC_VERSION);
	else if (strcmp(cmd, "PING") != 0)
		return;
	{
		char line[IRC_MAX_LINE];
		int w = snprintf(line, sizeof line, "NOTICE %s :\001%s %s\001", u->nick, cmd, arg);

		if (w > 0 && irc_queue_push(&c->out, u->nick, line, (size_t)w < sizeof line ? (size_t)w : sizeof line - 1) == 0)
			irc_flush(c);
	}
}

static void
on_message(struct irc *c, const struct irc_msg *m, bool notice)
{
	struct irc_user *u;
	const char *target, *text;
	int64_t ts = 0;
	const char *t;
	bool direct;

	if (m->nparams < 2 || in_history_batch(c, m) || from_us(c, m))
		return;
	if ((u = source_user(c, m)) == NULL)
		return;     /* server notices */
	target = m->params[0];
	text = m->params[1];
	/* STATUSMSG targets (@#chan) are channel messages too */
	while (*target != '\0' && strchr(c->prefix_chars, *target) != NULL && !is_channel(target))
		target++;
	direct = !is_channel(target);
	if (text[0] == '\001') {
		if (!notice && direct)
			ctcp(c, u, text);
		return;     /* CTCP (ACTION included) is never a command */
	}
	if (!direct && chan_find(c, target) < 0)
		return;
	if (c->cap_server_time && (t = irc_parse_tag(m, "time")) != NULL)
		ts = irc_parse_time(t);
	emit(c, BOT_EV_MESSAGE, direct ? NULL : c->chans[chan_find(c, target)].name, u, text, direct, notice, ts);
}

static void
on_join(struct irc *c, const struct irc_msg *m)
{
	int i;
	struct irc_user *u;

	if (m->nparams < 1 || m->nick == NULL)
		return;
	if (from_us(c, m)) {
		if ((i = chan_add(c, m->params[0], false)) < 0)
			return;
		c->chans[i].joined = true;
		c->chans[i].failed = false;
		if (m->user != NULL && m->host != NULL)
			snprintf(c->userhost, sizeof c->userhost, "%.63s@%.120s", m->user, m->host);
		check_up(c, false);
		return;
	}
	if ((i = chan_find(c, m->params[0])) < 0 || (u = source_user(c, m)) == NULL)
		return;
	if (c->cap_extjoin && m->nparams >= 2)
		irc_users_set_account(u, m->params[1]);
	u->chans |= UINT64_C(1) << i;
	emit(c, BOT_EV_JOIN, c->chans[i].name, u, NULL, false, false, 0);
}

static void
user_left(struct irc *c, int i, const char *nick)
{
	struct irc_user *u = irc_users_find(&c->users, nick);

	if (u == NULL)
		return;
	emit(c, BOT_EV_LEAVE, c->chans[i].name, u, NULL, false, false, 0);
	u->chans &= ~(UINT64_C(1) << i);
	if (u->chans == 0)
		irc_users_remove(&c->users, u);
}

static void
we_left(struct irc *c, int i)
{
	adapter_log(c->a, LOG_LVL_NOTICE, "left %s", c->chans[i].name);
	if (!c->chans[i].configured)
		adapter_state_del(c->a, c->chans[i].name);
	chan_remove(c, i);
}

static void
on_part(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 1 || m->nick == NULL || (i = chan_find(c, m->params[0])) < 0)
		return;
	if (from_us(c, m))
		we_left(c, i);
	else
		user_left(c, i, m->nick);
}

static void
on_kick(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = chan_find(c, m->params[0])) < 0)
		return;
	/* kicked: we respect it and do not rejoin until restarted or invited */
	if (same(m->params[1], c->cur_nick)) {
		adapter_log(c->a, LOG_LVL_WARNING, "kicked from %s", c->chans[i].name);
		we_left(c, i);
	} else {
		user_left(c, i, m->params[1]);
	}
}

static void
on_quit(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;

	if (m->nick == NULL || (u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	emit(c, BOT_EV_LEAVE, NULL, u, NULL, false, false, 0);
	irc_users_remove(&c->users, u);
}

static void
on_nick(struct irc *c, const struct irc_msg *m)
{
	struct irc_user *u;
	char newnick[64];

	if (m->nparams < 1 || m->nick == NULL)
		return;
	irc_text_in(newnick, sizeof newnick, m->params[0]);
	if (from_us(c, m)) {
		copy(c->cur_nick, sizeof c->cur_nick, newnick);
		adapter_set_self(c->a, c->cur_nick);   /* "NewNick: draw" addresses the bot */
		return;
	}
	if ((u = irc_users_find(&c->users, m->nick)) == NULL)
		return;
	irc_users_rename(&c->users, u, newnick);
	if ((u = irc_users_find(&c->users, newnick)) != NULL)
		emit(c, BOT_EV_RENAME, NULL, u, newnick, false, false, 0);
}

static void
on_names(struct irc *c, const struct irc_msg *m)
{
	char buf[IRC_MAX_LINE + 1], *tok, *save = NULL;
	int i;

	/* 353 me = #chan :@op +voice nick */
	if (m->nparams < 4 || (i = chan_find(c, m->params[2])) < 0)
		return;
	copy(buf, sizeof buf, m->params[3]);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		struct irc_user *u;

		while (*tok != '\0' && (strchr(c->prefix_chars, *tok) != NULL || strchr("~&@%+", *tok) != NULL))
			tok++;
		tok[strcspn(tok, "!")] = '\0';     /* userhost-in-names */
		if (*tok == '\0' || same(tok, c->cur_nick) || (u = irc_users_get(&c->users, tok)) == NULL)
			continue;
		u->chans |= UINT64_C(1) << i;
	}
}

static void
on_invite(struct irc *c, const struct irc_msg *m)
{
	if (m->nparams < 2 || !same(m->params[0], c->cur_nick) || !c->join_on_invite)
		return;
	if (chan_find(c, m->params[1]) >= 0 || !valid_chan_name(m->params[1]))
		return;
	if (chan_add(c, m->params[1], false) < 0)
		return;
	/* remembered, so that a restart joins it again */
	adapter_state_set(c->a, c->chans[chan_find(c, m->params[1])].name, "invited");
	adapter_log(c->a, LOG_LVL_NOTICE, "invited to %s", m->params[1]);
	proto(c, "JOIN %s", m->params[1]);
}

static void
on_join_failed(struct irc *c, const struct irc_msg *m)
{
	int i;

	if (m->nparams < 2 || (i = chan_find(c, m->params[1])) < 0)
		return;
	adapter_log(c->a, LOG_LVL_WARNING, "cannot join %s: %s", c->chans[i].name,
	            m->nparams > 2 ? m->params[2] : m->command);
	c->chans[i].failed = true;
	check_up(c, false);
}

static void
on_no_such_nick(struct irc *c, const struct irc_msg *m)
{
	struct bot_event ev;
	char id[80], name[64];
	struct irc_user *u;

	if (m->nparams < 2 || is_channel(m->params[1]))
		return;
	irc_text_in(name, sizeof name, m->params[1]);
	if ((u = irc_users_find(&c->users, name)) != NULL) {
		irc_users_id(u, id, sizeof id);
		irc_users_remove(&c->users, u);
	} else {
		char key[64];

		irc_parse_casefold(key, sizeof key, name);
		snprintf(id, sizeof id, "nick:%s", key);
	}
	memset(&ev, 0, sizeof ev);
	ev.type = BOT_EV_SEND_FAILED;
	ev.user_id = id;
	ev.user_name = name;
	ev.text = "no such nick";
	adapter_emit(c->a, &ev);
}

static void
on_line(struct irc *c, char *line, size_t len)
{
	struct irc_msg m;
	const char *cmd;

	if (irc_parse(line, len, &m) != 0)
		return;
	cmd = m.command;
	if (strcmp(cmd, "PING") == 0) {
		proto(c, "PONG :%s", m.nparams > 0 ? m.params[0] : "");
	} else if (strcmp(cmd, "PONG") == 0) {
		c->ping_sent = 0;
	} else if (strcmp(cmd, "PRIVMSG") == 0 || strcmp(cmd, "NOTICE") == 0) {
		on_message(c, &m, cmd[0] == 'N');
	} else if (strcmp(cmd, "JOIN") == 0) {
		on_join(c, &m);
	} else if (strcmp(cmd, "PART") == 0) {
		on_part(c, &m);
	} else if (strcmp(cmd, "KICK") == 0) {
		on_kick(c, &m);
	} else if (strcmp(cmd, "QUIT") == 0) {
		on_quit(c, &m);
	} else if (strcmp(cmd, "NICK") == 0) {
		on_nick(c, &m);
	} else if (strcmp(cmd, "ACCOUNT") == 0) {
		struct irc_user *u;

		if (m.nick != NULL && m.nparams > 0 && (u = irc_users_find(&c->users, m.nick)) != NULL)
			irc_users_set_account(u, m.params[0]);
	} else if (strcmp(cmd, "INVITE") == 0) {
		on_invite(c, &m);
	} else if (strcmp(cmd, "BATCH") == 0) {
		on_batch(c, &m);
	} else if (strcmp(cmd, "CAP") == 0) {
		on_cap(c, &m);
	} else if (strcmp(cmd, "AUTHENTICATE") == 0) {
		if (m.nparams > 0 && strcmp(m.params[0], "+") == 0)
			sasl_payload(c);
	} else if (strcmp(cmd, "ERROR") == 0) {
		char why[200];

		irc_text_in(why, sizeof why, m.nparams > 0 ? m.params[0] : "");
		adapter_log(c->a, LOG_LVL_WARNING, "server closed the link: %s", why);
	} else if (strcmp(cmd, "001") == 0) {
		if (m.nparams > 0)
			irc_text_in(c->cur_nick, sizeof c->cur_nick, m.params[0]);
		adapter_set_self(c->a, c->cur_nick);
		c->cap_ended = true;     /* a server that ignored CAP registers us all the same */
	} else if (strcmp(cmd, "005") == 0) {
		on_isupport(c, &m);
	} else if (strcmp(cmd, "376") == 0 || strcmp(cmd, "422") == 0) {
		on_welcome_done(c);
	} else if (strcmp(cmd, "396") == 0) {
		if (m.nparams > 1 && c->userhost[0] != '\0') {
			char *at = strchr(c->userhost, '@');

			if (at != NULL)
				snprintf(at + 1, sizeof c->userhost - (size_t)(at + 1 - c->userhost), "%.120s", m.params[1]);
		}
	} else if (strcmp(cmd, "353") == 0) {
		on_names(c, &m);
	} else if (strcmp(cmd, "900") == 0) {
		adapter_log(c->a, LOG_LVL_INFO, "logged in to services");
	} else if (strcmp(cmd, "903") == 0) {
		c->sasl_ok = true;
		cap_end(c);
	} else if (strcmp(cmd, "902") == 0 || strcmp(cmd, "904") == 0 || strcmp(cmd, "905") == 0 ||
	           strcmp(cmd, "906") == 0 || strcmp(cmd, "908") == 0) {
		if (strcmp(cmd, "908") != 0) {
			adapter_log(c->a, LOG_LVL_WARNING, "SASL %s failed (%s); going on without it", c->sasl_mech, cmd);
			cap_end(c);
		}
	} else if (strcmp(cmd, "432") == 0 || strcmp(cmd, "433") == 0 || strcmp(cmd, "436") == 0 ||
	           strcmp(cmd, "437") == 0) {
		if (c->state == C_REGISTERING && c->nick_try < 8)
			next_nick(c);
	} else if (strcmp(cmd, "401") == 0) {
		on_no_such_nick(c, &m);
	} else if (strcmp(cmd, "403") == 0 || strcmp(cmd, "405") == 0 || strcmp(cmd, "471") == 0 ||
	           strcmp(cmd, "473") == 0 || strcmp(cmd, "474") == 0 || strcmp(cmd, "475") == 0 ||
	           strcmp(cmd, "477") == 0 || strcmp(cmd, "489") == 0) {
		on_join_failed(c, &m);
	}
}

/* ------------------------------------------------------------------ the connection */

/* ACK what we read at once. Servers write to us with Nagle on (ngircd
 * does): a command that follows other channel traffic would wait for our
 * delayed ACK, 40 ms on Linux, before the server sends it at all.  The
 * kernel clears the flag again, so it is set after every read. */
static void
quick_ack(struct irc *c)
{
#ifdef TCP_QUICKACK
	int one = 1;

	if (c->fd >= 0)
		setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#else
	(void)c;
#endif
}

static void
on_readable(struct irc *c)
{
	unsigned gen = c->gen;

	for (;;) {
		size_t got = 0, start = 0;
		CURLcode rc;

		if (c->rlen >= sizeof c->rbuf - 1) {
			/* an over-long line: drop what we have and skip to its end */
			c->rlen = 0;
			c->rskip = true;
		}
		rc = curl_easy_recv(c->easy, c->rbuf + c->rlen, sizeof c->rbuf - 1 - c->rlen, &got);
		if (rc == CURLE_AGAIN)
			return;
		if (rc != CURLE_OK || got == 0) {
			irc_disconnect(c, rc != CURLE_OK ? curl_easy_strerror(rc) : "connection closed by the server");
			return;
		}
		c->last_rx = loop_now(c->a->loop);
		c->ping_sent = 0;
		quick_ack(c);
		c->rlen += got;
		for (size_t i = 0; i < c->rlen; i++) {
			size_t end;

			if (c->rbuf[i] != '\n')
				continue;
			end = i;
			if (end > start && c->rbuf[end - 1] == '\r')
				end--;
			if (c->rskip) {
				c->rskip = false;
			} else if (end > start) {
				char line[IRC_MAX_WIRE + 1];

				if (end - start < sizeof line) {
					memcpy(line, c->rbuf + start, end - start);
					line[end - start] = '\0';
					log_line(c, "<", line);
					on_line(c, line, end - start);
					/* the line may have ended the connection */
					if (c->gen != gen)
						return;
				}
			}
			start = i + 1;
		}
		memmove(c->rbuf, c->rbuf + start, c->rlen - start);
		c->rlen -= start;
	}
}

static void
on_io(struct loop *l, int fd, int mask, void *data)
{
	struct irc *c = data;
	unsigned gen = c->gen;

	(void)l;
	(void)fd;
	if (mask & LOOP_READ)
		on_readable(c);
	if (c->gen == gen && (mask & LOOP_WRITE))
		irc_flush(c);
}

static int64_t
on_retry(struct loop *l, long long id, void *data)
{
	struct irc *c = data;

	(void)l;
	(void)id;
	c->retry_timer = 0;
	irc_connect(c);
	return LOOP_NOMORE;
}

static void
schedule_retry(struct irc *c)
{
	int64_t delay = BACKOFF_MIN_MS;

	for (int i = 0; i < c->attempts && delay < c->reconnect_max_ms; i++)
		delay *= 2;
	if (delay > c->reconnect_max_ms)
		delay = c->reconnect_max_ms;
	/* +-25% jitter: many bots cut by one netsplit do not all come back at once */
	delay = delay * 3 / 4 + (int64_t)(rng_next(c) % (uint64_t)(delay / 2 + 1));
	c->attempts++;
	adapter_log(c->a, LOG_LVL_NOTICE, "reconnecting to %s:%ld in %lld ms", c->server, c->port, (long long)delay);
	c->retry_timer = loop_timer_add(c->a->loop, delay, on_retry, c);
}

/* Drops the connection; unless stopping, reports DOWN and schedules a reconnect. */
static void
irc_disconnect(struct irc *c, const char *why)
{
	bool was_up = c->up;

	c->gen++;
	if (c->fd >= 0)
		loop_unwatch(c->a->loop, c->fd);
	c->fd = -1;
	if (c->easy != NULL) {
		http_remove(c->a->http, c->easy);
		curl_easy_cleanup(c->easy);
		c->easy = NULL;
	}
	if (c->flush_timer != 0) {
		loop_timer_del(c->a->loop, c->flush_timer);
		c->flush_timer = 0;
	}
	c->state = C_IDLE;
	c->up = false;
	c->rlen = c->wlen = c->woff = 0;
	c->rskip = false;
	irc_queue_clear(&c->proto);
	irc_users_clear(&c->users);
	for (int i = 0; i < c->nchans; i++)
		c->chans[i].joined = false;
	if (c->stopping)
		return;
	adapter_log(c->a, LOG_LVL_WARNING, "disconnected from %s:%ld: %s", c->server, c->port, why);
	if (was_up)
		emit(c, BOT_EV_DOWN, NULL, NULL, why, false, false, 0);
	/* messages queued for the rooms wait for the next connection */
	schedule_retry(c);
}

static void
on_connected(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct irc *c = data;
	curl_socket_t s = CURL_SOCKET_BAD;

	(void)h;
	(void)easy;
	if (rc != CURLE_OK || curl_easy_getinfo(c->easy, CURLINFO_ACTIVESOCKET, &s) != CURLE_OK ||
	    s == CURL_SOCKET_BAD) {
		irc_disconnect(c, rc != CURLE_OK ? curl_easy_strerror(rc) : "no socket");
		return;
	}
	c->fd = (int)s;
	c->state = C_REGISTERING;
	c->connected_at = c->last_rx = loop_now(c->a->loop);
	watch(c, false);
	adapter_log(c->a, LOG_LVL_INFO, "connected to %s:%ld%s, registering", c->server, c->port,
	            c->tls ? " (TLS)" : "");
	proto(c, "CAP LS 302");
	proto(c, "NICK %s", c->cur_nick);
	proto(c, "USER %s 0 * :%s", c->username, c->realname);
	/* TLS may already hold the server's first lines */
	on_readable(c);
}

static void
irc_connect(struct irc *c)
{
	char url[300];

	if (c->easy != NULL || c->stopping)
		return;
	if ((c->easy = curl_easy_init()) == NULL) {
		schedule_retry(c);
		return;
	}
	/* libcurl's CONNECT_ONLY with an http(s) URL: a TCP connection, plus the
	 * TLS handshake (certificate and host name checked, SNI sent) for https;
	 * no HTTP request is ever sent */
	snprintf(url, sizeof url, strchr(c->server, ':') != NULL ? "%s://[%s]:%ld" : "%s://%s:%ld",
	         c->tls ? "https" : "http", c->server, c->port);
	curl_easy_setopt(c->easy, CURLOPT_URL, url);
	curl_easy_setopt(c->easy, CURLOPT_PROXY, "");      /* no $http_proxy: IRC goes direct */
	curl_easy_setopt(c->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->easy, CURLOPT_CONNECTTIMEOUT_MS, 30000L);
	curl_easy_setopt(c->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c->easy, CURLOPT_SSL_ENABLE_ALPN, 0L);   /* an IRC server speaks no ALPN */
	if (c->ca_file[0] != '\0')
		curl_easy_setopt(c->easy, CURLOPT_CAINFO, c->ca_file);
	if (c->client_cert[0] != '\0')
		curl_easy_setopt(c->easy, CURLOPT_SSLCERT, c->client_cert);
	if (c->client_key[0] != '\0')
		curl_easy_setopt(c->easy, CURLOPT_SSLKEY, c->client_key);
	/* a fresh connection learns everything again */
	copy(c->cur_nick, sizeof c->cur_nick, c->nick);
	c->userhost[0] = '\0';
	c->bot_mode[0] = '\0';
	copy(c->prefix_chars, sizeof c->prefix_chars, "~&@%+");
	c->nick_try = 0;
	c->cap_sasl = c->cap_account_tag = c->cap_extjoin = c->cap_account_notify = false;
	c->cap_batch = c->cap_server_time = c->cap_listing = c->cap_requested = false;
	c->cap_ended = c->sasl_ok = c->welcomed = false;
	c->ping_sent = 0;
	memset(c->history_batches, 0, sizeof c->history_batches);
	irc_bucket_init(&c->bucket, (int)c->burst, c->rate_ms);
	c->state = C_CONNECTING;
	c->connected_at = loop_now(c->a->loop);
	adapter_log(c->a, LOG_LVL_INFO, "connecting to %s", url);
	if (http_add_stream(c->a->http, c->easy, on_connected, c) != 0) {
		curl_easy_cleanup(c->easy);
		c->easy = NULL;
		c->state = C_IDLE;
		schedule_retry(c);
	}
}

/* Once a second: keep-alive, dead-link detection, registration and join time-outs. */
static int64_t
on_tick(struct loop *l, long long id, void *data)
{
	struct irc *c = data;
	int64_t now = loop_now(l);

	(void)id;
	if (c->state == C_REGISTERING && now - c->connected_at > REGISTER_MS) {
		irc_disconnect(c, "registration timed out");
	} else if (c->state == C_READY || c->state == C_REGISTERING) {
		if (c->ping_sent != 0 && now - c->ping_sent > c->ping_timeout_ms) {
			irc_disconnect(c, "ping timeout");
		} else if (c->ping_sent == 0 && now - c->last_rx > c->ping_interval_ms) {
			c->ping_sent = now;
			proto(c, "PING :hf%lld", (long long)now);
		} else if (c->welcomed && !c->up && now - c->joins_sent_at > UP_WAIT_MS) {
			check_up(c, true);
		}
	}
	return 1000;
}

/* ------------------------------------------------------------------ the ops */

static int
cfg_str(struct adapter_cfg *cfg, const char *key, const char *def, char *dst, size_t len,
        char *err, size_t errlen)
{
	const char *v = adapter_cfg_get(cfg, key, def);

	if (v == NULL)
		v = "";
	if (strlen(v) >= len) {
		adapter_cfg_error(cfg, key, err, errlen, "too long (at most %zu bytes)", len - 1);
		return -1;
	}
	for (const char *p = v; *p != '\0'; p++)
		if ((unsigned char)*p < ' ') {
			adapter_cfg_error(cfg, key, err, errlen, "control characters are not allowed");
			return -1;
		}
	copy(dst, len, v);
	return 0;
}

static int
read_secret(struct adapter_cfg *cfg, const char *key, char *dst, size_t len, char *err, size_t errlen)
{
	const char *path = adapter_cfg_get(cfg, key, NULL);
	char why[256];

	dst[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return 0;
	if (adapter_read_secret(path, dst, len, why, sizeof why) != 0) {
		adapter_cfg_error(cfg, key, err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

static int
irc_init(struct adapter *a, struct adapter_cfg *cfg, char *err, size_t errlen)
{
	struct irc *c = calloc(1, sizeof *c);
	char chans[1024], *tok, *save = NULL, mode[16];
	long v;

	if (c == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->a = a;
	c->fd = -1;
	a->priv = c;
	if (cfg_str(cfg, "server", "localhost", c->server, sizeof c->server, err, errlen) ||
	    adapter_cfg_bool(cfg, "tls", true, &c->tls, err, errlen) ||
	    adapter_cfg_int(cfg, "port", c->tls ? 6697 : 6667, 1, 65535, &c->port, err, errlen) ||
	    cfg_str(cfg, "ca_file", "", c->ca_file, sizeof c->ca_file, err, errlen) ||
	    cfg_str(cfg, "client_cert", "", c->client_cert, sizeof c->client_cert, err, errlen) ||
	    cfg_str(cfg, "client_key", "", c->client_key, sizeof c->client_key, err, errlen) ||
	    cfg_str(cfg, "nick", "HandFoot", c->nick, sizeof c->nick, err, errlen) ||
	    cfg_str(cfg, "username", "handfoot", c->username, sizeof c->username, err, errlen) ||
	    cfg_str(cfg, "realname", "Hand and Foot card game bot", c->realname, sizeof c->realname, err, errlen) ||
	    cfg_str(cfg, "channels", "", chans, sizeof chans, err, errlen) ||
	    cfg_str(cfg, "sasl_mechanism", "", c->sasl_mech, sizeof c->sasl_mech, err, errlen) ||
	    cfg_str(cfg, "sasl_user", "", c->sasl_user, sizeof c->sasl_user, err, errlen) ||
	    read_secret(cfg, "sasl_password_file", c->sasl_pass, sizeof c->sasl_pass, err, errlen) ||
	    read_secret(cfg, "nickserv_password_file", c->ns_pass, sizeof c->ns_pass, err, errlen) ||
	    adapter_cfg_bool(cfg, "join_on_invite", false, &c->join_on_invite, err, errlen) ||
	    adapter_cfg_int(cfg, "flood_burst", 5, 1, 100, &c->burst, err, errlen) ||
	    adapter_cfg_int(cfg, "flood_rate", 2000, 0, 60000, &c->rate_ms, err, errlen) ||
	    cfg_str(cfg, "private", "notice", mode, sizeof mode, err, errlen) ||
	    adapter_cfg_bool(cfg, "colors", true, &c->colors, err, errlen) ||
	    adapter_cfg_int(cfg, "ping_interval", 120, 5, 3600, &v, err, errlen))
		goto fail;
	c->ping_interval_ms = v * 1000;
	if (adapter_cfg_int(cfg, "ping_timeout", 60, 5, 3600, &v, err, errlen))
		goto fail;
	c->ping_timeout_ms = v * 1000;
	if (adapter_cfg_int(cfg, "reconnect_max", 300, 2, 86400, &v, err, errlen))
		goto fail;
	c->reconnect_max_ms = v * 1000;
	if (strcmp(mode, "notice") == 0)
		c->private_notice = true;
	else if (strcmp(mode, "privmsg") != 0) {
		adapter_cfg_error(cfg, "private", err, errlen, "must be notice or privmsg");
		goto fail;
	}
	for (char *p = c->nick; *p != '\0'; p++)
		if (*p == ' ' || *p == ',' || *p == ':' || *p == '!' || *p == '@' || *p == '#') {
			adapter_cfg_error(cfg, "nick", err, errlen, "not a valid nickname");
			goto fail;
		}
	if (c->nick[0] == '\0' || strchr(c->username, ' ') != NULL || c->username[0] == '\0') {
		adapter_cfg_error(cfg, "nick", err, errlen, "nick and username must not be empty or hold spaces");
		goto fail;
	}
	if (c->sasl_mech[0] != '\0') {
		for (char *p = c->sasl_mech; *p != '\0'; p++)
			if (*p >= 'a' && *p <= 'z')
				*p -= 'a' - 'A';
		if (strcmp(c->sasl_mech, "PLAIN") != 0 && strcmp(c->sasl_mech, "EXTERNAL") != 0) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "must be PLAIN or EXTERNAL");
			goto fail;
		}
		if (strcmp(c->sasl_mech, "PLAIN") == 0 && (c->sasl_user[0] == '\0' || c->sasl_pass[0] == '\0')) {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "PLAIN needs sasl_user and sasl_password_file");
			goto fail;
		}
		if (strcmp(c->sasl_mech, "EXTERNAL") == 0 && c->client_cert[0] == '\0') {
			adapter_cfg_error(cfg, "sasl_mechanism", err, errlen, "EXTERNAL needs client_cert");
			goto fail;
		}
	}
	for (tok = strtok_r(chans, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save))
		if (chan_add(c, tok, true) < 0) {
			adapter_cfg_error(cfg, "channels", err, errlen, "bad channel name \"%s\" (or too many)", tok);
			goto fail;
		}
	if (!c->colors)
		a->caps_off |= ADAPTER_CAP_COLOR;
	irc_queue_init(&c->proto, PROTO_QUEUE);
	irc_queue_init(&c->out, TARGET_QUEUE);
	return 0;
fail:
	memset(c->sasl_pass, 0, sizeof c->sasl_pass);
	memset(c->ns_pass, 0, sizeof c->ns_pass);
	free(c);
	a->priv = NULL;
	return -1;
}

static void
add_invited(void *ctx, const char *key, const char *value)
{
	(void)value;
	chan_add(ctx, key, false);
}

static int
irc_start(struct adapter *a)
{
	struct irc *c = a->priv;

	c->rng = (uint64_t)loop_now(a->loop) ^ (uint64_t)(uintptr_t)c ^ UINT64_C(0x9E3779B97F4A7C15);
	if (c->rng == 0)
		c->rng = 1;
	c->stopping = false;
	/* channels we were invited to before a restart */
	adapter_state_each(a, "#", add_invited, c);
	adapter_state_each(a, "&", add_invited, c);
	if (c->tick_timer == 0)
		c->tick_timer = loop_timer_add(a->loop, 1000, on_tick, c);
	irc_connect(c);
	return 0;
}

static int
irc_send(struct adapter *a, const struct adapter_msg *m)
{
	struct irc *c = a->priv;
	char text[4096];
	const char *target, *cmd = "PRIVMSG";

	if (m->text == NULL)
		return -1;
	irc_text_out(text, sizeof text, m->text, c->colors);
	if (m->kind == MSG_ROOM) {
		if (m->room == NULL || chan_find(c, m->room) < 0)
			return -1;
		target = c->chans[chan_find(c, m->room)].name;
	} else {
		if (m->user_id == NULL)
			return -1;
		target = irc_users_nick_for(&c->users, m->user_id);
		/* a nick-keyed player we have not seen on this connection: the nick itself,
		 * unless someone else wears it now */
		if (target == NULL && strncmp(m->user_id, "nick:", 5) == 0 && strchr(m->user_id, '~') == NULL) {
			struct irc_user *u = irc_users_find(&c->users, m->user_id + 5);

			if (u == NULL || u->account[0] == '\0')
				target = m->user_id + 5;
		}
		if (target == NULL || strchr(target, ' ') != NULL || target[0] == '\0') {
			adapter_log(a, LOG_LVL_INFO, "no user %s on this network now: private message dropped", m->user_id);
			return -1;
		}
		/* the player's choice wins; the section's "private" key is for the rest */
		if (m->private_as == PRIVATE_NOTICE || (m->private_as == PRIVATE_DEFAULT && c->private_notice))
			cmd = "NOTICE";
	}
	return queue_text(c, cmd, target, text);
}

/* Lines waiting for a channel: the bot's computer seats wait for 0, so the 40-line cap never drops a game's lines. */
static size_t
irc_pending(struct adapter *a, const char *room)
{
	struct irc *c = a->priv;
	int i = chan_find(c, room);

	return i < 0 ? 0 : irc_queue_count(&c->out, c->chans[i].name);
}

static void
irc_stop(struct adapter *a, const char *quit_message)
{
	struct irc *c = a->priv;

	if (c == NULL)
		return;
	c->stopping = true;
	if (c->easy != NULL && c->fd >= 0) {
		char line[IRC_MAX_LINE];
		char clean[300];
		size_t sent = 0;
		int n;

		/* best effort, now: QUIT goes before anything still queued */
		irc_text_out(clean, sizeof clean, quit_message != NULL ? quit_message : "bye", false);
		n = snprintf(line, sizeof line, "QUIT :%s\r\n", clean);
		if (c->woff == c->wlen && n > 0)
			curl_easy_send(c->easy, line, (size_t)n, &sent);
	}
	irc_disconnect(c, "stopped");
	if (c->retry_timer != 0) {
		loop_timer_del(a->loop, c->retry_timer);
		c->retry_timer = 0;
	}
	if (c->tick_timer != 0) {
		loop_timer_del(a->loop, c->tick_timer);
		c->tick_timer = 0;
	}
}

static void
irc_free(struct adapter *a)
{
	struct irc *c = a->priv;

	if (c == NULL)
		return;
	if (c->easy != NULL || c->tick_timer != 0 || c->retry_timer != 0)
		irc_stop(a, NULL);
	irc_queue_clear(&c->out);
	irc_queue_clear(&c->proto);
	irc_users_clear(&c->users);
	memset(c->sasl_pass, 0, sizeof c->sasl_pass);
	memset(c->ns_pass, 0, sizeof c->ns_pass);
	free(c);
	a->priv = NULL;
}

static bool
irc_needs_restart(struct adapter *a, struct adapter_cfg *cfg)
{
	struct irc *c = a->priv;
	const struct { const char *key, *def, *now; } k[] = {
		{ "server", "localhost", c->server }, { "nick", "HandFoot", c->nick },
		{ "username", "handfoot", c->username }, { "ca_file", "", c->ca_file },
		{ "client_cert", "", c->client_cert }, { "client_key", "", c->client_key },
		{ "sasl_mechanism", "", c->sasl_mech }, { "sasl_user", "", c->sasl_user },
	};
	char err[8];
	long port;
	bool tls;

	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		const char *v = adapter_cfg_get(cfg, k[i].key, k[i].def);

		if (strcasecmp(v != NULL ? v : "", k[i].now) != 0)
			return true;
	}
	if (adapter_cfg_bool(cfg, "tls", true, &tls, err, sizeof err) != 0 || tls != c->tls)
		return true;
	if (adapter_cfg_int(cfg, "port", tls ? 6697 : 6667, 1, 65535, &port, err, sizeof err) != 0 || port != c->port)
		return true;
	return false;
}

const struct adapter_ops irc_adapter_ops = {
	.type = "irc",
	.caps = ADAPTER_CAP_NOTICE | ADAPTER_CAP_COLOR,
	.max_line = 400,
	.init = irc_init,
	.start = irc_start,
	.send = irc_send,
	.stop = irc_stop,
	.free = irc_free,
	.needs_restart = irc_needs_restart,
	.pending = irc_pending,
};
