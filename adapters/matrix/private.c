/* private.c: keeps hands private: a direct room holds a hand only while the bot and its player alone are in it, invite-only, its history hidden from later members, unencrypted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

#define DENY_KEY  "deny/"
#define DENY_MAX  1024   /* rooms remembered as never again direct; the oldest go first */

/* Why a join rule or a history visibility makes a room no place for a hand,
 * or NULL.  Only an invite can bring someone in, and whoever comes later
 * reads nothing from before they were invited (the spec's "joined" and
 * "invited"; "shared" shows every earlier event to every new member). */
static const char *
rule_fault(enum matrix_item_kind kind, const char *v)
{
	if (kind == MX_IT_JOIN_RULE)
		return strcmp(v, "invite") == 0 ? NULL : "anyone may join it (join rule not invite)";
	if (strcmp(v, "joined") == 0 || strcmp(v, "invited") == 0)
		return NULL;
	return "later members could read its history";
}

/* Rooms being checked are kept as "room user": the user of room's check, or NULL. */
static const char *
checking_user(struct matrix_client *c, const char *room)
{
	size_t n = strlen(room);

	for (size_t i = 0; i < c->nchecking; i++)
		if (strncmp(c->checking[i], room, n) == 0 && c->checking[i][n] == ' ')
			return c->checking[i] + n + 1;
	return NULL;
}

static void
checking_del(struct matrix_client *c, const char *room)
{
	const char *u = checking_user(c, room);

	if (u != NULL)
		matrix_strlist_del(c->checking, &c->nchecking, u - strlen(room) - 1);
}

bool
matrix_private_checking(struct matrix_client *c, const char *user)
{
	size_t n = strlen(user);

	for (size_t i = 0; i < c->nchecking; i++) {
		size_t l = strlen(c->checking[i]);

		if (l > n && strcmp(c->checking[i] + l - n, user) == 0 && c->checking[i][l - n - 1] == ' ')
			return true;
	}
	return false;
}

bool
matrix_private_kind(enum matrix_item_kind k)
{
	return k == MX_IT_MEMBER || k == MX_IT_JOIN_RULE || k == MX_IT_HISTORY || k == MX_IT_ENCRYPTED;
}

bool
matrix_private_denied(struct matrix_client *c, const char *room)
{
	return room != NULL && matrix_strlist_has(c->denied, c->ndenied, room);
}

static void
deny(struct matrix_client *c, const char *room)
{
	char key[MATRIX_MAX_ID + sizeof DENY_KEY];

	if (matrix_private_denied(c, room))
		return;
	if (c->ndenied >= DENY_MAX) {
		snprintf(key, sizeof key, DENY_KEY "%s", c->denied[0]);
		matrix_client_del(c, key);
		free(c->denied[0]);
		memmove(c->denied, c->denied + 1, --c->ndenied * sizeof *c->denied);
	}
	matrix_strlist_add(&c->denied, &c->ndenied, room);
	snprintf(key, sizeof key, DENY_KEY "%s", room);
	matrix_client_set(c, key, "1");
}

void
matrix_private_drop(struct matrix_client *c, const char *room, const char *why, bool player_gone)
{
	const char *du = matrix_direct_user(c, room);
	char *user = du != NULL ? xstrdup(du) : NULL;

	matrix_client_log(c, LOG_LVL_NOTICE, "%s is no direct room%s%s any more: %s; no hand goes there", room,
	                  user != NULL ? " of " : "", user != NULL ? user : "", why);
	checking_del(c, room);
	deny(c, room);
	matrix_direct_forget(c, room);
	/* hands queued for it wait for another room, or are given up if
	 * the player left: a room made for them now would be refused too */
	matrix_outbox_unresolve(c->out, room);
	if (user != NULL && player_gone)
		matrix_direct_failed(c, user, "you left our direct chat, so I cannot give you your hand there. "
		                              "Invite me to a new direct chat (not encrypted), then ask for your hand again");
	matrix_direct_publish(c);
	if (matrix_strlist_has(c->joined, c->njoined, room) || matrix_strlist_has(c->joining, c->njoining, room))
		matrix_rooms_leave(c, room);
	free(user);
	matrix_send_kick(c);
}

/* A room we made for user came encrypted: the server encrypts every new
 * room (Synapse's encryption_enabled_by_default_for_room_type).  No more
 * are made; the player is told how to get a hand. */
