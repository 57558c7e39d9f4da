/* e2e-irc-sasl.c: the real daemon on InspIRCd linked to Atheme: SASL PLAIN and EXTERNAL (and a failure refused), NickServ IDENTIFY and REGAIN, MONITOR, players keyed by services account, a colour-blocking channel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "e2e.h"
#include "ircaccount.h"
#include "ircclient.h"
#include "ircserver.h"
#include "world.h"

struct ctx {
	struct world w;                 /* InspIRCd with Atheme; its daemon is w.d */
	char bot_pw[64], alice_pw[64], ext_pw[64];
	char fp[80];
};

static struct ctx ctx;

static int
setup(void **state)
{
	static const struct world_spec atheme = { .irc = WORLD_INSPIRCD_ATHEME };
	struct ctx *c = &ctx;
	char cert[512], key[512];

	memset(c, 0, sizeof *c);
	if (world_init(&c->w, &atheme) != 0)
		return -1;
	/* fresh passwords every run, noted so that no daemon log may hold them */
	snprintf(c->bot_pw, sizeof c->bot_pw, "bot-%ld-Pw%u", (long)getpid(), (unsigned)rand());
	snprintf(c->alice_pw, sizeof c->alice_pw, "alice-%ld-Pw%u", (long)getpid(), (unsigned)rand());
	snprintf(c->ext_pw, sizeof c->ext_pw, "ext-%ld-Pw%u", (long)getpid(), (unsigned)rand());
	e2e_secret_note(c->bot_pw);
	e2e_secret_note(c->alice_pw);
	e2e_secret_note(c->ext_pw);
	ircserver_path(&c->w.srv, "client.pem", cert, sizeof cert);
	ircserver_path(&c->w.srv, "client.key", key, sizeof key);
	if (ircaccount_make_cert(cert, key, c->fp, sizeof c->fp) != 0 ||
	    ircaccount_register(c->w.srv.port, "HFBot", c->bot_pw, NULL) != 0 ||
	    ircaccount_register(c->w.srv.port, "alice", c->alice_pw, NULL) != 0 ||
	    ircaccount_register(c->w.srv.port, "HFExt", c->ext_pw, c->fp) != 0)
		return -1;
	*state = c;
	return 0;
}

/* After each test: a failed assertion must not leave a daemon holding the nick. */
static int
daemon_reap(void **state)
{
	struct ctx *c = *state;

	if (c != NULL && e2e_daemon_alive(&c->w.d)) {
		e2e_daemon_signal(&c->w.d, SIGTERM);
		e2e_daemon_wait(&c->w.d, 10000);
	}
	return 0;
}

static int
teardown(void **state)
{
	struct ctx *c = *state;

	if (c != NULL)
		world_end(&c->w);
	return 0;
}

/* Starts the daemon with one [irc test] section on the TLS port; extra: its login keys. */
static void
daemon_start(struct ctx *c, const char *tag, const char *nick, const char *extra)
{
	char conf[512], db[512], ca[512], text[2048];

	ircserver_path(&c->w.srv, "handfoot.conf", conf, sizeof conf);
	snprintf(db, sizeof db, "%s/%s.db", c->w.srv.dir, tag);
	ircserver_path(&c->w.srv, "ca.pem", ca, sizeof ca);
	snprintf(text, sizeof text,
	         "[bot]\nprefix = !\ndatabase = %s\nai_delay = 0\nturn_reminder = 0\nflood_burst = 30\n"
	         "log_level = debug\n"
	         "[irc test]\nserver = localhost\nport = %d\ntls = yes\nca_file = %s\nnick = %s\n"
	         "channels = #cards\nflood_burst = 10\nflood_rate = 100\n%s",
	         db, c->w.srv.tls_port, ca, nick, extra);
	assert_int_equal(e2e_write_file(conf, text), 0);
	assert_int_equal(e2e_daemon_start(&c->w.d, tag, conf, NULL), 0);
}

static void
daemon_stop(struct ctx *c)
{
	e2e_daemon_signal(&c->w.d, SIGTERM);
	assert_int_equal(e2e_daemon_wait(&c->w.d, 10000), 0);
}

/* Asks WHOIS nick until the server says it is logged in as account (330). */
static void
assert_logged_in(struct ircclient *w, const char *nick, const char *account)
{
	char want[128];

	snprintf(want, sizeof want, " %s %s :", nick, account);
	for (int i = 0; i < 40; i++) {
		ircclient_send(w, "WHOIS %s", nick);
		if (ircclient_wait(w, 500, NULL, 0, " 330 ", want, NULL) == 0)
			return;
	}
	fail_msg("%s is not logged in as %s", nick, account);
}

