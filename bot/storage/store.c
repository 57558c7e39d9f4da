/* store.c: SQLite (WAL) storage: games, seats, actions, statistics, preferences, adapter state. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "store-db.h"

enum {
	Q_GAME_NEW, Q_GAME_STATE, Q_SEATS_DEL, Q_SEAT_ADD, Q_ACTION_ADD, Q_BEGIN, Q_COMMIT, Q_ROLLBACK, Q_SP, Q_SP_RELEASE, Q_SP_ROLLBACK,
	Q_STATS_CLAIM, Q_STATS_ADD, Q_STATS_GET, Q_STATS_NAME, Q_STATS_TOP, Q_PREF_GET, Q_PREF_SET, Q_KV_GET, Q_KV_SET, Q_KV_DEL, Q_KV_EACH,
	Q_LOAD_GAMES, Q_LOAD_SEATS, Q_LOAD_ACTIONS, Q_PRUNE_MARK, Q_PRUNE_PICK, Q_PRUNE_ACTIONS, Q_PRUNE_SEATS,
	Q_PRUNE_GAMES, Q_PRUNE_AWAY, Q_PRUNE_WAITS, Q_FORGET_ACTIONS, Q_FORGET_SEATS, Q_FORGET_AWAY, Q_FORGET_WAITS,
	Q_FORGET_GAME, Q_AWAY_SET, Q_WAIT_SET, Q_LOAD_AWAY, Q_LOAD_WAITS, Q_GAME_ROOM, Q_COUNT
};

static const char *const sql[Q_COUNT] = {
	[Q_GAME_NEW] = "INSERT INTO games(adapter, room, rules, nplayers, nsides, seed, owner, state, created)"
	               " VALUES(?,?,?,?,?,?,?,?,?)",
	[Q_GAME_STATE] = "UPDATE games SET state=?, nplayers=?, nsides=?, seed=? WHERE id=?",
	[Q_GAME_ROOM] = "UPDATE games SET room=? WHERE id=?",
	[Q_SEATS_DEL] = "DELETE FROM seats WHERE game=?",
	[Q_SEAT_ADD] = "INSERT INTO seats(game, seat, user_id, name, ai, team) VALUES(?,?,?,?,?,?)",
	[Q_ACTION_ADD] = "INSERT INTO actions(game, seq, seat, text) VALUES(?,?,?,?)",
	[Q_BEGIN] = "BEGIN",
	[Q_COMMIT] = "COMMIT",
	[Q_ROLLBACK] = "ROLLBACK",
	/* A savepoint nests inside a caller's transaction, or stands alone. */
	[Q_SP] = "SAVEPOINT seats",
	[Q_SP_RELEASE] = "RELEASE seats",
	[Q_SP_ROLLBACK] = "ROLLBACK TO seats",
	/* a row of before the adapter was kept (its games pruned since) goes to
	 * the first adapter on which that id finishes a game */
	[Q_STATS_CLAIM] = "UPDATE OR IGNORE stats SET adapter=?1 WHERE adapter='' AND user_id=?2",
	/* keyed by adapter and user id: "nick:x" on two IRC networks are two people */
	[Q_STATS_ADD] = "INSERT INTO stats(adapter, user_id, name, games, wins, points) VALUES(?1,?2,?3,1,?4,?5)"
	                " ON CONFLICT(adapter, user_id) DO UPDATE SET name=?3, games=games+1, wins=wins+?4,"
	                " points=points+?5",
	[Q_STATS_GET] = "SELECT adapter, user_id, name, games, wins, points FROM stats"
	                " WHERE user_id=?2 AND adapter IN (?1, '') ORDER BY adapter DESC LIMIT 1",
	/* names are not unique: two players may both be "alice" */
	[Q_STATS_NAME] = "SELECT adapter, user_id, name, games, wins, points FROM stats"
	                 " WHERE name=?1 COLLATE NOCASE ORDER BY games DESC, adapter, user_id LIMIT ?2",
	[Q_STATS_TOP] = "SELECT adapter, user_id, name, games, wins, points FROM stats"
	                " ORDER BY wins DESC, points DESC, games ASC LIMIT ?",
	[Q_PREF_GET] = "SELECT value FROM prefs WHERE adapter=? AND user_id=? AND key=?",
	[Q_PREF_SET] = "INSERT OR REPLACE INTO prefs(adapter, user_id, key, value) VALUES(?,?,?,?)",
	[Q_KV_GET] = "SELECT value FROM adapter_state WHERE adapter=? AND key=?",
	[Q_KV_SET] = "INSERT OR REPLACE INTO adapter_state(adapter, key, value) VALUES(?,?,?)",
	[Q_KV_DEL] = "DELETE FROM adapter_state WHERE adapter=? AND key=?",
	[Q_KV_EACH] = "SELECT key, value FROM adapter_state WHERE adapter=? AND substr(key, 1, length(?2))=?2"
	              " ORDER BY key",
	[Q_LOAD_GAMES] = "SELECT id, adapter, room, rules, nplayers, nsides, seed, owner, state, created"
	                 " FROM games WHERE state IN ('open','playing') ORDER BY id",
	[Q_LOAD_SEATS] = "SELECT s.game, s.seat, s.user_id, s.name, s.ai, s.team FROM seats s JOIN games g"
	                 " ON g.id=s.game WHERE g.state IN ('open','playing') ORDER BY s.game, s.seat",
	[Q_LOAD_ACTIONS] = "SELECT a.game, a.seq, a.seat, a.text FROM actions a JOIN games g ON g.id=a.game"
	                   " WHERE g.state IN ('open','playing') ORDER BY a.game, a.seq",
	/* A finished game's end is the first prune that sees it: the rows need
	 * no clock of their own, and nothing is deleted sooner than retention.
	 * A game that did not come back after an upgrade ("broken", restore.c)
	 * is never pruned: it waits for a person. */
	[Q_PRUNE_MARK] = "UPDATE games SET ended=?1 WHERE ended IS NULL AND state NOT IN ('open','playing','broken')",
	[Q_PRUNE_PICK] = "INSERT INTO temp.prune(id) SELECT id FROM games"
	                 " WHERE state NOT IN ('open','playing','broken') AND ended<=?1 ORDER BY id LIMIT ?2",
	[Q_PRUNE_ACTIONS] = "DELETE FROM actions WHERE game IN (SELECT id FROM temp.prune)",
	[Q_PRUNE_SEATS] = "DELETE FROM seats WHERE game IN (SELECT id FROM temp.prune)",
	[Q_PRUNE_GAMES] = "DELETE FROM games WHERE id IN (SELECT id FROM temp.prune)",
	[Q_PRUNE_AWAY] = "DELETE FROM seat_state WHERE game IN (SELECT id FROM temp.prune)",
	[Q_PRUNE_WAITS] = "DELETE FROM waits WHERE game IN (SELECT id FROM temp.prune)",
	/* one game that ended with nothing worth keeping (store_game_forget) */
	[Q_FORGET_ACTIONS] = "DELETE FROM actions WHERE game=?",
	[Q_FORGET_SEATS] = "DELETE FROM seats WHERE game=?",
	[Q_FORGET_AWAY] = "DELETE FROM seat_state WHERE game=?",
	[Q_FORGET_WAITS] = "DELETE FROM waits WHERE game=?",
	[Q_FORGET_GAME] = "DELETE FROM games WHERE id=?",
	/* seat state: who the computer plays for, and the clock of the one waited for */
	[Q_AWAY_SET] = "INSERT OR REPLACE INTO seat_state(game, seat, away) VALUES(?,?,?)",
	[Q_WAIT_SET] = "INSERT OR REPLACE INTO waits(game, seat, since, reminded) VALUES(?,?,?,?)",
	[Q_LOAD_AWAY] = "SELECT s.game, s.seat FROM seat_state s JOIN games g ON g.id=s.game"
	                " WHERE g.state='playing' AND s.away<>0 ORDER BY s.game, s.seat",
	[Q_LOAD_WAITS] = "SELECT w.game, w.seat, w.since, w.reminded FROM waits w JOIN games g ON g.id=w.game"
	                 " WHERE g.state='playing' ORDER BY w.game",
};

