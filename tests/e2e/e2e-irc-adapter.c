/* e2e-irc-adapter.c: the IRC adapter alone against real servers (ngircd; InspIRCd over TLS with Atheme), the bot replaced by an echo host. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "adapter.h"
#include "http.h"
#include "ircclient.h"
#include "ircserver.h"
#include "loop.h"
#include "memstore.h"

extern const struct adapter_ops irc_adapter_ops;

/* ------------------------------------------------------------------ a fake bot host */

struct adapter_cfg {
	const char *keys[32];
	const char *values[32];
	int n;
};

struct host {
	struct loop *loop;
	struct http *http;
	struct adapter a;
	char events[4096][160];
	int nevents;
	int ups, downs;
	char self[64];          /* the last name given by adapter_set_self */
	unsigned pings;         /* "!ping" answered: each answer's own key */
	struct memstore *kv;    /* adapter_state_*: kept across the adapter's reconnects */
};

static void
cfg_set(struct adapter_cfg *c, const char *key, const char *value)
{
	c->keys[c->n] = key;
	c->values[c->n] = value;
	c->n++;
}

const char *
adapter_cfg_get(struct adapter_cfg *cfg, const char *key, const char *def)
{
	for (int i = 0; i < cfg->n; i++)
		if (strcmp(cfg->keys[i], key) == 0)
			return cfg->values[i];
	return def;
}

int
adapter_cfg_bool(struct adapter_cfg *cfg, const char *key, bool def, bool *out, char *err, size_t errlen)
{
	const char *v = adapter_cfg_get(cfg, key, NULL);

	if (v == NULL)
		*out = def;
	else if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0)
		*out = true;
	else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0)
		*out = false;
	else {
		snprintf(err, errlen, "%s: not a boolean", key);
		return -1;
	}
	return 0;
}

int
adapter_cfg_int(struct adapter_cfg *cfg, const char *key, long def, long min, long max, long *out,
                char *err, size_t errlen)
{
	const char *v = adapter_cfg_get(cfg, key, NULL);

	*out = v != NULL ? strtol(v, NULL, 10) : def;
	if (*out < min || *out > max) {
		snprintf(err, errlen, "%s: out of range", key);
		return -1;
	}
	return 0;
}

void
adapter_cfg_error(struct adapter_cfg *cfg, const char *key, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	(void)cfg;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "test: [irc test] %s: %s", key, msg);
}

