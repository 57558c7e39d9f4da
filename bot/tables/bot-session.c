/* bot-session.c: a table's end: its timers cancelled, what is held told, its pages closed, its story and state let go, its session removed. */
#include <stdio.h>

#include "tables.h"

void
bot_session_end(struct bot *b, struct session *s)
{
	char key[48];

	flow_cancel(b, s);
	tell_flush(b, s, false);
	view_end(b, s);
	tell_free(s);
	story_forget(b, s);
	story_free(s);
	snprintf(key, sizeof key, "told %lld", (long long)s->id);
	store_kv_del(b->store, s->ad->id, key);
	clock_forget(b, s);
	session_remove(&b->sessions, s);
}
