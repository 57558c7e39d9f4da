/* store-finished.c: the finished games in the store: their final scores kept, and read back with their seats and moves to rebuild the ratings (rate.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store-db.h"

int
store_game_scores(struct store *st, int64_t id, int nsides, const long long *points)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	char text[HF_MAX_SEATS * 24] = "";
	size_t len = 0;
	int i, rc;

	for (i = 0; i < nsides && i < HF_MAX_SEATS; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%lld", i ? " " : "", points[i]);
	if (sqlite3_prepare_v2(db, "UPDATE games SET scores=? WHERE id=?", -1, &q, NULL) != SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, id);
	rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
	if (rc < 0)
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
	sqlite3_finalize(q);
	return rc;
}

/* "1230 -45": exactly nsides numbers, else not scored. */
bool
store_finished_scores(const char *text, int nsides, long long *points)
{
	char *end;
	int i;

	if (text == NULL)
		return false;
	for (i = 0; i < nsides; i++) {
		points[i] = strtoll(text, &end, 10);
		if (end == text)
			return false;
		text = end;
	}
	return *text == '\0';
}

void
store_finished_seats(sqlite3 *db, struct store_finished *g)
{
	sqlite3_stmt *q;

	g->nseats = 0;
	if (sqlite3_prepare_v2(db, "SELECT seat, user_id, name, ai FROM seats WHERE game=? ORDER BY seat", -1, &q,
	                       NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(q, 1, g->id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		int seat = sqlite3_column_int(q, 0);
		const unsigned char *id = sqlite3_column_text(q, 1), *name = sqlite3_column_text(q, 2);

		if (seat != g->nseats || seat >= HF_MAX_SEATS) {
			g->nseats = -1;   /* a seat missing: the game cannot be told again */
			break;
		}
		snprintf(g->seats[seat].user_id, sizeof g->seats[seat].user_id, "%s", id ? (const char *)id : "");
		snprintf(g->seats[seat].name, sizeof g->seats[seat].name, "%s", name ? (const char *)name : "");
		g->seats[seat].ai = sqlite3_column_int(q, 3);
		g->nseats++;
	}
	sqlite3_finalize(q);
}

void
store_finished_row(sqlite3 *db, sqlite3_stmt *q, struct store_finished *g)
{
	const unsigned char *ad = sqlite3_column_text(q, 1), *rules = sqlite3_column_text(q, 2);

	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(q, 0);
	snprintf(g->adapter, sizeof g->adapter, "%s", ad ? (const char *)ad : "");
	snprintf(g->rules, sizeof g->rules, "%s", rules ? (const char *)rules : "");
	g->nsides = sqlite3_column_int(q, 3);
	g->seed = (uint64_t)sqlite3_column_int64(q, 4);
	g->scored = g->nsides > 0 && g->nsides <= HF_MAX_SEATS &&
	            store_finished_scores((const char *)sqlite3_column_text(q, 5), g->nsides, g->points);
	store_finished_seats(db, g);
}

int
store_finished_each(struct store *st, int (*fn)(void *ctx, const struct store_finished *g), void *ctx)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	struct store_finished *g = xcalloc(1, sizeof *g);
	int rc;

	/* ended is the first prune that saw the game over (store.c): games not
	 * yet seen so ended last; among those seen by the same prune, the one
	 * made first is taken to have ended first */
	if (sqlite3_prepare_v2(db, "SELECT id, adapter, rules, nsides, seed, scores FROM games WHERE state='over'"
	                       " ORDER BY ended IS NULL, ended, id", -1, &q, NULL) != SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		free(g);
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		store_finished_row(db, q, g);
		if (fn(ctx, g) < 0)
			break;
	}
	sqlite3_finalize(q);
	free(g);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int
store_finished_moves(struct store *st, int64_t id, int (*fn)(void *ctx, uint32_t seq, int seat, const char *text),
                     void *ctx)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT seq, seat, text FROM actions WHERE game=? ORDER BY seq", -1, &q, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const unsigned char *text = sqlite3_column_text(q, 2);

		if (fn(ctx, (uint32_t)sqlite3_column_int64(q, 0), sqlite3_column_int(q, 1),
		       text ? (const char *)text : "") < 0)
			break;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}
