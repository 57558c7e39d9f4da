/* service.h: the daemon as a systemd service: readiness, status, watchdog, SIGHUP reload. */
#ifndef HF_SERVICE_H
#define HF_SERVICE_H

struct bot;
struct service;

/* Starts talking to systemd (the watchdog runs from now on) and handles
 * SIGHUP by re-reading conf through the loop (never in the handler). */
struct service *service_new(struct bot *b, const char *conf);
/* READY=1 with the status line: call once the adapters are started. */
void service_ready(struct service *s);
/* STOPPING=1: call when the loop has stopped, before the adapters say goodbye. */
void service_stopping(struct service *s);
void service_free(struct service *s);

#endif
