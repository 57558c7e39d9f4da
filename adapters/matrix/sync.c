/* sync.c: turns a /sync response into a flat list of cleaned items; pure, so it is unit-tested and fuzzed alone. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "utf8.h"

#define MAX_TOKEN 1024

struct ctx {
	struct matrix_sync *out;
	const char *self;
	bool initial;
};

static char *
dup_clean(const char *s, size_t max)
{
	char buf[MATRIX_MAX_IN + 1];
	size_t n;

	if (max > MATRIX_MAX_IN)
		max = MATRIX_MAX_IN;
	n = utf8_clean(s, strlen(s), buf, sizeof buf, max);
	if (n == 0)
		return NULL;
	return xstrdup(buf);
}

/* The string at key if it is a valid id with the sigil, else NULL. */
static const char *
get_id(json_t *o, const char *key, char sigil)
{
	const char *s = json_string_value(json_object_get(o, key));

	return matrix_text_id_ok(s, sigil) ? s : NULL;
}

static void
item_free(struct matrix_item *it)
{
	free(it->room);
	free(it->user);
	free(it->name);
	free(it->text);
	free(it->event_id);
	free(it->thread);
}

/* Appends an item; the strings are copied (ids were validated by the caller).
 * Silently drops items past the limit: a hostile response cannot grow us. */
static struct matrix_item *
add(struct ctx *c, enum matrix_item_kind kind, const char *room, const char *user, const char *event_id)
{
	struct matrix_sync *s = c->out;
	struct matrix_item *it;

	if (s->nitems >= MATRIX_SYNC_MAX_ITEMS)
		return NULL;
	if (s->nitems == s->capitems) {
		size_t cap = s->capitems ? s->capitems * 2 : 16;
		s->items = xreallocarray(s->items, cap, sizeof *s->items);
		s->capitems = cap;
	}
	it = &s->items[s->nitems];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->room = xstrdup(room);
	it->user = xstrdup(user);
	it->event_id = xstrdup(event_id);
	s->nitems++;
	return it;
}

/* add, for a message: only with text left once cleaned (nothing printable
 * is no message), which the item then holds. */
static struct matrix_item *
add_text(struct ctx *c, enum matrix_item_kind kind, const char *room, const char *user, const char *event_id,
         const char *body)
{
	char *text = dup_clean(body, MATRIX_MAX_IN);
	struct matrix_item *it;

	if (text == NULL)
		return NULL;
	if ((it = add(c, kind, room, user, event_id)) == NULL) {
		free(text);
		return NULL;
	}
	it->text = text;
	return it;
}

static bool
is_self(const struct ctx *c, const char *user)
{
	return c->self != NULL && user != NULL && strcmp(c->self, user) == 0;
}

static void
direct_data(struct ctx *c, json_t *content)
{
	const char *user;
	json_t *rooms;

	if (!json_is_object(content))
		return;
	c->out->has_direct = true;
	json_object_foreach(content, user, rooms) {
		const char *room = NULL;
		size_t i;
		json_t *r;

		if (!matrix_text_id_ok(user, '@') || !json_is_array(rooms))
			continue;
		/* the last valid room is the newest one added */
		json_array_foreach(rooms, i, r)
			if (matrix_text_id_ok(json_string_value(r), '!'))
				room = json_string_value(r);
		if (room != NULL)
			add(c, MX_IT_DIRECT, room, user, NULL);
	}
}

static void
account_data(struct ctx *c, json_t *root)
{
	json_t *evs = json_object_get(json_object_get(root, "account_data"), "events"), *ev;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (type != NULL && strcmp(type, "m.direct") == 0)
			direct_data(c, json_object_get(ev, "content"));
	}
}

/* A member's display name as shown: none (or nothing printable) is "",
 * a name removed, and they go by their id again (the client's own name
 * for them takes over). */
static char *
display_name(json_t *content)
{
	const char *dn = json_string_value(json_object_get(content, "displayname"));
	char *name;

	if (dn == NULL || (name = dup_clean(dn, MATRIX_MAX_NAME)) == NULL)
		return xstrdup("");
	return name;
}

/* Display names are per room: the same user may be called otherwise elsewhere. */
static void
member_name(struct ctx *c, const char *room, const char *user, json_t *content)
{
	struct matrix_item *it;

	if ((it = add(c, MX_IT_NAME, room, user, NULL)) != NULL)
		it->name = display_name(content);
}

