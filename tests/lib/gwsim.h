/* gwsim.h: the Gateway state machine through a simulated Discord outage on a fake clock: how many Identifys it costs. */
#ifndef HF_TEST_GWSIM_H
#define HF_TEST_GWSIM_H

#include <stdbool.h>
#include <stdint.h>

enum gwsim_outage {
	GWSIM_INVALID,      /* every Identify answered with op 9 d:false */
	GWSIM_WITHHELD,     /* Identifys taken, heartbeats ACKed, READY never sent */
	GWSIM_REFUSED       /* every connection closed (4000) right after its Identify */
};

struct gwsim_result {
	int identifies;     /* Identifys sent */
	int past_budget;    /* of them, sent with none left (Discord would reset the token) */
	int connects;
};

/* Runs a budgeted gateway (budget Identifys left, reset after a day) through
 * ms of outage; seed drives its jitter. */
void gwsim_run(enum gwsim_outage kind, int64_t ms, int budget, uint32_t seed, struct gwsim_result *out);

#endif
