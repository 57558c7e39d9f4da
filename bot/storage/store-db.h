/* store-db.h: the store's SQLite handle, for the store's own files (bot/storage/) only. */
#ifndef HF_STORE_DB_H
#define HF_STORE_DB_H

#include <stdbool.h>

#include <sqlite3.h>

struct store;
sqlite3 *store_db(struct store *st);
/* Brings an opened database's schema up to date (store-migrate.c): 0, or -1 with *msg. */
int store_migrate(sqlite3 *db, char **msg);
/* A finished game's kept scores from their text ("1230 -45", exactly nsides
 * numbers): true if so; and its seats read into g (nseats -1 if one is
 * missing) (store-finished.c, for store-replay.c too). */
struct store_finished;
bool store_finished_scores(const char *text, int nsides, long long *points);
void store_finished_seats(sqlite3 *db, struct store_finished *g);
/* The row q stands on, columns id, adapter, rules, nsides, seed, scores
 * first, read into g with its seats. */
void store_finished_row(sqlite3 *db, sqlite3_stmt *q, struct store_finished *g);

#endif
