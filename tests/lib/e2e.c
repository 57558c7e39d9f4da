/* e2e.c: end-to-end test helpers: shell commands, temp dirs, the daemon started with its log captured. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

const char *
e2e_build(void)
{
	const char *b = getenv("HANDFOOT_BUILD");

	return b != NULL && b[0] != '\0' ? b : "build";
}

const char *
e2e_logdir(void)
{
	static char dir[512];

	snprintf(dir, sizeof dir, "%s/e2e-logs", e2e_build());
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		fprintf(stderr, "e2e: cannot create %s: %s\n", dir, strerror(errno));
	return dir;
}

void
e2e_secret_note(const char *secret)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof path, "%s/secrets.list", e2e_logdir());
	f = fopen(path, "a");
	if (f == NULL) {
		fprintf(stderr, "e2e: cannot note a secret in %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "%s\n", secret);
	fclose(f);
}

int
e2e_secrets_in(const char *path)
{
	char list[600], *secrets, *log, *line, *save = NULL;
	int found = 0;

	snprintf(list, sizeof list, "%s/secrets.list", e2e_logdir());
	if ((log = e2e_read_file(path)) == NULL)
		return -1;
	if ((secrets = e2e_read_file(list)) == NULL) {
		free(log);
		return 0;
	}
	for (line = strtok_r(secrets, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '\0' && strstr(log, line) != NULL) {
			/* the file is named, the secret is not repeated */
			fprintf(stderr, "e2e: %s holds a secret given to the daemon\n", path);
			found++;
		}
	free(secrets);
	free(log);
	return found;
}

static int
status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

static void close_in(struct e2e_daemon *d);

/* The daemon has exited: its status kept, and its log checked for every
 * secret noted so far (by this test or any before it).  A leak fails the
 * test that made it, whatever the order the tests run in. */
static int
exited(struct e2e_daemon *d, int st)
{
	close_in(d);
	d->pid = 0;
	d->status = status_of(st);
	/* cmocka's failure: the running test fails and its teardown still
	 * stops the servers it started; outside a test the program exits */
	if (d->log[0] != '\0' && e2e_secrets_in(d->log) > 0)
		fail_msg("a secret reached the daemon's log %s", d->log);
	return d->status;
}

int
e2e_sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[4096];
	size_t n = 0;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	/* 2>&1 inside a group, so the whole command's stderr is captured too. */
	{
		char full[sizeof cmd + 16];

		snprintf(full, sizeof full, "{ %s\n} 2>&1", cmd);
		p = popen(full, "r");
	}
	if (p == NULL)
		return -1;
	if (out != NULL && len > 0) {
		size_t r;

		while (n < len - 1 && (r = fread(out + n, 1, len - 1 - n, p)) > 0)
			n += r;
		out[n] = '\0';
	}
	/* Drain what did not fit, so the command is not killed by SIGPIPE. */
	{
		char sink[4096];

		while (fread(sink, 1, sizeof sink, p) > 0)
			;
	}
	st = pclose(p);
	return st < 0 ? -1 : status_of(st);
}

int
e2e_tmpdir(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/hf-%s-XXXXXX", tag);
	return mkdtemp(buf) != NULL ? 0 : -1;
}

int
e2e_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (f == NULL)
		return -1;
	ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