/* A power level: an integer, or (older room versions) a string of one. */
static bool
power_level(json_t *v, long long *out)
{
	const char *s = json_string_value(v);
	char *end;

	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return true;
	}
	if (s == NULL || *s == '\0')
		return false;
	*out = strtoll(s, &end, 10);
	return *end == '\0';
}

static long long
power_get(json_t *content, const char *key, long long def)
{
	long long v;

	return power_level(json_object_get(content, key), &v) ? v : def;
}

/* m.room.power_levels: who moderates the room.  A user may end any table
 * there who could kick or redact others: a level at the lower of the two
 * (the specification's defaults: 50 each). */
static void
power_levels(struct ctx *c, const char *room, json_t *content)
{
	long long kick = power_get(content, "kick", 50), redact = power_get(content, "redact", 50), level;
	long long at = kick < redact ? kick : redact;
	const char *user;
	struct matrix_item *it;
	struct rbuf mods = { 0 };
	size_t n = 0;
	char *text;
	json_t *v;

	if (!json_is_object(content))
		return;
	json_object_foreach(json_object_get(content, "users"), user, v)
		if (n < MATRIX_POWER_MODS && matrix_text_id_ok(user, '@') && power_level(v, &level) && level >= at) {
			rbuf_printf(&mods, "%s%s", n ? " " : "", user);
			n++;
		}
	text = xstrdup(mods.s != NULL ? mods.s : "");
	rbuf_free(&mods);
	if ((it = add(c, MX_IT_POWER, room, NULL, NULL)) == NULL) {
		free(text);
		return;
	}
	it->text = text;
	it->everyone = power_get(content, "users_default", 0) >= at;
	/* the room widget: our level against its event's, else state_default (50) */
	if (c->self != NULL) {
		long long mine = power_get(content, "users_default", 0), need = power_get(content, "state_default", 50);

		power_level(json_object_get(json_object_get(content, "users"), c->self), &mine);
		power_level(json_object_get(json_object_get(content, "events"), MATRIX_WIDGET_TYPE), &need);
		it->widget = mine >= need;
	}
}

/* m.room.join_rules or m.room.history_visibility: whether a room may hold
 * hands (private.c).  A value that is no string reads as "" (not private). */
static void
room_rule(struct ctx *c, const char *room, const char *type, json_t *content)
{
	bool jr = strcmp(type, "m.room.join_rules") == 0;
	const char *v = json_string_value(json_object_get(content, jr ? "join_rule" : "history_visibility"));
	struct matrix_item *it = add(c, jr ? MX_IT_JOIN_RULE : MX_IT_HISTORY, room, NULL, NULL);

	if (it != NULL)
		it->text = xstrdup(v != NULL && strlen(v) < 32 ? v : "");
}

/* Room version 12 (and its pre-release "hydra") gives its creators infinite
 * power: they are in no power_levels' users, yet they moderate. */
static bool
privileged_creators(const char *version)
{
	if (version == NULL)
		return false;
	if (strncmp(version, "org.matrix.hydra.", 17) == 0)
		return true;
	return version[0] != '\0' && strspn(version, "0123456789") == strlen(version) && strlen(version) < 6 &&
	       atoi(version) >= 12;
}

static void
create_event(struct ctx *c, const char *room, json_t *ev, json_t *content)
{
	const char *creator = get_id(ev, "sender", '@'), *key = json_string_value(json_object_get(ev, "state_key"));
	struct rbuf more = { 0 };
	struct matrix_item *it;
	size_t i, n = 0;
	json_t *v;

	if (creator == NULL || key == NULL || key[0] != '\0')
		return;
	json_array_foreach(json_object_get(content, "additional_creators"), i, v)
		if (n < MATRIX_POWER_MODS && matrix_text_id_ok(json_string_value(v), '@')) {
			rbuf_printf(&more, "%s%s", n ? " " : "", json_string_value(v));
			n++;
		}
	if ((it = add(c, MX_IT_CREATE, room, creator, NULL)) != NULL) {
		it->text = xstrdup(more.s != NULL ? more.s : "");
		it->everyone = privileged_creators(json_string_value(json_object_get(content, "room_version")));
	}
	rbuf_free(&more);
}