static const char schema[] =
	/* The daemon is the database's only user: holding the lock for good
	 * (set before WAL is entered, so the WAL index lives in memory, no -shm
	 * file) saves the five fcntl() calls each commit would make, half its
	 * cost, and turns a second daemon on the same file away instead of
	 * letting the two interleave games. */
	"PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA journal_mode=WAL;"
	/* NORMAL in WAL mode: a commit survives the process being killed (the
	 * WAL is written before COMMIT returns), not a power cut in the instant after. */
	"PRAGMA synchronous=NORMAL;"
	/* After a burst, the WAL is cut back to this size at a checkpoint. */
	"PRAGMA journal_size_limit=4194304;"
	"PRAGMA foreign_keys=OFF;"
	"CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY, adapter TEXT NOT NULL, room TEXT NOT NULL,"
	" rules TEXT NOT NULL, nplayers INTEGER NOT NULL, nsides INTEGER NOT NULL, seed INTEGER NOT NULL,"
	" owner TEXT NOT NULL, state TEXT NOT NULL, created INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS games_state ON games(state);"
	"CREATE TABLE IF NOT EXISTS seats(game INTEGER NOT NULL, seat INTEGER NOT NULL, user_id TEXT NOT NULL,"
	" name TEXT NOT NULL, ai INTEGER NOT NULL, team INTEGER NOT NULL DEFAULT -1, PRIMARY KEY(game, seat));"
	"CREATE TABLE IF NOT EXISTS actions(game INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL,"
	" text TEXT NOT NULL, PRIMARY KEY(game, seq)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS stats(adapter TEXT NOT NULL, user_id TEXT NOT NULL, name TEXT NOT NULL,"
	" games INTEGER NOT NULL, wins INTEGER NOT NULL, points INTEGER NOT NULL, PRIMARY KEY(adapter, user_id));"
	"CREATE TABLE IF NOT EXISTS prefs(adapter TEXT NOT NULL, user_id TEXT NOT NULL, key TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY(adapter, user_id, key));"
	"CREATE TABLE IF NOT EXISTS adapter_state(adapter TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY(adapter, key));"
	/* What a restart must not forget of a seat: the computer playing for a
	 * player (!auto, away), and since when the table waits for whom (wall
	 * clock, ms), so that reminders and takeovers keep their deadlines. */
	"CREATE TABLE IF NOT EXISTS seat_state(game INTEGER NOT NULL, seat INTEGER NOT NULL, away INTEGER NOT NULL,"
	" PRIMARY KEY(game, seat)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS waits(game INTEGER PRIMARY KEY, seat INTEGER NOT NULL, since INTEGER NOT NULL,"
	" reminded INTEGER NOT NULL);"
	"CREATE TEMP TABLE IF NOT EXISTS prune(id INTEGER PRIMARY KEY);";

