/* main.c: the handfoot daemon: options, configuration, the loop, signals, a clean stop. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "adapter.h"
#include "daemon.h"
#include "loop.h"
#include "service.h"

/* On SIGTERM what is queued still goes out, this long at most: well inside
 * the unit's TimeoutStopSec (30 s), and a computer's move and "your turn"
 * fit in it at the IRC default pace. */
#define STOP_DRAIN_MS 5000

/* Signal flags and the loop to wake: the only state a handler may touch. */
static volatile sig_atomic_t stop_signal, stop_count;
static struct loop *signal_loop;

static void
on_signal(int sig)
{
	stop_signal = sig;
	stop_count++;
	if (signal_loop != NULL)
		loop_wake(signal_loop);
}

static void
on_wake(struct loop *l, void *data)
{
	(void)data;
	if (stop_signal != 0)
		loop_stop(l);
}

struct fixed_seed {
	uint64_t next;
};

/* --seed N: the first game gets N, the next N+1...: a session replays. */
static uint64_t
fixed_seed(void *ctx)
{
	struct fixed_seed *f = ctx;

	return f->next++;
}

static void
usage(FILE *f)
{
	fprintf(f,
	        "usage: handfoot [-c FILE] [-t]\n"
	        "       handfoot --console [--rules \"PRESET [key=value ...]\"] [--players N] [--seed N] [--web ADDR:PORT]\n"
	        "                [--db PATH] [--ai-delay MS] [--level easy|normal|hard]\n"
	        "       handfoot --version\n"
	        "  -c FILE     configuration (default /etc/handfoot/handfoot.conf)\n"
	        "  -t          check the configuration (each adapter's too) and exit\n"
	        "  --console   play in this terminal against computer players (no configuration needed)\n");
}

/* The configuration --console embeds, from the command line. */
static struct bot_config *
embedded_config(const char *db, const char *rules, int players, int delay, const char *level, const char *web,
                char *err, size_t errlen)
{
	char text[1024];

	if (strpbrk(rules, "\n;#[]") != NULL || strpbrk(db, "\n;") != NULL || strpbrk(web, "\n;#[]") != NULL) {
		snprintf(err, errlen, "--rules and --db take plain text");
		return NULL;
	}
	snprintf(text, sizeof text,
	         "[bot]\n"
	         "prefix = !\n"
	         "database = %s\n"
	         "rules = %s\n"
	         "ai_level = %s\n"
	         "turn_reminder = 0\n"
	         "turn_timeout = 0\n"
	         "table_expiry = 0\n"
	         "ai_delay = %d\n"
	         "flood_burst = 1000\n"
	         "flood_refill = 1\n"
	         "log_level = notice\n"
	         "[console]\n"
	         "prefix =\n"
	         "start = play %d %s\n"
	         "%s%s%s",
	         db, rules, level, delay, players, rules,
	         /* --web: the table on a page too, its link on the deal's line */
	         web[0] ? "[web console]\nlisten = " : "", web, web[0] ? "\n" : "");
	return config_load_string(text, "(console defaults)", err, errlen);
}

/* What the command line asks for. */
struct options {
	const char *conf, *rules, *db, *level, *web;
	bool console, check, seeded;
	int players, delay;
	struct fixed_seed seed;
};

/* Where the configuration came from, for messages: the file, or --console. */
static const char *
config_origin(const struct options *o)
{
	return o->console ? "--console" : o->conf;
}

