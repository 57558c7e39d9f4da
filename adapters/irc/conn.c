/* conn.c: the connection: libcurl CONNECT_ONLY (TCP or TLS), reading lines, reconnecting with backoff, keep-alive PING. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "client.h"
#include "http.h"
#include "log.h"
#include "loop.h"
#include "xorshift.h"

#define REGISTER_MS     60000           /* registration must finish within this */
#define UP_WAIT_MS      15000           /* joins that do not answer are given up after this */
#define BACKOFF_MIN_MS  2000

/* A line as it may appear in the log: secrets redacted, controls dropped. */
void
irc_conn_log(struct irc *c, const char *dir, const char *line)
{
	char buf[600];
	const char *p = line;
	char priv[160];

	if (c->a == NULL || log_level < LOG_LVL_DEBUG)
		return;
	if (strncmp(p, "AUTHENTICATE ", 13) == 0 && strcmp(p + 13, "PLAIN") != 0 &&
	    strcmp(p + 13, "EXTERNAL") != 0 && strcmp(p + 13, "+") != 0)
		p = "AUTHENTICATE <redacted>";
	else if (strncasecmp(p, "PRIVMSG NickServ ", 17) == 0 ||
	         (strncmp(p, "PRIVMSG ", 8) == 0 && strncasecmp(p + 8, c->ns_target, strlen(c->ns_target)) == 0 &&
	          p[8 + strlen(c->ns_target)] == ' '))
		p = "PRIVMSG NickServ <redacted>";
	else if (strncasecmp(p, "PASS ", 5) == 0)
		p = "PASS <redacted>";
	else if (dir[0] == '>' && (strncmp(p, "PRIVMSG ", 8) == 0 || strncmp(p, "NOTICE ", 7) == 0)) {
		/* a private line to a player is their hand: only its length is logged */
		const char *target = p + (p[0] == 'P' ? 8 : 7), *text = strstr(target, " :");
		size_t tlen = strcspn(target, " ");

		if (!irc_chan_is(target) && text != NULL) {
			snprintf(priv, sizeof priv, "%.*s <private, %zu bytes>", (int)(target + tlen - p), p, strlen(text + 2));
			p = priv;
		}
	}
	irc_text_in(buf, sizeof buf, p);
	adapter_log(c->a, LOG_LVL_DEBUG, "%s %s", dir, buf);
}

static void on_io(struct loop *l, int fd, int mask, void *data);

void
irc_conn_watch(struct irc *c, bool want_write)
{
	if (c->fd >= 0)
		loop_watch(c->a->loop, c->fd, LOOP_READ | (want_write ? LOOP_WRITE : 0), on_io, c);
}

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
			irc_conn_disconnect(c, rc != CURLE_OK ? curl_easy_strerror(rc) : "connection closed by the server");
			return;
		}
		c->last_rx = loop_now(c->a->loop);
		c->ping_sent = 0;
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
					irc_conn_log(c, "<", line);
					irc_events_line(c, line, end - start);
					/* the line may have ended the connection */
					if (c->gen != gen)
						return;
				}
			}
			start = i + 1;
		}
		memmove(c->rbuf, c->rbuf + start, c->rlen - start);
		c->rlen -= start;
		/* after the lines are handled: an answer sent meanwhile carried
		 * the ACK, and a quick ACK before it would put one more packet
		 * between the command and its answer */
		quick_ack(c);
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
		irc_send_flush(c);
}

static void
on_retry(void *data)
{
	irc_conn_connect(data);
}

/* The next attempt's timer; its delay in ms. */
static int64_t
schedule_retry(struct irc *c)
{
	int64_t delay;

	c->retry.first_ms = BACKOFF_MIN_MS;
	c->retry.max_ms = c->reconnect_max_ms;   /* as the last reload left it */
	/* +-25% jitter: many bots cut by one netsplit do not all come back at once */
	c->retry.jitter_pct = 50;
	c->retry.centred = true;
	delay = backoff_next(&c->retry, xorshift_next32(&c->rng));
	delay = irc_quit_floor(c, delay);
	loop_once(c->a->loop, &c->retry_timer, delay, on_retry, c);
	return delay;
}

