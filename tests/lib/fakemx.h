/* fakemx.h: starts tests/fakes/fake-matrix.py and talks to it (control endpoints, and client calls as a test user). */
#ifndef HF_TEST_FAKEMX_H
#define HF_TEST_FAKEMX_H

#include <jansson.h>
#include <sys/types.h>

struct fakemx {
	pid_t pid;
	int port;
	char base[64];          /* http://127.0.0.1:PORT (https:// over TLS) */
	unsigned long txn;      /* makes fakemx_say's txn ids unique */
	char ca_file[512];      /* TLS: the certificate the fake serves, "" if none */
};

/* Starts the fake on a free loopback port; -1 if python3 or the script is missing. */
int     fakemx_start(struct fakemx *f);
/* The same over TLS (https://) with cert and key (PEM, cert self-signed for 127.0.0.1). */
int     fakemx_start_tls(struct fakemx *f, const char *cert, const char *key);
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
/* createRoom as token's user with the JSON body; the new room's id in room ("" on failure). */
int     fakemx_room(struct fakemx *f, const char *token, const char *body, char *room, size_t len);
/* POST /rooms/{room}/{what} (join, leave, invite, kick) as token's user; the HTTP status. */
long    fakemx_room_post(struct fakemx *f, const char *token, const char *room, const char *what, const char *body);
/* user's membership of room as the fake keeps it ("" if none). */
void    fakemx_membership(struct fakemx *f, const char *room, const char *user, char *out, size_t len);
/* The users whose membership of room is join or invite, space separated (sorted as the fake keeps them). */
void    fakemx_members(struct fakemx *f, const char *room, char *out, size_t len);
/* A counter of GET /_fake/requests ("createRoom", "logins"...); 0 if none. */
long    fakemx_requests(struct fakemx *f, const char *what);
/* How many events of room token's user can read back (GET /messages, history
 * visibility applied) have a body containing needle. */
int     fakemx_readable(struct fakemx *f, const char *token, const char *room, const char *needle);
/* How many of the bot's (@bot:hs) messages in room contain needle ("" counts them all). */
int     fakemx_bot_says(struct fakemx *f, const char *room, const char *needle);

#endif
