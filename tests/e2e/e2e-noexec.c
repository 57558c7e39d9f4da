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
	char dir[256], conf[300], text[400], out[256];
	struct e2e_daemon d;

	(void)state;
	assert_int_equal(e2e_tmpdir(dir, sizeof dir, "noexec"), 0);
	snprintf(conf, sizeof conf, "%s/handfoot.conf", dir);
	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n[console]\nuser = ann\n", dir);
	assert_int_equal(e2e_write_file(conf, text), 0);
	assert_int_equal(e2e_daemon_start(&d, "e2e-noexec", conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&d, "running", 10000), 0);
	assert_false(e2e_daemon_log_has(&d, "cannot deny itself execve"));
	printf("daemon: NoNewPrivs %ld, Seccomp %ld (2: a filter)\n", status_field(d.pid, "NoNewPrivs"),
	       status_field(d.pid, "Seccomp"));
	assert_int_equal(status_field(d.pid, "NoNewPrivs"), 1);
	assert_int_equal(status_field(d.pid, "Seccomp"), 2);
	e2e_daemon_signal(&d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(&d, 10000), 0);
	e2e_sh(out, sizeof out, "rm -rf %s", dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_daemon_denies_itself_exec),
	};

	return cmocka_run_group_tests_name("the daemon runs no program", tests, NULL, NULL);
}
