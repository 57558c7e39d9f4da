/* e2e-noexec.c: the real daemon, once running, has no_new_privs and a seccomp filter (it denies itself execve). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <cmocka.h>

#include "e2e.h"
#include "world.h"

/* A field of /proc/PID/status, -1 if absent. */
static long
status_field(pid_t pid, const char *name)
{
	char path[64], line[256];
	size_t n = strlen(name);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, name, n) == 0 && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static void
test_daemon_denies_itself_exec(void **state)
{
	static const struct world_spec console = { .adapter = "[console]\nuser = ann\n" };
	struct world *w = calloc(1, sizeof *w);

	*state = w;
	assert_non_null(w);
	assert_int_equal(world_start(w, "e2e-noexec", &console), 0);
	assert_int_equal(e2e_daemon_wait_log(&w->d, "running", 10000), 0);
	assert_false(e2e_daemon_log_has(&w->d, "cannot deny itself execve"));
	printf("daemon: NoNewPrivs %ld, Seccomp %ld (2: a filter)\n", status_field(w->d.pid, "NoNewPrivs"),
	       status_field(w->d.pid, "Seccomp"));
	assert_int_equal(status_field(w->d.pid, "NoNewPrivs"), 1);
	assert_int_equal(status_field(w->d.pid, "Seccomp"), 2);
	e2e_daemon_signal(&w->d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(&w->d, 10000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_daemon_denies_itself_exec, world_teardown),
	};

	return cmocka_run_group_tests_name("the daemon runs no program", tests, NULL, NULL);
}
