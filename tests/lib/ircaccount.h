/* ircaccount.h: services accounts for end-to-end tests: register with NickServ, log scripted clients in (SASL PLAIN, IDENTIFY), certificate fingerprints. */
#ifndef HF_TEST_IRCACCOUNT_H
#define HF_TEST_IRCACCOUNT_H

#include <stddef.h>

#include "ircclient.h"

/* Connects as nick and registers account nick with password (NickServ
 * REGISTER), retrying while services are still linking (up to 20 s).
 * With certfp non-NULL, also adds that fingerprint (NickServ CERT ADD).
 * 0 once NickServ confirms, else -1. */
int ircaccount_register(int port, const char *nick, const char *password, const char *certfp);
/* Connects as nick and logs in as account with SASL PLAIN before
 * registration (waits for 903 and 001). -1 on failure. */
int ircaccount_connect_sasl(struct ircclient *c, int port, const char *nick, const char *account,
                            const char *password);
/* Logs a connected client in with NickServ IDENTIFY (waits for 900). */
int ircaccount_identify(struct ircclient *c, const char *account, const char *password);
/* A self-signed client certificate and key (PEM) at cert and key, and its
 * SHA-256 fingerprint as InspIRCd and Atheme write it (lower-case hex). */
int ircaccount_make_cert(const char *cert, const char *key, char *fp, size_t fplen);

#endif
