/* fakedc.h: starts tests/fakes/fake-discord.py on free loopback ports and drives it (test controls, REST calls, state). */
#ifndef HF_TEST_FAKEDC_H
#define HF_TEST_FAKEDC_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

struct fakedc {
	pid_t pid;
	int http, gateway, resume;   /* the three ports */
	char api[96];                /* http://127.0.0.1:PORT/api/v10: the adapter's api_url */
	char base[64];               /* http://127.0.0.1:PORT */
	char gateway_url[64];        /* ws://127.0.0.1:PORT, as GET /gateway/bot says */
	char ca_file[512];           /* TLS: the certificate the fake serves (self-signed), "" if none */
};

/* Starts the fake (Debian's python3 with python3-websockets); -1 if it cannot run. */
int     fakedc_start(struct fakedc *f);
/* The same over TLS (https://, wss://) with cert and key (PEM files, cert self-signed for 127.0.0.1). */
int     fakedc_start_tls(struct fakedc *f, const char *cert, const char *key);
void    fakedc_stop(struct fakedc *f);
/* A request to the fake; body may be NULL. Returns the JSON answer (caller
 * decrefs; NULL if none); *status gets the HTTP status if not NULL. The REST
 * API is called as the bot would: "Bot TOKEN" and a DiscordBot User-Agent. */
json_t *fakedc_call(struct fakedc *f, const char *method, const char *path, const char *token,
                    const char *body, long *status);
/* A test control: POST /_fake/<what> with a JSON body; 0 if it answered 200. */
int     fakedc_ctl(struct fakedc *f, const char *what, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* GET /_fake/state (caller decrefs). */
json_t *fakedc_state(struct fakedc *f);
/* How many violations the fake has recorded; each is printed to stderr when print is set. */
int     fakedc_violations(struct fakedc *f, bool print);

#endif