/* An m.room.member event about user: names, memberships, and in a live
 * timeline the joins, renames and leaves that players see. */
static void
member_event(struct ctx *c, const char *room, json_t *ev, json_t *content, const char *user, bool timeline)
{
	const char *membership, *event_id, *prev_ms, *prev_dn, *dn;
	json_t *prev;
	struct matrix_item *it;

	membership = json_string_value(json_object_get(content, "membership"));
	if (membership == NULL)
		return;
	if (strcmp(membership, "join") == 0)
		member_name(c, room, user, content);
	/* every membership of others, history too: who may read a room is state */
	if (!is_self(c, user) && (it = add(c, MX_IT_MEMBER, room, user, NULL)) != NULL)
		it->text = dup_clean(membership, 16);
	if (is_self(c, user)) {
		if (strcmp(membership, "leave") == 0 || strcmp(membership, "ban") == 0)
			add(c, MX_IT_REMOVED, room, NULL, NULL);
		return;
	}
	if (!timeline || c->initial || (event_id = get_id(ev, "event_id", '$')) == NULL)
		return;
	prev = json_object_get(json_object_get(ev, "unsigned"), "prev_content");
	prev_ms = json_string_value(json_object_get(prev, "membership"));
	if (strcmp(membership, "join") == 0) {
		if (prev_ms != NULL && strcmp(prev_ms, "join") == 0) {
			prev_dn = json_string_value(json_object_get(prev, "displayname"));
			dn = json_string_value(json_object_get(content, "displayname"));
			if ((dn == NULL && prev_dn == NULL) || (dn != NULL && prev_dn != NULL && strcmp(dn, prev_dn) == 0))
				return;
			if ((it = add(c, MX_IT_RENAME, room, user, event_id)) != NULL)
				it->text = display_name(content);
		} else
			add(c, MX_IT_JOIN, room, user, event_id);
	} else if (strcmp(membership, "leave") == 0 || strcmp(membership, "ban") == 0) {
		if (prev_ms != NULL && strcmp(prev_ms, "join") == 0)
			add(c, MX_IT_LEAVE, room, user, event_id);
	}
}

/* A state event, from the state block (timeline false) or the timeline. */
static void
state_event(struct ctx *c, const char *room, json_t *ev, bool timeline)
{
	const char *type = json_string_value(json_object_get(ev, "type"));
	json_t *content = json_object_get(ev, "content");
	const char *user;
	struct matrix_item *it;

	if (type == NULL)
		return;
	if (strcmp(type, "m.room.encryption") == 0) {
		if (json_is_object(content) && json_object_get(content, "algorithm") != NULL)
			add(c, MX_IT_ENCRYPTED, room, NULL, NULL);
		return;
	}
	if (strcmp(type, "m.room.power_levels") == 0) {
		const char *key = json_string_value(json_object_get(ev, "state_key"));

		if (key != NULL && key[0] == '\0')
			power_levels(c, room, content);
		return;
	}
	if (strcmp(type, "m.room.join_rules") == 0 || strcmp(type, "m.room.history_visibility") == 0) {
		room_rule(c, room, type, content);
		return;
	}
	if (strcmp(type, "m.room.create") == 0) {
		create_event(c, room, ev, content);
		return;
	}
	if (strcmp(type, "m.room.tombstone") == 0) {
		const char *to = get_id(content, "replacement_room", '!');

		if (to != NULL && strcmp(to, room) != 0 && (user = get_id(ev, "sender", '@')) != NULL &&
		    (it = add(c, MX_IT_TOMBSTONE, room, user, NULL)) != NULL)
			it->text = xstrdup(to);
		return;
	}
	if (strcmp(type, MATRIX_MADE_TYPE) == 0) {
		/* ours only: anyone could write one */
		if (is_self(c, json_string_value(json_object_get(ev, "sender"))) &&
		    (user = get_id(content, "user", '@')) != NULL)
			add(c, MX_IT_MADE, room, user, NULL);
		return;
	}
	if (strcmp(type, "m.room.third_party_invite") == 0) {
		/* someone is invited by e-mail: as good as an invite (no content: revoked) */
		if (json_object_size(content) > 0 && (user = get_id(ev, "sender", '@')) != NULL &&
		    (it = add(c, MX_IT_MEMBER, room, user, NULL)) != NULL)
			it->text = xstrdup("invite");
		return;
	}
	if (strcmp(type, "m.room.member") != 0 || (user = get_id(ev, "state_key", '@')) == NULL)
		return;
	member_event(c, room, ev, content, user, timeline);
}

