/* loopwait.h: runs a test's own event loop (lib/loop.h) until a counter its callbacks raise gets somewhere, or for a while. */
#ifndef HF_TEST_LOOPWAIT_H
#define HF_TEST_LOOPWAIT_H

#include <stdbool.h>

#include "loop.h"

/* Runs l, 20 ms a turn at most, until *counter >= want: true, or false once ms have passed. */
bool loopwait_until(struct loop *l, const int *counter, int want, int ms);
/* Runs l for ms. */
void loopwait_for(struct loop *l, int ms);

#endif