struct store {
	sqlite3 *db;
	sqlite3_stmt *q[Q_COUNT];
	int wal_frames;          /* frames in the WAL not yet copied into the database */
};

sqlite3 *store_db(struct store *st) { return st->db; }

static sqlite3_stmt *
store_q(struct store *st, int which)
{
	sqlite3_stmt *q = st->q[which];

	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	return q;
}

static int
store_done(struct store *st, sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* Replaces SQLite's automatic checkpoint, which would run (with its two
 * fsyncs) inside the commit of a player's move: the bot calls
 * store_checkpoint between commands instead. */
static int
store_wal_hook(void *ctx, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((struct store *)ctx)->wal_frames = frames;
	return SQLITE_OK;
}

static void
bind_text(sqlite3_stmt *q, int i, const char *s)
{
	sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
}

/* The seed and the moves of a game rebuild every hand in it: the file is
 * the daemon's alone.  It is created 0600 here, whatever the umask (the
 * unit's is 0077; a console's is often 022); SQLite gives its -wal and -shm
 * files the database's own mode.  One that others can already read is said,
 * not changed behind the operator's back. */
static void
store_private(const char *path)
{
	struct stat sb;
	int fd;

	if (strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0)
		return;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)) >= 0) {
		close(fd);   /* an empty file is an empty database */
		return;
	}
	if (errno == EEXIST && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 077) != 0)
		log_msg(LOG_LVL_WARNING, "database %s is readable by group or others (mode %04o): its games' seeds "
		        "and moves rebuild every hand; chmod 600 it (and its -wal file)", path,
		        (unsigned)(sb.st_mode & 07777));
}

