/* e2e-service.c: the daemon as systemd runs it: sd_notify on a socket of ours, SIGHUP reloads, SIGTERM and restart keep the game. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "e2e.h"
#include "world.h"

/* A made-up secret handed to the daemon: it must never reach a log. */
#define SECRET "hf-e2e-secret-Zq8Kx41p"

struct fix {
	struct world w;                 /* first: world_teardown frees it all */
	char sock[100], env_sock[160], creds[100], env_creds[160];
	int fd;
};

static int
setup(void **state)
{
	struct fix *f;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[512];

	if (world_setup_sized(state, sizeof *f, &world_none) != 0)
		return -1;
	f = *state;
	f->fd = -1;
	/* a socket's path is short (sun_path): the temp dir must be too */
	if (strlen(f->w.dir) > 60)
		return -1;
	snprintf(f->sock, sizeof f->sock, "%.60s/notify", f->w.dir);
	snprintf(f->env_sock, sizeof f->env_sock, "NOTIFY_SOCKET=%s", f->sock);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", f->sock);
	f->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->fd < 0 || bind(f->fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		return -1;
	/* A credentials directory as LoadCredential= makes it. */
	snprintf(f->creds, sizeof f->creds, "%.60s/credentials", f->w.dir);
	snprintf(f->env_creds, sizeof f->env_creds, "CREDENTIALS_DIRECTORY=%s", f->creds);
	snprintf(path, sizeof path, "mkdir -p %s && printf '%%s\\n' '%s' > %s/console.token", f->creds, SECRET,
	         f->creds);
	if (e2e_sh(NULL, 0, "%s", path) != 0)
		return -1;
	e2e_secret_note(SECRET);
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	if (f != NULL && f->fd >= 0)
		close(f->fd);
	return world_teardown(state);
}

/* The next notification holding want, skipping others; "" if none within ms. */
static const char *
notify_wait(struct fix *f, const char *want, int ms, char *buf, size_t len)
{
	for (int waited = 0; waited <= ms; waited += 50) {
		struct pollfd p = { .fd = f->fd, .events = POLLIN };

		while (poll(&p, 1, 50) > 0) {
			ssize_t n = recv(f->fd, buf, len - 1, MSG_DONTWAIT);

			if (n <= 0)
				break;
			buf[n] = '\0';
			if (strstr(buf, want) != NULL)
				return buf;
		}
	}
	print_error("no \"%s\" from the daemon within %d ms\n", want, ms);
	buf[0] = '\0';
	return buf;
}

static void
write_conf(struct fix *f, const char *bot_extra, const char *sections)
{
	char bot[1024];

	snprintf(bot, sizeof bot, "log_level = debug\nturn_reminder = 0\nturn_timeout = 0\ntable_expiry = 0\nai_delay = 0\n%s",
	         bot_extra);
	world_conf(&f->w, bot, sections);
}

static void
start(struct fix *f, const char *tag)
{
	const char *env[] = { f->env_sock, "WATCHDOG_USEC=400000", "WATCHDOG_PID=", f->env_creds, NULL };

	assert_int_equal(e2e_daemon_start(&f->w.d, tag, f->w.conf, env), 0);
}

static void
test_ready_status_watchdog_stopping(void **state)
{
	struct fix *f = *state;
	char buf[512];

	write_conf(f, "", "");
	start(f, "notify");
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "READY=1"));
	assert_non_null(strstr(buf, "STATUS="));
	assert_non_null(strstr(buf, "in progress"));
	/* Pings every 200 ms (half of WATCHDOG_USEC): two within a second. */
	assert_non_null(strstr(notify_wait(f, "WATCHDOG=1", 1000, buf, sizeof buf), "WATCHDOG=1"));
	assert_non_null(strstr(notify_wait(f, "WATCHDOG=1", 1000, buf, sizeof buf), "WATCHDOG=1"));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_non_null(strstr(notify_wait(f, "STOPPING=1", 5000, buf, sizeof buf), "STOPPING=1"));
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	/* stderr is not the journal: each line has a time and its level's name, no "<N>" */
	assert_true(e2e_daemon_log_has(&f->w.d, " info: handfoot "));
	assert_false(e2e_daemon_log_has(&f->w.d, "<6>") || e2e_daemon_log_has(&f->w.d, "<5>"));
	{
		char *log = e2e_read_file(f->w.d.log);
		int y, mo, d, h, mi, s, ms;

		assert_non_null(log);
		assert_int_equal(sscanf(log, "%4d-%2d-%2d %2d:%2d:%2d.%3d ", &y, &mo, &d, &h, &mi, &s, &ms), 7);
		free(log);
	}
}

