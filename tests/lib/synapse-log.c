/* synapse-log.c: a user's message sends as the test Synapse's access log tells them (see synapse-log.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e.h"
#include "synapse-log.h"

/* "2026-12-06 18:46:46,132 - synapse.access.http..." : its time in ms of the epoch (as if UTC), or -1. */
static int64_t
line_time(const char *l)
{
	struct tm tm = { 0 };
	int ms = 0;
	const char *p = strptime(l, "%Y-%m-%d %H:%M:%S", &tm);

	if (p == NULL || sscanf(p, ",%d", &ms) != 1)
		return -1;
	return (int64_t)timegm(&tm) * 1000 + ms;
}

/* One access log line of user's send: 1 with *out filled, 0 if the line is another. */
static int
parse_send(const char *l, const char *who, struct synapse_send *out)
{
	const char *p = strstr(l, " Processed request: "), *put = strstr(l, " \"PUT /_matrix/client/");
	const char *st;
	double secs;

	if (strstr(l, " - synapse.access.http.") == NULL || strstr(l, who) == NULL || p == NULL || put == NULL ||
	    strstr(put, "/send/m.room.message/") == NULL || sscanf(p, " Processed request: %lfsec", &secs) != 1)
		return 0;
	/* the status is the word just before the request line: "... 80B 429 \"PUT ..." */
	for (st = put; st > p && st[-1] != 'B'; st--)
		;
	if ((out->out_ms = line_time(l)) < 0)
		return 0;
	out->in_ms = out->out_ms - (int64_t)(secs * 1000 + 0.5);
	out->status = atoi(st);
	return 1;
}

int
synapse_log_sends(const struct synapse *s, const char *user, struct synapse_send *out, int max)
{
	char *text = e2e_read_file(s->log), who[160];
	int n = 0;

	if (text == NULL)
		return -1;
	snprintf(who, sizeof who, "{%s}", user);
	for (char *l = text, *nl; l != NULL && *l != '\0' && n < max; l = nl != NULL ? nl + 1 : NULL) {
		if ((nl = strchr(l, '\n')) != NULL)
			*nl = '\0';
		n += parse_send(l, who, &out[n]);
	}
	free(text);
	return n;
}