struct store *
store_open(const char *path, char *err, size_t errlen)
{
	struct store *st;
	char *msg = NULL;
	int i;

	st = xcalloc(1, sizeof *st);
	store_private(path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, st->db ? sqlite3_errmsg(st->db) : "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 2000);
	if (sqlite3_exec(st->db, schema, NULL, NULL, &msg) != SQLITE_OK || store_migrate(st->db, &msg) < 0) {
		int code = sqlite3_errcode(st->db);

		if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
			/* the daemon holds its database for good (locking_mode=EXCLUSIVE) */
			snprintf(err, errlen, "%s: %s: another handfoot (or another program) has it open; stop that one, "
			         "or give this one its own [bot] database", path, msg ? msg : sqlite3_errmsg(st->db));
		else
			snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		goto fail;
	}
	sqlite3_wal_hook(st->db, store_wal_hook, st);
	for (i = 0; i < Q_COUNT; i++)
		if (sqlite3_prepare_v3(st->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->q[i], NULL) != SQLITE_OK) {
			snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(st->db));
			goto fail;
		}
	return st;
fail:
	store_close(st);
	return NULL;
}

void
store_close(struct store *st)
{
	int i;

	if (st == NULL)
		return;
	for (i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(st->q[i]);
	sqlite3_close(st->db);
	free(st);
}

int64_t
store_game_new(struct store *st, const struct store_game *g)
{
	sqlite3_stmt *q = store_q(st, Q_GAME_NEW);

	bind_text(q, 1, g->adapter);
	bind_text(q, 2, g->room);
	bind_text(q, 3, g->rules);
	sqlite3_bind_int(q, 4, g->nplayers);
	sqlite3_bind_int(q, 5, g->nsides);
	sqlite3_bind_int64(q, 6, (sqlite3_int64)g->seed);
	bind_text(q, 7, g->owner);
	bind_text(q, 8, g->state);
	sqlite3_bind_int64(q, 9, g->created);
	if (store_done(st, q) < 0)
		return -1;
	return sqlite3_last_insert_rowid(st->db);
}

int
store_game_room(struct store *st, int64_t id, const char *room)
{
	sqlite3_stmt *q = store_q(st, Q_GAME_ROOM);

	bind_text(q, 1, room);
	sqlite3_bind_int64(q, 2, id);
	return store_done(st, q);
}

int
store_game_state(struct store *st, int64_t id, const char *state, int nplayers, int nsides, uint64_t seed)
{
	sqlite3_stmt *q = store_q(st, Q_GAME_STATE);

	bind_text(q, 1, state);
	sqlite3_bind_int(q, 2, nplayers);
	sqlite3_bind_int(q, 3, nsides);
	sqlite3_bind_int64(q, 4, (sqlite3_int64)seed);
	sqlite3_bind_int64(q, 5, id);
	return store_done(st, q);
}

int
store_seats_set(struct store *st, int64_t id, const struct store_seat *seats, int n)
{
	sqlite3_stmt *q;
	int i;

	if (store_done(st, store_q(st, Q_SP)) < 0)
		return -1;
	q = store_q(st, Q_SEATS_DEL);
	sqlite3_bind_int64(q, 1, id);
	if (store_done(st, q) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		q = store_q(st, Q_SEAT_ADD);
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int(q, 2, seats[i].seat);
		bind_text(q, 3, seats[i].user_id);
		bind_text(q, 4, seats[i].name);
		sqlite3_bind_int(q, 5, seats[i].ai);
		sqlite3_bind_int(q, 6, seats[i].team);
		if (store_done(st, q) < 0)
			goto fail;
	}
	return store_done(st, store_q(st, Q_SP_RELEASE));
fail:
	store_done(st, store_q(st, Q_SP_ROLLBACK));
	store_done(st, store_q(st, Q_SP_RELEASE));
	return -1;
}

int
store_action_add(struct store *st, int64_t game, uint32_t seq, int seat, const char *text)
{
	sqlite3_stmt *q = store_q(st, Q_ACTION_ADD);

	sqlite3_bind_int64(q, 1, game);
	sqlite3_bind_int64(q, 2, seq);
	sqlite3_bind_int(q, 3, seat);
	bind_text(q, 4, text);
	return store_done(st, q);
}

int
store_checkpoint(struct store *st, int min_frames)
{
	int log = 0, done = 0;

	if (st->wal_frames == 0 || st->wal_frames < min_frames || !sqlite3_get_autocommit(st->db))
		return 0;
	if (sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done) != SQLITE_OK) {
		log_msg(LOG_LVL_WARNING, "database checkpoint: %s", sqlite3_errmsg(st->db));
		return -1;
	}
	/* Every frame copied: the next commit starts the WAL over, overwriting it in place. */
	st->wal_frames = log > done ? log - done : 0;
	return done;
}