int
adapter_read_secret(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");

	if (f == NULL || fgets(buf, (int)len, f) == NULL) {
		snprintf(err, errlen, "cannot read %s", path);
		if (f != NULL)
			fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

int
adapter_state_get(struct adapter *a, const char *key, char *buf, size_t len)
{
	return memstore_get(((struct host *)a->host)->kv, key, buf, len);
}

int
adapter_state_set(struct adapter *a, const char *key, const char *value)
{
	return memstore_set(((struct host *)a->host)->kv, key, value);
}

/* this host has no tables: nobody is seated */
bool
adapter_seated(struct adapter *a, const char *user_id)
{
	(void)a;
	(void)user_id;
	return false;
}

int
adapter_state_del(struct adapter *a, const char *key)
{
	return memstore_del(((struct host *)a->host)->kv, key);
}

int
adapter_state_each(struct adapter *a, const char *prefix, void (*fn)(void *, const char *, const char *), void *ctx)
{
	return memstore_each(((struct host *)a->host)->kv, prefix, fn, ctx);
}

void
adapter_log(struct adapter *a, int level, const char *fmt, ...)
{
	va_list ap;

	(void)a;
	if (level > LOG_LVL_INFO && getenv("HF_IRC_DEBUG") == NULL)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "<%d>irc: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void
adapter_set_self(struct adapter *a, const char *name)
{
	struct host *h = a->host;

	snprintf(h->self, sizeof h->self, "%s", name);
}

/* The echo bot: "!ping" -> a private "hand" line ("!pingpm", "!pingnotice": as
 * a player who chose PRIVMSG or NOTICE would get it), an answer as the core
 * answers a question (a key, none replacing another, and its asker);
 * "!who" -> a room line. */
void
adapter_emit(struct adapter *a, const struct bot_event *ev)
{
	struct host *h = a->host;
	static const char *names[] = { "?", "MESSAGE", "JOIN", "LEAVE", "RENAME", "UP", "DOWN", "SEND_FAILED" };
	struct adapter_msg m;
	char text[400];

	if (h->nevents < 4096)
		snprintf(h->events[h->nevents++], sizeof h->events[0], "%s %s %s %s %s%s%s", names[ev->type],
		         ev->room ? ev->room : "-", ev->user_id ? ev->user_id : "-", ev->user_name ? ev->user_name : "-",
		         ev->text ? ev->text : "-", ev->direct ? " direct" : "", ev->notice ? " notice" : "");
	if (ev->type == BOT_EV_UP)
		h->ups++;
	if (ev->type == BOT_EV_DOWN)
		h->downs++;
	if (ev->type != BOT_EV_MESSAGE || ev->notice)
		return;
	memset(&m, 0, sizeof m);
	if (strncmp(ev->text, "!ping", 5) == 0) {
		char key[32];

		snprintf(text, sizeof text, "hand of %s: A\xc3\x97" "2 K\xc3\x97" "3 JK", ev->user_id);
		snprintf(key, sizeof key, "ping/%u", h->pings++);
		m.kind = MSG_PRIVATE;
		m.room = ev->room;
		m.user_id = ev->user_id;
		m.styled = text;
		m.supersede = key;
		m.asker = ev->user_id;
		if (strcmp(ev->text, "!pingpm") == 0)
			m.private_as = PRIVATE_CONVERSATION;
		else if (strcmp(ev->text, "!pingnotice") == 0)
			m.private_as = PRIVATE_QUIET;
		a->ops->send(a, &m);
	} else if (strcmp(ev->text, "!who") == 0 && ev->room != NULL) {
		/* a stray CR never reaches the wire; a line break is a new line, never a new command */
		snprintf(text, sizeof text, ST_BOLD "%s" ST_END " is %s\r" ST_BR "KICK #x", ev->user_name, ev->user_id);
		m.kind = MSG_ROOM;
		m.room = ev->room;
		m.styled = text;
		a->ops->send(a, &m);
	} else if (strcmp(ev->text, "!long") == 0 && ev->room != NULL) {
		char big[1200];
		size_t n = 0;

		while (n + 8 < sizeof big) {
			memcpy(big + n, "\xe2\x99\xa3" "10 ", 6);
			n += 6;
		}
		big[n] = '\0';
		m.kind = MSG_ROOM;
		m.room = ev->room;
		m.styled = big;
		a->ops->send(a, &m);
	}
}

static void
pump(void *ctx)
{
	struct host *h = ctx;

	loop_run_once(h->loop, 0);
}

static int
host_start(struct host *h, struct adapter_cfg *cfg)
{
	char err[256];

	memset(h, 0, sizeof *h);
	h->loop = loop_new();
	h->http = http_new(h->loop);
	h->a.ops = &irc_adapter_ops;
	snprintf(h->a.id, sizeof h->a.id, "irc/test");
	snprintf(h->a.name, sizeof h->a.name, "test");
	h->a.loop = h->loop;
	h->a.http = h->http;
	h->a.host = h;
	h->kv = memstore_new();
	if (irc_adapter_ops.init(&h->a, cfg, err, sizeof err) != 0) {
		fprintf(stderr, "init: %s\n", err);
		return -1;
	}
	return irc_adapter_ops.start(&h->a);
}

static void
host_stop(struct host *h)
{
	irc_adapter_ops.stop(&h->a, "test over");
	irc_adapter_ops.free(&h->a);
	http_free(h->http);
	loop_free(h->loop);
	memstore_free(h->kv);
}

/* Runs the loop until cond(h) or timeout. */
static bool
run_until(struct host *h, int ms, bool (*cond)(struct host *, int), int arg)
{
	int64_t end = ircclient_now_us() + (int64_t)ms * 1000;

	while (ircclient_now_us() < end) {
		if (cond(h, arg))
			return true;
		loop_run_once(h->loop, 20);
	}
	return cond(h, arg);
}

static bool
ups_at_least(struct host *h, int n)
{
	return h->ups >= n;
}

static bool
has_event(struct host *h, const char *s)
{
	for (int i = 0; i < h->nevents; i++)
		if (strstr(h->events[i], s) != NULL)
			return true;
	return false;
}

/* ------------------------------------------------------------------ ngircd */

struct ctx {
	struct ircserver srv;
	char port[16];
};

/* Starts a server of kind for a group of tests; the bot connects to its TLS port if tls. */
static int
setup_server(void **state, const char *kind, bool tls)
{
	static struct ctx c;

	if (!ircserver_available(kind))
		return -1;
	memset(&c, 0, sizeof c);
	if (ircserver_init(&c.srv, kind) != 0 || ircserver_start(&c.srv) != 0)
		return -1;
	snprintf(c.port, sizeof c.port, "%d", tls ? c.srv.tls_port : c.srv.port);
	*state = &c;
	return 0;
}

static int
setup_ngircd(void **state)
{
	return setup_server(state, "ngircd", false);
}

static int
teardown_server(void **state)
{
	struct ctx *c = *state;

	if (c != NULL)
		ircserver_free(&c->srv);
	return 0;
}

static void
base_cfg(struct adapter_cfg *cfg, struct ctx *c, const char *nick)
{
	memset(cfg, 0, sizeof *cfg);
	cfg_set(cfg, "server", "127.0.0.1");
	cfg_set(cfg, "port", c->port);
	cfg_set(cfg, "tls", "no");
	cfg_set(cfg, "nick", nick);
	cfg_set(cfg, "channels", "#cards, #other");
	cfg_set(cfg, "flood_burst", "5");
	cfg_set(cfg, "flood_rate", "300");
	cfg_set(cfg, "join_on_invite", "yes");
	cfg_set(cfg, "ping_interval", "5");
	cfg_set(cfg, "ping_timeout", "5");
	cfg_set(cfg, "reconnect_max", "4");
}

/* The host started on cfg, and up (15 s at most). */
static void
host_up(struct host *h, struct adapter_cfg *cfg)
{
	assert_int_equal(host_start(h, cfg), 0);
	assert_true(run_until(h, 15000, ups_at_least, 1));
}

/* cl connected to the server as nick, and in #cards. */
static void
in_cards(struct ircclient *cl, struct ctx *c, const char *nick)
{
	assert_int_equal(ircclient_connect(cl, c->srv.port, nick), 0);
	assert_int_equal(ircclient_join(cl, "#cards"), 0);
}

/* cl asks !who in #cards: the room's answer holds want within ms. */
static void
who_answers(struct ircclient *cl, int ms, const char *want)
{
	char line[1024];

	ircclient_send(cl, "PRIVMSG #cards :!who");
	assert_int_equal(ircclient_wait(cl, ms, line, sizeof line, "PRIVMSG #cards :", want, NULL), 0);
}

static void
test_ngircd_basics(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;
	struct ircclient alice, squatter;
	char line[1024];

	/* someone already holds the nick: the adapter must take another */
	squatter.pump = NULL;
	assert_int_equal(ircclient_connect(&squatter, c->srv.port, "HFBot"), 0);
	base_cfg(&cfg, c, "HFBot");
	host_up(&h, &cfg);

	alice.pump = pump;
	alice.pump_ctx = &h;
	in_cards(&alice, c, "alice");
	assert_true(ircclient_saw(&alice, " 353 ", "HFBot_"));
	assert_string_equal(h.self, "HFBot_");   /* the bot answers to the nick it got */
	ircclient_send(&alice, "PRIVMSG #cards :!ping");
	/* the private line goes by NOTICE (the default), to alice only */
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "NOTICE alice :hand of nick:alice", NULL), 0);
	assert_non_null(strstr(line, "A\xc3\x97" "2"));
	/* a player who chose PRIVMSG gets PRIVMSG although the section says notice */
	ircclient_send(&alice, "PRIVMSG #cards :!pingpm");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "PRIVMSG alice :hand of nick:alice", NULL), 0);
	/* bold becomes mIRC bold; a line break in bot text is a second PRIVMSG, never a second command */
	ircclient_send(&alice, "PRIVMSG #cards :!who");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "PRIVMSG #cards :\x02" "alice\x0f is nick:alice", NULL), 0);
	assert_null(strchr(line, '\r'));
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "PRIVMSG #cards :KICK #x", NULL), 0);
	/* a long line is split under 512 bytes, on character boundaries */
	ircclient_send(&alice, "PRIVMSG #cards :!long");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ircclient_wait(&alice, 8000, line, sizeof line, "PRIVMSG #cards :", "10", NULL), 0);
		assert_true(strlen(line) + 2 <= 512);
		assert_true(strncmp(line + strlen(line) - 2, "10", 2) == 0 || line[strlen(line) - 1] == '3');
	}
	/* CTCP VERSION answered by NOTICE; a NOTICE is passed on as such and never answered */
	ircclient_send(&alice, "PRIVMSG HFBot_ :\001VERSION\001");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "NOTICE alice :\001VERSION handfoot", NULL), 0);
	ircclient_send(&alice, "NOTICE HFBot_ :!ping");
	ircclient_send(&alice, "PRIVMSG HFBot_ :\x03" "4!pi\x0fng");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "NOTICE alice :hand of nick:alice", NULL), 0);
	assert_true(has_event(&h, "MESSAGE - nick:alice alice !ping direct notice"));
	assert_true(has_event(&h, "MESSAGE - nick:alice alice !ping direct"));
	/* a nick change keeps the id */
	ircclient_send(&alice, "NICK alice2");
	ircclient_send(&alice, "PRIVMSG #cards :!ping");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "NOTICE alice2 :hand of nick:alice", NULL), 0);
	assert_true(has_event(&h, "RENAME - nick:alice alice2 alice2"));
	/* someone taking the old nick is not alice */
	{
		struct ircclient mallory;

		mallory.pump = pump;
		mallory.pump_ctx = &h;
		in_cards(&mallory, c, "alice");
		who_answers(&mallory, 5000, "alice\x0f is nick:alice#");
		ircclient_close(&mallory);
	}
	/* invited: joins */
	assert_int_equal(ircclient_join(&alice, "#invited"), 0);
	ircclient_send(&alice, "INVITE HFBot_ #invited");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "JOIN", "#invited", "HFBot_", NULL), 0);
	assert_int_equal(h.downs, 0);
	ircclient_close(&alice);
	ircclient_close(&squatter);
	host_stop(&h);
}

