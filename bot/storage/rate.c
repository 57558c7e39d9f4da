/* rate.c: a finished game rated: live when it ends (flow.c), and, once, at the upgrade that brought ratings, every game finished before them, in the order they ended. */
#include <stdio.h>
#include <string.h>

#include "store.h"

int
rate_game(struct store *st, const char *adapter, const char *rules, const struct rate_seat *seats, int n, int nsides,
          const long long *points)
{
	struct store_rated p[HF_MAX_SEATS];
	char ids[HF_MAX_SEATS][32], names[HF_MAX_SEATS][48];
	int i;

	if (n > HF_MAX_SEATS)
		return -1;
	/* people by their ids, the computer by its level */
	for (i = 0; i < n; i++) {
		p[i] = (struct store_rated){ .adapter = adapter, .user_id = seats[i].user_id, .name = seats[i].name,
		                             .side = seats[i].side };
		if (seats[i].ai >= 0) {
			snprintf(ids[i], sizeof ids[i], "computer:%s", hf_ai_level_name(seats[i].ai));
			snprintf(names[i], sizeof names[i], "computer (%s)", hf_ai_level_name(seats[i].ai));
			p[i].adapter = STORE_RATING_COMPUTER;
			p[i].user_id = ids[i];
			p[i].name = names[i];
		}
	}
	return store_rating_game(st, rules, p, n, nsides, points);
}

struct rerate {
	struct store *st;
	struct hf_game *g;
	uint32_t seq;
	int rated, replayed, skipped;
	bool failed;          /* the store refused a rating: nothing is kept */
};

static int
rerate_move(void *ctx, uint32_t seq, int seat, const char *text)
{
	struct rerate *r = ctx;
	struct hf_action a;
	char why[HF_ERRLEN];

	if (seq != r->seq + 1 || hf_action_parse(&a, text, why, sizeof why) != HF_OK ||
	    hf_apply(r->g, seat, &a, why, sizeof why) != HF_OK)
		return -1;
	r->seq = seq;
	return 0;
}

/* The final scores of a game that did not keep them: its moves replayed
 * through the engine, as restore.c brings an unfinished game back.
 * false if it cannot be dealt again or does not reach its end. */
static bool
rerate_replay(struct rerate *r, const struct store_finished *f, const struct hf_rules *rules, long long *points)
{
	char why[HF_ERRLEN];
	bool over;
	int k;

	if (hf_game_new(&r->g, rules, f->nseats, f->nsides, f->seed, why, sizeof why) != HF_OK)
		return false;
	r->seq = 0;
	over = store_finished_moves(r->st, f->id, rerate_move, r) == 0 && hf_game_phase(r->g) == HF_PHASE_OVER;
	for (k = 0; over && k < f->nsides; k++)
		points[k] = hf_game_score(r->g, k);
	hf_game_free(r->g);
	r->g = NULL;
	return over;
}

static int
rerate_one(void *ctx, const struct store_finished *f)
{
	struct rerate *r = ctx;
	struct rate_seat seats[HF_MAX_SEATS];
	struct hf_rules rules;
	long long points[HF_MAX_SEATS];
	char why[HF_ERRLEN];
	int i;

	if (f->nseats < 2 || f->nsides < 2 || hf_rules_parse(&rules, f->rules, why, sizeof why) != HF_OK) {
		r->skipped++;
		return 0;
	}
	if (f->scored)
		memcpy(points, f->points, sizeof points);
	else if (rerate_replay(r, f, &rules, points))
		r->replayed++;
	else {
		log_msg(LOG_LVL_NOTICE, "ratings: game %lld (%s) cannot be replayed to its end: not rated",
		        (long long)f->id, f->rules);
		r->skipped++;
		return 0;
	}
	for (i = 0; i < f->nseats; i++)
		seats[i] = (struct rate_seat){ .user_id = f->seats[i].user_id, .name = f->seats[i].name,
		                               .ai = f->seats[i].ai, .side = hf_seat_side(i, f->nsides) };
	if (rate_game(r->st, f->adapter, rules.name, seats, f->nseats, f->nsides, points) < 0) {
		r->failed = true;
		return -1;
	}
	r->rated++;
	return 0;
}

int
rate_rebuild(struct store *st)
{
	struct rerate r = { .st = st };
	char v[8];

	if (store_kv_get(st, "", STORE_RERATE_KEY, v, sizeof v) < 0)
		return 0;
	if (store_begin(st) < 0)
		return -1;
	if (store_finished_each(st, rerate_one, &r) < 0 || r.failed ||
	    store_kv_del(st, "", STORE_RERATE_KEY) < 0 || store_commit(st) < 0) {
		store_rollback(st);
		log_msg(LOG_LVL_ERR, "ratings: the finished games could not be rated; tried again at the next start");
		return -1;
	}
	log_msg(LOG_LVL_INFO, "ratings: rated %d finished games from before ratings (%d by replaying their moves), "
	        "%d could not be replayed", r.rated, r.replayed, r.skipped);
	return 0;
}