/* The options into o; -1 to go on, else the exit status (--help, --version, a bad option). */
static int
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "console", no_argument, NULL, 'C' },
		{ "rules", required_argument, NULL, 'r' },
		{ "players", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'd' },
		{ "ai-delay", required_argument, NULL, 'D' },
		{ "level", required_argument, NULL, 'L' },
		{ "web", required_argument, NULL, 'W' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	*o = (struct options){ .conf = "/etc/handfoot/handfoot.conf", .rules = "classic", .db = "./var/handfoot.db",
	                       .level = "normal", .web = "", .delay = 200 };
	while ((opt = getopt_long(argc, argv, "c:th", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': o->conf = optarg; break;
		case 't': o->check = true; break;
		case 'C': o->console = true; break;
		case 'r': o->rules = optarg; break;
		case 'p': o->players = atoi(optarg); break;
		case 's': o->seed.next = strtoull(optarg, NULL, 0); o->seeded = true; break;
		case 'd': o->db = optarg; break;
		case 'D': o->delay = atoi(optarg); break;
		case 'L': o->level = optarg; break;
		case 'W': o->web = optarg; break;
		case 'V': printf("handfoot %s\n", BOT_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The configuration the options name (the file, or the console's own); NULL
 * when unreadable (logged). A file read with errors is returned, those
 * errors in bad. */
static struct bot_config *
load_config(const struct options *o, char *bad, size_t badlen)
{
	struct bot_config *cfg;
	char err[8192];

	if (o->console) {
		if (strcmp(o->db, "./var/handfoot.db") == 0)
			mkdir("./var", 0755);
		cfg = embedded_config(o->db, o->rules, o->players, o->delay, o->level, o->web, err, sizeof err);
	} else
		cfg = config_read(o->conf, err, sizeof err);
	if (cfg == NULL) {
		config_log_errors(LOG_LVL_ERR, "", err);
		return NULL;
	}
	/* every error of the file, its adapter sections' too, in one run */
	snprintf(bad, badlen, "%s", cfg->broken ? err : "");
	return cfg;
}

/* The bot and its adapters on loop l, or NULL once every error is told
 * (the bot is then freed). */
static struct bot *
build_bot(const struct options *o, struct loop *l, struct bot_config *cfg, char *bad, size_t badlen)
{
	const struct adapter_ops *const *table;
	size_t ntable;
	struct bot *b;
	char err[8192];

	/* Every adapter compiled in, as the adapter API hands them: ops, never names. */
	table = adapters_table(&ntable);
	b = bot_new(l, cfg, table, ntable);
	if (bot_adapter_add_all(b, err, sizeof err) < 0)
		snprintf(bad + strlen(bad), badlen - strlen(bad), "%s%s", bad[0] ? "\n" : "", err);
	if (bad[0] != '\0') {
		if (o->check) {
			/* a person reads these: plain "FILE:LINE: ..." lines, and how many */
			int n = 1;

			for (const char *p = bad; (p = strchr(p, '\n')) != NULL; p++)
				n++;
			fprintf(stderr, "%s\n%s: %d error%s\n", bad, o->conf, n, n == 1 ? "" : "s");
		} else
			config_log_errors(LOG_LVL_ERR, "", bad);
		bot_free(b);
		return NULL;
	}
	if (b->nadapters == 0) {
		snprintf(err, sizeof err, "%s: no adapter configured: nobody can reach the bot (add an [irc NAME], "
		         "[matrix NAME] or [console] section)", config_origin(o));
		if (o->check)
			fprintf(stderr, "warning: %s\n", err);
		else
			log_msg(LOG_LVL_WARNING, "%s", err);
	}
	return b;
}

/* SIGTERM and SIGINT stop loop l; SIGPIPE is ignored. */
static void
catch_signals(struct loop *l)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_loop = l;
	loop_on_wake(l, on_wake, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Open the store, start the adapters and run until a signal; the exit status. */
static int
run(const struct options *o, struct bot *b, struct loop *l, struct service **svc)
{
	char err[8192];

	if (bot_open_store(b, err, sizeof err) < 0) {
		log_msg(LOG_LVL_ERR, "%s", err);
		return 1;
	}
	catch_signals(l);
	/* The daemon never runs a program: from here on it cannot (noexec.c).
	 * Not under AddressSanitizer, whose reports run a symbolizer. */
#ifndef __SANITIZE_ADDRESS__
	if (noexec_lock(err, sizeof err) < 0)
		log_msg(LOG_LVL_WARNING, "cannot deny itself execve (%s): the unit's sandbox is all there is", err);
#endif
	/* systemd: watchdog from now on, SIGHUP reloads (not for --console). */
	*svc = o->console ? NULL : service_new(b, o->conf);
	if (bot_adapter_start_all(b) < 0 && o->console)
		return 1;
	service_ready(*svc);
	log_msg(LOG_LVL_INFO, "handfoot %s running", BOT_VERSION);
	loop_run(l);
	return 0;
}

/* After the loop: what players were told goes out first (a second signal:
 * at once), then the adapters say goodbye. */
static void
shut_down(struct bot *b, struct loop *l, struct service *svc)
{
	service_stopping(svc);
	bot_stop_begin(b);
	if (bot_draining(b)) {
		int64_t until = loop_now(l) + STOP_DRAIN_MS;

		log_msg(LOG_LVL_INFO, "stopping%s: sending what is queued (%d s at most)", stop_signal ? " on a signal" : "",
		        STOP_DRAIN_MS / 1000);
		while (bot_draining(b) && loop_now(l) < until && stop_count < 2)
			loop_run_once(l, 100);
		if (bot_draining(b))
			log_msg(LOG_LVL_WARNING, "stopping with lines unsent: the next start tells each table where it stands");
	} else {
		log_msg(LOG_LVL_INFO, "stopping%s", stop_signal ? " on a signal" : "");
	}
	bot_adapter_stop_all(b, "handfoot is stopping; every game is saved.");
	service_free(svc);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct bot_config *cfg;
	struct loop *l;
	struct bot *b;
	struct service *svc = NULL;
	char bad[16384];
	int status;

	/* before any secret is read: no core dump (systemd-coredump keeps one
	 * outside the sandbox) and no ptrace by another process of the same
	 * user would ever show the token or a password */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	log_init();
	if ((status = parse_options(argc, argv, &o)) >= 0)
		return status;
	if ((cfg = load_config(&o, bad, sizeof bad)) == NULL)
		return 1;
	log_level = cfg->log_level;
	if ((l = loop_new()) == NULL) {
		config_free(cfg);
		log_msg(LOG_LVL_ERR, "cannot create the event loop");
		return 1;
	}
	if ((b = build_bot(&o, l, cfg, bad, sizeof bad)) == NULL) {
		loop_free(l);
		return 1;
	}
	if (o.check) {
		printf("%s: configuration ok (%zu adapter%s)\n", config_origin(&o), b->nadapters,
		       b->nadapters == 1 ? "" : "s");
		bot_free(b);
		loop_free(l);
		return 0;
	}
	if (o.seeded) {
		b->seed_fn = fixed_seed;
		b->seed_ctx = &o.seed;
	}
	if ((status = run(&o, b, l, &svc)) == 0)
		shut_down(b, l, svc);
	bot_free(b);
	signal_loop = NULL;
	loop_free(l);
	return status;
}
