/* loopwait.c: a test's event loop run until a counter gets somewhere, on the monotonic clock. */
#include <time.h>

#include "loopwait.h"

static long
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

bool
loopwait_until(struct loop *l, const int *counter, int want, int ms)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (*counter < want) {
		if (ms_since(&t0) > ms)
			return false;
		loop_run_once(l, 20);
	}
	return true;
}

void
loopwait_for(struct loop *l, int ms)
{
	int never = 0;

	loopwait_until(l, &never, 1, ms);
}
