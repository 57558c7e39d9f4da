/* restore.c: unfinished games back from the store at start (and after a reload adds their adapter): a game is its rules, seed and actions, replayed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "loop.h"

struct restore {
	struct bot *b;
	struct session **byid; /* parallel to ids, sorted by id (games come in id order) */
	int64_t *ids;
	size_t n, cap;
	size_t games, actions, broken;
};

static struct session *
restore_find(struct restore *r, int64_t id)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->ids[lo] == id ? r->byid[lo] : NULL;
}

/* A game that does not come back (a move this version's rules refuse, rules
 * it no longer reads, a move missing) is never lost silently: the operator
 * reads why in the log, its room is told when its adapter is up, and the
 * store keeps it, marked "broken" (never pruned), for a person to look at. */
static void restore_broken(struct restore *r, struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
restore_broken(struct restore *r, struct session *s, const char *fmt, ...)
{
	char why[HF_ERRLEN + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	text_clean(why); /* the store's text goes into styled text: no byte of it may be a mark */
	log_msg(LOG_LVL_ERR, "game %lld in %s %s does not come back: %s", (long long)s->id, s->ad->id, s->room, why);
	if (s->broken == NULL) {
		s->broken = xstrdup(why);
		r->broken++;
	}
	s->state = SESS_OVER;
}

static void
restore_game(void *ctx, const struct store_game *g)
{
	struct restore *r = ctx;
	struct bot_adapter *ba = bot_adapter_find(r->b, g->adapter, NULL);
	struct adapter *ad = ba != NULL ? &ba->ad : NULL;
	struct session *s;
	char why[HF_ERRLEN];

	if (ad == NULL) {
		log_msg(LOG_LVL_NOTICE, "game %lld in %s %s waits: adapter %s is not configured", (long long)g->id,
		        g->adapter, g->room, g->adapter);
		return;
	}
	if (session_find(&r->b->sessions, ad, g->room) != NULL)
		return; /* live already: a reload restores only what waited for an added adapter */
	if ((s = session_add(&r->b->sessions, ad, g->room)) == NULL) {
		log_msg(LOG_LVL_ERR, "game %lld in %s %s cannot be restored", (long long)g->id, g->adapter, g->room);
		return;
	}
	tell_load(r->b, s);
	s->id = g->id;
	s->state = strcmp(g->state, "playing") == 0 ? SESS_PLAYING : SESS_OPEN;
	if (hf_rules_parse(&s->rules, g->rules, why, sizeof why) != HF_OK)
		restore_broken(r, s, "its rules \"%s\" are not this version's: %s", g->rules, why);
	snprintf(s->owner, sizeof s->owner, "%s", g->owner);
	s->nseats = 0;
	s->nsides = g->nsides;
	s->seed = g->seed;
	s->ai_rng = g->seed ^ 0x5eedu;
	s->created = loop_now(r->b->loop);
	{
		char key[48], val[24];

		/* the moves the room was told up to: those after it are told at the resume */
		snprintf(key, sizeof key, "told %lld", (long long)g->id);
		s->tell.told_seq = store_kv_get(r->b->store, ad->id, key, val, sizeof val) == 0 ? atoll(val) : -1;
		s->tell.told_kept = s->tell.told_seq;
	}
	clock_load(r->b, s);
	story_load(r->b, s);
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->ids = xreallocarray(r->ids, r->cap, sizeof *r->ids);
		r->byid = xreallocarray(r->byid, r->cap, sizeof *r->byid);
	}
	r->ids[r->n] = g->id;
	r->byid[r->n++] = s;
	r->games++;
}

static void
restore_seat(void *ctx, int64_t game, const struct store_seat *st)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);
	struct seat *seat;
	char buf[16];

	if (s == NULL || st->seat < 0 || st->seat >= HF_MAX_SEATS)
		return;
	seat = &s->seats[st->seat];
	snprintf(seat->user_id, sizeof seat->user_id, "%s", st->user_id);
	snprintf(seat->name, sizeof seat->name, "%s", st->name);
	seat->ai = (int8_t)st->ai;
	seat->team = (int8_t)st->team;
	if (st->ai < 0)
		session_player_add(&r->b->sessions, s, st->user_id);
	if (st->ai < 0 && store_pref_get(r->b->store, s->ad->id, st->user_id, "notice", buf, sizeof buf) == 0)
		seat->private_as = store_private_as(buf);
	if (st->seat + 1 > s->nseats)
		s->nseats = st->seat + 1;
}

