/* store-rating.c: ratings per player and rule set in the store: a finished game rated (lib/rating.c), the best, one player's. */
#include <stdio.h>
#include <string.h>

#include "store.h"
#include "rating.h"
#include "store-db.h"

/* The rating of one seat before the game: its row, else the start. */
static double
rating_of(sqlite3 *db, const char *rules, const struct store_rated *p)
{
	sqlite3_stmt *q;
	double r = RATING_START;

	if (sqlite3_prepare_v2(db, "SELECT rating FROM ratings WHERE adapter=? AND user_id=? AND rules=?", -1, &q,
	                       NULL) != SQLITE_OK)
		return r;
	sqlite3_bind_text(q, 1, p->adapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, p->user_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, rules, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		r = sqlite3_column_double(q, 0);
	sqlite3_finalize(q);
	return r;
}

int
store_rating_game(struct store *st, const char *rules, const struct store_rated *p, int n, int nsides,
                  const long long *points)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	double before[HF_MAX_SEATS], side[RATING_SIDES_MAX], delta[RATING_SIDES_MAX], mine[HF_MAX_SEATS];
	int i, k, m, rc = 0;

	if (n > HF_MAX_SEATS || nsides < 2 || nsides > RATING_SIDES_MAX)
		return -1;
	for (i = 0; i < n; i++)
		before[i] = rating_of(db, rules, &p[i]);
	for (k = 0; k < nsides; k++) {
		for (i = m = 0; i < n; i++)
			if (p[i].side == k)
				mine[m++] = before[i];
		side[k] = rating_mean(m, mine);
	}
	if (rating_game(nsides, side, points, delta) < 0)
		return -1;
	if (sqlite3_prepare_v2(db, "INSERT INTO ratings(adapter, user_id, rules, name, rating, games)"
	                       " VALUES(?1,?2,?3,?4,?5,1) ON CONFLICT(adapter, user_id, rules)"
	                       " DO UPDATE SET name=?4, rating=?5, games=games+1", -1, &q, NULL) != SQLITE_OK) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (p[i].side < 0 || p[i].side >= nsides)
			continue;
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, p[i].adapter, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, p[i].user_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, rules, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, p[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_double(q, 5, before[i] + delta[p[i].side]);
		if (sqlite3_step(q) != SQLITE_DONE) {
			log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
			rc = -1;
		}
	}
	sqlite3_finalize(q);
	return rc;
}

static void
rating_row(sqlite3_stmt *q, struct store_rating *o)
{
	const unsigned char *a = sqlite3_column_text(q, 0), *b = sqlite3_column_text(q, 1);

	snprintf(o->rules, sizeof o->rules, "%s", a ? (const char *)a : "");
	snprintf(o->name, sizeof o->name, "%s", b ? (const char *)b : "");
	o->rating = sqlite3_column_double(q, 2);
	o->games = sqlite3_column_int(q, 3);
}

/* Runs q (bound by the caller) into out: how many rows, or -1. */
static int
rating_rows(sqlite3 *db, sqlite3_stmt *q, struct store_rating *out, int max)
{
	int n = 0, rc;

	while (n < max && (rc = sqlite3_step(q)) == SQLITE_ROW)
		rating_row(q, &out[n++]);
	if (n < max && rc != SQLITE_DONE) {
		log_msg(LOG_LVL_ERR, "database: %s", sqlite3_errmsg(db));
		n = -1;
	}
	sqlite3_finalize(q);
	return n;
}

int
store_rating_top(struct store *st, const char *rules, struct store_rating *out, int max)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;

	/* people only: the computer's levels are rated, not ranked among them */
	if (sqlite3_prepare_v2(db, "SELECT rules, name, rating, games FROM ratings WHERE rules=? AND adapter<>?"
	                       " ORDER BY rating DESC, games DESC, name LIMIT ?", -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, rules, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, STORE_RATING_COMPUTER, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, max);
	return rating_rows(db, q, out, max);
}

int
store_rating_player(struct store *st, const char *adapter, const char *user_id, struct store_rating *out, int max)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(db, "SELECT rules, name, rating, games FROM ratings WHERE adapter=? AND user_id=?"
	                       " ORDER BY games DESC, rules LIMIT ?", -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, adapter, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, user_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, max);
	return rating_rows(db, q, out, max);
}

int
store_rating_busiest(struct store *st, char *buf, size_t len)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "SELECT rules FROM ratings WHERE adapter<>? GROUP BY rules"
	                       " ORDER BY sum(games) DESC, rules LIMIT 1", -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, STORE_RATING_COMPUTER, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0) != NULL) {
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
		rc = 0;
	}
	sqlite3_finalize(q);
	return rc;
}
