/* e2e-operator.c: what the operator reads: handfoot -t, and the daemon's log about connections, the database, versions and secrets. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"

struct fix {
	struct world w;                 /* first: world_teardown frees it all */
	struct e2e_daemon d2;
};

static int
setup(void **state)
{
	return world_setup_sized(state, sizeof(struct fix), &world_none);
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	if (f != NULL && f->d2.pid > 0)
		e2e_daemon_wait(&f->d2, 0);
	return world_teardown(state);
}

/* handfoot -t -c conf: its output in out, its exit status. */
static int
check(struct fix *f, char *out, size_t len)
{
	return e2e_sh(out, len, "%s/handfoot -t -c %s", e2e_build(), f->w.conf);
}

/* text written as the configuration, then checked (check). */
static int
check_text(struct fix *f, const char *text, char *out, size_t len)
{
	assert_int_equal(e2e_write_file(f->w.conf, text), 0);
	return check(f, out, len);
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* Issue 11: "-t stops at the first error (five mistakes, five runs)". */
static void
test_check_lists_every_error(void **state)
{
	struct fix *f = *state;
	char out[8192], text[1024];

	(void)state;
	snprintf(text, sizeof text,
	         "[bot]\n"
	         "database = %s/hf.db\n"
	         "ai_level = clever\n"            /* 3 */
	         "turn_timeout = soon\n"          /* 4 */
	         "[irc net]\n"
	         "tls = maybe\n"                  /* 6 */
	         "private = loud\n"               /* 7 */
	         "[matrix m]\n"                   /* 8: no homeserver */
	         "user = @hf:example.org\n"
	         "password_file = %s/none\n",
	         f->w.dir, f->w.dir);
	assert_int_equal(check_text(f, text, out, sizeof out), 1);
	assert_non_null(strstr(out, "handfoot.conf:3: [bot] ai_level"));
	assert_non_null(strstr(out, "handfoot.conf:4: [bot] turn_timeout"));
	assert_non_null(strstr(out, "handfoot.conf:6: [irc net] tls"));
	assert_non_null(strstr(out, "handfoot.conf:7: [irc net] private"));
	assert_non_null(strstr(out, "[matrix m]"));
	assert_non_null(strstr(out, "5 errors"));
	assert_null(strstr(out, "configuration ok"));
}

/* Issue 15: "config lines over 199 bytes are split by the INI reader into a
 * second, bogus line (an error then names line 6 of a 5-line file)". */
static void
test_check_takes_long_lines(void **state)
{
	struct fix *f = *state;
	char out[4096], text[2048], chans[1200];
	size_t n = 0;

	for (int i = 0; n + 12 < 600; i++)
		n += (size_t)snprintf(chans + n, sizeof chans - n, "%s#room%03d", i ? ", " : "", i);
	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n[irc net]\nchannels = %s\nnick = HF\n", f->w.dir, chans);
	assert_int_equal(check_text(f, text, out, sizeof out), 0);
	assert_non_null(strstr(out, "configuration ok (1 adapter)"));
	/* an error after it names its own line, 5 of 5 */
	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n[irc net]\nchannels = %s\nnick = bad nick\n", f->w.dir,
	         chans);
	assert_int_equal(check_text(f, text, out, sizeof out), 1);
	assert_non_null(strstr(out, "handfoot.conf:5: [irc net] nick"));
	assert_non_null(strstr(out, "1 error"));
}

/* Issue 11: "a key given twice is silently accepted". */
static void
test_check_refuses_a_key_given_twice(void **state)
{
	struct fix *f = *state;
	char out[4096], text[512];

	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n[console]\nroom = #a\n\nroom = #b\n", f->w.dir);
	assert_int_equal(check_text(f, text, out, sizeof out), 1);
	assert_non_null(strstr(out, "handfoot.conf:6: [console] room: given twice (first on line 4)"));
}

/* Issue 11: "a file with no adapter passes as 'configuration ok (0 adapters)'". */
static void
test_check_warns_without_an_adapter(void **state)
{
	struct fix *f = *state;
	char out[4096], text[512];

	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n", f->w.dir);
	assert_int_equal(check_text(f, text, out, sizeof out), 0);
	assert_non_null(strstr(out, "warning: "));
	assert_non_null(strstr(out, "no adapter configured: nobody can reach the bot"));
}