int store_begin(struct store *st) { return store_done(st, store_q(st, Q_BEGIN)); }
int store_commit(struct store *st) { return store_done(st, store_q(st, Q_COMMIT)); }
int store_rollback(struct store *st) { return store_done(st, store_q(st, Q_ROLLBACK)); }

int
store_stats_add(struct store *st, const char *adapter, const char *user_id, const char *name, int win,
                long long points)
{
	sqlite3_stmt *q = store_q(st, Q_STATS_CLAIM);

	bind_text(q, 1, adapter);
	bind_text(q, 2, user_id);
	if (store_done(st, q) < 0)
		return -1;
	q = store_q(st, Q_STATS_ADD);
	bind_text(q, 1, adapter);
	bind_text(q, 2, user_id);
	bind_text(q, 3, name);
	sqlite3_bind_int(q, 4, win);
	sqlite3_bind_int64(q, 5, points);
	return store_done(st, q);
}

static void
stats_row(sqlite3_stmt *q, struct store_stats *o)
{
	snprintf(o->adapter, sizeof o->adapter, "%s", (const char *)sqlite3_column_text(q, 0));
	snprintf(o->user_id, sizeof o->user_id, "%s", (const char *)sqlite3_column_text(q, 1));
	snprintf(o->name, sizeof o->name, "%s", (const char *)sqlite3_column_text(q, 2));
	o->games = sqlite3_column_int(q, 3);
	o->wins = sqlite3_column_int(q, 4);
	o->points = sqlite3_column_int64(q, 5);
}

int
store_stats_find(struct store *st, const char *adapter, const char *who, struct store_stats *out, int max)
{
	sqlite3_stmt *q = store_q(st, Q_STATS_GET);
	int n = 0;

	bind_text(q, 1, adapter);
	bind_text(q, 2, who);
	if (max > 0 && sqlite3_step(q) == SQLITE_ROW) {
		stats_row(q, out);
		n = 1;
	}
	sqlite3_reset(q);
	if (n > 0 || max <= 0)
		return n;
	q = store_q(st, Q_STATS_NAME);
	bind_text(q, 1, who);
	sqlite3_bind_int(q, 2, STORE_STATS_COUNT_MAX);
	for (; sqlite3_step(q) == SQLITE_ROW; n++)
		if (n < max)
			stats_row(q, &out[n]);
	sqlite3_reset(q);
	return n;
}

int
store_stats_get(struct store *st, const char *adapter, const char *who, struct store_stats *out)
{
	return store_stats_find(st, adapter, who, out, 1) == 1 ? 0 : -1;
}

int
store_stats_top(struct store *st, struct store_stats *out, int max)
{
	sqlite3_stmt *q = store_q(st, Q_STATS_TOP);
	int n = 0;

	sqlite3_bind_int(q, 1, max);
	while (n < max && sqlite3_step(q) == SQLITE_ROW)
		stats_row(q, &out[n++]);
	sqlite3_reset(q);
	return n;
}

