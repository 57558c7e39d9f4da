/* main.c: the handfoot daemon: options, configuration, the loop, signals, a clean stop. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapters.h"
#include "bot.h"
#include "loop.h"
#include "service.h"

/* Signal flags and the loop to wake: the only state a handler may touch. */
static volatile sig_atomic_t stop_signal;
static struct loop *signal_loop;

static void
on_signal(int sig)
{
	stop_signal = sig;
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
	        "       handfoot --console [--rules \"PRESET [key=value ...]\"] [--players N] [--seed N]\n"
	        "                [--db PATH] [--ai-delay MS] [--level easy|normal|hard]\n"
	        "       handfoot --version\n"
	        "  -c FILE     configuration (default /etc/handfoot/handfoot.conf)\n"
	        "  -t          check the configuration (each adapter's too) and exit\n"
	        "  --console   play in this terminal against computer players (no configuration needed)\n");
}

/* The console's embedded configuration, from the command line. */
static struct bot_config *
console_config(const char *db, const char *rules, int players, int delay, const char *level, char *err,
               size_t errlen)
{
	char text[1024];

	if (strpbrk(rules, "\n;#[]") != NULL || strpbrk(db, "\n;") != NULL) {
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
	         "start = play %d %s\n",
	         db, rules, level, delay, players, rules);
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
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conf = "/etc/handfoot/handfoot.conf", *rules = "classic", *db = "./var/handfoot.db";
	const char *level = "normal";
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
	char err[1024];

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
		cfg = console_config(db, rules, players, delay, level, err, sizeof err);
	} else
		cfg = config_load(conf, err, sizeof err);
	if (cfg == NULL) {
		log_msg(LOG_LVL_ERR, "%s", err);
		return 1;
	}
	log_level = cfg->log_level;
	if ((l = loop_new()) == NULL) {
		config_free(cfg);
		log_msg(LOG_LVL_ERR, "cannot create the event loop");
		return 1;
	}
	/* The composition root: the one place that names the adapters. */
	table = adapters_table(&ntable);
	b = bot_new(l, cfg, table, ntable);
	if (bot_adapter_add_all(b, err, sizeof err) < 0) {
		log_msg(LOG_LVL_ERR, "%s", err);
		bot_free(b);
		loop_free(l);
		return 1;
	}
	if (check) {
		printf("%s: configuration ok (%zu adapter%s)\n", console ? "console" : conf, b->nadapters,
		       b->nadapters == 1 ? "" : "s");
		bot_free(b);
		loop_free(l);
		return 0;
	}
	if (b->nadapters == 0)
		log_msg(LOG_LVL_WARNING, "no adapter configured: nobody can reach the bot");
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
	log_msg(LOG_LVL_INFO, "stopping%s", stop_signal ? " on a signal" : "");
	service_stopping(svc);
	bot_adapter_stop_all(b, "handfoot is stopping; every game is saved.");
	service_free(svc);
	bot_free(b);
	signal_loop = NULL;
	loop_free(l);
	return 0;
}
