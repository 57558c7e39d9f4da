/* notify.h: talking to systemd (sd_notify): readiness, status line, watchdog pings, stop and reload. */
#ifndef HF_NOTIFY_H
#define HF_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct loop;
struct notify;

/* Reads NOTIFY_SOCKET / WATCHDOG_USEC / WATCHDOG_PID; when the watchdog is on,
 * arms a loop timer that sends WATCHDOG=1 every half period, so pings stop as
 * soon as the loop stops turning.  Harmless (every call a no-op) outside systemd. */
struct notify *notify_new(struct loop *l);   /* never NULL */
void     notify_free(struct notify *n);

/* READY=1 with a status line (status may be NULL). */
void     notify_ready(struct notify *n, const char *status);
/* STATUS=...; sent only when it changed. */
void     notify_status(struct notify *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* RELOADING=1 before re-reading the configuration; notify_ready once done. */
void     notify_reloading(struct notify *n, const char *status);
/* STOPPING=1 when shutting down. */
void     notify_stopping(struct notify *n, const char *status);

/* The watchdog period in microseconds, 0 if off. */
uint64_t notify_watchdog_usec(const struct notify *n);
/* True if NOTIFY_SOCKET is set (we run under systemd or a test that listens). */
bool     notify_enabled(const struct notify *n);

#endif
