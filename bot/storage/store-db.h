/* store-db.h: the store's SQLite handle, for the store's own files (store.c, store-rating.c) only. */
#ifndef HF_STORE_DB_H
#define HF_STORE_DB_H

#include <sqlite3.h>

struct store;
sqlite3 *store_db(struct store *st);
/* Brings an opened database's schema up to date (store-migrate.c): 0, or -1 with *msg. */
int store_migrate(sqlite3 *db, char **msg);

#endif
