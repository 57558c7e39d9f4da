/* chan.c: the channels the adapter is in or wants to be in, what a channel name is, invitations, refused joins and refused messages. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "loop.h"

bool
irc_chan_is(const char *s)
{
	return s[0] == '#' || s[0] == '&' || s[0] == '+' || s[0] == '!';
}

bool
irc_chan_typed(const struct irc *c, const char *s)
{
	return s[0] != '\0' && strchr(c->chantypes[0] != '\0' ? c->chantypes : "#&", s[0]) != NULL;
}

bool
irc_chan_valid(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || n > 50 || !irc_chan_is(s))
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == 7)
			return false;
	return true;
}

int
irc_chan_find(struct irc *c, const char *name)
{
	for (int i = 0; i < c->nchans; i++)
		if (irc_parse_same_as(c->chans[i].name, name, c->ascii_casemap))
			return i;
	return -1;
}

/* Channel i's own pace: IRC_CHAN_BURST lines at once, then one per
 * flood_rate: after idle, lines at 0, 0, 0, 2 and 4 s put at most 4 in a
 * +f 5:3's window, which InspIRCd counts in whole seconds (a line 3.5 s
 * after the first is still in it: 3/4 or 7/8 of flood_rate got the bot
 * kicked in e2e-irc-networks). */
void
irc_chan_pace(struct irc *c, int i)
{
	irc_bucket_init(&c->chans[i].bucket, c->burst < IRC_CHAN_BURST ? (int)c->burst : IRC_CHAN_BURST, c->rate_ms);
}

int
irc_chan_add(struct irc *c, const char *name, bool configured)
{
	int i = irc_chan_find(c, name);

	if (i >= 0)
		return i;
	if (c->nchans == IRC_MAX_CHANS || !irc_chan_valid(name))
		return -1;
	i = c->nchans++;
	memset(&c->chans[i], 0, sizeof c->chans[i]);
	irc_text_copy(c->chans[i].name, sizeof c->chans[i].name, name);
	c->chans[i].configured = configured;
	irc_chan_pace(c, i);
	return i;
}

void
irc_chan_remove(struct irc *c, int i)
{
	irc_chan_forget_recent(&c->chans[i]);
	/* users' channel bits follow the array: clear bit i, move the last one down */
	irc_users_part_all(&c->users, i);
	c->nchans--;
	if (i != c->nchans) {
		uint64_t from = UINT64_C(1) << c->nchans, to = UINT64_C(1) << i;

		c->chans[i] = c->chans[c->nchans];
		for (size_t u = 0; u < c->users.n; u++) {
			if (c->users.v[u].chans & from)
				c->users.v[u].chans = (c->users.v[u].chans & ~from) | to;
			irc_modes_move(&c->users.v[u], c->nchans, i);
		}
	}
}

/* Joins channel i (with its key, if configured with one), paced. */
void
irc_chan_join(struct irc *c, int i)
{
	if (c->state != IRC_READY)
		return;
	if (c->chans[i].key[0] != '\0')
		irc_send_paced(c, "JOIN %s %s", c->chans[i].name, c->chans[i].key);
	else
		irc_send_paced(c, "JOIN %s", c->chans[i].name);
}

/* Refused joins go again, later each time: 30 s, doubling, at most
 * CHAN_RETRY_MAX_MS; a bad name (479) never. */
#define CHAN_RETRY_MS     30000
#define CHAN_RETRY_MAX_MS (30 * 60 * 1000)

static void chan_schedule(struct irc *c);

static void
on_chan_retry(void *data)
{
	struct irc *c = data;
	int64_t now = loop_now(c->a->loop);

	for (int i = 0; i < c->nchans; i++) {
		struct irc_chan *ch = &c->chans[i];

		if (ch->who_at != 0 && ch->who_at <= now) {
			ch->who_at = 0;
			if (ch->in && !ch->joined)
				irc_members_who_send(c, i);
		}
		if (ch->retry_at == 0 || ch->retry_at > now || ch->in)
			continue;
		ch->retry_at = 0;
		adapter_log(c->a, LOG_LVL_INFO, "joining %s again", ch->name);
		irc_chan_join(c, i);
	}
	chan_schedule(c);
}