static void
server_encrypts(struct matrix_client *c, const char *room, const char *user)
{
	char *u = xstrdup(user);

	if (!c->server_encrypts)
		matrix_client_log(c, LOG_LVL_WARNING, "the homeserver encrypts the rooms the bot makes (%s): hands "
		                  "go only to unencrypted direct chats the players open", room);
	c->server_encrypts = true;
	matrix_private_drop(c, room, "the server made it encrypted", false);
	matrix_direct_failed(c, u, MATRIX_ENCRYPTED_WHY);
	free(u);
}

void
matrix_private_item(struct matrix_client *c, const struct matrix_item *it)
{
	const char *du = it->room != NULL ? matrix_direct_user(c, it->room) : NULL;
	const char *fault = NULL;
	char why[MATRIX_MAX_ID + 64];
	bool checked = false;

	if (du == NULL && it->room != NULL && (du = checking_user(c, it->room)) != NULL)
		checked = true;
	if (du == NULL)
		return;
	switch (it->kind) {
	case MX_IT_MEMBER:
		if (it->user == NULL || it->text == NULL)
			return;
		if (strcmp(it->user, du) == 0) {
			if (strcmp(it->text, "join") == 0)
				matrix_direct_joined(c, it->room);
			else if (strcmp(it->text, "leave") == 0 || strcmp(it->text, "ban") == 0)
				matrix_private_drop(c, it->room, "its player left or refused it", true);
			return;
		}
		if (strcmp(it->text, "leave") == 0 || strcmp(it->text, "ban") == 0)
			return;
		/* an invite or a knock is enough: dropped before they can join */
		snprintf(why, sizeof why, "%s is %s", it->user,
		         strcmp(it->text, "join") == 0     ? "in it"
		         : strcmp(it->text, "knock") == 0 ? "knocking"
		                                          : "invited");
		fault = why;
		break;
	case MX_IT_JOIN_RULE:
	case MX_IT_HISTORY:
		if (it->text == NULL || (fault = rule_fault(it->kind, it->text)) == NULL)
			return;
		break;
	case MX_IT_ENCRYPTED:
		fault = "it is encrypted";
		break;
	default:
		return;
	}
	/* a room being checked: the check's answer may predate this change.
	 * One the player asked us into may be their game room: it is only
	 * not taken; one we made is dropped */
	if (checked && !matrix_strlist_has(c->creating, c->ncreating, du)) {
		matrix_client_log(c, LOG_LVL_NOTICE, "%s is no direct room for %s's hands: %s", it->room, du, fault);
		checking_del(c, it->room);
		return;
	}
	matrix_private_drop(c, it->room, fault, false);
}

/* What a room's state tells of a direct room for user. */
struct state_seen {
	bool player_in, player_joined, enc, rule, hist;
	const char *fault;
	char other[MATRIX_MAX_ID + 32];
};

/* The state events of GET /rooms/{room}/state into st. */
static void
scan_state(struct matrix_client *c, json_t *body, const char *user, bool created, struct state_seen *st)
{
	json_t *ev;
	size_t i;

	st->other[0] = '\0';
	json_array_foreach(body, i, ev) {
		const char *type = json_string_value(json_object_get(ev, "type"));
		const char *key = json_string_value(json_object_get(ev, "state_key"));
		json_t *content = json_object_get(ev, "content");
		const char *v;

		if (type == NULL || key == NULL)
			continue;
		if (strcmp(type, "m.room.member") == 0) {
			v = json_string_value(json_object_get(content, "membership"));
			if (v == NULL || strcmp(v, "leave") == 0 || strcmp(v, "ban") == 0 || strcmp(key, c->self) == 0)
				continue;
			if (strcmp(key, user) == 0) {
				st->player_joined = strcmp(v, "join") == 0;
				st->player_in = st->player_joined || (created && strcmp(v, "invite") == 0);
			}
			else if (st->other[0] == '\0')
				snprintf(st->other, sizeof st->other, "%s is %s", matrix_text_id_ok(key, '@') ? key : "someone",
				         strcmp(v, "join") == 0 ? "in it" : "invited");
		} else if (strcmp(type, "m.room.third_party_invite") == 0 && json_object_size(content) > 0) {
			snprintf(st->other, sizeof st->other, "someone is invited by e-mail");
		} else if (strcmp(type, "m.room.encryption") == 0 && key[0] == '\0') {
			st->enc = true;
		} else if ((strcmp(type, "m.room.join_rules") == 0 || strcmp(type, "m.room.history_visibility") == 0) &&
		           key[0] == '\0') {
			bool jr = type[7] == 'j';
			const char *val = json_string_value(json_object_get(content, jr ? "join_rule" : "history_visibility"));

			if (jr)
				st->rule = true;
			else
				st->hist = true;
			if (st->fault == NULL)
				st->fault = rule_fault(jr ? MX_IT_JOIN_RULE : MX_IT_HISTORY, val != NULL ? val : "");
		}
	}
}

