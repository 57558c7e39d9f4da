/* main.c: the handfoot daemon: options, configuration, the loop, signals, a clean stop. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "adapters.h"
#include "bot.h"
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

/* The console's embedded configuration, from the command line. */
static struct bot_config *
console_config(const char *db, const char *rules, int players, int delay, const char *level, const char *web,
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

int
main(int argc, char **argv)
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
	const char *conf = "/etc/handfoot/handfoot.conf", *rules = "classic", *db = "./var/handfoot.db";
	const char *level = "normal", *web = "";
	bool console = false, check = false, seeded = false;
	int players = 0, delay = 200, opt;
	struct fixed_seed seed = { 0 };
	struct bot_config *cfg;
	struct sigaction sa;
	struct loop *l;
	struct bot *b;
	struct service *svc;
	const struct adapter_ops *const *table;
	size_t ntable;
	char err[8192], bad[16384];

	/* before any secret is read: no core dump (systemd-coredump keeps one
	 * outside the sandbox) and no ptrace by another process of the same
	 * user would ever show the token or a password */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	log_init();
	while ((opt = getopt_long(argc, argv, "c:th", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': conf = optarg; break;
		case 't': check = true; break;
		case 'C': console = true; break;
		case 'r': rules = optarg; break;
		case 'p': players = atoi(optarg); break;
		case 's': seed.next = strtoull(optarg, NULL, 0); seeded = true; break;
		case 'd': db = optarg; break;
		case 'D': delay = atoi(optarg); break;
		case 'L': level = optarg; break;
		case 'W': web = optarg; break;
		case 'V': printf("handfoot %s\n", BOT_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (console) {
		if (strcmp(db, "./var/handfoot.db") == 0)
			mkdir("./var", 0755);
		cfg = console_config(db, rules, players, delay, level, web, err, sizeof err);
	} else
		cfg = config_read(conf, err, sizeof err);
	if (cfg == NULL) {
		config_log_errors(LOG_LVL_ERR, "", err);
		return 1;
	}
	/* every error of the file, its adapter sections' too, in one run */
	snprintf(bad, sizeof bad, "%s", cfg->broken ? err : "");
	log_level = cfg->log_level;
	if ((l = loop_new()) == NULL) {
		config_free(cfg);
		log_msg(LOG_LVL_ERR, "cannot create the event loop");
		return 1;
	}
	/* The composition root: the one place that names the adapters. */
	table = adapters_table(&ntable);
	b = bot_new(l, cfg, table, ntable);
	if (bot_adapter_add_all(b, err, sizeof err) < 0)
		snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "%s%s", bad[0] ? "\n" : "", err);
	if (bad[0] != '\0') {
		if (check) {
			/* a person reads these: plain "FILE:LINE: ..." lines, and how many */
			int n = 1;

			for (const char *p = bad; (p = strchr(p, '\n')) != NULL; p++)
				n++;
			fprintf(stderr, "%s\n%s: %d error%s\n", bad, conf, n, n == 1 ? "" : "s");
		} else
			config_log_errors(LOG_LVL_ERR, "", bad);
		bot_free(b);
		loop_free(l);
		return 1;
	}
	if (b->nadapters == 0) {
		snprintf(err, sizeof err, "%s: no adapter configured: nobody can reach the bot (add an [irc NAME], "
		         "[matrix NAME] or [console] section)", console ? "console" : conf);
		if (check)
			fprintf(stderr, "warning: %s\n", err);
		else
			log_msg(LOG_LVL_WARNING, "%s", err);
	}
	if (check) {
		printf("%s: configuration ok (%zu adapter%s)\n", console ? "console" : conf, b->nadapters,
		       b->nadapters == 1 ? "" : "s");
		bot_free(b);
		loop_free(l);
		return 0;
	}
	if (seeded) {
		b->seed_fn = fixed_seed;
		b->seed_ctx = &seed;
	}
	if (bot_open_store(b, err, sizeof err) < 0) {
		log_msg(LOG_LVL_ERR, "%s", err);
		bot_free(b);
		loop_free(l);
		return 1;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	signal_loop = l;
	loop_on_wake(l, on_wake, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	/* The daemon never runs a program: from here on it cannot (noexec.c).
	 * Not under AddressSanitizer, whose reports run a symbolizer. */
#ifndef __SANITIZE_ADDRESS__
	if (noexec_lock(err, sizeof err) < 0)
		log_msg(LOG_LVL_WARNING, "cannot deny itself execve (%s): the unit's sandbox is all there is", err);
#endif
	/* systemd: watchdog from now on, SIGHUP reloads (not for --console). */
	svc = console ? NULL : service_new(b, conf);
	if (bot_adapter_start_all(b) < 0 && console) {
		bot_free(b);
		loop_free(l);
		return 1;
	}
	service_ready(svc);
	log_msg(LOG_LVL_INFO, "handfoot %s running", BOT_VERSION);
	loop_run(l);
	service_stopping(svc);
	/* what players were told goes out first (a second signal: at once) */
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
	bot_free(b);
	signal_loop = NULL;
	loop_free(l);
	return 0;
}