static int
store_get1(struct store *st, sqlite3_stmt *q, char *buf, size_t len)
{
	int rc = sqlite3_step(q);

	if (rc == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_reset(q);
	(void)st;
	return rc == SQLITE_ROW ? 0 : -1;
}

int
store_pref_get(struct store *st, const char *adapter, const char *user_id, const char *key, char *buf, size_t len)
{
	sqlite3_stmt *q = store_q(st, Q_PREF_GET);

	bind_text(q, 1, adapter);
	bind_text(q, 2, user_id);
	bind_text(q, 3, key);
	return store_get1(st, q, buf, len);
}

int
store_pref_set(struct store *st, const char *adapter, const char *user_id, const char *key, const char *value)
{
	sqlite3_stmt *q = store_q(st, Q_PREF_SET);

	bind_text(q, 1, adapter);
	bind_text(q, 2, user_id);
	bind_text(q, 3, key);
	bind_text(q, 4, value);
	return store_done(st, q);
}

int
store_kv_get(struct store *st, const char *adapter, const char *key, char *buf, size_t len)
{
	sqlite3_stmt *q = store_q(st, Q_KV_GET);

	bind_text(q, 1, adapter);
	bind_text(q, 2, key);
	return store_get1(st, q, buf, len);
}

int
store_kv_set(struct store *st, const char *adapter, const char *key, const char *value)
{
	sqlite3_stmt *q = store_q(st, Q_KV_SET);

	bind_text(q, 1, adapter);
	bind_text(q, 2, key);
	bind_text(q, 3, value);
	return store_done(st, q);
}

int
store_kv_del(struct store *st, const char *adapter, const char *key)
{
	sqlite3_stmt *q = store_q(st, Q_KV_DEL);

	bind_text(q, 1, adapter);
	bind_text(q, 2, key);
	return store_done(st, q);
}

int
store_kv_each(struct store *st, const char *adapter, const char *prefix,
              void (*fn)(void *ctx, const char *key, const char *value), void *ctx)
{
	sqlite3_stmt *q;
	char **rows = NULL;
	size_t n = 0, i;

	/* Rows are copied first: fn may well call adapter_state_set. */
	q = store_q(st, Q_KV_EACH);
	bind_text(q, 1, adapter);
	bind_text(q, 2, prefix);
	while (sqlite3_step(q) == SQLITE_ROW) {
		rows = xreallocarray(rows, n + 2, sizeof *rows);
		rows[n++] = xstrdup((const char *)sqlite3_column_text(q, 0));
		rows[n++] = xstrdup((const char *)sqlite3_column_text(q, 1));
	}
	sqlite3_reset(q);
	for (i = 0; i + 1 < n; i += 2)
		if (rows[i] != NULL && rows[i + 1] != NULL)   /* a NULL column has no text */
			fn(ctx, rows[i], rows[i + 1]);
	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	return 0;
}

int
store_prune(struct store *st, int64_t now, int64_t before, int max)
{
	sqlite3_stmt *q;
	int n;

	if (!sqlite3_get_autocommit(st->db) || store_begin(st) < 0)
		return -1;
	q = store_q(st, Q_PRUNE_MARK);
	sqlite3_bind_int64(q, 1, now);
	if (store_done(st, q) < 0)
		goto fail;
	q = store_q(st, Q_PRUNE_PICK);
	sqlite3_bind_int64(q, 1, before);
	sqlite3_bind_int(q, 2, max);
	if (store_done(st, q) < 0)
		goto fail;
	n = sqlite3_changes(st->db);
	if (n > 0 && (store_done(st, store_q(st, Q_PRUNE_ACTIONS)) < 0 || store_done(st, store_q(st, Q_PRUNE_SEATS)) < 0 ||
	              store_done(st, store_q(st, Q_PRUNE_AWAY)) < 0 || store_done(st, store_q(st, Q_PRUNE_WAITS)) < 0 ||
	              store_done(st, store_q(st, Q_PRUNE_GAMES)) < 0))
		goto fail;
	if (sqlite3_exec(st->db, "DELETE FROM temp.prune", NULL, NULL, NULL) != SQLITE_OK || store_commit(st) < 0)
		goto fail;
	return n;
fail:
	store_rollback(st);
	sqlite3_exec(st->db, "DELETE FROM temp.prune", NULL, NULL, NULL);
	return -1;
}

int
store_game_forget(struct store *st, int64_t id)
{
	static const int qs[] = { Q_FORGET_ACTIONS, Q_FORGET_SEATS, Q_FORGET_AWAY, Q_FORGET_WAITS, Q_FORGET_GAME };
	bool own = sqlite3_get_autocommit(st->db) != 0;

	if (own && store_begin(st) < 0)
		return -1;
	for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		sqlite3_stmt *q = store_q(st, qs[i]);

		sqlite3_bind_int64(q, 1, id);
		if (store_done(st, q) < 0) {
			if (own)
				store_rollback(st);
			return -1;
		}
	}
	return own ? store_commit(st) : 0;
}