/* The answer of GET /rooms/{room}/state: a direct room if it passes. */
static void
on_state(struct matrix_client *c, struct matrix_req *r, long status, json_t *body)
{
	const char *room = r->arg, *user = r->user;
	bool created = r->direct;
	struct state_seen st = { 0 };

	if (created)
		matrix_strlist_del(c->creating, &c->ncreating, user);
	/* gone from the list: something in a sync spoke against it meanwhile */
	if (checking_user(c, room) == NULL)
		return;
	checking_del(c, room);
	if (status != 200 || !json_is_array(body)) {
		matrix_client_log(c, LOG_LVL_NOTICE, "cannot read the state of %s (HTTP %ld): it holds no hand of %s",
		                  room, status, user);
		if (created)
			matrix_private_drop(c, room, "its state cannot be read", false);
		return;
	}
	scan_state(c, body, user, created, &st);
	/* no event at all: the spec's defaults, shared history and... an
	 * invite rule, but a shared history shows every hand to newcomers */
	if (st.fault == NULL && !st.hist)
		st.fault = rule_fault(MX_IT_HISTORY, "shared");
	if (st.fault == NULL && !st.rule)
		st.fault = rule_fault(MX_IT_JOIN_RULE, "");
	if (st.enc && created) {
		server_encrypts(c, room, user);
		return;
	}
	if (st.enc)
		st.fault = "it is encrypted";
	else if (st.other[0] != '\0')
		st.fault = st.other;
	else if (!st.player_in)
		st.fault = "its player is not in it";
	if (st.fault != NULL) {
		if (created)
			matrix_private_drop(c, room, st.fault, false);
		else
			matrix_client_log(c, LOG_LVL_NOTICE, "%s is no direct room for %s's hands: %s", room, user, st.fault);
		return;
	}
	if (created && matrix_direct_room(c, user) != NULL) {
		/* another room of theirs came meanwhile (from m.direct): ours is not needed */
		matrix_client_log(c, LOG_LVL_INFO, "%s has a direct room already: leaving %s", user, room);
		matrix_rooms_leave(c, room);
		return;
	}
	if (created)
		c->create_fails = 0;
	matrix_client_log(c, LOG_LVL_INFO, "%s is the direct room of %s", room, user);
	matrix_direct_set(c, user, room, false, true);
	if (st.player_joined)
		matrix_direct_joined(c, room);
	matrix_direct_publish(c);
	matrix_send_kick(c);
}

void
matrix_private_check(struct matrix_client *c, const char *room, const char *user, bool created)
{
	char path[1024], enc[3 * MATRIX_MAX_ID + 1];
	struct matrix_req *r;

	char entry[2 * MATRIX_MAX_ID + 2];

	if (matrix_private_denied(c, room) || checking_user(c, room) != NULL ||
	    matrix_text_urlenc(room, enc, sizeof enc) < 0)
		goto fail;
	snprintf(entry, sizeof entry, "%s %s", room, user);
	snprintf(path, sizeof path, MATRIX_API "/rooms/%s/state", enc);
	if ((r = matrix_req_start(c, "GET", path, NULL, on_state, MATRIX_REQ_TIMEOUT, MATRIX_MAX_BODY)) == NULL)
		goto fail;
	matrix_strlist_add(&c->checking, &c->nchecking, entry);
	r->arg = xstrdup(room);
	r->user = xstrdup(user);
	r->direct = created;
	return;
fail:
	if (created)
		matrix_strlist_del(c->creating, &c->ncreating, user);
}

static void
restore_one(void *ctx, const char *key, const char *value)
{
	struct matrix_client *c = ctx;

	(void)value;
	if (matrix_text_id_ok(key + strlen(DENY_KEY), '!'))
		matrix_strlist_add(&c->denied, &c->ndenied, key + strlen(DENY_KEY));
}

void
matrix_private_restore(struct matrix_client *c)
{
	c->host.store.each(c->host.store.ctx, DENY_KEY, restore_one, c);
}

void
matrix_private_free(struct matrix_client *c)
{
	matrix_strlist_free(c->checking, c->nchecking);
	matrix_strlist_free(c->denied, c->ndenied);
	matrix_strlist_free(c->told_enc, c->ntold_enc);
	c->checking = c->denied = c->told_enc = NULL;
	c->nchecking = c->ndenied = c->ntold_enc = 0;
}
