/* moved.c: a room replaced by another (a Matrix room upgrade): its table goes on in the new room, both rooms told. */
#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "log.h"

void
bot_room_moved(struct bot *b, struct adapter *a, const struct bot_event *ev)
{
	struct session *s;
	char old[sizeof s->room], line[512];

	if (ev->room == NULL || ev->text == NULL || (s = session_find(&b->sessions, a, ev->room)) == NULL)
		return;
	if (session_find(&b->sessions, a, ev->text) != NULL) {
		log_msg(LOG_LVL_WARNING, "%s %s: replaced by %s, which has a table already: not moved", a->id,
		        ev->room, ev->text);
		return;
	}
	snprintf(old, sizeof old, "%s", s->room);
	if (session_move(&b->sessions, s, ev->text) < 0 || store_game_room(b->store, s->id, s->room) < 0) {
		log_msg(LOG_LVL_WARNING, "%s %s: cannot move the table to %s", a->id, old, ev->text);
		if (strcmp(s->room, old) != 0)
			session_move(&b->sessions, s, old);
		return;
	}
	log_msg(LOG_LVL_NOTICE, "%s %s: upgraded to %s: the table moves there", a->id, old, s->room);
	/* the old room may refuse the bot's lines now (an upgrade raises its
	 * events_default): said anyway, for those who still read it */
	snprintf(line, sizeof line, "This room was upgraded: the table goes on in the new room.");
	reply_queue(b, a, MSG_ROOM, old, NULL, line, NULL, PRIVATE_DEFAULT);
	reply_table(b, s, "The table moved here from the room this one replaces; the game goes on.");
}