void
irc_conn_where(const struct irc *c, char *buf, size_t len)
{
	/* the scheme of what we speak, not libcurl's: IRC, in TLS or not */
	snprintf(buf, len, strchr(c->server, ':') != NULL ? "%s://[%s]:%ld" : "%s://%s:%ld", irc_sts_tls(c) ? "ircs" : "irc",
	         c->server, irc_sts_port(c));
}

/* Drops the connection; unless stopping, reports DOWN and schedules a reconnect. */
void
irc_conn_disconnect(struct irc *c, const char *why)
{
	bool was_up = c->up, was_connected = c->state == IRC_REGISTERING || c->state == IRC_READY;
	char where[300];
	int64_t delay;

	c->gen++;
	why = irc_quit_down(c, why, was_up);
	if (c->fd >= 0)
		loop_unwatch(c->a->loop, c->fd);
	c->fd = -1;
	if (c->easy != NULL) {
		http_remove(c->a->http, c->easy);
		curl_easy_cleanup(c->easy);
		c->easy = NULL;
	}
	loop_once_cancel(c->a->loop, &c->flush_timer);
	loop_once_cancel(c->a->loop, &c->join_timer);
	irc_chan_retry_reset(c);
	c->state = IRC_IDLE;
	c->up = false;
	c->rlen = c->wlen = c->woff = 0;
	c->rskip = false;
	irc_queue_clear(&c->proto);
	irc_queue_clear(&c->paced);
	/* who wears a nick next time is anyone's guess: private lines go */
	irc_keep_disconnected(c);
	irc_send_forget(c, NULL, NULL);
	irc_refused_reset(c);
	irc_users_clear(&c->users);
	for (int i = 0; i < c->nchans; i++) {
		c->chans[i].joined = c->chans[i].in = c->chans[i].plain = false;
		irc_chan_forget_recent(&c->chans[i]);
	}
	if (c->stopping)
		return;
	if (was_up)
		irc_events_emit(c, BOT_EV_DOWN, NULL, NULL, why, false, false, 0);
	/* messages queued for the rooms wait for the next connection */
	delay = schedule_retry(c);
	/* one line per attempt, which says what comes next */
	irc_conn_where(c, where, sizeof where);
	adapter_log(c->a, LOG_LVL_WARNING, "%s %s: %s; next attempt in %lld s",
	            was_connected ? "disconnected from" : "cannot connect to", where, why, (long long)(delay + 500) / 1000);
	c->closing_why[0] = '\0';
}

static void
on_connected(struct http *h, CURL *easy, CURLcode rc, void *data)
{
	struct irc *c = data;
	curl_socket_t s = CURL_SOCKET_BAD;
	char where[300];

	(void)h;
	(void)easy;
	if (rc != CURLE_OK || curl_easy_getinfo(c->easy, CURLINFO_ACTIVESOCKET, &s) != CURLE_OK ||
	    s == CURL_SOCKET_BAD) {
		irc_conn_disconnect(c, rc != CURLE_OK ? curl_easy_strerror(rc) : "no socket");
		return;
	}
	c->fd = (int)s;
	c->state = IRC_REGISTERING;
	c->connected_at = c->last_rx = loop_now(c->a->loop);
	irc_conn_watch(c, false);
	irc_conn_where(c, where, sizeof where);
	adapter_log(c->a, LOG_LVL_INFO, "connected to %s, registering", where);
	irc_send_proto(c, "CAP LS 302");
	if (c->server_pass[0] != '\0')
		irc_send_proto(c, "PASS %s", c->server_pass);
	irc_send_proto(c, "NICK %s", c->cur_nick);
	irc_send_proto(c, "USER %s 0 * :%s", c->username, c->realname);
	/* TLS may already hold the server's first lines */
	on_readable(c);
}