/* Issue 15: secret files others can read are warned about; a too-long secret is an error. */
static void
test_check_looks_at_secrets(void **state)
{
	struct fix *f = *state;
	char out[4096], text[1024], pw[600], path[320];

	snprintf(path, sizeof path, "%s/ns.pw", f->w.dir);
	assert_int_equal(e2e_write_file(path, "secret\n"), 0);
	chmod(path, 0644);
	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n[irc net]\nnickserv_password_file = %s\n", f->w.dir, path);
	assert_int_equal(check_text(f, text, out, sizeof out), 0);
	assert_non_null(strstr(out, "ns.pw: the secret is readable by everyone (mode 0644)"));
	chmod(path, 0600);
	assert_int_equal(check(f, out, sizeof out), 0);
	assert_null(strstr(out, "readable"));
	memset(pw, 'x', sizeof pw - 2);
	pw[sizeof pw - 2] = '\n';
	pw[sizeof pw - 1] = '\0';
	assert_int_equal(e2e_write_file(path, pw), 0);
	chmod(path, 0600);
	assert_int_equal(check(f, out, sizeof out), 1);
	assert_non_null(strstr(out, "handfoot.conf:4: [irc net] nickserv_password_file"));
	assert_non_null(strstr(out, "longer than 255 bytes"));
}

static void
write_irc_conf(struct fix *f, int port, const char *extra)
{
	char text[1024];

	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s/hf.db\n[irc net]\nserver = 127.0.0.1\nport = %d\ntls = no\nnick = HandFoot\n"
	         "channels = #cards\nreconnect_max = 2\n%s",
	         f->w.dir, port, extra);
	assert_int_equal(e2e_write_file(f->w.conf, text), 0);
}

/* Issue 11: "the IRC log says connecting to http://... and 'disconnected
 * from' a server it never reached; each reconnect attempt writes three lines". */
static void
test_failed_connections_log_one_line_each(void **state)
{
	struct fix *f = *state;
	int port = ircserver_free_port(), attempts;
	char url[64], *log;

	write_irc_conf(f, port, "");
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-connect", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "cannot connect", 5000), 0);
	/* three attempts (reconnect_max 2 s apart): the lines each writes are in */
	for (int waited = 0; waited < 15000; waited += 50) {
		log = e2e_read_file(f->w.d.log);
		attempts = log != NULL ? count(log, "cannot connect to ") : 0;
		free(log);
		if (attempts >= 3)
			break;
		e2e_sleep_ms(50);
	}
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	log = e2e_read_file(f->w.d.log);
	assert_non_null(log);
	snprintf(url, sizeof url, "irc://127.0.0.1:%d", port);
	attempts = count(log, "cannot connect to ");
	assert_true(attempts >= 2);
	/* the first attempt is announced; after that, one line per attempt, which says what comes next */
	assert_int_equal(count(log, url), attempts + 1);
	assert_int_equal(count(log, "next attempt in"), attempts);
	assert_int_equal(count(log, "connecting to "), 1);
	assert_null(strstr(log, "http://"));
	assert_null(strstr(log, "disconnected"));
	assert_null(strstr(log, "reconnecting to"));
	free(log);
}

/* ...and "disconnected from" once there was a connection, TLS named ircs://. */
static void
test_a_lost_connection_says_disconnected(void **state)
{
	struct fix *f = *state;
	struct ircserver srv;
	char out[640];

	assert_true(ircserver_available("ngircd"));
	assert_int_equal(ircserver_init(&srv, "ngircd"), 0);
	assert_int_equal(ircserver_start(&srv), 0);
	/* the connection's pace quick: it comes up at once */
	write_irc_conf(f, srv.port, "flood_burst = 20\nflood_rate = 100\n");
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-lost", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "up on irc://127.0.0.1", 10000), 0);
	ircserver_stop(&srv, true);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "disconnected from irc://127.0.0.1", 10000), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	ircserver_free(&srv);
	/* TLS: ircs:// */
	write_irc_conf(f, ircserver_free_port(), "");
	snprintf(out, sizeof out, "sed -i 's/^tls = no/tls = yes/' %s", f->w.conf);
	assert_int_equal(e2e_sh(NULL, 0, "%s", out), 0);
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-tls", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "cannot connect to ircs://127.0.0.1:", 5000), 0);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
}

