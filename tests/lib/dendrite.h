/* dendrite.h: Dendrite, the second real homeserver for end-to-end tests, on synapse.h's struct and client helpers.
 *
 * What it is: Dendrite v0.13.8 (github.com/matrix-org/dendrite) as
 * tools/setup-dendrite built it ($HANDFOOT_BUILD/dendrite/bin), run by
 * dendrite_start on a free loopback port in a fresh temp dir: the template's
 * config (generate-config's, SQLite `file:` databases in the temp dir,
 * server_name "hs") with the temp dir's paths and a
 * registration_shared_secret filled in, federation disabled and no
 * federation listener, and Dendrite's DEFAULT rate limits (rate_limiting:
 * threshold 5, cooloff_ms 500).  Its output goes to $HANDFOOT_BUILD/e2e-logs/
 * dendrite-TAG-PID.log, kept after it stops.  It answers
 * /_matrix/client/versions about half a second after it is started, from
 * empty databases.
 *
 * Everything else is synapse.h's: the struct synapse (kind "dendrite"), its
 * users registered with the shared secret at the same path Synapse serves
 * (/_synapse/admin/v1/register, the same HMAC), every client-server helper,
 * synapse_stop, synapse_group_teardown, synapse-bot.h's daemon.
 *
 * Dendrite is optional (tools/setup-dendrite builds it only where a Go 1.21+
 * is on the PATH; Debian 12 has none): when it is not built,
 * dendrite_group_setup leaves a stopped server with s->error saying so, and
 * dendrite_require in each test prints that and skips the test.  Built but
 * failing to start, the group setup fails as Synapse's does.
 */
#ifndef HF_TEST_DENDRITE_H
#define HF_TEST_DENDRITE_H

#include <stdbool.h>

#include "synapse.h"

/* Starts Dendrite (tag names its log) and waits until it answers (90 s at
 * most).  0, or -1 with s->error set; *missing (if not NULL) true when the
 * reason is that Dendrite is not built. */
int  dendrite_start(struct synapse *s, const char *tag, bool *missing);
/* cmocka group fixture: a calloc'd struct synapse in *state, started; not
 * built, it is left stopped with the reason in s->error (0); any other
 * failure is printed and fails (-1).  Teardown: synapse_group_teardown. */
int  dendrite_group_setup(void **state);
/* In a test: when the group setup found no Dendrite, prints why and skips. */
void dendrite_require(const struct synapse *s);

#endif