static const char *
col(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);

	return s ? s : "";
}

int
store_load(struct store *st, const struct store_load_cb *cb)
{
	sqlite3_stmt *q;
	struct store_game g;
	struct store_seat s;

	q = store_q(st, Q_LOAD_GAMES);
	while (sqlite3_step(q) == SQLITE_ROW) {
		g.id = sqlite3_column_int64(q, 0);
		g.adapter = col(q, 1);
		g.room = col(q, 2);
		g.rules = col(q, 3);
		g.nplayers = sqlite3_column_int(q, 4);
		g.nsides = sqlite3_column_int(q, 5);
		g.seed = (uint64_t)sqlite3_column_int64(q, 6);
		g.owner = col(q, 7);
		g.state = col(q, 8);
		g.created = sqlite3_column_int64(q, 9);
		cb->game(cb->ctx, &g);
	}
	sqlite3_reset(q);
	q = store_q(st, Q_LOAD_SEATS);
	while (sqlite3_step(q) == SQLITE_ROW) {
		s.seat = sqlite3_column_int(q, 1);
		s.user_id = col(q, 2);
		s.name = col(q, 3);
		s.ai = sqlite3_column_int(q, 4);
		s.team = sqlite3_column_int(q, 5);
		cb->seat(cb->ctx, sqlite3_column_int64(q, 0), &s);
	}
	sqlite3_reset(q);
	q = store_q(st, Q_LOAD_ACTIONS);
	while (sqlite3_step(q) == SQLITE_ROW)
		cb->action(cb->ctx, sqlite3_column_int64(q, 0), (uint32_t)sqlite3_column_int64(q, 1),
		           sqlite3_column_int(q, 2), col(q, 3));
	sqlite3_reset(q);
	if (cb->away != NULL) {
		q = store_q(st, Q_LOAD_AWAY);
		while (sqlite3_step(q) == SQLITE_ROW)
			cb->away(cb->ctx, sqlite3_column_int64(q, 0), sqlite3_column_int(q, 1));
		sqlite3_reset(q);
	}
	if (cb->wait != NULL) {
		q = store_q(st, Q_LOAD_WAITS);
		while (sqlite3_step(q) == SQLITE_ROW)
			cb->wait(cb->ctx, sqlite3_column_int64(q, 0), sqlite3_column_int(q, 1), sqlite3_column_int64(q, 2),
			         sqlite3_column_int(q, 3) != 0);
		sqlite3_reset(q);
	}
	return 0;
}

int
store_away_set(struct store *st, int64_t game, int seat, bool away)
{
	sqlite3_stmt *q = store_q(st, Q_AWAY_SET);

	sqlite3_bind_int64(q, 1, game);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int(q, 3, away ? 1 : 0);
	return store_done(st, q);
}

int
store_wait_set(struct store *st, int64_t game, int seat, int64_t since_ms, bool reminded)
{
	sqlite3_stmt *q = store_q(st, Q_WAIT_SET);

	sqlite3_bind_int64(q, 1, game);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int64(q, 3, since_ms);
	sqlite3_bind_int(q, 4, reminded ? 1 : 0);
	return store_done(st, q);
}

/* A player's !private choice (their "notice" preference), stored as since
 * the first version ("1": notice, "0": privmsg), so that what is stored
 * reads the same either way across an upgrade or back. */
enum adapter_private
store_private_as(const char *value)
{
	return strcmp(value, "1") == 0 ? PRIVATE_QUIET : PRIVATE_CONVERSATION;
}

const char *
store_private_value(enum adapter_private as)
{
	return as == PRIVATE_QUIET ? "1" : "0";
}