static void
wait_bot_joined(struct ircclient *c, const char *nick)
{
	char who[64];

	snprintf(who, sizeof who, ":%s!", nick);
	if (!ircclient_saw(c, " 353 ", nick))
		assert_int_equal(ircclient_wait(c, 20000, NULL, 0, who, "JOIN", "#cards", NULL), 0);
}

static void
test_sasl_plain_and_accounts(void **state)
{
	struct ctx *c = *state;
	struct ircclient alice, mallory;
	char pwfile[512], extra[1024], line[2048];

	/* (a) the bot logs in with SASL PLAIN, its password read from a file */
	ircserver_path(&c->w.srv, "bot.pw", pwfile, sizeof pwfile);
	snprintf(line, sizeof line, "%s\n", c->bot_pw);
	assert_int_equal(e2e_write_file(pwfile, line), 0);
	snprintf(extra, sizeof extra, "sasl_mechanism = PLAIN\nsasl_user = HFBot\nsasl_password_file = %s\n", pwfile);
	daemon_start(c, "irc-sasl-plain", "HFBot", extra);

	/* (c) alice logs in with SASL too: her seat is keyed by her account */
	alice.pump = NULL;
	assert_int_equal(ircaccount_connect_sasl(&alice, c->w.srv.port, "alice", "alice", c->alice_pw), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	wait_bot_joined(&alice, "HFBot");
	assert_logged_in(&alice, "HFBot", "HFBot");
	assert_int_equal(e2e_daemon_wait_log(&c->w.d, "logged in to services", 5000), 0);
	assert_true(e2e_daemon_log_has(&c->w.d, " 903 "));

	ircclient_send(&alice, "PRIVMSG #cards :!new duel");
	ircclient_send(&alice, "PRIVMSG #cards :!bot add");
	ircclient_send(&alice, "PRIVMSG #cards :!start");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice :Your ", NULL), 0);
	/* a new nick keeps the seat */
	ircclient_send(&alice, "NICK alicia");
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alicia :Your ", NULL), 0);
	ircclient_close(&alice);

	/* someone else wearing "alice" without the account has no seat */
	mallory.pump = NULL;
	assert_int_equal(ircclient_connect(&mallory, c->w.srv.port, "alice"), 0);
	assert_int_equal(ircclient_join(&mallory, "#cards"), 0);
	ircclient_send(&mallory, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&mallory, 10000, line, sizeof line, "no seat at this table", NULL), 0);
	assert_false(ircclient_saw(&mallory, "NOTICE alice :Your ", NULL));

	/* alice back under another nick, logged in by IDENTIFY: her seat again */
	alice.pump = NULL;
	assert_int_equal(ircclient_connect(&alice, c->w.srv.port, "alice2"), 0);
	assert_int_equal(ircaccount_identify(&alice, "alice", c->alice_pw), 0);
	assert_int_equal(ircclient_join(&alice, "#cards"), 0);
	ircclient_send(&alice, "PRIVMSG #cards :!hand");
	assert_int_equal(ircclient_wait(&alice, 10000, line, sizeof line, "NOTICE alice2 :Your ", NULL), 0);

	ircclient_close(&mallory);
	ircclient_close(&alice);
	daemon_stop(c);
}

static void
test_nickserv_identify(void **state)
{
	struct ctx *c = *state;
	struct ircclient w;
	char pwfile[512], extra[1024], line[256];

	/* (d) no SASL: IDENTIFY to NickServ after the MOTD, the password from a file */
	ircserver_path(&c->w.srv, "ns.pw", pwfile, sizeof pwfile);
	snprintf(line, sizeof line, "%s\n", c->bot_pw);
	assert_int_equal(e2e_write_file(pwfile, line), 0);
	snprintf(extra, sizeof extra, "nickserv_password_file = %s\n", pwfile);
	daemon_start(c, "irc-nickserv", "HFBot", extra);
	w.pump = NULL;
	assert_int_equal(ircclient_connect(&w, c->w.srv.port, "watcher"), 0);
	assert_int_equal(ircclient_join(&w, "#cards"), 0);
	wait_bot_joined(&w, "HFBot");
	assert_logged_in(&w, "HFBot", "HFBot");
	assert_true(e2e_daemon_log_has(&c->w.d, "PRIVMSG NickServ <redacted>"));
	assert_false(e2e_daemon_log_has(&c->w.d, "AUTHENTICATE PLAIN"));
	ircclient_close(&w);
	daemon_stop(c);
}

