/* ircserver.h: starts and stops real IRC servers (ngircd, InspIRCd + Atheme) on loopback ports for tests. */
#ifndef HF_TEST_IRCSERVER_H
#define HF_TEST_IRCSERVER_H

#include <stdbool.h>
#include <sys/types.h>

struct ircserver {
	char kind[16];          /* "ngircd" or "inspircd" */
	char dir[256];          /* temp dir: configs, logs, certificates */
	int port;               /* plain TCP */
	int tls_port;           /* InspIRCd: TLS (certificate in dir/ca.pem, for "localhost") */
	int link_port;          /* InspIRCd: server link for Atheme */
	bool penalties;         /* ngircd: keep its flood penalties (default off for speed) */
	bool services;          /* InspIRCd: start Atheme too */
	const char *connect_extra; /* InspIRCd: more attributes of the <connect> class ("fakelag=\"no\""), or NULL */
	const char *conf_extra;    /* InspIRCd: more configuration (modules, their tags), or NULL */
	pid_t pid, services_pid;
};

/* A port nobody listens on now (loopback). */
int  ircserver_free_port(void);
/* Makes a fresh temp dir for s (kind "ngircd" or "inspircd"); ports chosen. */
int  ircserver_init(struct ircserver *s, const char *kind);
/* Writes the configuration and starts the server (and services); waits until it accepts. */
int  ircserver_start(struct ircserver *s);
/* Kills the server (SIGKILL if kill_hard: a crash), waits for it. Services too. */
void ircserver_stop(struct ircserver *s, bool kill_hard);
/* Stops everything and removes the temp dir. */
void ircserver_free(struct ircserver *s);
/* Whether port accepts a TCP connection now. */
bool ircserver_port_open(int port);
/* Path of a file in the server's dir (static buffer per call site is the caller's). */
void ircserver_path(const struct ircserver *s, const char *name, char *buf, size_t len);
/* Whether the Debian packages are here (tests skip if not). */
bool ircserver_available(const char *kind);

#endif
