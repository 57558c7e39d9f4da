/* e2e-matrix-web-reload.c: SIGHUP with the Matrix adapter (on the fake homeserver) and the web table running: a change each can take keeps them up, a new secret file waits for a restart, a setting of their connection starts them again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "e2e.h"
#include "fakemx.h"
#include "ircserver.h"
#include "world.h"

static struct world w;           /* the fake homeserver is w.mx */
static int port;                 /* the web table's */

/* How many times the daemon's log holds needle. */
static int
log_count(const char *needle)
{
	char *log = e2e_read_file(w.d.log);
	int n = 0;

	for (const char *p = log; p != NULL && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	free(log);
	return n;
}

/* The configuration: the Matrix section of user with the password in the
 * file named pw_file and matrix_extra, the web section with web_extra. */
static void
conf(const char *user, const char *pw_file, const char *matrix_extra, const char *web_extra)
{
	char text[2048];

	snprintf(text, sizeof text,
	         "[matrix t]\nhomeserver = %s\nuser = %s\npassword_file = %s/%s\nsync_timeout = 2\n%s\n"
	         "[web test]\nlisten = 127.0.0.1:%d\n%s",
	         w.mx.base, user, w.dir, pw_file, matrix_extra, port, web_extra);
	world_conf(&w, "ai_delay = 0\n", text);
}

static int
setup(void **state)
{
	static const struct world_spec matrix = { .matrix = true };
	char pw[300], tok[128];

	*state = &w;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (world_init(&w, &matrix) < 0)
		return -1;
	port = ircserver_free_port();
	fakemx_user(&w.mx, "bot", "reload-pw", tok, sizeof tok);
	/* another account, never logged in: no token kept from before to resume with */
	fakemx_user(&w.mx, "carl", "reload-pw", tok, sizeof tok);
	e2e_secret_note("reload-pw");
	/* two files with the same password: naming the other is a change of key only */
	snprintf(pw, sizeof pw, "%s/pw", w.dir);
	if (e2e_write_file(pw, "reload-pw\n") < 0)
		return -1;
	snprintf(pw, sizeof pw, "%s/pw2", w.dir);
	return e2e_write_file(pw, "reload-pw\n");
}

static void
test_reload_keeps_or_restarts_each_adapter(void **state)
{
	(void)state;
	conf("bot", "pw", "", "");
	world_daemon(&w, "e2e-matrix-web-reload");
	assert_int_equal(e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "listening on 127.0.0.1", 5000), 0);

	/* a prefix each (the bot's key) and another password file: both stay up */
	conf("bot", "pw2", "prefix = ?\n", "prefix = ?\n");
	assert_int_equal(e2e_daemon_signal(&w.d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "reload: matrix/t: applied: prefix; waits for a restart: password_file",
	                                     5000), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "reload: web/test: applied: prefix", 5000), 0);
	assert_false(e2e_daemon_log_has(&w.d, "reconnecting"));
	assert_int_equal(log_count("matrix/t: up"), 1);

	/* who may invite the bot, and the web table's bound on connections:
	 * each starts again, and is up again (the changes are said against the
	 * sections they kept: without a reload op, the ones they started with) */
	conf("bot", "pw2", "prefix = ?\nallow = @ann:hs\n", "prefix = ?\nmax_connections = 100\n");
	assert_int_equal(e2e_daemon_signal(&w.d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "reload: matrix/t: password_file,prefix,allow changed: reconnecting",
	                                     5000), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "reload: web/test: prefix,max_connections changed: reconnecting", 5000),
	                 0);
	for (int t = 0; t < 200 && log_count("matrix/t: up") < 2; t++)
		e2e_sleep_ms(100);
	assert_int_equal(log_count("matrix/t: up"), 2);
	assert_int_equal(log_count("listening on 127.0.0.1"), 2);
	assert_false(e2e_daemon_log_has(&w.d, "cannot start"));

	world_daemon_stop(&w);
}

/* A refused password stops the account until the daemon is reloaded: the
 * operator fixes the file (the configuration's text unchanged) and sends
 * SIGHUP, and the account logs in with the file as it is now.  The section
 * names another account than the first test's, whose token is kept. */
static void
test_refused_login_waits_for_a_reload(void **state)
{
	char pw[300];

	(void)state;
	snprintf(pw, sizeof pw, "%s/pw3", w.dir);
	assert_int_equal(e2e_write_file(pw, "not-the-password\n"), 0);
	conf("carl", "pw3", "", "");
	world_daemon(&w, "e2e-matrix-web-reload");
	assert_int_equal(e2e_daemon_wait_log(&w.d, "stays offline until the configuration is fixed", 20000), 0);
	assert_false(e2e_daemon_log_has(&w.d, "matrix/t: up"));
	/* the token kept from bot's run is not carl's: never resumed with */
	assert_false(e2e_daemon_log_has(&w.d, "logged in as @bot:hs"));

	assert_int_equal(e2e_write_file(pw, "reload-pw\n"), 0);
	assert_int_equal(e2e_daemon_signal(&w.d, SIGHUP), 0);
	assert_int_equal(e2e_daemon_wait_log(&w.d, "matrix/t: up", 20000), 0);
	world_daemon_stop(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reload_keeps_or_restarts_each_adapter),
		cmocka_unit_test(test_refused_login_waits_for_a_reload),
	};

	return cmocka_run_group_tests(tests, setup, world_end_state);
}