char *
e2e_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (f == NULL)
		return NULL;
	do {
		if (cap - n < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

void
e2e_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int
e2e_daemon_start(struct e2e_daemon *d, const char *tag, const char *config, const char *const env[])
{
	static const char *const scrub[] = {
		"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "CREDENTIALS_DIRECTORY",
		"LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM",
	};
	static unsigned serial;
	char prog[600];
	int fd, in[2];

	d->pid = 0;
	d->in = -1;
	d->status = -1;
	snprintf(prog, sizeof prog, "%s/handfoot", e2e_build());
	if (access(prog, X_OK) < 0) {
		fprintf(stderr, "e2e: %s is missing: build it first (make all)\n", prog);
		return -1;
	}
	snprintf(d->log, sizeof d->log, "%s/%s-%ld-%u.log", e2e_logdir(), tag, (long)getpid(), serial++);
	fd = open(d->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "e2e: cannot open %s: %s\n", d->log, strerror(errno));
		return -1;
	}
	if (pipe2(in, O_CLOEXEC) < 0) {
		close(fd);
		return -1;
	}
	d->status = -1;
	d->pid = fork();
	if (d->pid < 0) {
		close(fd);
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if (d->pid == 0) {
		char pid[32];

		dup2(in[0], STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		for (size_t i = 0; i < sizeof scrub / sizeof scrub[0]; i++)
			unsetenv(scrub[i]);
		for (size_t i = 0; env != NULL && env[i] != NULL; i++)
			putenv((char *)env[i]);
		if (getenv("WATCHDOG_PID") != NULL && getenv("WATCHDOG_PID")[0] == '\0') {
			snprintf(pid, sizeof pid, "%ld", (long)getpid());
			setenv("WATCHDOG_PID", pid, 1);
		}
		if (getenv("JOURNAL_STREAM") != NULL && getenv("JOURNAL_STREAM")[0] == '\0') {
			struct stat st;
			char js[64];

			/* as systemd does when stderr is the journal's stream: here the log file */
			if (fstat(STDERR_FILENO, &st) == 0) {
				snprintf(js, sizeof js, "%llu:%llu", (unsigned long long)st.st_dev,
				         (unsigned long long)st.st_ino);
				setenv("JOURNAL_STREAM", js, 1);
			}
		}
		execl(prog, prog, "-c", config, (char *)NULL);
		fprintf(stderr, "e2e: exec %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	close(fd);
	close(in[0]);
	d->in = in[1];
	return 0;
}

static void
close_in(struct e2e_daemon *d)
{
	if (d->in >= 0)
		close(d->in);
	d->in = -1;
}

bool
e2e_daemon_log_has(struct e2e_daemon *d, const char *needle)
{
	char *log = e2e_read_file(d->log);
	bool has = log != NULL && strstr(log, needle) != NULL;

	free(log);
	return has;
}

int
e2e_daemon_wait_log(struct e2e_daemon *d, const char *needle, int timeout_ms)
{
	for (int waited = 0; waited <= timeout_ms; waited += 20) {
		if (e2e_daemon_log_has(d, needle))
			return 0;
		e2e_sleep_ms(20);
	}
	fprintf(stderr, "e2e: \"%s\" not seen in %s within %d ms\n", needle, d->log, timeout_ms);
	return -1;
}

bool
e2e_daemon_alive(struct e2e_daemon *d)
{
	int st;

	if (d->pid > 0 && waitpid(d->pid, &st, WNOHANG) == d->pid)
		exited(d, st);
	return d->pid > 0;
}

int
e2e_daemon_signal(struct e2e_daemon *d, int sig)
{
	return d->pid > 0 ? kill(d->pid, sig) : -1;
}

int
e2e_daemon_wait(struct e2e_daemon *d, int timeout_ms)
{
	int st;

	if (d->pid <= 0)
		return d->status;
	for (int waited = 0; waited <= timeout_ms; waited += 20) {
		pid_t r = waitpid(d->pid, &st, WNOHANG);

		if (r == d->pid)
			return exited(d, st);
		if (r < 0)
			return -1;
		e2e_sleep_ms(20);
	}
	fprintf(stderr, "e2e: the daemon did not exit within %d ms: killed\n", timeout_ms);
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &st, 0);
	exited(d, st);
	d->status = -1;
	return -1;
}

int
e2e_log_link(const char *log_path, const char *needle, char *path, size_t len)
{
	char *log = e2e_read_file(log_path), *p, *t;

	if (log == NULL || (p = strstr(log, needle)) == NULL || (t = strstr(p, "/t/")) == NULL) {
		free(log);
		return -1;
	}
	snprintf(path, len, "%.35s", t);
	free(log);
	return strlen(path) == 35 ? 0 : -1;
}