/* A reply's body starts with a quote of what it answers ("> <@ann:hs>
 * ...", then an empty line: the spec's reply fallback, still sent by many
 * clients): the reply itself is what follows.  A quoted "!draw" is never a
 * command, and a "!draw" said in reply is one. */
static const char *
strip_fallback(json_t *content, const char *body)
{
	json_t *rel = json_object_get(content, "m.relates_to");
	const char *p = body;

	if (!json_is_object(json_object_get(rel, "m.in_reply_to")) || strncmp(p, "> ", 2) != 0)
		return body;
	while (strncmp(p, "> ", 2) == 0 || strncmp(p, ">\n", 2) == 0) {
		const char *nl = strchr(p, '\n');

		if (nl == NULL)
			return "";
		p = nl + 1;
	}
	if (*p == '\n')
		p++;
	return p;
}

static void
message_event(struct ctx *c, const char *room, json_t *ev)
{
	json_t *content = json_object_get(ev, "content");
	const char *sender = get_id(ev, "sender", '@');
	const char *event_id = get_id(ev, "event_id", '$');
	const char *msgtype = json_string_value(json_object_get(content, "msgtype"));
	const char *body = json_string_value(json_object_get(content, "body"));
	json_t *ts = json_object_get(ev, "origin_server_ts");
	struct matrix_item *it;

	if (c->initial || sender == NULL || event_id == NULL || msgtype == NULL || body == NULL ||
	    is_self(c, sender))
		return;
	if (strcmp(msgtype, "m.server_notice") == 0) {
		/* never a command: the adapter logs it if it came in the server notices room */
		const char *type = json_string_value(json_object_get(content, "server_notice_type"));

		if ((it = add_text(c, MX_IT_SERVER_NOTICE, room, sender, event_id, body)) == NULL)
			return;
		it->name = type != NULL ? dup_clean(type, MATRIX_MAX_NAME) : NULL;
		return;
	}
	if (strcmp(msgtype, "m.text") != 0 && strcmp(msgtype, "m.notice") != 0)
		return;
	/* an edit would replay a command: only new messages count */
	if (json_object_get(content, "m.new_content") != NULL)
		return;
	body = strip_fallback(content, body);
	if ((it = add_text(c, MX_IT_MESSAGE, room, sender, event_id, body)) == NULL)
		return;
	it->notice = strcmp(msgtype, "m.notice") == 0;
	{
		json_t *rel = json_object_get(content, "m.relates_to");
		const char *rt = json_string_value(json_object_get(rel, "rel_type"));
		const char *root = get_id(rel, "event_id", '$');

		if (rt != NULL && strcmp(rt, "m.thread") == 0 && root != NULL)
			it->thread = xstrdup(root);
	}
	if (json_is_integer(ts) && json_integer_value(ts) > 0)
		it->ts = (int64_t)json_integer_value(ts);
}

/* Where a timeline begins to be ours.  *joined_at: one past the bot's own
 * join to the room (a join that was not one already), 0 if the timeline
 * holds none; what comes before it was said before the bot was in: history,
 * neither commands nor missed ones.  *created: the room's creation is in the
 * timeline, so nothing of it is missing, however the timeline is marked
 * (Synapse marks the timeline of every room just joined `limited`, however
 * short its history).  Returns whether the room replaces an upgraded one
 * (its creation names a predecessor): what was said there before the bot
 * followed the table is said to the table, and plays. */