/* Under systemd stderr is the journal's stream (JOURNAL_STREAM names it):
 * levels reach journald as sd-daemon prefixes, and journald adds the time. */
static void
test_journal_stream_gets_priority_prefixes(void **state)
{
	struct fix *f = *state;
	const char *env[] = { "JOURNAL_STREAM=", NULL };
	char *log;

	write_conf(f, "", "");
	assert_int_equal(e2e_daemon_start(&f->w.d, "journal", f->w.conf, env), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "running", 5000), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	assert_true(e2e_daemon_log_has(&f->w.d, "<6>handfoot "));
	assert_false(e2e_daemon_log_has(&f->w.d, " info: "));
	log = e2e_read_file(f->w.d.log);
	assert_non_null(log);
	assert_true(log[0] == '<');
	free(log);
}

/* A table in progress against computer players, through the console adapter
 * (its commands come on our pipe; nobody types, so the game waits for us). */
static const char game_section[] =
	"[console]\n"
	"prefix =\n"
	"start = play 4 classic\n";

static void
test_sighup_reload_keeps_the_game_and_refuses_a_broken_file(void **state)
{
	struct fix *f = *state;
	char buf[512];

	write_conf(f, "", game_section);
	start(f, "reload");
	/* The table is dealt as the console starts: READY=1 tells it already. */
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 game in progress"));

	/* A changed file: taken, the game goes on. */
	write_conf(f, "prefix = ?\n", "[console]\nprefix = ?\nstart = play 4 classic\n");
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGHUP), 0);
	assert_non_null(strstr(notify_wait(f, "RELOADING=1", 5000, buf, sizeof buf), "RELOADING=1"));
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 game in progress"));
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "in force", 5000), 0);
	/* the log says what changed and applied: the prefixes, at once */
	assert_true(e2e_daemon_log_has(&f->w.d, "reload: [bot]: applied: prefix"));
	assert_true(e2e_daemon_log_has(&f->w.d, "reload: console: applied: prefix"));
	/* The section's new prefix is in force although the console was kept:
	 * "?who" is the who command now (its table lists the owner). */
	assert_false(e2e_daemon_log_has(&f->w.d, "[owner]"));
	assert_int_equal(write(f->w.d.in, "?who\n", 5), 5);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "[owner]", 5000), 0);

	/* A broken file: refused with a message, the old one stays, the game too. */
	assert_int_equal(e2e_write_file(f->w.conf, "[bot]\nprefix = !\nno_such_key = 1\n[console\n"), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGHUP), 0);
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 game in progress"));
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "reload refused", 5000), 0);
	assert_true(e2e_daemon_alive(&f->w.d));

	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
}

static void
test_sigterm_mid_game_then_restart_restores_it(void **state)
{
	struct fix *f = *state;
	char buf[512];

	write_conf(f, "", game_section);
	start(f, "restart1");
	/* The table is dealt as the console starts: READY=1 tells it already. */
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 game in progress"));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);

	/* Without the start key: only the restored game can be in progress. */
	write_conf(f, "", "[console]\nprefix =\n");
	start(f, "restart2");
	notify_wait(f, "READY=1", 5000, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 game in progress"));
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "restored 1 game", 5000), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGINT), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ready_status_watchdog_stopping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_stream_gets_priority_prefixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sighup_reload_keeps_the_game_and_refuses_a_broken_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_mid_game_then_restart_restores_it, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
