/* synapse-log.h: what the test Synapse's own access log (synapse.h's s->log) says of a user's requests: each message send, when it came in, when it was answered, and its status. */
#ifndef HF_TEST_SYNAPSE_LOG_H
#define HF_TEST_SYNAPSE_LOG_H

#include <stdint.h>

#include "synapse.h"

struct synapse_send {
	int64_t in_ms;     /* when Synapse had it (its answer's time less its processing time), ms of the epoch */
	int64_t out_ms;    /* when Synapse answered, ms of the epoch */
	int status;        /* 200, 429, ... */
};

/* The PUT .../send/m.room.message/... requests of user (an id, "@bot:hs")
 * Synapse logged, in the order it answered them (Synapse's log times are its
 * local time, to the millisecond), at most max into out; how many (-1 if the
 * log cannot be read). */
int synapse_log_sends(const struct synapse *s, const char *user, struct synapse_send *out, int max);

#endif
