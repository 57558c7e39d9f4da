/* store-migrate.c: the store's schema brought up to date: the columns and tables added since the first. */
#include <sqlite3.h>

#include "store.h"
#include "store-db.h"

/* Columns added since the first schema, for databases made before them. */
static const struct {
	const char *probe, *add;
} migrations[] = {
	/* games.ended: when a finished game was first seen so (store_prune) */
	{ "SELECT ended FROM games LIMIT 0", "ALTER TABLE games ADD COLUMN ended INTEGER" },
	/* stats keyed by (adapter, user id): each old row goes to the adapter of
	 * the id's last game still kept, else to '' (claimed by the next game) */
	{ "SELECT adapter FROM stats LIMIT 0",
	  "SAVEPOINT stats_adapter;"
	  "CREATE TABLE stats_by_adapter(adapter TEXT NOT NULL, user_id TEXT NOT NULL, name TEXT NOT NULL,"
	  " games INTEGER NOT NULL, wins INTEGER NOT NULL, points INTEGER NOT NULL, PRIMARY KEY(adapter, user_id));"
	  "INSERT INTO stats_by_adapter SELECT coalesce((SELECT g.adapter FROM seats s JOIN games g ON g.id=s.game"
	  " WHERE s.user_id=stats.user_id ORDER BY g.id DESC LIMIT 1), ''), user_id, name, games, wins, points FROM stats;"
	  "DROP TABLE stats;"
	  "ALTER TABLE stats_by_adapter RENAME TO stats;"
	  "RELEASE stats_adapter;" },
	/* games.scores: a finished game's final score per side, "1230 -45"
	 * (store_game_scores, in the transaction that marks it over) */
	{ "SELECT scores FROM games LIMIT 0", "ALTER TABLE games ADD COLUMN scores TEXT" },
	/* ratings per player and rule set (store-rating.c); the games finished
	 * before them are rated at the next start (rate.c, rate_rebuild), asked
	 * for by a row made with the table, so that a crash cannot lose it */
	{ "SELECT rating FROM ratings LIMIT 0",
	  "SAVEPOINT ratings;"
	  "CREATE TABLE ratings(adapter TEXT NOT NULL, user_id TEXT NOT NULL, rules TEXT NOT NULL, name TEXT NOT NULL,"
	  " rating REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY(adapter, user_id, rules));"
	  "CREATE INDEX ratings_rules ON ratings(rules, rating);"
	  "INSERT OR REPLACE INTO adapter_state(adapter, key, value) VALUES('', '" STORE_RERATE_KEY "', '1');"
	  "RELEASE ratings;" },
};

int
store_migrate(sqlite3 *db, char **msg)
{
	sqlite3_stmt *q;
	size_t i;

	for (i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
		if (sqlite3_prepare_v2(db, migrations[i].probe, -1, &q, NULL) == SQLITE_OK) {
			sqlite3_finalize(q);
			continue;
		}
		if (sqlite3_exec(db, migrations[i].add, NULL, NULL, msg) != SQLITE_OK)
			return -1;
	}
	return 0;
}