static void
test_ngircd_restart(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;
	struct ircclient bob;

	base_cfg(&cfg, c, "HFRestart");
	host_up(&h, &cfg);
	/* the server dies: DOWN, then back with backoff, rejoined, UP again */
	ircserver_stop(&c->srv, true);
	{
		int64_t end = ircclient_now_us() + 10000000;

		while (h.downs == 0 && ircclient_now_us() < end)
			loop_run_once(h.loop, 20);
	}
	assert_int_equal(h.downs, 1);
	assert_int_equal(ircserver_start(&c->srv), 0);
	assert_true(run_until(&h, 30000, ups_at_least, 2));
	bob.pump = pump;
	bob.pump_ctx = &h;
	in_cards(&bob, c, "bob");
	who_answers(&bob, 5000, "bob\x0f is nick:bob");
	ircclient_close(&bob);
	host_stop(&h);
}

static bool
nicks_kept_at_most(struct host *h, int n)
{
	return memstore_count(h->kv, "nick/") <= (size_t)n;
}

/* Restarts the server under a running adapter: DOWN, then UP again. */
static void
server_bounce(struct ctx *c, struct host *h)
{
	int ups = h->ups, downs = h->downs;
	int64_t end = ircclient_now_us() + 10000000;

	ircserver_stop(&c->srv, true);
	while (h->downs == downs && ircclient_now_us() < end)
		loop_run_once(h->loop, 20);
	assert_int_equal(h->downs, downs + 1);
	assert_int_equal(ircserver_start(&c->srv), 0);
	assert_true(run_until(h, 30000, ups_at_least, ups + 1));
}

