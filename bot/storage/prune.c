/* prune.c: finished games are forgotten after game_retention days (their rows, seats and moves; statistics stay). */
#include "store.h"
#include "loop.h"

/* Looked for hourly: a game is kept at least game_retention days after it
 * ended, at most an hour or two more. */
#define PRUNE_MS    3600000
/* Games deleted in one transaction: a backlog (a first start on an old
 * database) goes a batch a second, never holding the loop for long. */
#define PRUNE_BATCH 500
#define PRUNE_AGAIN_MS 1000

/* One batch; the milliseconds to the next. */
static int64_t
prune_once(struct bot *b)
{
	int64_t now = bot_wall_ms(b) / 1000;   /* the store keeps Unix seconds */
	int days = b->cfg->game_retention, n;

	if (days <= 0 || b->store == NULL)
		return PRUNE_MS;
	n = store_prune(b->store, now, now - (int64_t)days * 86400, PRUNE_BATCH);
	if (n > 0)
		log_msg(LOG_LVL_INFO, "forgot %d finished game%s ended over %d day%s ago (game_retention)", n,
		        n == 1 ? "" : "s", days, days == 1 ? "" : "s");
	return n == PRUNE_BATCH ? PRUNE_AGAIN_MS : PRUNE_MS;
}

static int64_t
prune_timer(struct loop *l, long long id, void *data)
{
	(void)l;
	(void)id;
	return prune_once(data);
}

void
prune_start(struct bot *b)
{
	prune_stop(b);
	b->prune_timer = loop_timer_add(b->loop, prune_once(b), prune_timer, b);
}

void
prune_stop(struct bot *b)
{
	if (b->prune_timer != 0)
		loop_timer_del(b->loop, b->prune_timer);
	b->prune_timer = 0;
}