static void
test_sasl_external(void **state)
{
	struct ctx *c = *state;
	struct ircclient w;
	char cert[512], key[512], extra[1400];

	/* (b) SASL EXTERNAL: the client certificate's fingerprint is on the account (CERT ADD) */
	ircserver_path(&c->w.srv, "client.pem", cert, sizeof cert);
	ircserver_path(&c->w.srv, "client.key", key, sizeof key);
	snprintf(extra, sizeof extra, "sasl_mechanism = EXTERNAL\nclient_cert = %s\nclient_key = %s\n", cert, key);
	daemon_start(c, "irc-sasl-external", "HFExt", extra);
	w.pump = NULL;
	assert_int_equal(ircclient_connect(&w, c->w.srv.port, "watcher2"), 0);
	assert_int_equal(ircclient_join(&w, "#cards"), 0);
	wait_bot_joined(&w, "HFExt");
	assert_logged_in(&w, "HFExt", "HFExt");
	assert_true(e2e_daemon_log_has(&c->w.d, "AUTHENTICATE EXTERNAL"));
	assert_true(e2e_daemon_log_has(&c->w.d, " 903 "));
	ircclient_close(&w);
	daemon_stop(c);
}

/* Whether the daemon's log holds needle n times or more within timeout_ms (polled). */
static bool
logged_times(struct e2e_daemon *d, const char *needle, int n, int timeout_ms)
{
	for (int waited = 0; waited <= timeout_ms; waited += 50) {
		char *log = e2e_read_file(d->log);
		int seen = 0;

		for (const char *p = log; p != NULL && (p = strstr(p, needle)) != NULL; p++)
			seen++;
		free(log);
		if (seen >= n)
			return true;
		e2e_sleep_ms(50);
	}
	return false;
}

/* Issue 15: "a SASL failure goes on unauthenticated".  Refused unless
 * sasl_required = no: the bot never comes up without its account. */
static void
test_sasl_failure_is_refused(void **state)
{
	struct ctx *c = *state;
	struct ircclient w;
	char pwfile[512], extra[1024];

	ircserver_path(&c->w.srv, "wrong.pw", pwfile, sizeof pwfile);
	assert_int_equal(e2e_write_file(pwfile, "not-the-password\n"), 0);
	w.pump = NULL;
	assert_int_equal(ircclient_connect(&w, c->w.srv.port, "watcher3"), 0);
	assert_int_equal(ircclient_join(&w, "#cards"), 0);
	snprintf(extra, sizeof extra, "sasl_mechanism = PLAIN\nsasl_user = HFBot\nsasl_password_file = %s\n"
	         "reconnect_max = 2\n", pwfile);
	daemon_start(c, "irc-sasl-refused", "HFBot", extra);
	assert_int_equal(e2e_daemon_wait_log(&c->w.d, "not going on without the account (sasl_required = yes)", 10000), 0);
	/* it tries again later, and never joins meanwhile: refused a second
	 * time (after reconnect_max, 2 s), a JOIN in between would be in */
	assert_int_equal(e2e_daemon_wait_log(&c->w.d, "next attempt in", 10000), 0);
	assert_true(logged_times(&c->w.d, "not going on without the account", 2, 10000));
	ircclient_drain(&w, 200);
	assert_false(ircclient_saw(&w, ":HFBot!", "JOIN"));
	assert_false(e2e_daemon_log_has(&c->w.d, "going on without it"));
	daemon_stop(c);

	/* said so: it goes on without the account */
	snprintf(extra, sizeof extra, "sasl_mechanism = PLAIN\nsasl_user = HFBot\nsasl_password_file = %s\n"
	         "sasl_required = no\n", pwfile);
	daemon_start(c, "irc-sasl-optional", "HFBot", extra);
	wait_bot_joined(&w, "HFBot");
	assert_true(e2e_daemon_log_has(&c->w.d, "going on without it (sasl_required = no)"));
	ircclient_close(&w);
	daemon_stop(c);
}

