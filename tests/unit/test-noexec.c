/* test-noexec.c: the daemon's seccomp filter: execve and execveat refused, the rest of what it does still works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"

static char arg0[] = "true";

static void *
thread_exec(void *arg)
{
	char *const argv[] = { arg0, NULL };

	(void)arg;
	execv("/bin/true", argv);
	return (void *)(intptr_t)errno;
}

/* In a child: what is refused and what still works; the exit code says which check failed. */
static int
child(void)
{
	char *const argv[] = { arg0, NULL };
	char err[128];
	pthread_t t;
	void *r;
	pid_t p;
	int st, fd;

	if (noexec_lock(err, sizeof err) != 0) {
		fprintf(stderr, "noexec_lock: %s\n", err);
		return 10;
	}
	execv("/bin/true", argv);
	if (errno != EPERM)
		return 11;
	if (syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, NULL, 0) != -1 || errno != EPERM)
		return 12;
	/* a thread made after it is bound too */
	if (pthread_create(&t, NULL, thread_exec, NULL) != 0 || pthread_join(t, &r) != 0 || (intptr_t)r != EPERM)
		return 13;
	/* files, sockets' kin, children: the daemon's life goes on */
	if ((fd = open("/dev/null", O_WRONLY)) < 0 || write(fd, "x", 1) != 1)
		return 14;
	close(fd);
	if ((p = fork()) == 0) {
		execv("/bin/true", argv);   /* and a child keeps the filter */
		_exit(errno == EPERM ? 0 : 1);
	}
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 15;
	return 0;
}

static void
test_exec_denied(void **state)
{
	pid_t p;
	int st;

	(void)state;
	fflush(NULL);
	if ((p = fork()) == 0)
		_exit(child());
	assert_true(p > 0);
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* the test itself, unfiltered, still can */
	assert_int_equal(system("/bin/true"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_denied),
	};

	return cmocka_run_group_tests_name("noexec", tests, NULL, NULL);
}