/* The timer for the first refused join due to go again. */
static void
chan_schedule(struct irc *c)
{
	int64_t first = 0;

	for (int i = 0; i < c->nchans; i++) {
		if (c->chans[i].retry_at != 0 && (first == 0 || c->chans[i].retry_at < first))
			first = c->chans[i].retry_at;
		if (c->chans[i].who_at != 0 && (first == 0 || c->chans[i].who_at < first))
			first = c->chans[i].who_at;
	}
	loop_once_at(c->a->loop, &c->chan_timer, NULL, first != 0 ? first : -1, on_chan_retry, c);
}

/* A join refused: 403, 405, 471, 473-475, 477, 489, 470 (forwarded: the
 * forward is never adopted, members.c), 479 (a bad name), 480 (throttled),
 * and 437 naming a channel (held after a split). */
void
irc_chan_join_failed(struct irc *c, const struct irc_msg *m)
{
	int64_t wait;
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[1])) < 0)
		return;
	adapter_log(c->a, LOG_LVL_WARNING, "cannot join %s: %s", c->chans[i].name,
	            m->nparams > 2 ? m->params[m->nparams - 1] : m->command);
	c->chans[i].failed = true;
	if (strcmp(m->command, ERR_BADCHANNAME) != 0) {
		wait = CHAN_RETRY_MS;
		for (int k = 0; k < c->chans[i].join_tries && wait < CHAN_RETRY_MAX_MS; k++)
			wait *= 2;
		if (wait > CHAN_RETRY_MAX_MS)
			wait = CHAN_RETRY_MAX_MS;
		c->chans[i].join_tries++;
		c->chans[i].retry_at = loop_now(c->a->loop) + wait;
		chan_schedule(c);
	}
	irc_events_check_up(c, false);
}

/* RPL_TRYAGAIN (263) "me WHO :...rate-limited" (Solanum; its 315 names
 * "*"): the oldest WHO without an end goes again later, 10 s doubling. */
void
irc_chan_try_again(struct irc *c, const struct irc_msg *m)
{
	if (m->nparams < 2 || strcasecmp(m->params[1], "WHO") != 0)
		return;
	for (int i = 0; i < c->nchans; i++) {
		struct irc_chan *ch = &c->chans[i];
		int64_t wait = 10000;

		if (!ch->who_wait)
			continue;
		ch->who_wait = false;
		for (int k = 0; k < ch->who_tries && wait < 600000; k++)
			wait *= 2;
		ch->who_tries++;
		ch->who_at = loop_now(c->a->loop) + wait;
		adapter_log(c->a, LOG_LVL_INFO, "WHO %s rate-limited by the server: again in %lld s", ch->name,
		            (long long)wait / 1000);
		chan_schedule(c);
		return;
	}
}

/* A new connection: the joins start afresh. */
void
irc_chan_retry_reset(struct irc *c)
{
	for (int i = 0; i < c->nchans; i++) {
		c->chans[i].retry_at = c->chans[i].who_at = 0;
		c->chans[i].join_tries = c->chans[i].who_tries = 0;
		c->chans[i].who_wait = false;
	}
	loop_once_cancel(c->a->loop, &c->chan_timer);
}

/* Lines to a channel older than this are not sent again when colours turn out refused. */
#define CHAN_RESEND_MS 30000

static bool
chan_coloured(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strchr("\x02\x03\x0f\x11\x16\x1d\x1e\x1f", s[i]) != NULL && s[i] != '\0')
			return true;
	return false;
}

void
irc_chan_forget_recent(struct irc_chan *ch)
{
	for (int k = 0; k < ch->nrecent; k++)
		free(ch->recent[k].line);
	ch->nrecent = 0;
}

void
irc_chan_outgoing(struct irc *c, int i, char *line, size_t *len)
{
	struct irc_chan *ch = &c->chans[i];
	char *text = strstr(line, " :");

	if (text == NULL || !chan_coloured(text, *len - (size_t)(text - line)))
		return;
	if (ch->plain) {
		char plain[IRC_MAX_LINE + 1];
		size_t n;

		/* queued before colours were found refused: the codes go now */
		n = irc_text_unformat(plain, sizeof plain, text + 2);
		memcpy(text + 2, plain, n);
		*len = (size_t)(text + 2 - line) + n;
		line[*len] = '\0';
		return;
	}
	if (ch->nrecent == IRC_CHAN_RECENT) {
		free(ch->recent[0].line);
		memmove(&ch->recent[0], &ch->recent[1], (IRC_CHAN_RECENT - 1) * sizeof ch->recent[0]);
		ch->nrecent--;
	}
	ch->recent[ch->nrecent].line = xstrdup(line);
	ch->recent[ch->nrecent].at = loop_now(c->a->loop);
	ch->nrecent++;
}

