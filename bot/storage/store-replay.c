/* store-replay.c: a finished game read back for its replay (replay.c), when it ended, and a room's recent finished games for the room's page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store-db.h"

/* The columns every read below starts with, as store_finished_each reads them. */
#define REPLAY_COLS "id, adapter, rules, nsides, seed, scores, room, created, ended"

int
store_game_ended(struct store *st, int64_t id, int64_t now)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	int rc;

	/* the prune marks a game ended when it first sees it over: a game played
	 * to its end is marked as it ends, so that its replay's days count from then */
	if (sqlite3_prepare_v2(db, "UPDATE games SET ended=? WHERE id=? AND ended IS NULL", -1, &q, NULL) != SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(q, 1, now);
	sqlite3_bind_int64(q, 2, id);
	rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(q);
	return rc;
}

/* One row of REPLAY_COLS into g and its place. */
static void
replay_row(sqlite3 *db, sqlite3_stmt *q, struct store_replayed *r)
{
	const unsigned char *room;

	memset(r, 0, sizeof *r);
	store_finished_row(db, q, &r->g);
	room = sqlite3_column_text(q, 6);
	snprintf(r->room, sizeof r->room, "%s", room ? (const char *)room : "");
	r->created = sqlite3_column_int64(q, 7);
	r->ended = sqlite3_column_int64(q, 8);   /* NULL reads 0: not known */
}

int
store_replay_game(struct store *st, int64_t id, struct store_replayed *r)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "SELECT " REPLAY_COLS " FROM games WHERE id=? AND state='over'", -1, &q, NULL) !=
	    SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) == SQLITE_ROW) {
		replay_row(db, q, r);
		rc = r->g.nseats >= 2 ? 0 : -1;
	}
	sqlite3_finalize(q);
	return rc;
}

int
store_room_games(struct store *st, const char *adapter, const char *room, int max,
                 void (*fn)(void *ctx, const struct store_replayed *r), void *ctx)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	struct store_replayed *r = xcalloc(1, sizeof *r);
	int n = 0, rc;

	/* never an aborted game: only those played to their end are "over" */
	if (sqlite3_prepare_v2(db, "SELECT " REPLAY_COLS " FROM games WHERE adapter=? AND room=? AND state='over'"
	                       " ORDER BY id DESC LIMIT ?", -1, &q, NULL) != SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		free(r);
		return -1;
	}
	sqlite3_bind_text(q, 1, adapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, room, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		replay_row(db, q, r);
		if (r->g.nseats < 2)
			continue;
		fn(ctx, r);
		n++;
	}
	sqlite3_finalize(q);
	free(r);
	return rc == SQLITE_DONE ? n : -1;
}