static bool
restore_deal(struct restore *r, struct session *s)
{
	char why[HF_ERRLEN];

	if (s->g != NULL || s->state != SESS_PLAYING)
		return s->g != NULL;
	if (hf_game_new(&s->g, &s->rules, s->nseats, s->nsides, s->seed, why, sizeof why) != HF_OK) {
		restore_broken(r, s, "it cannot be dealt again: %s", why);
		return false;
	}
	if (s->tell.told_seq == 0)
		s->tell.told_g = hf_game_clone(s->g);
	return true;
}

/* A move after the last the room was told: kept, to be told at the resume. */
static void
restore_untold(struct session *s, uint32_t seq, int seat, const struct hf_action *a)
{
	struct tell *t = &s->tell;

	if (t->told_seq < 0 || seq <= (uint32_t)t->told_seq)
		return;
	if (t->told_g == NULL)
		return;   /* the game as told could not be kept: told from here, as before */
	t->untold = xreallocarray(t->untold, t->nuntold + 1, sizeof *t->untold);
	t->untold[t->nuntold].seat = seat;
	t->untold[t->nuntold].a = *a;
	t->nuntold++;
}

static void
restore_action(void *ctx, int64_t game, uint32_t seq, int seat, const char *text)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);
	struct hf_action a;
	char why[HF_ERRLEN];

	if (s == NULL || s->state != SESS_PLAYING || !restore_deal(r, s))
		return;
	if (seq != s->nactions + 1) {
		restore_broken(r, s, "its move %u is missing from the store", s->nactions + 1);
		return;
	}
	if (hf_action_parse(&a, text, why, sizeof why) != HF_OK || hf_apply(s->g, seat, &a, why, sizeof why) != HF_OK) {
		restore_broken(r, s, "its move %u, \"%s\", is refused by this version's rules: %s", seq, text, why);
		return;
	}
	s->nactions = seq;
	r->actions++;
	restore_untold(s, seq, seat, &a);
	if (s->tell.told_seq == (int64_t)seq)
		s->tell.told_g = hf_game_clone(s->g);
}

static void
restore_away(void *ctx, int64_t game, int seat)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);

	if (s != NULL && seat >= 0 && seat < s->nseats && s->seats[seat].ai < 0)
		s->seats[seat].away = true;
}

static void
restore_wait(void *ctx, int64_t game, int seat, int64_t since_ms, bool reminded)
{
	struct restore *r = ctx;
	struct session *s = restore_find(r, game);
	int64_t waited;

	if (s == NULL || seat < 0 || seat >= s->nseats)
		return;
	/* the clock goes on where it was: the wait began this long ago (the
	 * loop's clock is monotonic and new at each start; the store's is the
	 * wall clock); flow_schedule keeps it if the same seat still waits */
	waited = bot_wall_ms(r->b) - since_ms;
	if (waited < 0)
		waited = 0;
	s->wait_seat = (int8_t)seat;
	s->turn_since = loop_now(r->b->loop) - waited;
	s->reminded = reminded;
}

int
restore_games(struct bot *b)
{
	struct restore r;
	struct store_load_cb cb = { 0 };
	struct session *s;
	size_t i;

	memset(&r, 0, sizeof r);
	r.b = b;
	cb.ctx = &r;
	cb.game = restore_game;
	cb.seat = restore_seat;
	cb.action = restore_action;
	cb.away = restore_away;
	cb.wait = restore_wait;
	store_load(b->store, &cb);
	for (i = 0; i < r.n; i++) {
		s = r.byid[i];
		if (s->state == SESS_PLAYING)
			restore_deal(&r, s);
		if (s->broken != NULL) {
			/* kept in the store as it is, out of play; the room hears why
			 * once its adapter is up (resume.c), then the table closes */
			store_game_state(b->store, s->id, "broken", s->nseats, s->nsides, s->seed);
			s->resume = true;
		} else if (s->state == SESS_PLAYING) {
			/* told where it stands, and its clocks armed, once its room is
			 * reachable: the adapter's "up" (resume.c) */
			s->resume = true;
		} else {
			flow_schedule(b, s);
		}
	}
	free(r.ids);
	free(r.byid);
	if (r.games > 0)
		log_msg(LOG_LVL_INFO, "restored %zu games (%zu actions replayed, %zu broken)", r.games - r.broken,
		        r.actions, r.broken);
	return 0;
}
