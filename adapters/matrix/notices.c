/* notices.c: the server notices room (tagged m.server_notice): what the homeserver tells the operator (resource limits, terms), logged, never a command. */
#include <stdio.h>
#include <string.h>

#include "matrix.h"

#define NOTICES_KEY "server_notices"

void
matrix_notices_restore(struct matrix_client *c)
{
	char buf[MATRIX_MAX_ID + 1];

	/* the tag comes once (with the room's first sync), not with each batch */
	if (matrix_client_get(c, NOTICES_KEY, buf, sizeof buf) >= 0 && matrix_text_id_ok(buf, '!'))
		snprintf(c->notice_room, sizeof c->notice_room, "%s", buf);
}

void
matrix_notices_room(struct matrix_client *c, const struct matrix_item *it)
{
	if (it->notice) {
		if (strcmp(c->notice_room, it->room) == 0 || strlen(it->room) >= sizeof c->notice_room)
			return;
		snprintf(c->notice_room, sizeof c->notice_room, "%s", it->room);
		matrix_client_set(c, NOTICES_KEY, c->notice_room);
		matrix_client_log(c, LOG_LVL_INFO, "%s is the server notices room: what is said there is logged", it->room);
	} else if (strcmp(c->notice_room, it->room) == 0) {
		c->notice_room[0] = '\0';
		matrix_client_del(c, NOTICES_KEY);
	}
}

bool
matrix_notices_take(struct matrix_client *c, const struct matrix_item *it)
{
	bool ours = it->room != NULL && c->notice_room[0] != '\0' && strcmp(it->room, c->notice_room) == 0;

	if (it->kind == MX_IT_SERVER_NOTICE) {
		/* the spec: an m.server_notice outside the server notices room
		 * must be ignored (anyone can send that msgtype) */
		if (ours)
			matrix_client_log(c, LOG_LVL_WARNING, "server notice%s%s%s: %s", it->name != NULL ? " (" : "",
			                  it->name != NULL ? it->name : "", it->name != NULL ? ")" : "", it->text);
		else
			matrix_client_log(c, LOG_LVL_DEBUG, "ignored an m.server_notice from %s outside the server "
			                  "notices room (%s)", it->user, it->room);
		return true;
	}
	if (!ours)
		return false;
	/* an administrator's notice (Synapse's admin API) may be a plain m.text */
	if (it->kind == MX_IT_MESSAGE)
		matrix_client_log(c, LOG_LVL_WARNING, "server notice: %s", it->text);
	return true;
}
