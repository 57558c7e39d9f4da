/* bot-time.c: the time and randomness the bot is given (injected at bot_new): the wall clock, the seeds of new games. */
#include "bot.h"

uint64_t
bot_new_seed(struct bot *b)
{
	return b->seed_fn(b->seed_ctx);
}

int64_t
bot_wall_ms(struct bot *b)
{
	return b->wall_fn(b->wall_ctx);
}