/* Issue 11: the nick back with NickServ's help (REGAIN), and by MONITOR. */
static void
test_nick_regained_by_nickserv_and_monitor(void **state)
{
	struct ctx *c = *state;
	struct ircclient w, squatter;
	char pwfile[512], extra[1024], line[256];

	/* someone sits on the bot's registered nick: NickServ frees it for the owner */
	squatter.pump = w.pump = NULL;
	assert_int_equal(ircclient_connect(&squatter, c->w.srv.port, "HFBot"), 0);
	assert_int_equal(ircclient_connect(&w, c->w.srv.port, "watcher4"), 0);
	assert_int_equal(ircclient_join(&w, "#cards"), 0);
	ircserver_path(&c->w.srv, "ns2.pw", pwfile, sizeof pwfile);
	snprintf(line, sizeof line, "%s\n", c->bot_pw);
	assert_int_equal(e2e_write_file(pwfile, line), 0);
	snprintf(extra, sizeof extra, "nickserv_password_file = %s\nnick_poll = 0\n", pwfile);
	daemon_start(c, "irc-regain-ns", "HFBot", extra);
	/* the joins wait for the login (issue 28), and REGAIN goes first: the
	 * bot comes in as HFBot */
	assert_int_equal(ircclient_wait(&w, 20000, NULL, 0, ":HFBot!", "JOIN", "#cards", NULL), 0);
	assert_logged_in(&w, "HFBot", "HFBot");
	assert_true(e2e_daemon_log_has(&c->w.d, "PRIVMSG NickServ <redacted>"));
	ircclient_close(&squatter);
	daemon_stop(c);

	/* no services password, no ISON poll: MONITOR (InspIRCd offers it) tells when it frees */
	assert_int_equal(ircclient_connect(&squatter, c->w.srv.port, "HFFree"), 0);
	daemon_start(c, "irc-regain-monitor", "HFFree", "nick_poll = 0\n");
	wait_bot_joined(&w, "HFFree_");
	assert_int_equal(e2e_daemon_wait_log(&c->w.d, "MONITOR + HFFree", 5000), 0);
	ircclient_close(&squatter);
	assert_int_equal(ircclient_wait(&w, 10000, NULL, 0, ":HFFree_!", "NICK", "HFFree", NULL), 0);
	ircclient_close(&w);
	daemon_stop(c);
}

/* Issue 11: "a colour-blocking channel drops only the coloured lines": the
 * bot writes plain text there, sends again what was refused, tells the owner. */
static void
test_colour_blocking_channel_gets_plain_text(void **state)
{
	struct ctx *c = *state;
	struct ircclient w;
	char line[2048];

	w.pump = NULL;
	assert_int_equal(ircclient_connect(&w, c->w.srv.port, "owner5"), 0);
	assert_int_equal(ircclient_join(&w, "#cards"), 0);    /* first in: operator */
	ircclient_send(&w, "MODE #cards +c");
	daemon_start(c, "irc-blockcolor", "HFColour", "");
	assert_int_equal(ircclient_wait(&w, 20000, NULL, 0, ":HFColour!", "JOIN", "#cards", NULL), 0);
	ircclient_send(&w, "PRIVMSG #cards :!play 2 duel");
	/* the deal's "Round 1" is bold: refused once, then sent again plain */
	assert_int_equal(ircclient_wait(&w, 20000, line, sizeof line, "PRIVMSG #cards :", "Round 1", NULL), 0);
	assert_null(strpbrk(line, "\x02\x03"));
	assert_int_equal(ircclient_wait(&w, 10000, NULL, 0, "NOTICE owner5 :", "refuses colours", NULL), 0);
	assert_int_equal(e2e_daemon_wait_log(&c->w.d, "#cards refuses colours", 5000), 0);
	ircclient_send(&w, "PRIVMSG #cards :!score");
	assert_int_equal(ircclient_wait(&w, 10000, line, sizeof line, "PRIVMSG #cards :", NULL), 0);
	ircclient_close(&w);
	daemon_stop(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sasl_plain_and_accounts, daemon_reap),
		cmocka_unit_test_teardown(test_nickserv_identify, daemon_reap),
		cmocka_unit_test_teardown(test_sasl_external, daemon_reap),
		cmocka_unit_test_teardown(test_sasl_failure_is_refused, daemon_reap),
		cmocka_unit_test_teardown(test_nick_regained_by_nickserv_and_monitor, daemon_reap),
		cmocka_unit_test_teardown(test_colour_blocking_channel_gets_plain_text, daemon_reap),
	};

	return cmocka_run_group_tests_name("handfoot on InspIRCd + Atheme", tests, setup, teardown);
}
