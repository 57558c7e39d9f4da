/* fakemx.h: starts tests/fake-matrix.py and talks to it (control endpoints, and client calls as a test user). */
#ifndef HF_TEST_FAKEMX_H
#define HF_TEST_FAKEMX_H

#include <jansson.h>
#include <sys/types.h>

struct fakemx {
	pid_t pid;
	int port;
	char base[64];          /* http://127.0.0.1:PORT */
	unsigned long txn;      /* makes fakemx_say's txn ids unique */
};

/* Starts the fake on a free loopback port; -1 if python3 or the script is missing. */
int     fakemx_start(struct fakemx *f);
void    fakemx_stop(struct fakemx *f);
/* A request; token NULL for the control endpoints. Returns the JSON answer
 * (caller decrefs) or NULL; *status gets the HTTP status if not NULL. */
json_t *fakemx_call(struct fakemx *f, const char *method, const char *path, const char *token,
                    const char *body, long *status);
/* Makes a user (localpart, password) and returns its access token in tok. */
int     fakemx_user(struct fakemx *f, const char *localpart, const char *password, char *tok, size_t len);
/* Sends an m.text as token's user to room (txn made unique here). */
int     fakemx_say(struct fakemx *f, const char *token, const char *room, const char *text);
/* The room's timeline as the fake keeps it (caller decrefs). */
json_t *fakemx_events(struct fakemx *f, const char *room);

#endif