static void
test_ngircd_rename_survives_reconnect(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;
	struct ircclient alice, mallory;

	base_cfg(&cfg, c, "HFRename");
	host_up(&h, &cfg);
	alice.pump = mallory.pump = pump;
	alice.pump_ctx = mallory.pump_ctx = &h;
	in_cards(&alice, c, "alice");
	who_answers(&alice, 5000, "alice\x0f is nick:alice");
	ircclient_send(&alice, "NICK alicia");
	who_answers(&alice, 5000, "alicia\x0f is nick:alice");
	assert_int_equal(memstore_count(h.kv, "nick/"), 1);
	/* no services here: the bot (and alicia) come back after the server restarts */
	server_bounce(c, &h);
	ircclient_close(&alice);
	in_cards(&alice, c, "alicia");
	who_answers(&alice, 5000, "alicia\x0f is nick:alice");
	assert_true(has_event(&h, "MESSAGE #cards nick:alice alicia !who"));
	/* someone taking the nick alice while alicia is here is still not her */
	in_cards(&mallory, c, "alice");
	who_answers(&mallory, 5000, "alice\x0f is nick:alice#");
	ircclient_close(&mallory);
	/* alicia leaves: forgotten, the next alicia is someone else */
	ircclient_send(&alice, "QUIT :bye");
	ircclient_close(&alice);
	assert_true(run_until(&h, 5000, nicks_kept_at_most, 0));
	host_stop(&h);
}

