/* bucket.c: the per-connection token bucket that paces output below the server's flood limits. */
#include "irc.h"

void
irc_bucket_init(struct irc_bucket *b, int burst, int64_t rate_ms)
{
	b->burst = burst < 1 ? 1 : burst;
	b->rate_ms = rate_ms < 0 ? 0 : rate_ms;
	b->next = 0;
}

int64_t
irc_bucket_wait(const struct irc_bucket *b, int64_t now)
{
	/* a line may go while the virtual clock is less than burst-1 lines ahead */
	int64_t ahead = b->next - now - (int64_t)(b->burst - 1) * b->rate_ms;

	return ahead > 0 ? ahead : 0;
}

void
irc_bucket_take(struct irc_bucket *b, int64_t now)
{
	if (b->next < now)
		b->next = now;
	b->next += b->rate_ms;
}
