/* test-notify.c: sd_notify messages and the watchdog timer, heard on a socket of our own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "loop.h"
#include "notify.h"

struct fix {
	char dir[32], path[64];
	int fd;
	int64_t now;
};

static int64_t
fake_now(void *ctx)
{
	return ((struct fix *)ctx)->now;
}

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char pid[32];

	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/hf-notify-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/notify", f->dir);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", f->path);
	f->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(f->fd >= 0);
	assert_int_equal(bind(f->fd, (struct sockaddr *)&sa, sizeof sa), 0);
	setenv("NOTIFY_SOCKET", f->path, 1);
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	setenv("WATCHDOG_USEC", "2000000", 1);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	close(f->fd);
	unlink(f->path);
	rmdir(f->dir);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_PID");
	unsetenv("WATCHDOG_USEC");
	free(f);
	return 0;
}

/* The next datagram, or "" if none is waiting. */
static const char *
next_msg(struct fix *f, char *buf, size_t len)
{
	ssize_t n = recv(f->fd, buf, len - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void
test_ready_status_stopping(void **state)
{
	struct fix *f = *state;
	struct loop *l = loop_new();
	struct notify *n;
	char buf[512];

	unsetenv("WATCHDOG_USEC");
	n = notify_new(l);
	assert_true(notify_enabled(n));
	assert_int_equal(notify_watchdog_usec(n), 0);
	notify_ready(n, "1 room, 0 games");
	assert_string_equal(next_msg(f, buf, sizeof buf), "READY=1\nSTATUS=1 room, 0 games");
	notify_status(n, "%d rooms, %d games", 2, 1);
	assert_string_equal(next_msg(f, buf, sizeof buf), "STATUS=2 rooms, 1 games");
	notify_status(n, "%d rooms, %d games", 2, 1);   /* unchanged: not sent again */
	assert_string_equal(next_msg(f, buf, sizeof buf), "");
	notify_status(n, "two\nlines");                 /* one line only */
	assert_string_equal(next_msg(f, buf, sizeof buf), "STATUS=two");
	notify_reloading(n, "reloading");
	next_msg(f, buf, sizeof buf);
	assert_true(strncmp(buf, "RELOADING=1\nMONOTONIC_USEC=", 27) == 0);
	assert_non_null(strstr(buf, "\nSTATUS=reloading"));
	notify_stopping(n, NULL);
	assert_string_equal(next_msg(f, buf, sizeof buf), "STOPPING=1");
	notify_free(n);
	loop_free(l);
}

static void
test_watchdog_pings_at_half_period(void **state)
{
	struct fix *f = *state;
	struct loop *l = loop_new();
	struct notify *n;
	char buf[512];

	loop_set_clock(l, fake_now, f);
	n = notify_new(l);
	assert_int_equal(notify_watchdog_usec(n), 2000000);
	f->now += 900;
	loop_run_once(l, 0);
	assert_string_equal(next_msg(f, buf, sizeof buf), "");
	f->now += 100;
	loop_run_once(l, 0);
	assert_string_equal(next_msg(f, buf, sizeof buf), "WATCHDOG=1");
	f->now += 1000;
	loop_run_once(l, 0);
	assert_string_equal(next_msg(f, buf, sizeof buf), "WATCHDOG=1");
	/* A loop that does not turn does not ping: nothing is sent by itself. */
	assert_string_equal(next_msg(f, buf, sizeof buf), "");
	notify_free(n);
	f->now += 5000;
	loop_run_once(l, 0);
	assert_string_equal(next_msg(f, buf, sizeof buf), "");
	loop_free(l);
}

static void
test_watchdog_for_another_pid_is_ignored(void **state)
{
	struct loop *l = loop_new();
	struct notify *n;

	(void)state;
	setenv("WATCHDOG_PID", "1", 1);
	n = notify_new(l);
	assert_int_equal(notify_watchdog_usec(n), 0);
	notify_free(n);
	loop_free(l);
}

static void
test_outside_systemd_everything_is_a_no_op(void **state)
{
	struct loop *l = loop_new();
	struct notify *n;

	(void)state;
	unsetenv("NOTIFY_SOCKET");
	n = notify_new(l);
	assert_false(notify_enabled(n));
	assert_int_equal(notify_watchdog_usec(n), 0);
	notify_ready(n, "x");
	notify_status(n, "y");
	notify_stopping(n, "z");
	notify_free(n);
	notify_free(NULL);
	loop_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ready_status_stopping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_pings_at_half_period, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_for_another_pid_is_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outside_systemd_everything_is_a_no_op, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