/* Colours refused: the coloured lines of the last moments go again, plain. */
static void
chan_resend_plain(struct irc *c, struct irc_chan *ch)
{
	int64_t now = loop_now(c->a->loop);

	for (int k = 0; k < ch->nrecent; k++) {
		char *line = ch->recent[k].line, *text = strstr(line, " :"), out[IRC_MAX_LINE + 1];
		size_t head, n;

		if (text == NULL || now - ch->recent[k].at > CHAN_RESEND_MS)
			continue;
		head = (size_t)(text + 2 - line);
		if (head >= sizeof out)
			continue;
		memcpy(out, line, head);
		n = irc_text_unformat(out + head, sizeof out - head, text + 2);
		irc_queue_push(&c->out, ch->name, out, head + n);
	}
	irc_chan_forget_recent(ch);
	irc_send_flush(c);
}

static bool
chan_refuses_colour(const struct irc_msg *m, const char *reason)
{
	static const char *const words[] = { "colour", "color", "formatting", "control code", "codes" };

	if (strcmp(m->command, ERR_NOCOLORSONCHAN) == 0)
		return true;
	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
		if (strcasestr(reason, words[k]) != NULL)
			return true;
	return false;
}

/* ERR_CANNOTSENDTOCHAN "me #chan :reason" (+m without voice, a ban, +c...),
 * ERR_NOCOLORSONCHAN: logged once per channel and connection, the bot told
 * (it tells the table's owner); where only colours are refused, plain text
 * from now on, and what was just refused goes again. */
void
irc_chan_cannot_send(struct irc *c, const struct irc_msg *m)
{
	char reason[200], text[300];
	struct irc_chan *ch;
	int i;

	if (m->nparams < 2 || (i = irc_chan_find(c, m->params[1])) < 0)
		return;
	ch = &c->chans[i];
	irc_text_in(reason, sizeof reason, m->nparams > 2 ? m->params[2] : m->command);
	if (chan_refuses_colour(m, reason)) {
		if (ch->plain)
			return;   /* a line sent before we knew: it is among those sent again */
		ch->plain = true;
		adapter_log(c->a, LOG_LVL_WARNING, "%s refuses colours (%s %s): plain text there from now on",
		            ch->name, m->command, reason);
		snprintf(text, sizeof text, "it refuses colours (%s); plain text from now on", reason);
		irc_events_emit(c, BOT_EV_SEND_FAILED, ch->name, NULL, text, false, false, 0);
		chan_resend_plain(c, ch);
		return;
	}
	if (ch->refused_told)
		return;
	ch->refused_told = true;
	adapter_log(c->a, LOG_LVL_WARNING, "cannot send to %s (%s %s): the messages there are lost until that changes",
	            ch->name, m->command, reason);
	irc_events_emit(c, BOT_EV_SEND_FAILED, ch->name, NULL, reason, false, false, 0);
}

void
irc_chan_reconfigure(struct irc *c, const struct irc *fresh)
{
	char buf[16];
	int i, j;

	for (j = 0; j < fresh->nchans; j++) {
		if ((i = irc_chan_find(c, fresh->chans[j].name)) >= 0) {
			c->chans[i].configured = true;
			memcpy(c->chans[i].key, fresh->chans[j].key, sizeof c->chans[i].key);
			continue;
		}
		if ((i = irc_chan_add(c, fresh->chans[j].name, true)) < 0) {
			adapter_log(c->a, LOG_LVL_WARNING, "cannot add %s: too many channels", fresh->chans[j].name);
			continue;
		}
		memcpy(c->chans[i].key, fresh->chans[j].key, sizeof c->chans[i].key);
		adapter_log(c->a, LOG_LVL_NOTICE, "joining %s (added to channels)", c->chans[i].name);
		irc_chan_join(c, i);
	}
	for (i = c->nchans; i-- > 0;) {
		struct irc_chan *ch = &c->chans[i];

		if (!ch->configured || irc_chan_find((struct irc *)fresh, ch->name) >= 0)
			continue;
		/* still invited there (join_on_invite): it stays, as an invited channel */
		if (adapter_state_get(c->a, ch->name, buf, sizeof buf) == 0) {
			ch->configured = false;
			continue;
		}
		adapter_log(c->a, LOG_LVL_NOTICE, "leaving %s (no longer in channels)", ch->name);
		if (ch->in && c->state == IRC_READY)
			irc_send_paced(c, "PART %s :no longer configured", ch->name);
		irc_chan_remove(c, i);
	}
}