void
irc_conn_connect(struct irc *c)
{
	char url[300], where[300];

	if (c->easy != NULL || c->stopping)
		return;
	if ((c->easy = curl_easy_init()) == NULL) {
		irc_conn_disconnect(c, "cannot set up a connection");
		return;
	}
	/* libcurl's CONNECT_ONLY with an http(s) URL: a TCP connection, plus the
	 * TLS handshake (certificate and host name checked, SNI sent) for https;
	 * no HTTP request is ever sent */
	irc_sts_load(c);
	snprintf(url, sizeof url, strchr(c->server, ':') != NULL ? "%s://[%s]:%ld" : "%s://%s:%ld",
	         irc_sts_tls(c) ? "https" : "http", c->server, irc_sts_port(c));
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
	irc_text_copy(c->cur_nick, sizeof c->cur_nick, c->nick);
	c->userhost[0] = '\0';
	c->bot_mode[0] = '\0';
	irc_text_copy(c->prefix_chars, sizeof c->prefix_chars, "~&@%+");
	irc_modes_reset(&c->modes);
	c->nick_try = 0;
	c->cap_sasl = c->cap_account_tag = c->cap_extjoin = c->cap_account_notify = false;
	c->cap_batch = c->cap_server_time = c->cap_listing = c->cap_requested = false;
	c->cap_ended = c->sasl_ok = c->welcomed = c->refusing = false;
	c->monitor = c->monitoring = c->whox = c->notice_silent = false;
	c->closing_why[0] = '\0';
	c->ascii_casemap = false;
	irc_users_casemap(&c->users, false);
	c->nicklen = 0;
	irc_text_copy(c->chantypes, sizeof c->chantypes, "#&");
	irc_text_copy(c->statusmsg, sizeof c->statusmsg, "@+");
	irc_refused_reset(c);
	c->ping_sent = 0;
	memset(c->history_batches, 0, sizeof c->history_batches);
	irc_bucket_init(&c->bucket, (int)c->burst, c->rate_ms);
	c->state = IRC_CONNECTING;
	c->connected_at = loop_now(c->a->loop);
	irc_conn_where(c, where, sizeof where);
	/* the first attempt is told; a retry's outcome is its one line */
	adapter_log(c->a, c->retry.fails == 0 ? LOG_LVL_INFO : LOG_LVL_DEBUG, "connecting to %s", where);
	if (http_add_stream(c->a->http, c->easy, on_connected, c) != 0) {
		curl_easy_cleanup(c->easy);
		c->easy = NULL;
		irc_conn_disconnect(c, "cannot start the connection");
	}
}

/* Once a second: keep-alive, dead-link detection, registration and join time-outs. */
int64_t
irc_conn_tick(struct loop *l, long long id, void *data)
{
	struct irc *c = data;
	int64_t now = loop_now(l);

	(void)id;
	if (c->state == IRC_REGISTERING && now - c->connected_at > REGISTER_MS) {
		irc_conn_disconnect(c, "registration timed out");
	} else if (c->state == IRC_READY || c->state == IRC_REGISTERING) {
		if (c->ping_sent != 0 && now - c->ping_sent > c->ping_timeout_ms) {
			irc_conn_disconnect(c, "ping timeout");
		} else if (c->ping_sent == 0 && now - c->last_rx > c->ping_interval_ms) {
			c->ping_sent = now;
			irc_send_proto(c, "PING :hf%lld", (long long)now);
		} else if (c->welcomed && !c->up && now - c->joins_sent_at > UP_WAIT_MS) {
			irc_events_check_up(c, true);
		}
		irc_regain_tick(c, now);
		irc_members_tick(c, now);
	}
	return 1000;
}

/* Best-effort QUIT, then no connection, no reconnect, no timers. */
void
irc_conn_stop(struct irc *c, const char *quit_message)
{
	c->stopping = true;
	if (c->easy != NULL && c->fd >= 0) {
		char line[IRC_MAX_LINE];
		char clean[300];
		size_t sent = 0;
		int n;

		/* best effort, now: QUIT goes before anything still queued */
		irc_text_in(clean, sizeof clean, quit_message != NULL ? quit_message : "bye");
		n = snprintf(line, sizeof line, "QUIT :%s\r\n", clean);
		if (c->woff == c->wlen && n > 0)
			curl_easy_send(c->easy, line, (size_t)n, &sent);
	}
	irc_conn_disconnect(c, "stopped");
	loop_once_cancel(c->a->loop, &c->retry_timer);
	if (c->tick_timer != 0) {
		loop_timer_del(c->a->loop, c->tick_timer);
		c->tick_timer = 0;
	}
}