static bool
cut_at(const struct ctx *c, json_t *evs, size_t *joined_at, bool *created)
{
	bool replaces = false;
	json_t *ev;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));
		const char *key = json_string_value(json_object_get(ev, "state_key"));
		json_t *content = json_object_get(ev, "content");
		json_t *prev = json_object_get(json_object_get(ev, "unsigned"), "prev_content");
		const char *ms = json_string_value(json_object_get(content, "membership"));
		const char *prev_ms = json_string_value(json_object_get(prev, "membership"));

		if (type == NULL || key == NULL)
			continue;
		if (strcmp(type, "m.room.create") == 0 && key[0] == '\0') {
			*created = true;
			replaces = json_is_object(json_object_get(content, "predecessor"));
		}
		if (strcmp(type, "m.room.member") == 0 && is_self(c, key) && ms != NULL && strcmp(ms, "join") == 0 &&
		    (prev_ms == NULL || strcmp(prev_ms, "join") != 0))
			*joined_at = i + 1;
	}
	return replaces;
}

static void
joined_room(struct ctx *c, const char *room, json_t *r)
{
	json_t *evs, *ev;
	size_t i;

	/* the room's tags first: a notice in the same batch as the tag is known for one */
	evs = json_object_get(json_object_get(r, "account_data"), "events");
	json_array_foreach(evs, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));
		json_t *tags = json_object_get(json_object_get(ev, "content"), "tags");
		struct matrix_item *it;

		if (type != NULL && strcmp(type, "m.tag") == 0 && json_is_object(tags) &&
		    (it = add(c, MX_IT_NOTICE_ROOM, room, NULL, NULL)) != NULL)
			it->notice = json_object_get(tags, "m.server_notice") != NULL;
	}
	evs = json_object_get(json_object_get(r, "state"), "events");
	json_array_foreach(evs, i, ev)
		state_event(c, room, ev, false);
	evs = json_object_get(json_object_get(r, "timeline"), "events");
	size_t joined_at = 0;
	bool created = false, replaces = cut_at(c, evs, &joined_at, &created);
	/* a gap before our own join, or before the room's creation, is no gap in our hearing */
	bool gap = json_is_true(json_object_get(json_object_get(r, "timeline"), "limited")) && !created &&
	           joined_at == 0;

	if (gap)
		c->out->limited++;
	json_array_foreach(evs, i, ev) {
		size_t before = c->out->nitems;

		if (!json_is_object(ev))
			continue;
		if (json_is_string(json_object_get(ev, "state_key")))
			state_event(c, room, ev, true);
		else if ((i >= joined_at || replaces) && json_is_string(json_object_get(ev, "type")) &&
		         strcmp(json_string_value(json_object_get(ev, "type")), "m.room.message") == 0) {
			message_event(c, room, ev);
			if (gap && c->out->nitems > before)
				c->out->items[before].stale = true;
		}
	}
}

/* Two member events for us that tell the same invite. */
static bool
same_invite(json_t *a, json_t *b)
{
	const char *sa = json_string_value(json_object_get(a, "sender"));
	const char *sb = json_string_value(json_object_get(b, "sender"));
	json_t *ca = json_object_get(a, "content"), *cb = json_object_get(b, "content");
	const char *ma = json_string_value(json_object_get(ca, "membership"));
	const char *mb = json_string_value(json_object_get(cb, "membership"));

	return sa != NULL && sb != NULL && strcmp(sa, sb) == 0 && ma != NULL && mb != NULL && strcmp(ma, mb) == 0 &&
	       json_is_true(json_object_get(ca, "is_direct")) == json_is_true(json_object_get(cb, "is_direct"));
}

/* Stripped state is not signed: a remote server may put anything in it. The
 * homeserver appends the invite event itself after it (Synapse, Dendrite and
 * Conduit all do), so the last member event for us is the invite; its sender
 * is the inviter. An earlier one that tells another story was forged. */
static void
invited_room(struct ctx *c, const char *room, json_t *r)
{
	json_t *evs = json_object_get(json_object_get(r, "invite_state"), "events"), *ev, *last = NULL;
	const char *ms, *sender;
	struct matrix_item *it;
	bool forged = false;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));

		if (type == NULL || strcmp(type, "m.room.member") != 0 ||
		    !is_self(c, json_string_value(json_object_get(ev, "state_key"))))
			continue;
		if (last != NULL && !same_invite(last, ev))
			forged = true;
		last = ev;
	}
	ms = json_string_value(json_object_get(json_object_get(last, "content"), "membership"));
	if (ms == NULL || strcmp(ms, "invite") != 0 || (sender = get_id(last, "sender", '@')) == NULL)
		return;
	if ((it = add(c, MX_IT_INVITE, room, sender, NULL)) != NULL) {
		it->direct = json_is_true(json_object_get(json_object_get(last, "content"), "is_direct"));
		it->forged = forged;
	}
}