static void
test_ngircd_flood(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;
	struct ircclient flooder, carol;
	char *burst;
	size_t len = 0;

	base_cfg(&cfg, c, "HFFlood");
	host_up(&h, &cfg);
	flooder.pump = carol.pump = pump;
	flooder.pump_ctx = carol.pump_ctx = &h;
	in_cards(&flooder, c, "flooder");
	in_cards(&carol, c, "carol");
	/* 1000 questions at once, each answered privately: the answers wait in
	 * the flooder's own lane (its cap drops the rest), never in the room's */
	burst = malloc(1000 * 32);
	for (int i = 0; i < 1000; i++)
		len += (size_t)sprintf(burst + len, "PRIVMSG #cards :!ping\r\n");
	assert_int_equal(ircclient_send_raw(&flooder, burst, len), 0);
	free(burst);
	/* the server has passed every question on to the bot (read as the
	 * wait runs its loop) when it answers this: carol asks after them */
	ircclient_send(&flooder, "PING :flooded");
	assert_int_equal(ircclient_wait(&flooder, 20000, NULL, 0, "PONG", "flooded", NULL), 0);
	/* carol is still answered, soon: her target is served in turn */
	who_answers(&carol, 20000, "carol\x0f is nick:carol");
	assert_int_equal(h.downs, 0);
	ircclient_close(&flooder);
	ircclient_close(&carol);
	host_stop(&h);
}

static int
setup_inspircd(void **state)
{
	return setup_server(state, "inspircd", true);
}

static void
test_inspircd_tls(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;
	struct ircclient alice;
	char line[1024], ca[512];

	ircserver_path(&c->srv, "ca.pem", ca, sizeof ca);
	base_cfg(&cfg, c, "HFTls");
	cfg.values[0] = "localhost";        /* the name in the certificate (and SNI) */
	cfg.values[2] = "yes";
	cfg_set(&cfg, "ca_file", ca);
	cfg_set(&cfg, "private", "privmsg");
	host_up(&h, &cfg);
	alice.pump = pump;
	alice.pump_ctx = &h;
	in_cards(&alice, c, "alice");
	ircclient_send(&alice, "PRIVMSG #cards :!ping");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "PRIVMSG alice :hand of nick:alice", NULL), 0);
	/* private = privmsg is only the default: a player who chose NOTICE gets NOTICE */
	ircclient_send(&alice, "PRIVMSG #cards :!pingnotice");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, "NOTICE alice :hand of nick:alice", NULL), 0);
	/* bot mode from ISUPPORT BOT= was set */
	ircclient_send(&alice, "WHOIS HFTls");
	assert_int_equal(ircclient_wait(&alice, 5000, line, sizeof line, " 335 ", NULL), 0);
	ircclient_close(&alice);
	host_stop(&h);
}

static void
test_inspircd_tls_untrusted(void **state)
{
	struct ctx *c = *state;
	struct adapter_cfg cfg;
	struct host h;

	/* the same server without its CA: the certificate check must refuse it */
	base_cfg(&cfg, c, "HFNoCa");
	cfg.values[0] = "localhost";
	cfg.values[2] = "yes";
	assert_int_equal(host_start(&h, &cfg), 0);
	assert_false(run_until(&h, 3000, ups_at_least, 1));
	host_stop(&h);
}

int
main(void)
{
	const struct CMUnitTest ngircd[] = {
		cmocka_unit_test(test_ngircd_basics),
		cmocka_unit_test(test_ngircd_restart),
		cmocka_unit_test(test_ngircd_rename_survives_reconnect),
		cmocka_unit_test(test_ngircd_flood),
	};

	const struct CMUnitTest inspircd[] = {
		cmocka_unit_test(test_inspircd_tls),
		cmocka_unit_test(test_inspircd_tls_untrusted),
	};
	int rc = cmocka_run_group_tests_name("irc adapter vs ngircd", ngircd, setup_ngircd, teardown_server);

	return rc + cmocka_run_group_tests_name("irc adapter vs InspIRCd over TLS", inspircd, setup_inspircd,
	                                        teardown_server);
}