/* Issue 11: '"database is locked" gives no hint that another daemon holds it'. */
static void
test_locked_database_names_the_cause(void **state)
{
	struct fix *f = *state;
	char text[512];

	snprintf(text, sizeof text, "[bot]\ndatabase = %s/hf.db\n", f->w.dir);
	assert_int_equal(e2e_write_file(f->w.conf, text), 0);
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-lock1", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "running", 5000), 0);
	assert_int_equal(e2e_daemon_start(&f->d2, "operator-lock2", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait(&f->d2, 10000), 1);
	assert_true(e2e_daemon_log_has(&f->d2, "database is locked"));
	assert_true(e2e_daemon_log_has(&f->d2, "another handfoot (or another program) has it open"));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
}

/* Issue 11: "CTCP VERSION says 0.1 while --version says 0.1.0". */
static void
test_one_version_string(void **state)
{
	struct fix *f = *state;
	struct ircserver srv;
	struct ircclient alice;
	char version[128], line[512], want[160];

	(void)state;
	assert_int_equal(e2e_sh(version, sizeof version, "%s/handfoot --version", e2e_build()), 0);
	version[strcspn(version, "\n")] = '\0';
	assert_int_equal(strncmp(version, "handfoot ", 9), 0);
	assert_true(ircserver_available("ngircd"));
	assert_int_equal(ircserver_init(&srv, "ngircd"), 0);
	assert_int_equal(ircserver_start(&srv), 0);
	/* the connection's pace quick: the version is looked at, not its pace */
	write_irc_conf(f, srv.port, "flood_burst = 20\nflood_rate = 100\n");
	alice.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-version", f->w.conf, NULL), 0);
	assert_int_equal(ircclient_wait(&alice, 20000, NULL, 0, ":HandFoot!", "JOIN", NULL), 0);
	ircclient_send(&alice, "PRIVMSG HandFoot :\001VERSION\001");
	snprintf(want, sizeof want, "\001VERSION %s\001", version);
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice :", want, NULL), 0);
	assert_true(e2e_daemon_log_has(&f->w.d, version));
	ircclient_close(&alice);
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	ircserver_free(&srv);
}

/* Issue 15: "SASL PLAIN, NickServ and server passwords go over tls = no without a warning" (not to loopback). */
static void
test_secrets_in_clear_are_warned_about(void **state)
{
	struct fix *f = *state;
	char text[2048], path[320];

	snprintf(path, sizeof path, "%s/pw", f->w.dir);
	assert_int_equal(e2e_write_file(path, "secret\n"), 0);
	chmod(path, 0600);
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s/hf.db\n[irc net]\nserver = irc.example.invalid\ntls = no\nreconnect_max = 60\n"
	         "password_file = %s\nnickserv_password_file = %s\nsasl_mechanism = PLAIN\nsasl_user = hf\n"
	         "sasl_password_file = %s\n",
	         f->w.dir, path, path, path);
	assert_int_equal(e2e_write_file(f->w.conf, text), 0);
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-clear", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "the NickServ password crosses the network in clear", 5000), 0);
	assert_true(e2e_daemon_log_has(&f->w.d, "the server password crosses the network in clear"));
	assert_true(e2e_daemon_log_has(&f->w.d, "the SASL PLAIN password crosses the network in clear"));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
	/* to this machine: nothing crosses a network */
	snprintf(text, sizeof text,
	         "[bot]\ndatabase = %s/hf.db\n[irc net]\nserver = 127.0.0.1\nport = %d\ntls = no\nreconnect_max = 60\n"
	         "nickserv_password_file = %s\n",
	         f->w.dir, ircserver_free_port(), path);
	assert_int_equal(e2e_write_file(f->w.conf, text), 0);
	assert_int_equal(e2e_daemon_start(&f->w.d, "operator-loopback", f->w.conf, NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&f->w.d, "cannot connect", 5000), 0);
	assert_false(e2e_daemon_log_has(&f->w.d, "in clear"));
	assert_int_equal(e2e_daemon_signal(&f->w.d, SIGTERM), 0);
	assert_int_equal(e2e_daemon_wait(&f->w.d, 10000), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_lists_every_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_takes_long_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_refuses_a_key_given_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_warns_without_an_adapter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_looks_at_secrets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_connections_log_one_line_each, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_lost_connection_says_disconnected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked_database_names_the_cause, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_version_string, setup, teardown),
		cmocka_unit_test_setup_teardown(test_secrets_in_clear_are_warned_about, setup, teardown),
	};
	return cmocka_run_group_tests_name("what the operator reads", tests, NULL, NULL);
}
