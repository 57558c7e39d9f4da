/* proc.c: runs the real handfoot binary with pipes, for end-to-end tests. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

int
proc_start(struct proc *p, const char *const argv[])
{
	int in[2], out[2], n = 0;
	const char *dir = getenv("HANDFOOT_BUILD");
	char path[512];
	const char *args[32];

	snprintf(path, sizeof path, "%s/handfoot", dir ? dir : "build");
	args[n++] = path;
	while (*argv != NULL && n < 31)
		args[n++] = *argv++;
	args[n] = NULL;
	if (pipe(in) < 0 || pipe(out) < 0)
		return -1;
	p->len = 0;
	if ((p->pid = fork()) == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execv(path, (char *const *)args);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	p->in = in[1];
	p->out = out[0];
	signal(SIGPIPE, SIG_IGN);
	return p->pid > 0 ? 0 : -1;
}

void
proc_send(struct proc *p, const char *line)
{
	size_t n = strlen(line);
	ssize_t r;

	r = write(p->in, line, n);
	r = write(p->in, "\n", 1);
	(void)r;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool
proc_wait(struct proc *p, const char *needle, size_t *from, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = p->out, .events = POLLIN };
	char *hit;
	ssize_t n;

	for (;;) {
		p->buf[p->len] = '\0';
		if ((hit = strstr(p->buf + *from, needle)) != NULL) {
			*from = (size_t)(hit - p->buf) + strlen(needle);
			return true;
		}
		if (now_ms() >= end || p->len + 1 >= sizeof p->buf)
			return false;
		if (poll(&pfd, 1, (int)(end - now_ms())) <= 0)
			continue;
		n = read(p->out, p->buf + p->len, sizeof p->buf - 1 - p->len);
		if (n <= 0)
			return false;
		p->len += (size_t)n;
	}
}

void
proc_close_input(struct proc *p)
{
	if (p->in >= 0)
		close(p->in);
	p->in = -1;
}

int
proc_end(struct proc *p)
{
	int st;

	proc_close_input(p);
	while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
		;
	close(p->out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

int
proc_stop(struct proc *p)
{
	int st;

	if (p->pid <= 0)
		return 0;
	kill(p->pid, SIGTERM);
	st = proc_end(p);
	p->pid = 0;
	return st;
}
