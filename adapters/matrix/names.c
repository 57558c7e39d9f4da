/* names.c: display names per (room, user), learnt from m.room.member events, since a user may use another name in each room. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "utf8.h"

#define NAMES_KEY "name/"

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The store key of (room, user): "name/ROOM USER" (ids hold no space). */
static void
names_key(char *key, size_t len, const char *room, const char *user)
{
	snprintf(key, len, NAMES_KEY "%s %s", room != NULL ? room : "-", user);
}

static void
names_put(struct matrix_client *c, const char *room, const char *user, const char *name, bool persist)
{
	struct matrix_name *n = NULL;
	char key[2 * MATRIX_MAX_ID + sizeof NAMES_KEY + 2];

	/* Clients write a mention of us with our display name: "HandFoot: draw". */
	if (c->host.self != NULL && c->self[0] != '\0' && strcmp(user, c->self) == 0 && name[0] != '@' &&
	    name[0] != '\0')
		c->host.self(c->host.ctx, name);
	for (size_t i = 0; i < MATRIX_NAMES; i++)
		if (c->names[i].user != NULL && strcmp(c->names[i].user, user) == 0 && same(c->names[i].room, room))
			n = &c->names[i];
	if (n != NULL && n->name != NULL && strcmp(n->name, name) == 0)
		return;
	if (n == NULL) {
		n = &c->names[c->names_at++ % MATRIX_NAMES];
		if (n->user != NULL && persist) {
			names_key(key, sizeof key, n->room, n->user);
			matrix_client_del(c, key);
		}
		free(n->user);
		free(n->room);
		n->user = xstrdup(user);
		n->room = xstrdup(room);
	}
	free(n->name);
	n->name = xstrdup(name);
	/* kept: a resumed sync does not tell the members again (Synapse sends
	 * a device a member it has sent once only after 30 minutes) */
	if (persist) {
		names_key(key, sizeof key, room, user);
		matrix_client_set(c, key, name);
	}
}

void
matrix_names_set(struct matrix_client *c, const char *room, const char *user, const char *name)
{
	names_put(c, room, user, name, true);
}

static void
restore_one(void *ctx, const char *key, const char *value)
{
	char room[MATRIX_MAX_ID + 1], user[MATRIX_MAX_ID + 1];
	const char *k = key + strlen(NAMES_KEY), *sp = strchr(k, ' ');

	if (sp == NULL || (size_t)(sp - k) > MATRIX_MAX_ID || strlen(sp + 1) > MATRIX_MAX_ID)
		return;
	snprintf(room, sizeof room, "%.*s", (int)(sp - k), k);
	snprintf(user, sizeof user, "%s", sp + 1);
	if (matrix_text_id_ok(user, '@') && (matrix_text_id_ok(room, '!') || strcmp(room, "-") == 0) &&
	    strlen(value) <= MATRIX_MAX_NAME)
		names_put(ctx, strcmp(room, "-") == 0 ? NULL : room, user, value, false);
}

void
matrix_names_restore(struct matrix_client *c)
{
	if (c->host.store.each != NULL)
		c->host.store.each(c->host.store.ctx, NAMES_KEY, restore_one, c);
}

/* Whether someone else in room goes by name: then both are told apart by
 * their user ids (the spec's display name disambiguation, against one
 * member taking another's name). */
static bool
name_shared(struct matrix_client *c, const char *room, const char *user, const char *name)
{
	for (size_t i = 0; i < MATRIX_NAMES; i++) {
		const struct matrix_name *n = &c->names[i];

		if (n->user != NULL && n->name != NULL && same(n->room, room) && strcmp(n->user, user) != 0 &&
		    strcmp(n->name, name) == 0)
			return true;
	}
	return false;
}

const char *
matrix_names_of(struct matrix_client *c, const char *room, const char *user, char *buf, size_t len)
{
	const char *colon, *any = NULL, *name = NULL;

	/* newest first, so that "any room" means the name learnt last */
	for (size_t k = 1; k <= MATRIX_NAMES && name == NULL; k++) {
		const struct matrix_name *n = &c->names[(c->names_at - k) % MATRIX_NAMES];

		if (n->user == NULL || n->name == NULL || strcmp(n->user, user) != 0)
			continue;
		if (room != NULL && same(n->room, room))
			name = n->name;   /* "" if they removed theirs there: their localpart */
		else if (any == NULL && n->name[0] != '\0')
			any = n->name;
	}
	if (name == NULL)
		name = any;
	if (name != NULL && name[0] != '\0') {
		if (room == NULL || !name_shared(c, room, user, name))
			return name;
		/* "Ann (@ann:hs)", the name cut if need be: the id is what tells */
		if (strlen(user) + 4 < len) {
			snprintf(buf, len, "%.*s (%s)", (int)(len - strlen(user) - 4), name, user);
			utf8_clean(buf, strlen(buf), buf, len, MATRIX_MAX_NAME);
			if (strstr(buf, user) != NULL)
				return buf;
		}
		snprintf(buf, len, "%s", user);
		return buf;
	}
	colon = strchr(user, ':');
	snprintf(buf, len, "%.*s", (int)(colon != NULL ? colon - user - 1 : (long)strlen(user) - 1), user + 1);
	utf8_clean(buf, strlen(buf), buf, len, MATRIX_MAX_NAME);
	return buf;
}

void
matrix_names_free(struct matrix_client *c)
{
	for (size_t i = 0; i < MATRIX_NAMES; i++) {
		free(c->names[i].room);
		free(c->names[i].user);
		free(c->names[i].name);
		c->names[i] = (struct matrix_name){ 0 };
	}
}
