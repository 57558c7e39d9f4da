/* e2e.h: helpers for end-to-end tests: shell commands, temp dirs, and the daemon run with its log captured.
 *
 * The log convention (every e2e test that starts the daemon follows it):
 *   - start the daemon with e2e_daemon_start(): its stdout and stderr go to
 *     $HANDFOOT_BUILD/e2e-logs/<tag>-<pid>.log (HANDFOOT_BUILD defaults to "build");
 *   - note every password or token the test hands the daemon with
 *     e2e_secret_note(): it is appended to $HANDFOOT_BUILD/e2e-logs/secrets.list;
 *   - once the daemon has exited (e2e_daemon_wait, e2e_daemon_alive), its log
 *     is checked for every secret noted so far: a leak fails the running
 *     cmocka test there (naming the log), so the test that made it fails,
 *     whatever order the tests run in;
 *   - tests/e2e/e2e-secrets.c checks that check, and sweeps every *.log there
 *     (in any order: it needs no other test to have run).  `make test`
 *     empties the folder first.
 */
#ifndef HF_E2E_H
#define HF_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The build folder ($HANDFOOT_BUILD or "build"). */
const char *e2e_build(void);
/* The log folder, created if missing. */
const char *e2e_logdir(void);
/* Records a secret given to the daemon, for the check of every daemon log. */
void e2e_secret_note(const char *secret);
/* How many noted secrets the file at path holds (each named on stderr by
 * the file, never repeated); 0 if none or nothing was noted, -1 if path
 * cannot be read. */
int  e2e_secrets_in(const char *path);

/* Runs a /bin/sh command; its stdout and stderr go to out (cut to len).
 * Returns its exit status, 128+N if killed by signal N, -1 if it could not run. */
int  e2e_sh(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A fresh folder /tmp/hf-<tag>-XXXXXX; 0 or -1. */
int  e2e_tmpdir(char *buf, size_t len, const char *tag);
/* Writes text to path; 0 or -1. */
int  e2e_write_file(const char *path, const char *text);
/* Reads a whole file (malloc'd, NUL-terminated), or NULL. */
char *e2e_read_file(const char *path);
/* The path "/t/TOKEN" of the web link on the first line of the log at
 * log_path holding needle, into path; 0, or -1 if there is none. */
int  e2e_log_link(const char *log_path, const char *needle, char *path, size_t len);

struct e2e_daemon {
	pid_t pid;              /* 0 once it has exited */
	int status;             /* as e2e_daemon_wait returns; -1 while running */
	int in;                 /* the write end of its stdin (a pipe), -1 once closed */
	char log[512];
};

/* Starts $HANDFOOT_BUILD/handfoot -c config in a clean environment
 * (NOTIFY_SOCKET, WATCHDOG_*, CREDENTIALS_DIRECTORY, JOURNAL_STREAM removed)
 * plus env, a NULL-terminated list of "NAME=value" (may be NULL);
 * "WATCHDOG_PID=" alone is filled in with the daemon's own pid, and
 * "JOURNAL_STREAM=" alone with its log's device and inode (stderr is "the
 * journal").  Its stdin is a pipe (d->in) that
 * stays open until e2e_daemon_wait.  0 or -1. */
int  e2e_daemon_start(struct e2e_daemon *d, const char *tag, const char *config, const char *const env[]);
/* Waits until the log holds needle; 0 if seen within timeout_ms, else -1. */
int  e2e_daemon_wait_log(struct e2e_daemon *d, const char *needle, int timeout_ms);
/* True if the log holds needle now. */
bool e2e_daemon_log_has(struct e2e_daemon *d, const char *needle);
bool e2e_daemon_alive(struct e2e_daemon *d);
int  e2e_daemon_signal(struct e2e_daemon *d, int sig);
/* Waits for the daemon to exit: its exit status, 128+N if killed by signal N;
 * on timeout it is killed (SIGKILL) and -1 returned. */
int  e2e_daemon_wait(struct e2e_daemon *d, int timeout_ms);

/* Sleeps ms milliseconds. */
void e2e_sleep_ms(int ms);

#endif
