/* names.c: display names per (room, user), learnt from m.room.member events, since a user may use another name in each room. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "utf8.h"

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

void
matrix_names_set(struct matrix_client *c, const char *room, const char *user, const char *name)
{
	struct matrix_name *n = NULL;

	/* Clients write a mention of us with our display name: "HandFoot: draw". */
	if (c->host.self != NULL && c->self[0] != '\0' && strcmp(user, c->self) == 0 && name[0] != '@')
		c->host.self(c->host.ctx, name);
	for (size_t i = 0; i < MATRIX_NAMES; i++)
		if (c->names[i].user != NULL && strcmp(c->names[i].user, user) == 0 && same(c->names[i].room, room))
			n = &c->names[i];
	if (n == NULL) {
		n = &c->names[c->names_at++ % MATRIX_NAMES];
		free(n->user);
		free(n->room);
		n->user = xstrdup(user);
		n->room = xstrdup(room);
	}
	free(n->name);
	n->name = xstrdup(name);
}

const char *
matrix_names_of(struct matrix_client *c, const char *room, const char *user, char *buf, size_t len)
{
	const char *colon, *any = NULL;

	/* newest first, so that "any room" means the name learnt last */
	for (size_t k = 1; k <= MATRIX_NAMES; k++) {
		const struct matrix_name *n = &c->names[(c->names_at - k) % MATRIX_NAMES];

		if (n->user == NULL || n->name == NULL || strcmp(n->user, user) != 0)
			continue;
		if (room != NULL && same(n->room, room))
			return n->name;
		if (any == NULL)
			any = n->name;
	}
	if (any != NULL)
		return any;
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