static bool
token_ok(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n > 0 && n <= MAX_TOKEN && matrix_text_visible(s, n);
}

/* The order the items are handled in.  JSON objects have none, and a
 * room upgraded while the bot was away (or faster than a sync) comes in one
 * answer: the tombstone in the old room, the bot in the new one, a command
 * said there.  So the rooms we are in come first (after the account's
 * m.direct, as the server sends it: a tombstone then finds the
 * replacement joined, and the table moves at once), then each room after
 * the room it replaces (what was said in the old room before its tombstone
 * is handled there, and the new room's first command after the table moved),
 * the rest as the server sent it. */
#define ORDER_TOMBSTONES 64
#define ORDER_DEPTH      8

static unsigned
room_depth(const struct matrix_sync *s, const size_t *tomb, size_t ntomb, const char *room)
{
	unsigned d = 0;

	/* the chain back to a room nothing replaces (bounded: a hostile answer
	 * may make a cycle) */
	for (size_t i = 0; i < ntomb && d < ORDER_DEPTH; i++)
		if (strcmp(s->items[tomb[i]].text, room) == 0) {
			room = s->items[tomb[i]].room;
			d++;
			i = (size_t)-1;
		}
	return d;
}

static void
order(struct matrix_sync *s)
{
	size_t tomb[ORDER_TOMBSTONES], ntomb = 0, o = 0;
	unsigned *key;
	struct matrix_item *out;

	for (size_t i = 0; i < s->nitems && ntomb < ORDER_TOMBSTONES; i++)
		if (s->items[i].kind == MX_IT_TOMBSTONE)
			tomb[ntomb++] = i;
	key = xreallocarray(NULL, s->nitems ? s->nitems : 1, sizeof *key);
	for (size_t i = 0; i < s->nitems; i++)
		key[i] = s->items[i].kind == MX_IT_JOINED || s->items[i].kind == MX_IT_DIRECT ? 0 :
		         1 + (ntomb > 0 ? room_depth(s, tomb, ntomb, s->items[i].room) : 0);
	out = xreallocarray(NULL, s->capitems ? s->capitems : 1, sizeof *out);
	for (unsigned k = 0; k <= ORDER_DEPTH + 1; k++)
		for (size_t i = 0; i < s->nitems; i++)
			if (key[i] == k)
				out[o++] = s->items[i];
	free(key);
	free(s->items);
	s->items = out;
}

int
matrix_sync_parse(const char *json, size_t len, const char *self, bool initial,
                  struct matrix_sync *out, const char **why)
{
	struct ctx c = { out, self, initial };
	json_t *root, *rooms, *r;
	const char *room, *nb;

	memset(out, 0, sizeof *out);
	if (len > MATRIX_SYNC_MAX_BYTES) {
		*why = "response too large";
		return -1;
	}
	if ((root = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL)) == NULL) {
		*why = "not JSON";
		return -1;
	}
	nb = json_string_value(json_object_get(root, "next_batch"));
	if (!json_is_object(root) || !token_ok(nb)) {
		json_decref(root);
		*why = "no valid next_batch";
		return -1;
	}
	out->next_batch = xstrdup(nb);
	account_data(&c, root);
	rooms = json_object_get(root, "rooms");
	json_object_foreach(json_object_get(rooms, "join"), room, r)
		if (matrix_text_id_ok(room, '!')) {
			add(&c, MX_IT_JOINED, room, NULL, NULL);
			joined_room(&c, room, r);
		}
	json_object_foreach(json_object_get(rooms, "invite"), room, r)
		if (matrix_text_id_ok(room, '!'))
			invited_room(&c, room, r);
	json_object_foreach(json_object_get(rooms, "leave"), room, r)
		if (matrix_text_id_ok(room, '!'))
			add(&c, MX_IT_REMOVED, room, NULL, NULL);
	json_decref(root);
	order(out);
	return 0;
}

void
matrix_sync_free(struct matrix_sync *s)
{
	for (size_t i = 0; i < s->nitems; i++)
		item_free(&s->items[i]);
	free(s->items);
	free(s->next_batch);
	memset(s, 0, sizeof *s);
}
