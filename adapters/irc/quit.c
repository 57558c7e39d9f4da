/* quit.c: why the server closed the link (ERROR, 465, KILL): a kill, K-line, throttle or excess flood backs off hard and is named in the log; the backoff starts again only after a stable period. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "loop.h"

#define STABLE_MS     60000             /* up this long: the next drop starts the backoff again */
#define HARD_MS       60000             /* a kill, flood or throttle: at least this long away */
#define BANNED_MS     (3600 * 1000)     /* a K-line: at least an hour (or reconnect_max if longer) */

/* The kinds of closing reason networks send, by the words they use
 * (Solanum, InspIRCd, UnrealIRCd, ngircd); the first match names it. */
static const struct {
	const char *word;
	const char *kind;
	int64_t floor_ms;
} quit_kinds[] = {
	{ "K-Lined", "banned (K-line)", BANNED_MS }, { "G-Lined", "banned (G-line)", BANNED_MS },
	{ "Z-Lined", "banned (Z-line)", BANNED_MS }, { "D-Lined", "banned (D-line)", BANNED_MS },
	{ "Banned", "banned", BANNED_MS }, { "You are not welcome", "banned", BANNED_MS },
	{ "Excess Flood", "killed for excess flood (sent too fast)", HARD_MS },
	{ "Max SendQ", "killed for a full send queue", HARD_MS },
	{ "Flood", "killed for flooding", HARD_MS },
	{ "Throttl", "throttled (reconnecting too often)", HARD_MS },
	{ "Too many connections", "too many connections from this host", HARD_MS },
	{ "Trying to reconnect too fast", "throttled (reconnecting too often)", HARD_MS },
	{ "Killed", "killed by an operator", HARD_MS },
};

/* Records why the link is closing and how long to stay away; the log line of the disconnect says it. */
static void
quit_reason(struct irc *c, const char *text, const char *kind, int64_t floor_ms)
{
	char clean[200];

	irc_text_in(clean, sizeof clean, text);
	for (size_t i = 0; kind == NULL && i < sizeof quit_kinds / sizeof quit_kinds[0]; i++)
		if (strcasestr(clean, quit_kinds[i].word) != NULL) {
			kind = quit_kinds[i].kind;
			floor_ms = quit_kinds[i].floor_ms;
		}
	if (kind != NULL) {
		if (floor_ms > c->retry_floor_ms)
			c->retry_floor_ms = floor_ms;
		snprintf(c->closing_why, sizeof c->closing_why, "%s: %s", kind, clean);
	} else if (c->closing_why[0] == '\0') {
		snprintf(c->closing_why, sizeof c->closing_why, "closed by the server: %s", clean);
	}
}

/* ERROR: the server closes the link, and says why. */
void
irc_quit_error(struct irc *c, const struct irc_msg *m)
{
	quit_reason(c, m->nparams > 0 ? m->params[0] : "", NULL, 0);
	adapter_log(c->a, LOG_LVL_WARNING, "server closed the link: %s", c->closing_why);
}

/* ERR_YOUREBANNEDCREEP (465): K-lined, or throttled, before registration ends. */
void
irc_quit_banned(struct irc *c, const struct irc_msg *m)
{
	const char *text = m->nparams > 1 ? m->params[m->nparams - 1] : "";

	if (strcasestr(text, "throttl") != NULL || strcasestr(text, "too fast") != NULL)
		quit_reason(c, text, "throttled (reconnecting too often)", HARD_MS);
	else
		quit_reason(c, text, "banned from this server (465)", BANNED_MS);
}

/* KILL naming us: an operator (or the server, for a collision) ends the link. */
void
irc_quit_kill(struct irc *c, const struct irc_msg *m)
{
	char why[240];

	if (m->nparams < 1 || !irc_parse_same(m->params[0], c->cur_nick))
		return;
	snprintf(why, sizeof why, "by %.60s: %.160s", m->nick != NULL ? m->nick : "the server",
	         m->nparams > 1 ? m->params[1] : "");
	quit_reason(c, why, "killed", HARD_MS);
}

/* The link is gone: the reason the server gave, if any, else why; the
 * backoff starts again only after STABLE_MS up (a link killed at once
 * must not come back every 2 s). */
const char *
irc_quit_down(struct irc *c, const char *why, bool was_up)
{
	if (was_up && loop_now(c->a->loop) - c->up_at >= STABLE_MS)
		backoff_reset(&c->retry);
	return c->closing_why[0] != '\0' ? c->closing_why : why;
}

/* The next wait (ms), delay as the backoff has it: never less than a kill,
 * flood, throttle or ban asks (a ban: reconnect_max if longer). */
int64_t
irc_quit_floor(struct irc *c, int64_t delay)
{
	int64_t floor = c->retry_floor_ms;

	c->retry_floor_ms = 0;
	if (floor >= BANNED_MS && floor < c->reconnect_max_ms)
		floor = c->reconnect_max_ms;
	return delay > floor ? delay : floor;
}
