/* matrix-human.c: a quick human at a Matrix table, on any homeserver (see matrix-human.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cardpick.h"
#include "e2e.h"
#include "matrix-human.h"

enum { H_PING, H_THINK_DRAW, H_HAND, H_THINK_DISCARD };

static int64_t
clock_ms(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static const char *
body_of(const json_t *ev)
{
	return json_string_value(json_object_get(json_object_get(ev, "content"), "body"));
}

/* The bot's messages in room from index *from on (caller decrefs); *from: how many there are. */
static json_t *
news(const struct mxhuman_server *srv, const char *room, size_t *from)
{
	json_t *evs = srv->bot_events(srv->ctx, room), *out = json_array();

	for (size_t i = *from; i < json_array_size(evs); i++)
		json_array_append(out, json_array_get(evs, i));
	if (json_array_size(evs) > *from)
		*from = json_array_size(evs);
	json_decref(evs);
	return out;
}

/* Lines of body starting with "NAME " that tell a discard of hers. */
static int
her_discards(const char *name, const char *body)
{
	size_t nl = strlen(name);
	int n = 0;

	for (const char *l = body; l != NULL && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		char line[2048];

		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), l);
		if (strncmp(line, name, nl) == 0 && line[nl] == ' ' && strstr(line, "discard") != NULL)
			n++;
	}
	return n;
}

/* Whether a line of body asks her for her answer ("ann: may Ada[bot] go out?"). */
static bool
asked_me(const char *name, const char *body)
{
	char me[96];

	snprintf(me, sizeof me, "%s:", name);
	for (const char *l = body; l != NULL && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *q = strstr(l, "go out?"), *nl = strchr(l, '\n'), *at = strstr(l, me);

		if (q != NULL && at != NULL && (nl == NULL || (q < nl && at < nl)))
			return true;
	}
	return false;
}

/* The room's new messages: her pings (state from H_PING to H_THINK_DRAW), questions, discards told. */
static int
read_room(struct mxhuman *h, const struct mxhuman_server *srv, int *state, int64_t *due, int64_t t_discard)
{
	json_t *j = news(srv, h->room, &h->seen);
	char ping[96];
	int rc = 0, progress = 0;

	snprintf(ping, sizeof ping, "%s: your turn", h->name);
	for (size_t i = 0; i < json_array_size(j); i++) {
		json_t *ev = json_array_get(j, i);
		const char *b = body_of(ev);

		h->told += her_discards(h->name, b);
		if (strstr(b, ping) != NULL && *state == H_PING) {
			size_t at = h->seen - json_array_size(j) + i;

			if (h->pings++ == 0)
				h->first = at;
			h->last = at;
			if (t_discard > 0 && h->nwait < MXHUMAN_MAXS)
				h->wait[h->nwait++] = json_integer_value(json_object_get(ev, "origin_server_ts")) - t_discard;
			*state = H_THINK_DRAW;
			*due = clock_ms(CLOCK_MONOTONIC) + (h->think_ms > 0 ? h->think_ms : 1000);
			progress = 1;
		} else if (asked_me(h->name, b) && srv->say(srv->ctx, h->room, "!yes") != 0) {
			rc = -1;
		}
	}
	json_decref(j);
	return rc < 0 ? rc : progress;
}

/* Her hand after her draw, in her direct room: her pick, and state to H_THINK_DISCARD. */
static int
read_hand(struct mxhuman *h, const struct mxhuman_server *srv, char *pick, size_t len, int *state, int64_t *due)
{
	json_t *j = news(srv, h->dm, &h->dseen);
	int progress = 0;

	for (size_t i = 0; i < json_array_size(j); i++) {
		const char *b = body_of(json_array_get(j, i));

		if (strstr(b, "Your hand (") != NULL || strstr(b, "Your foot (") != NULL) {
			cardpick_discard(b, pick, len);
			*state = H_THINK_DISCARD;
			*due = clock_ms(CLOCK_MONOTONIC) + (h->think_ms > 0 ? h->think_ms : 1000);
			progress = 1;
		}
	}
	json_decref(j);
	return progress;
}

json_t *
mxhuman_bot_messages(json_t *events, const char *bot)
{
	json_t *out = json_array(), *ev;
	size_t i;

	json_array_foreach(events, i, ev) {
		const char *sender = json_string_value(json_object_get(ev, "sender"));
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (sender != NULL && strcmp(sender, bot) == 0 && type != NULL && strcmp(type, "m.room.message") == 0 &&
		    body_of(ev) != NULL)
			json_array_append(out, ev);
	}
	json_decref(events);
	return out;
}

int
mxhuman_play(struct mxhuman *h, const struct mxhuman_server *srv, int turns)
{
	int state = H_PING, got;
	int64_t due = 0, t_discard = 0, progress = clock_ms(CLOCK_MONOTONIC);
	int64_t stuck = h->stuck_ms > 0 ? h->stuck_ms : 180000;
	char pick[8] = "", text[64];

	if (srv->say(srv->ctx, h->room, "!play 4 classic") != 0)
		return -1;
	while (h->pings <= turns) {
		int64_t now = clock_ms(CLOCK_MONOTONIC);

		e2e_sleep_ms(100);
		if ((got = read_room(h, srv, &state, &due, t_discard)) < 0)
			return -1;
		/* she accepts the direct chat the bot opens: her hand waits for her there */
		if (h->dm[0] == '\0' && (srv->direct(srv->ctx, h->dm, sizeof h->dm), h->dm[0] != '\0'))
			srv->join(srv->ctx, h->dm);
		if (state == H_HAND && h->dm[0] != '\0')
			got += read_hand(h, srv, pick, sizeof pick, &state, &due);
		if (got > 0)
			progress = now;
		if (state == H_THINK_DRAW && now >= due) {
			if (h->dm[0] != '\0')
				json_decref(news(srv, h->dm, &h->dseen));   /* what came before the draw is not its answer */
			if (srv->say(srv->ctx, h->room, "!draw") != 0)
				return -1;
			state = H_HAND;
		} else if (state == H_THINK_DISCARD && now >= due) {
			snprintf(text, sizeof text, "!discard %s", pick);
			t_discard = clock_ms(CLOCK_REALTIME);
			if (srv->say(srv->ctx, h->room, text) != 0)
				return -1;
			h->played++;
			state = H_PING;
		}
		if (now - progress > stuck) {
			fprintf(stderr, "mxhuman: %s waited %lld s for the bot\n", h->name, (long long)stuck / 1000);
			return -1;
		}
	}
	return 0;
}

void
mxhuman_settle(struct mxhuman *h, const struct mxhuman_server *srv, int ms)
{
	json_t *j;

	e2e_sleep_ms(ms);
	j = news(srv, h->room, &h->seen);
	for (size_t i = 0; i < json_array_size(j); i++)
		h->told += her_discards(h->name, body_of(json_array_get(j, i)));
	json_decref(j);
}
