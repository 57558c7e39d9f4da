/* proc.h: runs the real handfoot binary with pipes, for end-to-end tests. */
#ifndef HF_PROC_H
#define HF_PROC_H

#include <stdbool.h>
#include <sys/types.h>

struct proc {
	pid_t pid;
	int in, out;
	char buf[1 << 20];
	size_t len;
};

/* Starts $HANDFOOT_BUILD/handfoot (default build/) with argv (NULL-terminated, without argv[0]). */
int  proc_start(struct proc *p, const char *const argv[]);
void proc_send(struct proc *p, const char *line);
/* Reads until needle appears after offset *from (advanced past it); false on timeout/EOF. */
bool proc_wait(struct proc *p, const char *needle, size_t *from, int timeout_ms);
void proc_close_input(struct proc *p);
/* Waits for exit; returns the exit status, or -signal. */
int  proc_end(struct proc *p);
/* SIGTERM to a process still started, then proc_end; p->pid is 0 after, so
 * a teardown after the test's own stop does nothing (0 when none runs). */
int  proc_stop(struct proc *p);

#endif
